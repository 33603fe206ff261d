# %% [markdown]
# # Exercise 14: watch every module at once with global hooks
#
# `torch.nn.modules.module.register_module_forward_hook(hook)` and its siblings register
# a hook on *every* module: the ones built already, the ones built later, the ones
# inside a library you cannot edit. Each fires before the module's own hooks of the same
# kind, and keeps firing until its handle is removed, in every model of the program. So
# the discipline is: register in a `with` block, remove on the way out, always.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 14`.

# %%
from __future__ import annotations

import minitorch_hooks as torch

global_hooks = torch.nn.modules.module  # where the register_module_* functions live


# %% [markdown]
# ## Step 1: `ShapeLog`, a with block that logs every module's output shape
#
# `__enter__` registers one global forward hook that appends
# `(type(module).__name__, list(output.shape))` to `self.records` for each module whose
# output is a tensor, keeps its handle in `self.handle`, and returns `self`.
# `__exit__` removes the handle, also when the block raised, so that no hook is left to
# fire in the rest of the program.
#
# ## Step 2: `call_tree(model, *inputs)`, the nesting of the calls
#
# Return one line per module call, indented by two spaces per level of nesting:
# `Sequential`, then `  Linear`, `  ReLU`, ... A global forward pre-hook adds a line and
# goes one level deeper; a global forward hook comes back up. Register that one with
# `always_call=True`: a module that raises would otherwise leave the depth one level too
# deep. Remove both hooks before returning, whatever happened.
#
# ## Step 3: `nan_guard()`, stop at the first module whose gradient is not finite
#
# Register a global full backward hook that raises
# `FloatingPointError(f"non-finite gradient in {type(module).__name__}")` when a tensor
# of its `grad_input` holds an inf or a NaN (`torch.isfinite(grad).all()` is false), and
# return its handle. Backward runs from the loss towards the inputs, so the first module
# to raise is the one closest to the loss where the problem appears.

# %%
class ShapeLog:
    """`with ShapeLog() as log: model(x)` records every module's output shape."""

    def __init__(self) -> None:
        self.records: list[tuple[str, list[int]]] = []
        self.handle = None

    def __enter__(self) -> ShapeLog:
        # --- step 1: register the global forward hook, and return self ---
        def record(module, args, output):
            if isinstance(output, torch.Tensor):
                self.records.append((type(module).__name__, list(output.shape)))

        self.handle = global_hooks.register_module_forward_hook(record)
        return self
        # --- end of step 1 ---

    def __exit__(self, *exc_info: object) -> None:
        # --- step 1: remove the hook, whatever happened in the block ---
        self.handle.remove()
        # --- end of step 1 ---


def call_tree(model: torch.nn.Module, *inputs: torch.Tensor) -> list[str]:
    # --- step 2: a pre-hook goes one level deeper, an always-call hook comes back ---
    lines: list[str] = []
    depth = 0

    def enter(module, args):
        nonlocal depth
        lines.append("  " * depth + type(module).__name__)
        depth += 1

    def leave(module, args, output):
        nonlocal depth
        depth -= 1

    handles = [global_hooks.register_module_forward_pre_hook(enter),
               global_hooks.register_module_forward_hook(leave, always_call=True)]
    try:
        model(*inputs)
    finally:
        for handle in handles:
            handle.remove()
    return lines
    # --- end of step 2 ---


def nan_guard():
    # --- step 3: a global full backward hook that raises on a non-finite grad_input ---
    def check(module, grad_input, grad_output):
        for grad in grad_input:
            if grad is not None and not torch.isfinite(grad).all():
                raise FloatingPointError(f"non-finite gradient in {type(module).__name__}")

    return global_hooks.register_module_full_backward_hook(check)
    # --- end of step 3 ---


# %% [markdown]
# ## Try it
#
# A model nobody has to edit: the log sees every layer, the tree shows how the calls
# nest, and the guard names the module where a square root at 0 sends an infinite
# gradient back.

# %%
if __name__ == "__main__":
    class Sqrt(torch.nn.Module):
        def forward(self, x):
            return x.sqrt()

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(),
                                torch.nn.Sequential(torch.nn.Linear(4, 2), torch.nn.Tanh()))
    with ShapeLog() as log:
        model(torch.ones(5, 3))
    for name, shape in log.records:
        print(f"{name:<10} {shape}")
    print("\n".join(call_tree(model, torch.ones(5, 3))))

    guard = nan_guard()
    try:
        x = torch.tensor([0.0, 4.0], requires_grad=True)
        torch.nn.Sequential(torch.nn.Identity(), Sqrt())(x).sum().backward()
    except FloatingPointError as error:
        print("nan_guard:", error)
    finally:
        guard.remove()
