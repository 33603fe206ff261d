# %% [markdown]
# # Exercise 11: a full backward hook from identity nodes
#
# `module.register_full_backward_hook(hook)` calls `hook(module, grad_input, grad_output)`
# in backward. Autograd has no node "for a module", so PyTorch makes two: `module(...)`
# passes the inputs through an identity autograd Function before `forward`, and the
# output through another after it. In backward the output's identity node sees
# `grad_output` first; the gradient then flows through the module's own graph to the
# input's identity node, which sees `grad_input` and calls the hook there. You build
# this from the library's `autograd.Function`, a forward pre-hook and a forward hook.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 11`.

# %%
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import minitorch_hooks as torch

GradientsCallback = Callable[[tuple], "tuple | None"]


# %% [markdown]
# ## Step 1: `Identity`
#
# An autograd Function that changes nothing: `forward(ctx, *tensors)` returns the
# tensors, and `backward(ctx, *grads)` returns the gradients. `Identity.apply(a, b)`
# returns new tensors with the same values, and one node, their `grad_fn`, to hang hooks on.
#
# ## Step 2: `wrap(tensors, on_gradients)`
#
# Pass the tensors through `Identity.apply` and register a hook on the node,
# `grad_fn.register_hook(node_hook)`. A node hook is called as
# `node_hook(grad_inputs, grad_outputs)` (for an identity, both hold the same gradients)
# and a tuple it returns replaces `grad_inputs`. Make it call `on_gradients(grad_inputs)`
# and return what that returns. Return the wrapped tensors, as a tuple.
#
# ## Step 3: `FullBackwardHook.wrap_inputs` and `wrap_output`
#
# Two module hooks that put the identity nodes in place: a forward pre-hook wrapping the
# positional arguments with `self.on_grad_input`, and a forward hook wrapping the output
# with `self.on_grad_output`.
#
# ## Step 4: `FullBackwardHook.on_grad_output` and `on_grad_input`
#
# `on_grad_output(grads)` keeps the gradients in `self.grad_output` and returns `None`.
# `on_grad_input(grads)` calls the user's `hook(module, grads, self.grad_output)`; a
# tuple it returns replaces the gradients that go on to the inputs.

# %%
class Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, *tensors: torch.Tensor) -> tuple:
        # --- step 1: return the tensors unchanged ---
        raise NotImplementedError(
            "Exercise 11, step 1: return the tensors unchanged")
        # --- end of step 1 ---

    @staticmethod
    def backward(ctx: Any, *grads: torch.Tensor) -> tuple:
        # --- step 1: pass the gradients through unchanged ---
        raise NotImplementedError(
            "Exercise 11, step 1: pass the gradients through unchanged")
        # --- end of step 1 ---


def wrap(tensors: tuple, on_gradients: GradientsCallback) -> tuple:
    # --- step 2: identity node, with a node hook calling on_gradients ---
    raise NotImplementedError(
        "Exercise 11, step 2: identity node, with a node hook calling on_gradients")
    # --- end of step 2 ---


class FullBackwardHook:
    """`module.register_full_backward_hook(hook)`, rebuilt from two module hooks.

    Limits, to keep it short: every positional input of the module must be a tensor that
    requires a gradient, and the module returns one tensor. (PyTorch's `BackwardHook` in
    `minitorch_hooks/utils/hooks.py` handles the rest, including the case where no input
    needs a gradient: there is no input node then, and the hook fires at the outputs.)
    """

    def __init__(self, module: torch.nn.Module, hook: Callable) -> None:
        self.module, self.hook = module, hook
        self.grad_output: tuple | None = None
        self.handles = [module.register_forward_pre_hook(self.wrap_inputs),
                        module.register_forward_hook(self.wrap_output)]

    def wrap_inputs(self, module: torch.nn.Module, args: tuple) -> tuple:
        # --- step 3: the forward pre-hook: wrap the arguments ---
        raise NotImplementedError(
            "Exercise 11, step 3: the forward pre-hook: wrap the arguments")
        # --- end of step 3 ---

    def wrap_output(self, module: torch.nn.Module, args: tuple, output: Any) -> Any:
        # --- step 3: the forward hook: wrap the output ---
        raise NotImplementedError(
            "Exercise 11, step 3: the forward hook: wrap the output")
        # --- end of step 3 ---

    def on_grad_output(self, grads: tuple) -> None:
        # --- step 4: remember grad_output ---
        raise NotImplementedError(
            "Exercise 11, step 4: remember grad_output")
        # --- end of step 4 ---

    def on_grad_input(self, grads: tuple) -> tuple | None:
        # --- step 4: call the user's hook; its result replaces grad_input ---
        raise NotImplementedError(
            "Exercise 11, step 4: call the user's hook; its result replaces grad_input")
        # --- end of step 4 ---

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


# %% [markdown]
# ## Try it
#
# A popular article's example: a module computing `x1 * x2 * W`, whose
# backward hook rescales `grad_input` so that its entries add up to 1. Yours and
# PyTorch's `register_full_backward_hook` side by side.

# %%
if __name__ == "__main__":
    class Model(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.W = torch.nn.Parameter(torch.tensor([5.0]))

        def forward(self, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
            return x1 * x2 * self.W

    def normalise(module: torch.nn.Module, grad_input: tuple, grad_output: tuple) -> tuple:
        print("  grad_input", grad_input, "grad_output", grad_output)
        total = grad_input[0] + grad_input[1]
        return grad_input[0] / total, grad_input[1] / total

    for label, install in (("yours", FullBackwardHook),
                           ("the library's", torch.nn.Module.register_full_backward_hook)):
        model = Model()
        install(model, normalise)
        x1 = torch.tensor([1.0], requires_grad=True)
        x2 = torch.tensor([3.0], requires_grad=True)
        print(label)
        model(x1, x2).backward()
        print("  x1.grad", x1.grad, "x2.grad", x2.grad)
