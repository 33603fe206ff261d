"""``BackwardHookFunction``: the identity that full backward hooks are built on.

A module with full backward hooks passes its tensor inputs, and later its outputs,
through this Function. It changes no value; it only puts one autograd node in the
graph at each end of the module, and the hooks are attached to those nodes: the node
at the outputs sees ``grad_output``, the node at the inputs sees ``grad_input``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook>
"""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...autograd.grad_mode import is_grad_enabled
from ...autograd.graph import Node


class BackwardHookFunction(Function):
    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any) -> tuple:
        # Tensors that need no gradient stay outside the graph.
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> tuple:
        return grads


def apply_identity(args: tuple) -> tuple[tuple, list[int] | None, Node | None]:
    """``args`` with its tensors routed through :class:`BackwardHookFunction`, the positions
    of those tensors, and the identity's node, where ``BackwardHook`` puts its node hook.
    Nothing changes (``args, None, None``) when no tensor needs a gradient."""
    indices, tensors, requires_grad = [], [], False
    for index, arg in enumerate(args):
        if isinstance(arg, Tensor):
            indices.append(index)
            tensors.append(arg)
            requires_grad = requires_grad or arg._requires_grad
    if not (requires_grad and is_grad_enabled()):
        return args, None, None
    new_tensors = BackwardHookFunction.apply(*tensors)
    node = [t.grad_fn for t in new_tensors if t.grad_fn is not None][0]
    replaced = list(args)
    for index, tensor in zip(indices, new_tensors):
        replaced[index] = tensor
    # A namedtuple output (``out.prod``) keeps its type, as in PyTorch.
    return (tuple(replaced) if type(args) is tuple else type(args)(*replaced)), indices, node
