"""Checks for exercise 17: attention maps from hooks.

Each check builds a small ``TransformerEncoder`` under a fixed seed and compares what the
learner's hooks captured with what ``MultiheadAttention`` returns when asked directly.
The checks run on minitorch_hooks and, when it is installed, on real PyTorch.
"""

from __future__ import annotations

import numpy as np

from ..checking import Checks, expect, expect_close, expect_raises

CHECKS = Checks(compare_with_pytorch=True)
NAMES = ["layers.0.self_attn", "layers.1.self_attn"]


def encoder(torch):
    """Two encoder layers of width 8 with 2 heads, in eval mode, and a batch of 2 x 5."""
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(8, nhead=2, dim_feedforward=16, dropout=0.0,
                                             batch_first=True)
    model = torch.nn.TransformerEncoder(layer, num_layers=2).eval()
    return model, torch.randn(2, 5, 8)


def direct_maps(torch, model, x):
    """Each layer's per-head weights, asked for directly, on that layer's input."""
    maps = []
    with torch.no_grad():
        for layer in model.layers:
            maps.append(layer.self_attn(x, x, x, need_weights=True,
                                        average_attn_weights=False)[1])
            x = layer(x)
    return maps


@CHECKS(step=1, title="capture_attention keeps each layer's per-head weights by name",
        nudge="MultiheadAttention returns weights only when asked, and averages the heads unless "
              "told not to; a pre-hook can change its keyword arguments",
        pointer="capture_attention; MultiheadAttention.forward's need_weights and "
                "average_attn_weights "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.MultiheadAttention.html)",
        solution="for name, module in model.named_modules(): if isinstance(module, "
                 "torch.nn.MultiheadAttention): register a pre-hook with with_kwargs=True that "
                 "returns args, {**kwargs, 'need_weights': True, 'average_attn_weights': False}, "
                 "and a forward hook that stores output[1].detach() in maps[name]")
def captures_per_head_maps(ex, torch):
    model, x = encoder(torch)
    with torch.no_grad():
        plain = model(x)
    maps, handles = ex.capture_attention(model)
    expect(maps == {}, "the dictionary should be empty until the model runs")
    expect(len(handles) == 4, f"{len(handles)} handles returned; expected 4: a pre-hook "
                              "and a forward hook on each of the 2 attention modules")
    with torch.no_grad():
        hooked = model(x)
    expect(list(maps) == NAMES, f"captured {list(maps)}; expected {NAMES}, the names "
                                "named_modules() gives, in the order the layers ran")
    for name, weights, expected in zip(NAMES, maps.values(), direct_maps(torch, model, x)):
        expect(tuple(weights.shape) == (2, 2, 5, 5),
               f"{name}: shape {tuple(weights.shape)}; expected (batch, heads, L, L) = "
               "(2, 2, 5, 5): did you set average_attn_weights=False?")
        expect(not weights.requires_grad, f"{name}: keep the weights detached")
        expect_close(weights, expected, f"{name} weights")
    expect_close(hooked, plain, "the model's output with the hooks on")
    for handle in handles:
        handle.remove()


@CHECKS(step=1, title="the hooks also catch a bare MultiheadAttention, even in training",
        nudge="the model itself can be the attention module; which walk over modules includes the "
              "model?",
        pointer="capture_attention; Module.named_modules; the course's how-to 'Attention maps'",
        solution="register the hooks on every nn.MultiheadAttention that named_modules() "
                 "yields, the model itself included (its name is '')")
def catches_a_bare_module(ex, torch):
    torch.manual_seed(1)
    attention = torch.nn.MultiheadAttention(8, 4)
    x = torch.randn(3, 1, 8, requires_grad=True)
    maps, handles = ex.capture_attention(attention)
    output, weights = attention(x, x, x)
    expect(list(maps) == [""], f"captured {list(maps)}; expected [''], the module's own name")
    expect(tuple(weights.shape) == (1, 4, 3, 3),
           "the caller gets the per-head weights too: the pre-hook changed the call")
    expect_close(maps[""], weights, "the stored weights")
    output.sum().backward()
    expect(x.grad is not None, "backward through the hooked module gave no gradient")
    for handle in handles:
        handle.remove()


def reference_rollout(maps):
    rollout = None
    for weights in maps:
        layer = np.asarray(weights.numpy(), dtype=np.float64).mean(axis=1)
        layer = layer + np.eye(layer.shape[-1])
        layer = layer / layer.sum(axis=-1, keepdims=True)
        rollout = layer if rollout is None else layer @ rollout
    return rollout


@CHECKS(step=2, title="attention_rollout averages heads, adds the residual and multiplies",
        nudge="per layer: average the heads, add the identity for the residual, renormalise the "
              "rows, then chain the layers by matrix products",
        pointer="attention_rollout; the course's how-to 'Attention maps'",
        solution="for weights in maps.values(): a = weights.mean(dim=1) + torch.eye(L); "
                 "a = a / a.sum(dim=-1, keepdim=True); rollout = a if rollout is None else "
                 "a @ rollout")
def rollout_matches(ex, torch):
    model, x = encoder(torch)
    maps = dict(zip(NAMES, direct_maps(torch, model, x)))
    rollout = ex.attention_rollout(maps)
    expect(tuple(rollout.shape) == (2, 5, 5),
           f"rollout shape {tuple(rollout.shape)}; expected (batch, L, L) = (2, 5, 5)")
    expect_close(rollout, reference_rollout(maps.values()).astype(np.float32), "the rollout")
    one_layer = ex.attention_rollout({NAMES[0]: maps[NAMES[0]]})
    expect_close(one_layer, reference_rollout([maps[NAMES[0]]]).astype(np.float32),
                 "the rollout of a single layer")


def captures_again(torch, model, x, maps):
    """Whether running the model puts anything into the (cleared) dictionary."""
    maps.clear()
    with torch.no_grad():
        model(x)
    return bool(maps)


@CHECKS(step=3, title="attention_maps captures inside the block and cleans up after it",
        nudge="inside the block the maps fill; after it, by an error too, every hook is removed",
        pointer="attention_maps; contextlib.contextmanager and try/finally",
        solution="@contextlib.contextmanager; maps, handles = capture_attention(model); "
                 "try: yield maps; finally: remove every handle")
def context_manager_cleans_up(ex, torch):
    model, x = encoder(torch)
    with ex.attention_maps(model) as maps, torch.no_grad():
        model(x)
    expect(list(maps) == NAMES, f"captured {list(maps)} inside the block; expected {NAMES}")
    expect(not captures_again(torch, model, x, maps),
           "the hooks still capture after the with block: remove the handles")

    def fails_inside():
        with ex.attention_maps(model) as inside:
            failing.append(inside)
            raise KeyError("inside the block")
    failing = []
    expect_raises(KeyError, fails_inside, "the error raised inside the block was swallowed")
    expect(not captures_again(torch, model, x, failing[0]),
           "the hooks stay when the block raises: remove them in a finally clause")
