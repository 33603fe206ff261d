"""``BackwardHookFunction``: the identity that full backward hooks are built on.

A module with full backward hooks passes its tensor inputs, and later its outputs,
through this Function. It changes no value; it only puts one autograd node in the
graph at each end of the module, and the hooks are attached to those nodes: the node
at the outputs sees ``grad_output``, the node at the inputs sees ``grad_input``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook>
"""

from __future__ import annotations

from typing import Any

from ...autograd.function import Function, FunctionCtx


class BackwardHookFunction(Function):
    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any) -> tuple:
        # Tensors that need no gradient stay outside the graph.
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> tuple:
        return grads
