# %% [markdown]
# # Exercise 5: gradient clipping and scaling with tensor hooks
#
# `tensor.register_hook(hook)` makes backward call `hook(grad)` as soon as the gradient
# of `tensor` is computed. A hook that returns a tensor replaces the gradient (same shape
# and dtype), and everything downstream sees the replacement: on a leaf, what is added
# into `.grad`; on an intermediate tensor, what flows on to the tensors it came from.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 5`.

# %%
from __future__ import annotations

from collections.abc import Callable

import minitorch_hooks as torch

TensorHook = Callable[[torch.Tensor], "torch.Tensor | None"]


# %% [markdown]
# ## Step 1: clip each element
#
# `clip_value(max_abs)` returns a hook that clamps every element of the gradient into
# `[-max_abs, max_abs]`.
#
# ## Step 2: clip the norm
#
# `clip_norm(max_norm)` returns a hook that, when the gradient's (Euclidean) norm is
# above `max_norm`, scales it down to exactly that norm, keeping its direction; a smaller
# gradient is left alone (return `None`).
#
# ## Step 3: reverse the gradient
#
# `reverse_gradient(x, factor)` returns a copy of `x` (`x.clone()`) whose gradient is
# multiplied by `-factor` on its way back to `x`: the forward pass is unchanged, the
# backward pass pushes the other way. This is the "gradient reversal layer" of domain
# adaptation, in three lines.
#
# ## Step 4: clip a whole model
#
# `clip_parameters(model, max_abs)` registers `clip_value(max_abs)` on every parameter
# and returns the handles.

# %%
def clip_value(max_abs: float) -> TensorHook:
    def clip(grad: torch.Tensor) -> torch.Tensor:
        # --- step 1: clamp the gradient into [-max_abs, max_abs] ---
        raise NotImplementedError(
            "Exercise 5, step 1: clamp the gradient into [-max_abs, max_abs]")
        # --- end of step 1 ---

    return clip


def clip_norm(max_norm: float) -> TensorHook:
    def clip(grad: torch.Tensor) -> torch.Tensor | None:
        # --- step 2: scale the gradient down to max_norm if it is longer ---
        raise NotImplementedError(
            "Exercise 5, step 2: scale the gradient down to max_norm if it is longer")
        # --- end of step 2 ---

    return clip


def reverse_gradient(x: torch.Tensor, factor: float = 1.0) -> torch.Tensor:
    # --- step 3: a clone of x whose gradient is multiplied by -factor ---
    raise NotImplementedError(
        "Exercise 5, step 3: a clone of x whose gradient is multiplied by -factor")
    # --- end of step 3 ---


def clip_parameters(model: torch.nn.Module, max_abs: float) -> list:
    # --- step 4: register clip_value(max_abs) on every parameter ---
    raise NotImplementedError(
        "Exercise 5, step 4: register clip_value(max_abs) on every parameter")
    # --- end of step 4 ---


# %% [markdown]
# ## Try it
#
# A hook clips each gradient *before* it is added into `.grad`. So two backward passes
# add two clipped gradients, which is not the same as clipping their sum; and
# `torch.nn.utils.clip_grad_norm_`, called after backward, clips the sum of all
# parameters' gradients together. Both have their use: a hook acts per tensor and per
# pass, as early as possible (even on intermediate tensors), the function acts once on
# the total.

# %%
if __name__ == "__main__":
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w.register_hook(clip_value(0.5))
    for _ in range(2):
        (w * torch.tensor([10.0, -0.1, -10.0])).sum().backward()
    print("two clipped passes add up to", w.grad)

    v = torch.tensor([3.0, 4.0], requires_grad=True)
    v.register_hook(clip_norm(1.0))
    (v * v).sum().backward()  # the gradient 2 * v = [6, 8] has norm 10
    print("norm-clipped gradient:", v.grad)

    features = torch.tensor([1.0, 2.0], requires_grad=True)
    (reverse_gradient(features, 0.5) * 2).sum().backward()
    print("through the reversal, the gradient is", features.grad)

    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    handles = clip_parameters(model, 0.01)
    model(torch.ones(4, 3) * 100).sum().backward()
    print("clipped weight gradient:", model.weight.grad)
    for handle in handles:
        handle.remove()
