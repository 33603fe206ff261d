# %% [markdown]
# # Exercise 1: the hook pattern in plain Python
#
# A package runs its programs one after the other; after each one it calls every hook
# the user registered, in registration order. A hook that returns `None` only watches;
# one that returns anything else replaces the value. Every hook in PyTorch is this
# pattern (see `call_hooks` in `minitorch_hooks/utils/hooks.py`).
#
# Fill the gaps marked `# --- step N: ... ---` below, then run
# `minitorch-hooks check 1`. The exercise's text is `README.md` in its folder
# (`minitorch-hooks check --list` shows where).

# %%
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

Program = Callable[[Any], Any]
Hook = Callable[[Program, Any], Any]  # hook(program, value) -> None or a new value


def add_three(x: Any) -> Any:
    print("add_three is running")
    return x + 3


def subtract_three(x: Any) -> Any:
    print("subtract_three is running")
    return x - 3


# %% [markdown]
# ## Step 1: `Package.register_hook`
#
# Keep the hook in `self.hooks`, an `OrderedDict` keyed by the id of a new `Handle`
# (PyTorch's `module._forward_hooks` looks the same), and return the handle.
#
# ## Step 2: `Package.__call__`
#
# Run the programs in order. After each one, call every hook as `hook(program, x)`; a
# result that `is not None` becomes the new `x`. Loop over a copy of the hooks
# (`tuple(self.hooks.values())`), so that a hook registering another hook does not
# change the call in progress.
#
# ## Step 3: `Handle.remove`
#
# Take the handle's hook out of the dictionary. Removing it a second time does nothing.

# %%
class Handle:
    """What `register_hook` returns: `remove()` takes that one hook out again."""

    next_id = 0

    def __init__(self, hooks: OrderedDict[int, Hook]) -> None:
        self.hooks = hooks
        self.id = Handle.next_id
        Handle.next_id += 1

    def remove(self) -> None:
        # --- step 3: take this handle's hook out of self.hooks ---
        raise NotImplementedError(
            "Exercise 1, step 3: take this handle's hook out of self.hooks")
        # --- end of step 3 ---


class Package:
    """Runs its programs in order and calls the registered hooks after each one."""

    def __init__(self, *programs: Program) -> None:
        self.programs = programs
        self.hooks: OrderedDict[int, Hook] = OrderedDict()

    def register_hook(self, hook: Hook) -> Handle:
        # --- step 1: store the hook under a new handle's id ---
        raise NotImplementedError(
            "Exercise 1, step 1: store the hook under a new handle's id")
        # --- end of step 1 ---

    def __call__(self, x: Any) -> Any:
        # --- step 2: run the programs, and the hooks after each ---
        raise NotImplementedError(
            "Exercise 1, step 2: run the programs, and the hooks after each")
        # --- end of step 2 ---


# %% [markdown]
# ## Try it
#
# A popular article's example: a hook that only watches, then one that replaces the
# value. Its own version tested the result with `if output:`, so a hook returning `0`
# was ignored; `is not None` keeps that answer.

# %%
if __name__ == "__main__":
    package = Package(add_three, subtract_three)

    def watch(program: Program, x: Any) -> None:
        print(f"  hook: after {program.__name__}, the value is {x}")

    def floor_at_zero(program: Program, x: Any) -> Any:
        return 0 if x < 0 else None

    handle = package.register_hook(watch)
    print("package(3) =", package(3))
    package.register_hook(floor_at_zero)
    print("package(-5) =", package(-5))
    handle.remove()
    print("without the watching hook, package(-5) =", package(-5))
