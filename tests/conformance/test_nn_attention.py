"""``F.scaled_dot_product_attention`` against real PyTorch: values and gradients with
boolean, float and causal masks, a custom scale, fully masked rows, dropout under the same
seed, second derivatives, and the errors for bad inputs."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import leaf, upstream, values

Q, K, V = (2, 3, 4), (2, 5, 4), (2, 5, 6)


def qkv(torch, q=Q, k=K, v=V):
    return (leaf(torch, values(q, seed=1)), leaf(torch, values(k, seed=2)),
            leaf(torch, values(v, seed=3)))


def attention_and_grads(torch, q, k, v, **kwargs):
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs)
    (out * upstream(torch, out)).sum().backward()
    return out, q.grad, k.grad, v.grad


BOOL_MASK = np.array([[1, 1, 0, 0, 1], [0, 0, 0, 0, 0], [1, 0, 1, 0, 1]], dtype=bool)
FLOAT_MASK = values((3, 5), seed=4)
FLOAT_MASK[1] = -np.inf

CASES = {
    "plain": (Q, K, V, {}),
    "scale": (Q, K, V, {"scale": 0.3}),
    "bool_mask_with_a_fully_masked_row": (Q, K, V, {"attn_mask": BOOL_MASK}),
    "float_mask_with_a_fully_masked_row": (Q, K, V, {"attn_mask": FLOAT_MASK}),
    "causal_square": ((2, 4, 3), (2, 4, 3), (2, 4, 2), {"is_causal": True}),
    "causal_more_keys": (Q, K, V, {"is_causal": True}),
    "heads": ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6), {"attn_mask": BOOL_MASK}),
    "two_dims": ((3, 4), (5, 4), (5, 6), {}),
    "grouped_query_heads": ((2, 4, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6), {"enable_gqa": True}),
    "grouped_query_heads_mixed": ((2, 4, 3, 4), (2, 2, 5, 4), (2, 4, 5, 6), {"enable_gqa": True}),
}


@pytest.mark.parametrize("q, k, v, kwargs", CASES.values(), ids=CASES.keys())
def test_attention_values_and_gradients(q, k, v, kwargs):
    def scenario(torch):
        args = {key: torch.tensor(val) if isinstance(val, np.ndarray) else val
                for key, val in kwargs.items()}
        return attention_and_grads(torch, *qkv(torch, q, k, v), **args)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


def test_attention_dropout_draws_as_pytorch_does():
    def scenario(torch):
        torch.manual_seed(0)
        return attention_and_grads(torch, *qkv(torch), dropout_p=0.4)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


def test_attention_second_derivatives():
    def scenario(torch):
        q, k, v = qkv(torch)
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        grads = torch.autograd.grad((out * upstream(torch, out)).sum(), (q, k, v),
                                    create_graph=True)
        total = sum((g * g).sum() for g in grads)
        return torch.autograd.grad(total, (q, k, v))

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


BAD = {
    "mask_and_causal": (Q, K, V, {"attn_mask": np.ones((3, 5), bool), "is_causal": True}),
    "one_dim_query": ((4,), K, V, {}),
    "dtypes_differ": (Q, K, V, {"value_dtype": "float64"}),
    "dropout_above_one": (Q, K, V, {"dropout_p": 1.5}),
    "dropout_below_zero": (Q, K, V, {"dropout_p": -0.1}),
    "gqa_heads_do_not_divide": ((2, 4, 3, 4), (2, 3, 5, 4), (2, 3, 5, 6), {"enable_gqa": True}),
    "gqa_two_dim_key": ((2, 4, 3, 4), (5, 4), (5, 6), {"enable_gqa": True}),
    "long_mask": (Q, K, V, {"attn_mask": np.zeros((3, 5), np.int64)}),
    "mask_shape": (Q, K, V, {"attn_mask": np.zeros((4, 5), np.float32)}),
}


@pytest.mark.parametrize("q, k, v, kwargs", BAD.values(), ids=BAD.keys())
def test_attention_bad_inputs(q, k, v, kwargs):
    def scenario(torch):
        query, key, value = qkv(torch, q, k, v)
        args = dict(kwargs)
        if args.pop("value_dtype", None):
            value = value.double()
        args = {name: torch.tensor(val) if isinstance(val, np.ndarray) else val
                for name, val in args.items()}
        return torch.nn.functional.scaled_dot_product_attention(query, key, value, **args)

    assert_same_outcome(scenario)


# -- nn.MultiheadAttention -------------------------------------------------------------------

def mha(torch, **kwargs):
    """An ``nn.MultiheadAttention(8, 2)`` initialised by the generator from seed 0."""
    torch.manual_seed(0)
    return torch.nn.MultiheadAttention(8, 2, **kwargs)


def test_multihead_attention_init_repr_and_state_dict():
    def scenario(torch):
        layer = mha(torch)
        no_bias = mha(torch, bias=False)
        other_widths = mha(torch, kdim=6, vdim=5, dtype=torch.float64)
        return (repr(layer), layer.state_dict(), other_widths.state_dict(),
                [n for n, _ in other_widths.named_parameters()], other_widths._qkv_same_embed_dim,
                [n for n, _ in layer.named_parameters()],
                repr(no_bias), list(no_bias.state_dict()), layer.head_dim, layer.batch_first,
                layer.in_proj_bias.requires_grad)

    assert_same_outcome(scenario, rtol=0, atol=0)


def sequences(torch, batch_first=False, batched=True):
    """Query ``(3, 2, 8)`` and key/value ``(5, 2, 8)``, or their batch-first or unbatched
    forms, all requiring grad."""
    q, k, v = (values(shape, seed=seed) for shape, seed in
               (((3, 2, 8), 5), ((5, 2, 8), 6), ((5, 2, 8), 7)))
    if not batched:
        q, k, v = q[:, 0], k[:, 0], v[:, 0]
    elif batch_first:
        q, k, v = (x.transpose(1, 0, 2).copy() for x in (q, k, v))
    return leaf(torch, q), leaf(torch, k), leaf(torch, v)


def mha_and_grads(torch, layer, q, k, v, **kwargs):
    out, weights = layer(q, k, v, **kwargs)
    loss = (out * upstream(torch, out)).sum()
    if weights is not None:
        loss = loss + (weights * upstream(torch, weights)).sum()
    loss.backward()
    return (out, weights, q.grad, k.grad, v.grad,
            {name: p.grad for name, p in layer.named_parameters()})


KPM = np.array([[0, 0, 1, 0, 1], [0, 0, 0, 0, 0]], dtype=bool)
CAUSAL = np.triu(np.ones((3, 5), dtype=bool), k=1)
def test_multihead_attention_with_keys_and_values_of_other_widths():
    def scenario(torch):
        layer = mha(torch, kdim=6, vdim=5)
        q = leaf(torch, values((3, 2, 8), seed=5))
        k, v = leaf(torch, values((4, 2, 6), seed=6)), leaf(torch, values((4, 2, 5), seed=7))
        return mha_and_grads(torch, layer, q, k, v)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


MHA_CASES = {
    "plain": ({}, {}),
    "per_head_weights": ({}, {"average_attn_weights": False}),
    "no_weights": ({}, {"need_weights": False}),
    "bool_attn_mask": ({}, {"attn_mask": CAUSAL}),
    "float_attn_mask": ({}, {"attn_mask": values((3, 5), seed=8)}),
    "per_head_3d_mask": ({}, {"attn_mask": values((4, 3, 5), seed=9)}),
    "key_padding_mask": ({}, {"key_padding_mask": KPM}),
    "both_masks": ({}, {"key_padding_mask": KPM, "attn_mask": CAUSAL}),
    "mismatched_masks_warn": ({}, {"key_padding_mask": KPM, "attn_mask": values((3, 5), seed=8)}),
    "is_causal_hint": ({}, {"attn_mask": CAUSAL, "is_causal": True}),
    "batch_first": ({"batch_first": True}, {}),
    "no_bias": ({"bias": False}, {}),
    "unbatched": ({}, {"unbatched": True}),
    "is_causal_hint_without_weights_overrides_the_mask": (
        {}, {"attn_mask": values((3, 5), seed=8), "is_causal": True, "need_weights": False}),
    "is_causal_hint_with_padding_keeps_the_mask": (
        {}, {"attn_mask": values((3, 5), seed=8), "is_causal": True, "need_weights": False,
             "key_padding_mask": values((2, 5), seed=10)}),
}


@pytest.mark.parametrize("init_kwargs, kwargs", MHA_CASES.values(), ids=MHA_CASES.keys())
def test_multihead_attention_values_and_gradients(init_kwargs, kwargs):
    assert_same_outcome(lambda torch: run_case(torch, mha(torch, **init_kwargs), init_kwargs,
                                               kwargs), rtol=1e-4, atol=1e-5)


def run_case(torch, layer, init_kwargs, kwargs):
    """``layer`` on :func:`sequences` with ``kwargs`` (NumPy masks become tensors; the key
    ``unbatched`` drops the batch dimension), then backward."""
    args = dict(kwargs)
    batched = not args.pop("unbatched", False)
    q, k, v = sequences(torch, init_kwargs.get("batch_first", False), batched)
    args = {name: torch.tensor(val) if isinstance(val, np.ndarray) else val
            for name, val in args.items()}
    return mha_and_grads(torch, layer, q, k, v, **args)


def test_multihead_self_attention_in_training_with_dropout_and_in_eval():
    def scenario(torch):
        layer = mha(torch, dropout=0.3)
        x, _, _ = sequences(torch)
        torch.manual_seed(1)
        trained = mha_and_grads(torch, layer, x, x, x)
        layer.eval()
        with torch.no_grad():
            evaluated = layer(x, x, x)
        return trained, evaluated

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_forward_hook_captures_the_attention_maps():
    def scenario(torch):
        layer, seen = mha(torch), []
        layer.register_forward_hook(lambda module, args, output: seen.append(
            (len(args), type(output).__name__, output[1].detach())))
        x, _, _ = sequences(torch)
        out = layer(x, x, x, average_attn_weights=False)
        return seen, out[1]

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("need_weights", [True, False], ids=["weights", "no_weights"])
def test_multihead_attention_with_every_key_padded(need_weights):
    """PyTorch's explicit path gives NaN rows, its fused path (no weights) gives zeros."""
    def scenario(torch):
        padded = torch.ones(2, 5, dtype=torch.bool)
        return mha(torch)(*sequences(torch), key_padding_mask=padded, need_weights=need_weights)

    assert_same_outcome(scenario)


