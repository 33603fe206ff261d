"""``nn.Transformer`` and its encoder and decoder layers against real PyTorch: init bits under
the same seed, repr and state dicts, values and gradients with every mask, train and eval,
the order forward hooks fire in over the submodules, PyTorch's fused inference path (which
calls no submodule), packed padding, and the errors and warnings for bad arguments."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import leaf, upstream, values

D, HEADS, FF = 8, 2, 16


def encoder_layer(torch, **kwargs):
    torch.manual_seed(0)
    return torch.nn.TransformerEncoderLayer(D, HEADS, FF, **kwargs)


def decoder_layer(torch, **kwargs):
    torch.manual_seed(0)
    return torch.nn.TransformerDecoderLayer(D, HEADS, FF, **kwargs)


def transformer(torch, **kwargs):
    torch.manual_seed(0)
    return torch.nn.Transformer(D, HEADS, 2, 2, FF, **kwargs)


def sequence(torch, length=4, seed=1, batch_first=False, batched=True):
    """A ``(length, 2, D)`` input (or batch-first, or unbatched) that requires grad."""
    x = values((length, 2, D), seed=seed)
    if not batched:
        x = x[:, 0]
    elif batch_first:
        x = x.transpose(1, 0, 2).copy()
    return leaf(torch, x)


def backward(torch, module, out, *inputs):
    (out * upstream(torch, out)).sum().backward()
    return (out, *(x.grad for x in inputs),
            {name: p.grad for name, p in module.named_parameters()})


def tensors(torch, kwargs):
    return {name: torch.tensor(val) if isinstance(val, np.ndarray) else val
            for name, val in kwargs.items()}


INIT = {
    "encoder_layer": lambda torch: encoder_layer(torch),
    "encoder_layer_options": lambda torch: encoder_layer(
        torch, dropout=0.2, activation="gelu", layer_norm_eps=1e-3, batch_first=True,
        norm_first=True, bias=False, dtype=torch.float64),
    "decoder_layer": lambda torch: decoder_layer(torch),
    "decoder_layer_no_bias": lambda torch: decoder_layer(torch, bias=False, norm_first=True),
    "encoder_stack": lambda torch: torch.nn.TransformerEncoder(
        encoder_layer(torch, batch_first=True), 3, torch.nn.LayerNorm(D)),
    "decoder_stack": lambda torch: torch.nn.TransformerDecoder(decoder_layer(torch), 2),
    "transformer": lambda torch: transformer(torch),
    "transformer_no_bias": lambda torch: transformer(torch, bias=False, batch_first=True),
}


@pytest.mark.parametrize("make", INIT.values(), ids=INIT.keys())
def test_init_repr_state_dict_and_attributes(make):
    """Same draws in the same order; the stacks deep-copy the layer, and ``Transformer``
    re-draws every matrix with ``xavier_uniform_`` afterwards."""
    def scenario(torch):
        module = make(torch)
        attributes = {name: getattr(module, name, None) for name in (
            "norm_first", "activation_relu_or_gelu", "num_layers", "enable_nested_tensor",
            "use_nested_tensor", "mask_check", "d_model", "nhead", "batch_first")}
        return (repr(module), module.state_dict(), [n for n, _ in module.named_modules()],
                attributes, module.training)

    assert_same_outcome(scenario, rtol=0, atol=0)


def test_activation_forms():
    def scenario(torch):
        functional = torch.nn.functional
        forms = ["relu", "gelu", functional.relu, functional.gelu, torch.nn.ReLU(),
                 torch.nn.GELU(), torch.tanh]
        layers = [torch.nn.TransformerEncoderLayer(D, HEADS, FF, activation=a) for a in forms]
        decoder = torch.nn.TransformerDecoderLayer(D, HEADS, FF, activation="gelu")
        return ([layer.activation_relu_or_gelu for layer in layers],
                [layer.activation is functional.gelu for layer in layers],
                decoder.activation is functional.gelu,
                [n for n, _ in layers[4].named_modules()])

    assert_same_outcome(scenario)


NESTED_WARNINGS = {
    "batch_first": lambda torch: torch.nn.TransformerEncoderLayer(D, HEADS, FF),
    "not_a_layer": lambda torch: torch.nn.Linear(D, D),
    "norm_first": lambda torch: torch.nn.TransformerEncoderLayer(D, HEADS, FF, batch_first=True,
                                                                 norm_first=True),
    "bias": lambda torch: torch.nn.TransformerEncoderLayer(D, HEADS, FF, batch_first=True,
                                                           bias=False),
    "activation": lambda torch: torch.nn.TransformerEncoderLayer(
        D, HEADS, FF, batch_first=True, activation=torch.tanh),
    "odd_heads": lambda torch: torch.nn.TransformerEncoderLayer(D, 1, FF, batch_first=True),
    "fine": lambda torch: torch.nn.TransformerEncoderLayer(D, HEADS, FF, batch_first=True),
}


@pytest.mark.parametrize("make", NESTED_WARNINGS.values(), ids=NESTED_WARNINGS.keys())
@pytest.mark.parametrize("enable", [True, False], ids=["nested", "not_nested"])
def test_enable_nested_tensor_warning(make, enable):
    def scenario(torch):
        encoder = torch.nn.TransformerEncoder(make(torch), 2, enable_nested_tensor=enable)
        return encoder.use_nested_tensor, encoder.enable_nested_tensor, len(encoder.layers)

    assert_same_outcome(scenario)


CAUSAL = np.triu(np.ones((4, 4), dtype=bool), k=1)
KPM = np.array([[0, 0, 0, 1], [0, 1, 0, 0]], dtype=bool)

ENCODER_CASES = {
    "plain": ({}, {}),
    "norm_first": ({"norm_first": True}, {}),
    "gelu_no_bias": ({"activation": "gelu", "bias": False}, {}),
    "callable_activation": ({"activation": "tanh"}, {}),
    "batch_first": ({"batch_first": True}, {}),
    "unbatched": ({}, {"unbatched": True}),
    "bool_mask": ({}, {"src_mask": CAUSAL}),
    "float_mask": ({}, {"src_mask": values((4, 4), seed=3)}),
    "padding": ({}, {"src_key_padding_mask": KPM}),
    "both_masks": ({}, {"src_mask": CAUSAL, "src_key_padding_mask": KPM}),
    "mismatched_masks_warn": ({}, {"src_mask": values((4, 4), seed=3),
                                   "src_key_padding_mask": KPM}),
    "causal_hint": ({}, {"src_mask": CAUSAL, "is_causal": True}),
    "causal_hint_overrides_a_float_mask": ({}, {"src_mask": values((4, 4), seed=3),
                                                "is_causal": True}),
}


def run_layer(torch, layer, kwargs, batch_first=False):
    args = dict(kwargs)
    batched = not args.pop("unbatched", False)
    if args.pop("activation", None) == "tanh":
        layer.activation = torch.tanh
    x = sequence(torch, batch_first=batch_first, batched=batched)
    return backward(torch, layer, layer(x, **tensors(torch, args)), x)


@pytest.mark.parametrize("init_kwargs, kwargs", ENCODER_CASES.values(), ids=ENCODER_CASES.keys())
def test_encoder_layer_values_and_gradients(init_kwargs, kwargs):
    def scenario(torch):
        init = dict(init_kwargs)
        tanh = init.pop("activation", None) == "tanh"
        layer = encoder_layer(torch, dropout=0.0, **init)
        return run_layer(torch, layer, {**kwargs, **({"activation": "tanh"} if tanh else {})},
                         init.get("batch_first", False))

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("norm_first", [False, True], ids=["post_norm", "pre_norm"])
def test_layers_with_dropout_draw_as_pytorch_does(norm_first):
    def scenario(torch):
        enc, dec = encoder_layer(torch, norm_first=norm_first), decoder_layer(torch)
        x, memory = sequence(torch), sequence(torch, length=3, seed=2)
        torch.manual_seed(1)
        out = dec(enc(x), memory)
        trained = backward(torch, dec, out, x, memory)
        enc.eval(), dec.eval()
        return trained, dec(enc(x), memory), enc.training, dec.dropout.training

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


DECODER_CASES = {
    "plain": ({}, {}),
    "norm_first": ({"norm_first": True}, {}),
    "batch_first": ({"batch_first": True}, {}),
    "unbatched": ({}, {"unbatched": True}),
    "masks": ({}, {"tgt_mask": CAUSAL, "memory_mask": np.array([[0, 1, 0]] * 4, bool),
                   "tgt_key_padding_mask": KPM,
                   "memory_key_padding_mask": np.array([[0, 0, 1], [1, 0, 0]], bool)}),
    "causal_hints": ({}, {"tgt_mask": values((4, 4), seed=3), "tgt_is_causal": True}),
    "memory_causal_without_mask": ({}, {"memory_is_causal": True}),
}


@pytest.mark.parametrize("init_kwargs, kwargs", DECODER_CASES.values(), ids=DECODER_CASES.keys())
def test_decoder_layer_values_and_gradients(init_kwargs, kwargs):
    def scenario(torch):
        layer = decoder_layer(torch, dropout=0.0, **init_kwargs)
        args = dict(kwargs)
        batched = not args.pop("unbatched", False)
        batch_first = init_kwargs.get("batch_first", False)
        x = sequence(torch, batch_first=batch_first, batched=batched)
        memory = sequence(torch, 3, seed=2, batch_first=batch_first, batched=batched)
        return backward(torch, layer, layer(x, memory, **tensors(torch, args)), x, memory)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


TRANSFORMER_CASES = {
    "plain": {},
    "causal_target": {"tgt_mask": "causal"},
    "causal_target_detected_from_a_bool_mask": {"tgt_mask": CAUSAL},
    "source_padding": {"src_key_padding_mask": np.array([[0, 0, 1], [0, 0, 0]], bool),
                       "memory_key_padding_mask": np.array([[0, 0, 1], [0, 0, 0]], bool)},
    "causal_source_hint_without_mask": {"src_is_causal": True},
}


@pytest.mark.parametrize("kwargs", TRANSFORMER_CASES.values(), ids=TRANSFORMER_CASES.keys())
def test_transformer_values_and_gradients(kwargs):
    def scenario(torch):
        model = transformer(torch, dropout=0.0)
        src, tgt = sequence(torch, 3, seed=2), sequence(torch)
        args = tensors(torch, kwargs)
        if args.get("tgt_mask") == "causal":
            args["tgt_mask"] = model.generate_square_subsequent_mask(4)
        return backward(torch, model, model(src, tgt, **args), src, tgt)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_custom_encoder_and_decoder_are_kept_and_reinitialised():
    def scenario(torch):
        torch.manual_seed(0)
        encoder = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(D, HEADS, FF), 1)
        decoder = torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(D, HEADS, FF), 1)
        model = torch.nn.Transformer(D, HEADS, custom_encoder=encoder, custom_decoder=decoder)
        return model.encoder is encoder, model.decoder is decoder, model.state_dict()

    assert_same_outcome(scenario, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [None, "float64", "bool"])
def test_generate_square_subsequent_mask(dtype):
    def scenario(torch):
        kind = None if dtype is None else getattr(torch, dtype)
        return (torch.nn.Transformer.generate_square_subsequent_mask(4, dtype=kind),
                torch.nn.Transformer.generate_square_subsequent_mask(1))

    assert_same_outcome(scenario)


def record_forward_hooks(model, seen, kinds=("pre", "post")):
    for name, module in model.named_modules():
        if "pre" in kinds:
            module.register_forward_pre_hook(lambda m, a, name=name: seen.append(("pre", name)))
        if "post" in kinds:
            module.register_forward_hook(lambda m, a, o, name=name: seen.append(("post", name)))


@pytest.mark.parametrize("norm_first", [False, True], ids=["post_norm", "pre_norm"])
def test_forward_hooks_fire_in_pytorchs_order_over_every_submodule(norm_first):
    """``out_proj`` never fires: attention uses its parameters, not its ``__call__``."""
    def scenario(torch):
        model, seen = transformer(torch, norm_first=norm_first), []
        record_forward_hooks(model, seen)
        model(sequence(torch, 3, seed=2), sequence(torch))
        return seen

    assert_same_outcome(scenario)


FAST_PATH = {
    "eval_no_grad": ({"batch_first": True}, "no_grad"),
    "eval_params_frozen": ({"batch_first": True}, "frozen"),
    "eval_with_grad": ({"batch_first": True}, "grad"),
    "training": ({"batch_first": True}, "train"),
    "fast_path_disabled": ({"batch_first": True}, "disabled"),
    "sequence_first": ({}, "no_grad"),
    "odd_heads": ({"batch_first": True, "nhead": 1}, "no_grad"),
    "callable_activation": ({"batch_first": True, "activation": "tanh"}, "no_grad"),
    "activation_replaced_after_init": ({"batch_first": True, "activation": "swap"}, "no_grad"),
    "unbatched": ({"batch_first": True}, "unbatched"),
}


@pytest.mark.parametrize("init_kwargs, mode", FAST_PATH.values(), ids=FAST_PATH.keys())
def test_global_hooks_miss_the_submodules_on_the_fused_path(init_kwargs, mode):
    """In eval mode, with nothing to differentiate, PyTorch runs an encoder layer as one
    fused kernel: a global hook sees the layer but none of its submodules."""
    def scenario(torch):
        init = {"nhead": HEADS, **init_kwargs}
        torch.manual_seed(0)
        activation = init.pop("activation", "relu")
        layer = torch.nn.TransformerEncoderLayer(
            D, init.pop("nhead"), FF, activation=torch.tanh if activation == "tanh" else "relu",
            **init)
        if activation == "swap":  # the fused kernel still applies the ReLU it was built with
            layer.activation = torch.tanh
        if mode != "train":
            layer.eval()
        if mode == "frozen":
            layer.requires_grad_(False)
        x = sequence(torch, batch_first=True, batched=mode != "unbatched")
        if mode in ("frozen", "no_grad"):
            x = x.detach()
        seen = []
        handle = torch.nn.modules.module.register_module_forward_hook(
            lambda m, a, o: seen.append(type(m).__name__))
        torch.backends.mha.set_fastpath_enabled(mode != "disabled")
        try:
            with torch.no_grad() if mode == "no_grad" else torch.enable_grad():
                out = layer(x, src_key_padding_mask=torch.tensor(KPM) if x.dim() == 3 else None)
        finally:
            handle.remove()
            torch.backends.mha.set_fastpath_enabled(True)
        return seen, out, torch.backends.mha.get_fastpath_enabled()

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_a_hook_of_its_own_keeps_the_layer_off_the_fused_path():
    """Any forward hook or pre-hook on the layer or a submodule makes PyTorch run it step by
    step, so the hook fires; ``self_attn`` is called with ``need_weights=False``, and a
    pre-hook with kwargs can turn the weights back on."""
    def scenario(torch):
        layer, seen = encoder_layer(torch, batch_first=True).eval(), []
        x = sequence(torch, batch_first=True).detach()

        def ask_for_weights(module, args, kwargs):
            seen.append(sorted(kwargs.items()))
            return args, {**kwargs, "need_weights": True, "average_attn_weights": False}

        layer.self_attn.register_forward_hook(lambda m, a, o: seen.append(o[1]))
        with torch.no_grad():
            plain = layer(x)
            handle = layer.self_attn.register_forward_pre_hook(ask_for_weights,
                                                               with_kwargs=True)
            hooked = layer(x, src_mask=torch.tensor(CAUSAL))
            handle.remove()
        return seen, plain, hooked

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


PACKED = {
    "left_aligned": (np.array([[0, 0, 1, 1], [0, 0, 0, 0]], bool), {}),
    "not_left_aligned": (np.array([[0, 1, 0, 0], [0, 0, 0, 1]], bool), {}),
    "not_left_aligned_unchecked": (np.array([[0, 1, 0, 0], [0, 0, 0, 1]], bool),
                                   {"mask_check": False}),
    "nested_disabled": (np.array([[0, 0, 1, 1], [0, 0, 0, 0]], bool),
                        {"enable_nested_tensor": False}),
}


@pytest.mark.parametrize("padding, encoder_kwargs", PACKED.values(), ids=PACKED.keys())
def test_encoder_packs_a_padded_batch_in_inference(padding, encoder_kwargs):
    """PyTorch runs a left-aligned padded batch as a nested tensor, whose padded positions
    come back as zeros; the final norm then turns them into its bias. (PyTorch warns about
    nested tensors once per process, so warnings are not compared.)"""
    def scenario(torch):
        layer = encoder_layer(torch, batch_first=True)
        norm = torch.nn.LayerNorm(D)
        with torch.no_grad():
            norm.bias.copy_(torch.arange(D) / 10)
        bare = torch.nn.TransformerEncoder(layer, 2, **encoder_kwargs).eval()
        normed = torch.nn.TransformerEncoder(layer, 2, norm, **encoder_kwargs).eval()
        x, mask = sequence(torch, batch_first=True).detach(), torch.tensor(padding)
        with torch.no_grad():
            return bare(x, src_key_padding_mask=mask), normed(x, src_key_padding_mask=mask)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5, check_warnings=False)


def test_encoder_stack_with_a_causal_mask_and_norm():
    def scenario(torch):
        stack = torch.nn.TransformerEncoder(encoder_layer(torch, dropout=0.0), 2,
                                            torch.nn.LayerNorm(D), enable_nested_tensor=False)
        x = sequence(torch)
        mask = torch.nn.Transformer.generate_square_subsequent_mask(4)
        out = stack(x, mask=mask, src_key_padding_mask=torch.tensor(KPM))
        return backward(torch, stack, out, x)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


BAD = {
    "activation_name": lambda torch: torch.nn.TransformerEncoderLayer(D, HEADS, activation="x"),
    "decoder_activation_name": lambda torch: torch.nn.TransformerDecoderLayer(
        D, HEADS, activation="tanh"),
    "heads_do_not_divide": lambda torch: torch.nn.TransformerEncoderLayer(D, 3),
    "batch_sizes": lambda torch: transformer(torch)(torch.ones(3, 2, D), torch.ones(4, 3, D)),
    "batch_sizes_batch_first": lambda torch: transformer(torch, batch_first=True)(
        torch.ones(2, 3, D), torch.ones(3, 4, D)),
    "feature_size": lambda torch: transformer(torch)(torch.ones(3, 2, D), torch.ones(4, 2, 6)),
    "int_mask": lambda torch: transformer(torch)(torch.ones(3, 2, D), torch.ones(4, 2, D),
                                                 src_mask=torch.ones(3, 3, dtype=torch.int64)),
    "int_padding": lambda torch: encoder_layer(torch)(
        torch.ones(3, 2, D), src_key_padding_mask=torch.ones(2, 3, dtype=torch.int64)),
    "encoder_width": lambda torch: torch.nn.TransformerEncoder(encoder_layer(torch), 1)(
        torch.ones(3, 2, 6)),
    "four_dims": lambda torch: encoder_layer(torch)(torch.ones(1, 3, 2, D)),
    "causal_without_mask": lambda torch: torch.nn.TransformerEncoder(encoder_layer(torch), 1)(
        torch.ones(3, 2, D), is_causal=True),
    "decoder_memory_width": lambda torch: decoder_layer(torch)(torch.ones(3, 2, D),
                                                               torch.ones(4, 2, 6)),
    "mask_size": lambda torch: encoder_layer(torch)(torch.ones(3, 2, D),
                                                    src_mask=torch.zeros(4, 4)),
    "padding_size": lambda torch: encoder_layer(torch)(
        torch.ones(3, 2, D), src_key_padding_mask=torch.zeros(2, 4, dtype=torch.bool)),
}


@pytest.mark.parametrize("call", BAD.values(), ids=BAD.keys())
def test_bad_arguments(call):
    assert_same_outcome(call)


@pytest.mark.parametrize("hooked", [False, True], ids=["fused", "step_by_step"])
def test_a_sequence_with_every_position_padded(hooked):
    """The fused kernel gives NaN for a query that may look nowhere; the step-by-step
    path (here forced by a hook) calls attention without weights, which gives zeros."""
    def scenario(torch):
        layer = encoder_layer(torch, batch_first=True).eval()
        if hooked:
            layer.linear1.register_forward_hook(lambda m, a, o: None)
        padding = torch.tensor([[0, 0, 1, 1], [1, 1, 1, 1]], dtype=torch.bool)
        with torch.no_grad():
            return layer(sequence(torch, batch_first=True), src_key_padding_mask=padding)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_full_backward_hooks_on_every_submodule_fire_in_pytorchs_order():
    def scenario(torch):
        layer, seen = encoder_layer(torch, dropout=0.0), []
        for name, module in layer.named_modules():
            module.register_full_backward_hook(
                lambda m, grad_input, grad_output, name=name: seen.append(
                    (name, [None if g is None else tuple(g.shape) for g in grad_input],
                     grad_output[0])))
        x = sequence(torch)
        out = layer(x)
        (out * upstream(torch, out)).sum().backward()
        return seen, x.grad

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_a_saved_and_copied_transformer_runs_the_same():
    def scenario(torch):
        import copy
        import io

        model = transformer(torch, activation=torch.nn.GELU(), dropout=0.0)
        buffer = io.BytesIO()
        torch.save(model, buffer)
        buffer.seek(0)
        loaded = torch.load(buffer, weights_only=False)
        copied = copy.deepcopy(model)
        src, tgt = sequence(torch, 3, seed=2).detach(), sequence(torch).detach()
        return ([n for n, _ in loaded.named_modules()], model(src, tgt), loaded(src, tgt),
                copied(src, tgt), repr(copied))

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)
