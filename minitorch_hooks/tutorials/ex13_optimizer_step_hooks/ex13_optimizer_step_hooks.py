# %% [markdown]
# # Exercise 13: optimizer step hooks
#
# `optimizer.register_step_pre_hook(hook)` and `register_step_post_hook(hook)` run
# `hook(optimizer, args, kwargs)` around every `optimizer.step()`. Here you build them on a
# small SGD. PyTorch does not ask each optimizer to call its hooks: `Optimizer` wraps the
# `step` method of every optimizer class, and the wrapper runs the hooks. You write that
# wrapper, `step`, around the update, `_update`, which is given.
#
# The checks run the same scenarios on your `SGD` and on `torch.optim.SGD`
# (minitorch_hooks', and real PyTorch's when it is installed) and compare what the hooks
# received, what they changed and what was raised.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 13`.

# %%
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import minitorch_hooks as torch
from minitorch_hooks.utils.hooks import RemovableHandle

# %% [markdown]
# ## Step 1: registering
#
# Each method stores the hook in its `OrderedDict` under the id of a new
# `RemovableHandle(that_dict)` and returns the handle, so `handle.remove()` takes the
# hook out again.
#
# ## Step 2: `_run_step_pre_hooks(args, kwargs)`
#
# Call each pre-hook, in order, as `hook(self, args, kwargs)`, over a copy of the hooks.
# `None` changes nothing. A pair `(new_args, new_kwargs)` replaces both at once, so the
# next hook sees them. Anything else is an error, PyTorch's:
# `RuntimeError(f"{self.step} must return None or a tuple of (new_args, new_kwargs), but
# got {result}.")`. Return the final `(args, kwargs)`.
#
# ## Step 3: `step(*args, **kwargs)`
#
# `args` as the hooks see them start with the optimizer itself, `(self, *args)`: that is
# what PyTorch's wrapper receives, since it wraps the unbound method. Run the pre-hooks,
# call `self._update(*args[1:], **kwargs)` with what they left, then call each post-hook
# as `hook(self, args, kwargs)` (its result is ignored), and return what `_update`
# returned. If a pre-hook or the update raises, no post-hook runs.

# %%
class SGD:
    """Plain stochastic gradient descent, with step hooks."""

    def __init__(self, params: Any, lr: float) -> None:
        self.param_groups = [{"params": list(params), "lr": lr}]
        self._optimizer_step_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict[int, Callable] = OrderedDict()

    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        # --- step 1: store the pre-hook under a new handle's id ---
        raise NotImplementedError(
            "Exercise 13, step 1: store the pre-hook under a new handle's id")
        # --- end of step 1 ---

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        # --- step 1: store the post-hook under a new handle's id ---
        raise NotImplementedError(
            "Exercise 13, step 1: store the post-hook under a new handle's id")
        # --- end of step 1 ---

    def _run_step_pre_hooks(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        # --- step 2: a pre-hook may replace (args, kwargs); other results are errors ---
        raise NotImplementedError(
            "Exercise 13, step 2: a pre-hook may replace (args, kwargs); other results are errors")
        # --- end of step 2 ---

    def step(self, *args: Any, **kwargs: Any) -> Any:
        # --- step 3: pre-hooks, the update, then post-hooks ---
        raise NotImplementedError(
            "Exercise 13, step 3: pre-hooks, the update, then post-hooks")
        # --- end of step 3 ---

    def zero_grad(self) -> None:
        for group in self.param_groups:
            for param in group["params"]:
                param.grad = None

    @torch.no_grad()
    def _update(self, closure: Callable[[], Any] | None = None) -> Any:
        """``param -= lr * grad`` for every parameter with a gradient; ``closure``, if
        given, recomputes the loss first, with gradients on, and its loss is returned."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is not None:
                    param.add_(param.grad, alpha=-group["lr"])
        return loss


# %% [markdown]
# ## Try it
#
# A pre-hook that counts steps and a post-hook that reports how far the weight moved,
# the pair behind the update-to-weight ratio recipe.

# %%
if __name__ == "__main__":
    weight = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    optimizer = SGD([weight], lr=0.1)
    before = {}

    def remember(opt: SGD, args: tuple, kwargs: dict) -> None:
        before["weight"] = weight.detach().clone()

    def report(opt: SGD, args: tuple, kwargs: dict) -> None:
        moved = (weight.detach() - before["weight"]).norm() / before["weight"].norm()
        print(f"the step moved the weight by {moved.item():.3f} of its size")

    optimizer.register_step_pre_hook(remember)
    optimizer.register_step_post_hook(report)
    for _ in range(3):
        optimizer.zero_grad()
        (weight * weight).sum().backward()
        optimizer.step()