def test_multihead_attention_second_derivatives():
    def scenario(torch):
        layer, (q, k, v) = mha(torch), sequences(torch)
        out, weights = layer(q, k, v, attn_mask=torch.tensor(CAUSAL))
        inputs = (q, k, v, *layer.parameters())
        loss = (out * upstream(torch, out)).sum() + (weights * upstream(torch, weights)).sum()
        grads = torch.autograd.grad(loss, inputs, create_graph=True)
        return torch.autograd.grad(sum((g * g).sum() for g in grads), inputs)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


MHA_BAD = {
    "not_divisible": lambda torch: torch.nn.MultiheadAttention(8, 3),
    "zero_heads": lambda torch: torch.nn.MultiheadAttention(8, 0),
    "four_dim_query": lambda torch: mha(torch)(*[torch.ones(1, 3, 2, 8)] * 3),
    "key_dims": lambda torch: mha(torch)(torch.ones(3, 2, 8), torch.ones(5, 8), torch.ones(5, 8)),
    "padding_mask_dims": lambda torch: mha(torch)(*[torch.ones(3, 2, 8)] * 3,
                                                  key_padding_mask=torch.ones(3, dtype=torch.bool)),
    "attn_mask_dims": lambda torch: mha(torch)(*[torch.ones(3, 2, 8)] * 3,
                                               attn_mask=torch.ones(3)),
    "causal_without_mask": lambda torch: mha(torch)(*[torch.ones(3, 2, 8)] * 3, is_causal=True),
    "long_padding_mask": lambda torch: mha(torch)(
        *[torch.ones(3, 2, 8)] * 3, key_padding_mask=torch.ones(2, 3, dtype=torch.int64)),
    "long_attn_mask": lambda torch: mha(torch)(
        *[torch.ones(3, 2, 8)] * 3, attn_mask=torch.ones(3, 3, dtype=torch.int64)),
    "attn_mask_2d_shape": lambda torch: mha(torch)(*[torch.ones(3, 2, 8)] * 3,
                                                   attn_mask=torch.ones(4, 3)),
    "attn_mask_3d_shape": lambda torch: mha(torch)(*[torch.ones(3, 2, 8)] * 3,
                                                   attn_mask=torch.ones(2, 3, 3)),
    "embed_dim": lambda torch: mha(torch)(*[torch.ones(3, 2, 6)] * 3),
    "other_widths_lengths": lambda torch: mha(torch, kdim=6, vdim=5)(
        torch.ones(3, 2, 8), torch.ones(4, 2, 6), torch.ones(3, 2, 5)),
    "padding_mask_keys": lambda torch: mha(torch)(
        *[torch.ones(3, 2, 8)] * 3, key_padding_mask=torch.ones(2, 4, dtype=torch.bool)),
    "padding_mask_batch": lambda torch: mha(torch, add_zero_attn=True)(
        *[torch.ones(3, 2, 8)] * 3, key_padding_mask=torch.ones(3, 4, dtype=torch.bool)),
    "key_value_shapes": lambda torch: mha(torch)(torch.ones(3, 2, 8), torch.ones(4, 2, 8),
                                                 torch.ones(3, 2, 8)),
}


