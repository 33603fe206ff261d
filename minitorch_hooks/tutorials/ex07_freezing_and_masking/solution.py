# %% [markdown]
# # Exercise 7: freezing and gradient masking
#
# Freezing a whole module is a flag, `requires_grad`: a parameter that does not require
# a gradient gets none, and the optimiser leaves it alone. Freezing only *part* of a
# tensor (some rows of a weight matrix, some units of a layer) needs a hook: a tensor
# hook on the parameter multiplies its gradient by a mask of 0s and 1s, so the masked
# entries always get a gradient of 0.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 7`.

# %%
from __future__ import annotations

from collections.abc import Sequence

import minitorch_hooks as torch

# %% [markdown]
# ## Step 1: `freeze(module)`
#
# Make every parameter of `module` stop requiring a gradient, and return `module`.
#
# ## Step 2: `trainable_parameters(model)`
#
# Return the `(name, parameter)` pairs of `model.named_parameters()` that still require
# a gradient: the ones to hand to the optimiser.
#
# ## Step 3: `mask_gradient(param, mask)`
#
# Register a hook on `param` that multiplies its gradient by `mask`, and return the
# handle.
#
# ## Step 4: `freeze_units(linear, units)`
#
# Freeze some output units of a `Linear` layer: mask the gradient of the weight rows and
# bias entries of those units with `mask_gradient`. Return the handles.

# %%
def freeze(module: torch.nn.Module) -> torch.nn.Module:
    # --- step 1: stop every parameter from requiring a gradient ---
    for param in module.parameters():
        param.requires_grad_(False)
    return module
    # --- end of step 1 ---


def trainable_parameters(model: torch.nn.Module) -> list[tuple[str, torch.nn.Parameter]]:
    # --- step 2: the named parameters that still require a gradient ---
    return [(name, param) for name, param in model.named_parameters()
            if param.requires_grad]
    # --- end of step 2 ---


def mask_gradient(param: torch.Tensor, mask: torch.Tensor):
    # --- step 3: a hook that multiplies the gradient by mask ---
    return param.register_hook(lambda grad: grad * mask)
    # --- end of step 3 ---


def freeze_units(linear: torch.nn.Linear, units: Sequence[int]) -> list:
    # --- step 4: mask the weight rows and bias entries of the given units ---
    keep = torch.tensor([0.0 if unit in units else 1.0
                         for unit in range(linear.out_features)])
    return [mask_gradient(linear.weight, keep.unsqueeze(1)),
            mask_gradient(linear.bias, keep)]
    # --- end of step 4 ---


# %% [markdown]
# ## Try it
#
# A frozen first layer, and a second layer whose unit 0 is frozen while unit 1 trains.
# One trap: masking the gradient does not freeze a parameter when the optimiser adds
# terms of its own. With `weight_decay` (or momentum carried over from earlier steps),
# SGD changes the masked entries anyway; the last lines show it.

# %%
if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(),
                                torch.nn.Linear(4, 2))
    freeze(model[0])
    freeze_units(model[2], [0])
    print("trainable:", [name for name, _ in trainable_parameters(model)])
    before = model[2].weight.detach().clone()
    optimizer = torch.optim.SGD([p for _, p in trainable_parameters(model)], lr=0.1)
    for _ in range(5):
        optimizer.zero_grad()
        model(torch.randn(8, 3)).pow(2).mean().backward()
        optimizer.step()
    print("change of each unit's weights:", (model[2].weight.detach() - before).abs().sum(1))

    decaying = torch.optim.SGD([model[2].weight], lr=0.1, weight_decay=0.5)
    decaying.zero_grad()
    model(torch.randn(8, 3)).pow(2).mean().backward()
    before = model[2].weight.detach().clone()
    decaying.step()
    print("with weight decay, the frozen unit moves:",
          (model[2].weight.detach() - before).abs().sum(1))
