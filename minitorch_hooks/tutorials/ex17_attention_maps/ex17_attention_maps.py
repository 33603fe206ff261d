# %% [markdown]
# # Exercise 17: Attention maps from hooks
#
# `nn.MultiheadAttention` returns `(output, weights)`, but the transformer layers call it
# with `need_weights=False`. A forward pre-hook registered with `with_kwargs=True` sees
# that keyword argument and can turn the weights back on; a forward hook then keeps them.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 17`.

# %%
from __future__ import annotations

import contextlib
from collections.abc import Iterator

import minitorch_hooks as torch

# %% [markdown]
# ## Step 1: `capture_attention(model)`
#
# On every `nn.MultiheadAttention` inside `model` (use `named_modules()`), register:
#
# * a forward pre-hook with `with_kwargs=True` that returns `(args, kwargs)` with
#   `need_weights=True` and `average_attn_weights=False` set in the keyword arguments,
#   so the module computes one map per head;
# * a forward hook that stores the weights, `output[1]`, detached, in a dictionary under
#   the module's name.
#
# Return the dictionary (empty until the model runs) and the list of handles.
#
# ## Step 2: `attention_rollout(maps)`
#
# How much does each output position draw on each *input* position, through all the
# layers? "Attention rollout" estimates it: for each layer (in the dictionary's order)
# average the heads, add the identity matrix for the residual connection around the
# attention, divide each row by its sum, and multiply the layers' matrices, the last
# layer on the left: `rollout = A_last @ ... @ A_first`. Maps have the shape
# `(batch, heads, L, L)`; return a `(batch, L, L)` tensor.
#
# ## Step 3: `attention_maps(model)`
#
# A context manager: `with attention_maps(model) as maps:` registers the hooks of step 1
# and yields the dictionary; on the way out, even when the block raised, it removes every
# handle, so the model runs as before.

# %%
def capture_attention(model: torch.nn.Module) -> tuple[dict, list]:
    # --- step 1: ask every attention module for its weights, and keep them ---
    raise NotImplementedError(
        "Exercise 17, step 1: ask every attention module for its weights, and keep them")
    # --- end of step 1 ---


def attention_rollout(maps: dict) -> torch.Tensor:
    # --- step 2: average the heads, add the residual, normalise, multiply the layers ---
    raise NotImplementedError(
        "Exercise 17, step 2: average the heads, add the residual, normalise, multiply the layers")
    # --- end of step 2 ---


@contextlib.contextmanager
def attention_maps(model: torch.nn.Module) -> Iterator[dict]:
    # --- step 3: register on the way in, remove on the way out ---
    raise NotImplementedError(
        "Exercise 17, step 3: register on the way in, remove on the way out")
    # --- end of step 3 ---


# %% [markdown]
# ## Try it
#
# A two-layer encoder, untrained: its maps are not meaningful yet, but their shapes and
# rows are. Each row of a map sums to 1, and so does each row of the rollout.

# %%
if __name__ == "__main__":
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(16, nhead=2, dim_feedforward=32, dropout=0.0,
                                             batch_first=True)
    encoder = torch.nn.TransformerEncoder(layer, num_layers=2).eval()
    x = torch.randn(1, 5, 16)
    with attention_maps(encoder) as maps, torch.no_grad():
        encoder(x)
    for name, weights in maps.items():
        print(name, tuple(weights.shape), "rows sum to", round(weights.sum(-1).mean().item(), 4))
    rollout = attention_rollout(maps)
    print("rollout of position 0:", [round(v, 3) for v in rollout[0, 0].tolist()])
    maps.clear()
    with torch.no_grad():
        encoder(x)  # the hooks are gone: nothing is captured any more
    print("maps captured after the block:", len(maps))
