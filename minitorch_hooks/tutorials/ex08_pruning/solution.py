# %% [markdown]
# # Exercise 8: pruning with a forward pre-hook
#
# Magnitude pruning zeroes a layer's smallest weights. `torch.nn.utils.prune` does not
# overwrite them: it keeps the trained values in a parameter `weight_orig`, a mask of 0s
# and 1s in a buffer `weight_mask`, and makes `weight` a plain attribute recomputed as
# `weight_orig * weight_mask` by a forward pre-hook before every forward. This exercise
# rebuilds that, and the checks compare it with `torch.nn.utils.prune.l1_unstructured`.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 8`.

# %%
from __future__ import annotations

from collections.abc import Callable

import numpy as np

import minitorch_hooks as torch

# %% [markdown]
# ## Step 1: `magnitude_mask(weight, amount)`
#
# A tensor of the weight's shape and dtype: 0 at the `round(amount * weight.numel())`
# entries of smallest absolute value, 1 elsewhere. (NumPy's `argsort` of the flattened
# magnitudes finds them.)
#
# ## Step 2: `recompute(name)`
#
# Return a forward pre-hook that sets `module.<name>` to `module.<name>_orig *
# module.<name>_mask`, so that each forward uses, and builds its graph through, the
# masked weight.
#
# ## Step 3: `prune(module, name, amount)`
#
# Re-parametrise `module.<name>`: remove the parameter, register it again as
# `<name>_orig`, register the mask as the buffer `<name>_mask`, set `module.<name>` to the
# masked weight once, register `recompute(name)` as a forward pre-hook and return its
# handle.
#
# ## Step 4: `make_permanent(module, name, handle)`
#
# Remove the hook, and replace `<name>_orig`, `<name>_mask` and the attribute by one
# parameter `<name>` holding the masked values.

# %%
def magnitude_mask(weight: torch.Tensor, amount: float) -> torch.Tensor:
    # --- step 1: 0 at the smallest |weight| entries, 1 elsewhere ---
    magnitudes = np.abs(weight.detach().numpy()).ravel()
    mask = np.ones(magnitudes.size, dtype=magnitudes.dtype)
    mask[np.argsort(magnitudes)[:round(amount * magnitudes.size)]] = 0
    return torch.tensor(mask.reshape(tuple(weight.shape)))
    # --- end of step 1 ---


def recompute(name: str) -> Callable[[torch.nn.Module, tuple], None]:
    def apply_mask(module: torch.nn.Module, args: tuple) -> None:
        # --- step 2: set module.<name> to <name>_orig * <name>_mask ---
        masked = getattr(module, name + "_orig") * getattr(module, name + "_mask")
        setattr(module, name, masked)
        # --- end of step 2 ---

    return apply_mask


def prune(module: torch.nn.Module, name: str, amount: float):
    # --- step 3: move the parameter to <name>_orig, add <name>_mask and the hook ---
    orig = getattr(module, name)
    delattr(module, name)
    module.register_parameter(name + "_orig", orig)
    module.register_buffer(name + "_mask", magnitude_mask(orig, amount))
    recompute(name)(module, ())
    return module.register_forward_pre_hook(recompute(name))
    # --- end of step 3 ---


def make_permanent(module: torch.nn.Module, name: str, handle) -> None:
    # --- step 4: one plain parameter again, holding the masked values ---
    handle.remove()
    masked = getattr(module, name + "_orig") * getattr(module, name + "_mask")
    delattr(module, name)
    delattr(module, name + "_orig")
    delattr(module, name + "_mask")
    module.register_parameter(name, torch.nn.Parameter(masked.detach()))
    # --- end of step 4 ---


# %% [markdown]
# ## Try it
#
# Prune half of a layer's weights, train it for a few steps, and see that the pruned
# weights stay 0 in `weight` while `weight_orig` keeps its values (their gradient through
# the mask is 0, so plain SGD leaves them where they were).

# %%
if __name__ == "__main__":
    torch.manual_seed(0)
    layer = torch.nn.Linear(4, 3)
    handle = prune(layer, "weight", 0.5)
    print("parameters:", [n for n, _ in layer.named_parameters()],
          " buffers:", [n for n, _ in layer.named_buffers()])
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    for _ in range(3):
        optimizer.zero_grad()
        layer(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
    print("the gradient of weight_orig is 0 where the mask is:\n", layer.weight_orig.grad)
    layer(torch.randn(1, 4))  # the pre-hook recomputes weight from the new weight_orig
    print("weight:\n", layer.weight)
    make_permanent(layer, "weight", handle)
    print("after make_permanent:", [n for n, _ in layer.named_parameters()],
          "and", len(layer._forward_pre_hooks), "pre-hooks")
