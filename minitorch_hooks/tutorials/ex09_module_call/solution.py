# %% [markdown]
# # Exercise 9: build `Module.__call__` and its forward hooks
#
# From here on you build the machinery. This file is plain Python: a `Module` whose
# `__call__` runs the forward pre-hooks, then `forward`, then the forward hooks, and,
# when something raises, still runs the hooks registered with `always_call=True` before
# the error propagates. The checks run the same scenarios on your `Module` and on
# `torch.nn.Module` (minitorch_hooks', and real PyTorch's when it is installed) and
# compare everything that happened.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 9`.

# %%
from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# The handle every register_* method of minitorch_hooks returns; given a second
# dictionary (``extra_dict``), remove() deletes the id from it too.
from minitorch_hooks.utils.hooks import RemovableHandle


@dataclass
class Call:
    """How far one call of a module has got: the always-call hooks need it on failure."""

    args: tuple
    result: Any = None
    always_called: set[int] = field(default_factory=set)  # ids of those that already ran


# %% [markdown]
# ## Step 1: registering
#
# `register_forward_pre_hook(hook)` stores the hook in `self._forward_pre_hooks` under
# the id of a new `RemovableHandle(self._forward_pre_hooks)` and returns the handle.
# `register_forward_hook(hook, always_call=...)` does the same with `self._forward_hooks`
# and, when `always_call` is true, also sets
# `self._forward_hooks_always_called[handle.id] = True`. PyTorch keeps the flag in a
# dictionary beside the hooks, so the handle must remove it from both:
# `RemovableHandle(self._forward_hooks, extra_dict=self._forward_hooks_always_called)`.
#
# ## Step 2: `_run_pre_hooks(call)`
#
# Call each pre-hook, in order, as `hook(self, call.args)`. A result that is not `None`
# replaces `call.args` (wrapped in a tuple if it is not one) at once, so the next hook
# sees it. Loop over a copy of the hooks.
#
# ## Step 3: `_run_forward_hooks(call)`
#
# Call each forward hook as `hook(self, call.args, call.result)`; a result that is not
# `None` replaces `call.result`. Before calling an always-call hook, add its id to
# `call.always_called`, so it is not called a second time if something fails.
#
# ## Step 4: `__call__`
#
# Without hooks, just return `self.forward(*args, **kwargs)`. Otherwise make a
# `Call(args)`, run the pre-hooks, `forward` (with `call.args` and the keyword arguments),
# the forward hooks, and return the result. If any of that raises, run
# `self._run_always_called_hooks(call)` and re-raise the original exception.
#
# ## Step 5: `_run_always_called_hooks(call)`
#
# Call each always-call forward hook that is not in `call.always_called`, as
# `hook(self, call.args, call.result)`, keeping a non-`None` result. If one raises,
# warn with PyTorch's message and go on: the error that matters is the first one.

# %%
class Module:
    """The calling part of `torch.nn.Module`."""

    def __init__(self) -> None:
        self._forward_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
        self._forward_hooks: OrderedDict[int, Callable] = OrderedDict()
        self._forward_hooks_always_called: OrderedDict[int, bool] = OrderedDict()

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def register_forward_pre_hook(self, hook: Callable) -> RemovableHandle:
        # --- step 1: store the pre-hook under a new handle's id ---
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle
        # --- end of step 1 ---

    def register_forward_hook(self, hook: Callable, *,
                              always_call: bool = False) -> RemovableHandle:
        # --- step 1: store the hook, and its always_call flag beside it ---
        handle = RemovableHandle(self._forward_hooks,
                                 extra_dict=self._forward_hooks_always_called)
        self._forward_hooks[handle.id] = hook
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle
        # --- end of step 1 ---

    def _run_pre_hooks(self, call: Call) -> None:
        # --- step 2: each pre-hook may replace call.args ---
        for hook in tuple(self._forward_pre_hooks.values()):
            result = hook(self, call.args)
            if result is not None:
                call.args = result if isinstance(result, tuple) else (result,)
        # --- end of step 2 ---

    def _run_forward_hooks(self, call: Call) -> None:
        # --- step 3: each forward hook may replace call.result ---
        for hook_id, hook in tuple(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_always_called:
                call.always_called.add(hook_id)
            result = hook(self, call.args, call.result)
            if result is not None:
                call.result = result
        # --- end of step 3 ---

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # --- step 4: the fast path, then pre-hooks, forward, forward hooks ---
        if not (self._forward_pre_hooks or self._forward_hooks):
            return self.forward(*args, **kwargs)
        call = Call(args)
        try:
            self._run_pre_hooks(call)
            call.result = self.forward(*call.args, **kwargs)
            self._run_forward_hooks(call)
            return call.result
        except Exception:
            self._run_always_called_hooks(call)
            raise
        # --- end of step 4 ---

    def _run_always_called_hooks(self, call: Call) -> None:
        # --- step 5: the always-call hooks that have not run; errors become warnings ---
        for hook_id, hook in tuple(self._forward_hooks.items()):
            if hook_id not in self._forward_hooks_always_called or \
                    hook_id in call.always_called:
                continue
            try:
                result = hook(self, call.args, call.result)
            except Exception as error:
                warnings.warn("module forward hook with ``always_call=True`` raised an "
                              "exception that was silenced as another error was raised "
                              f"in forward: {error}", stacklevel=2)
                continue
            if result is not None:
                call.result = result
        # --- end of step 5 ---


# %% [markdown]
# ## Try it
#
# A popular article's `SumNet`: a pre-hook adds 10 to the first input, a
# forward hook adds 100 to the output; then a forward that fails, with a timing hook
# registered with `always_call=True` that still reports.

# %%
if __name__ == "__main__":
    class SumNet(Module):
        def forward(self, a: float, b: float, c: float) -> float:
            print("forward")
            return a + b + c

    def forward_pre_hook(module: Module, args: tuple) -> tuple:
        print("forward_pre_hook")
        a, b, c = args
        return a + 10, b, c

    def forward_hook(module: Module, args: tuple, output: float) -> float:
        print("forward_hook")
        return output + 100

    model = SumNet()
    model.register_forward_pre_hook(forward_pre_hook)
    model.register_forward_hook(forward_hook)
    print(model(1, 2, 3))

    class Broken(Module):
        def forward(self, x: float) -> float:
            raise ValueError("forward failed")

    broken = Broken()
    broken.register_forward_hook(lambda m, args, out: print("always-call hook saw", out),
                                 always_call=True)
    try:
        broken(1)
    except ValueError as error:
        print("and the error still propagates:", error)