@pytest.mark.parametrize("call", MHA_BAD.values(), ids=MHA_BAD.keys())
def test_multihead_attention_bad_inputs(call):
    assert_same_outcome(call)


@pytest.mark.parametrize("need_weights", [True, False], ids=["weights", "no_weights"])
def test_full_backward_hook_on_multihead_attention(need_weights):
    def scenario(torch):
        layer, seen = mha(torch), []
        layer.register_full_backward_hook(lambda module, grad_input, grad_output: seen.append(
            (grad_input, grad_output)))
        q, k, v = sequences(torch)
        out, _ = layer(q, k, v, need_weights=need_weights)
        (out * upstream(torch, out)).sum().backward()
        return seen, q.grad

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_hooks_on_out_proj_do_not_fire_inside_multihead_attention():
    """PyTorch passes ``out_proj``'s weight and bias to the functional form; it never calls
    the submodule, so hooks registered on it stay silent."""
    def scenario(torch):
        layer, seen = mha(torch), []
        for name, module in layer.named_modules():
            module.register_forward_pre_hook(lambda m, args, name=name: seen.append(name))
        x, _, _ = sequences(torch)
        layer(x, x, x)
        return seen

    assert_same_outcome(scenario)


EXTRA_KEYS = {
    "bias_kv": ({"add_bias_kv": True}, {}),
    "zero_attn": ({"add_zero_attn": True}, {}),
    "both": ({"add_bias_kv": True, "add_zero_attn": True}, {}),
    "both_with_masks": ({"add_bias_kv": True, "add_zero_attn": True},
                        {"key_padding_mask": KPM, "attn_mask": CAUSAL}),
    "both_every_key_padded": ({"add_bias_kv": True, "add_zero_attn": True},
                              {"key_padding_mask": np.ones((2, 5), bool)}),
    "bias_kv_3d_mask_no_weights": ({"add_bias_kv": True},
                                   {"attn_mask": values((4, 3, 5), seed=9),
                                    "need_weights": False}),
    "zero_attn_unbatched": ({"add_zero_attn": True}, {"unbatched": True}),
    "bias_kv_batch_first": ({"add_bias_kv": True, "batch_first": True},
                            {"average_attn_weights": False}),
}


@pytest.mark.parametrize("init_kwargs, kwargs", EXTRA_KEYS.values(), ids=EXTRA_KEYS.keys())
def test_multihead_attention_extra_keys(init_kwargs, kwargs):
    """``add_bias_kv`` appends a learned key and value (drawn with ``xavier_normal_`` after
    the projections), ``add_zero_attn`` a zero one; masks get a visible column for each."""
    def scenario(torch):
        layer = mha(torch, **init_kwargs)
        return repr(layer), layer.state_dict(), run_case(torch, layer, init_kwargs, kwargs)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


INFERENCE = {
    "fused": ({}, "no_grad"),
    "fused_float_mask_is_refused": ({"float_mask": True}, "no_grad"),
    "fused_causal_hint_needs_no_mask": ({"is_causal": True}, "no_grad"),
    "training": ({}, "train"),
    "with_grad": ({}, "grad"),
    "fast_path_disabled": ({}, "disabled"),
    "not_self_attention": ({"cross": True}, "no_grad"),
    "odd_heads": ({"heads": 1}, "no_grad"),
}


@pytest.mark.parametrize("need_weights", [True, False], ids=["weights", "no_weights"])
@pytest.mark.parametrize("options, mode", INFERENCE.values(), ids=INFERENCE.keys())
def test_multihead_attention_inference_kernel(options, mode, need_weights):
    """In ``eval()`` mode, without gradients, batch-first self-attention with boolean masks
    runs PyTorch's fused kernel: a query with every key hidden gets NaN even without
    weights, and the ``is_causal`` hint is ignored rather than refused."""
    def scenario(torch):
        torch.manual_seed(0)
        layer = torch.nn.MultiheadAttention(8, options.get("heads", 2), batch_first=True)
        if mode != "train":
            layer.eval()
        x = leaf(torch, values((2, 5, 8), seed=5), requires_grad=mode == "grad")
        other = x + 0 if options.get("cross") else x
        padding = torch.tensor([[0, 0, 1, 0, 1], [1, 1, 1, 1, 1]], dtype=torch.bool)
        if options.get("float_mask"):
            padding = torch.zeros(2, 5).masked_fill(padding, float("-inf"))
        kwargs = {"is_causal": True} if options.get("is_causal") else {
            "key_padding_mask": padding}
        torch.backends.mha.set_fastpath_enabled(mode != "disabled")
        try:
            with torch.no_grad() if mode == "no_grad" else torch.enable_grad():
                return layer(x, other, other, need_weights=need_weights, **kwargs)
        finally:
            torch.backends.mha.set_fastpath_enabled(True)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)
