"""What an in-place change records when it changes a view, or a view's base.

A view shares its base's memory, so changing it in place changes the base. PyTorch records
that on the base: the operation's node ``fn`` is computed on the view as usual, but the
base gets a ``CopySlices`` node that runs ``fn`` on the view's region of the base's
gradient, and the view (like every other view of that base, once it is next looked at)
gets an ``AsStridedBackward0`` that reads its gradient out of the base's. Both find the
view's region by position in the base's memory.
See torch/csrc/autograd/variable.cpp (rebase_history) and functions/tensor.cpp, and
<https://docs.pytorch.org/docs/2.13/notes/autograd.html#in-place-operations-with-autograd>
"""

from __future__ import annotations

import math

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.engine import apply_formula
from ..autograd.function import CUSTOM_FUNCTION_VIEW
from ..autograd.graph import Node
from ..autograd.saved_tensors import op_name

INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation.")


def set_history(tensor: Tensor, node: Node) -> None:
    """Make ``node`` (output 0 of it) the grad_fn of ``tensor``, which was changed in place.

    As PyTorch's ``update_tensor_hooks_on_new_gradfn``: the hooks registered so far stay
    with the old node, where they see the gradient of the old value; hooks registered from
    now on go to the new node; ``retain_grad`` moves, since ``.grad`` is about the tensor as
    it is now.
    """
    old, old_output_nr = tensor._grad_fn, tensor._output_nr
    tensor._grad_fn, tensor._output_nr, tensor._requires_grad = node, 0, True
    tensor._backward_hooks = None  # the old node keeps the old dictionary
    if tensor._retains_grad and old is not None:
        old._hooks.retains_grad.pop(old_output_nr, None)
        node._register_retains_grad(tensor)


def positions_in_base(view: np.ndarray, base: np.ndarray) -> np.ndarray:
    """For each element of ``view``, the position (in row-major order) of the element of
    ``base`` it shares memory with: PyTorch's view geometry (sizes, strides, offset) as an
    index array, whatever the strides of either."""
    if not base.size:
        return np.zeros(view.shape, dtype=np.intp)
    # The span of memory the base covers, as addresses: its first and last elements.
    extents = [(size - 1) * stride for size, stride in zip(base.shape, base.strides)]
    low = base.__array_interface__["data"][0] + sum(e for e in extents if e < 0)
    itemsize = base.itemsize
    span = sum(abs(e) for e in extents) // itemsize + 1
    memory = np.full(span, -1, dtype=np.intp)  # one slot per element of that memory

    def seen_as(array: np.ndarray) -> np.ndarray:  # ``memory`` with ``array``'s geometry
        start = (array.__array_interface__["data"][0] - low) // itemsize
        strides = tuple(stride // itemsize * memory.itemsize for stride in array.strides)
        return np.lib.stride_tricks.as_strided(memory[start:], array.shape, strides)

    seen_as(base)[...] = np.arange(base.size).reshape(base.shape)
    return seen_as(view).copy()


class AsStridedBackward0(Node):
    """The grad_fn of a view after its base was changed in place: the view is read out of
    the base's memory, so its gradient goes to the base at the positions it came from (a
    position read twice, as in an expanded view, gets both gradients)."""

    __slots__ = ("positions",)

    def backward(self, grad):
        shape, _ = self._input_meta[0]
        grad_base = formula.scatter((math.prod(shape),), self.positions, grad, accumulate=True)
        return grad_base.reshape(shape)


class CopySlices(Node):
    """The base's grad_fn after a view of it was changed in place by an operation whose
    node is ``fn``.

    Only the view's region of the base changed, so the gradient outside it passes through
    to the base's previous history unchanged; inside it, ``fn`` turns it into gradients for
    the view's old value (which goes back into the region) and for the operation's other
    inputs. The next functions are therefore the base's previous edge, then ``fn``'s own
    edges but its first (the view's, now included in the base's).
    """

    __slots__ = ("positions", "fn")

    def __init__(self, base: Tensor, positions: np.ndarray, fn: Node) -> None:
        super().__init__((base,))
        self.next_functions = (self.next_functions[0], *fn.next_functions[1:])
        self._input_meta = (self._input_meta[0], *fn._input_meta[1:])
        self._saved = fn._saved  # freed together, as PyTorch's release_variables does
        self.positions, self.fn = positions, fn

    def name(self) -> str:
        return "torch::autograd::CopySlices"  # a C++ node, like AccumulateGrad

    def backward(self, grad):
        if self._saved is None:  # the engine freed them after a backward
            self.fn._saved = None
        if np.unique(self.positions).size < self.positions.size:
            # An expanded view was filled: its region's gradient cannot be written back
            # into elements that several of its elements share. PyTorch refuses here too.
            raise RuntimeError(INTERNAL_OVERLAP)
        flat = grad.reshape(-1)
        grads = apply_formula(self.fn, (flat[self.positions],))
        result = formula.zero_at(flat, self.positions)  # the region's old values are overwritten
        if grads[0] is not None:  # ... by the gradient for the view's old value
            result = result + formula.scatter(flat.shape, self.positions, grads[0])
        return (result.reshape(grad.shape), *grads[1:])


def rebase_view_history(view: Tensor, fn: Node) -> None:
    """Record an in-place change of ``view`` made by ``fn``: ``CopySlices`` on its base,
    then a new grad_fn for the view itself (PyTorch's ``rebase_history``)."""
    base = view._base
    set_history(base, CopySlices(base, positions_in_base(view._data, base._data), fn))
    regenerate_view_grad_fn(view)


def regenerate_view_grad_fn(view: Tensor) -> None:
    """Give ``view`` a grad_fn that describes its values now, after its base or a view of
    it was changed in place: ``AsStridedBackward0`` from the base's current history.

    ``Tensor.grad_fn`` calls this when the shared version counter has moved on since the
    view's grad_fn was made, which is when PyTorch regenerates it too: lazily, on lookup,
    so that views nobody looks at again cost nothing.
    """
    base = view._base
    if view._grad_fn is None and not base._requires_grad:
        return  # no history to describe, as long as the base needs none
    if view._creation_meta is not None:
        raise RuntimeError(view_change_error(view, indirect=True))
    node = AsStridedBackward0((base,))
    node.positions = positions_in_base(view._data, base._data)
    set_history(view, node)
    view._view_version = view._version_counter[0]


_MULTI_OUTPUT = (
    "This view is the output of a function that returns multiple views. Such functions do "
    "not allow the output views to be modified inplace. You should replace the inplace "
    "operation by an out-of-place one.")
_NO_GRAD_VIEW = (
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked).")


def view_change_error(view: Tensor, indirect: bool) -> str:
    """PyTorch's refusal to record a change of a view it cannot rebase: one made under
    ``no_grad`` (recording the change would make it require grad after all), one of the
    outputs of ``unbind``/``split`` (their one node cannot be rebased for one output), or
    one a custom Function returned (rebasing would bypass its backward).
    ``indirect``: the base or another view was changed, and this view is being looked at."""
    node = view._grad_fn
    if node is None:
        message = "A view was created in no_grad mode and "
    else:
        message = f"Output {view._output_nr} of {op_name(node)} is a view and "
    if indirect:
        message += "its base or another view of its base has been modified inplace"
    else:
        message += "is being modified inplace"
    if node is None:
        message += " with grad mode enabled"
    reasons = {"multi_output": _MULTI_OUTPUT, "custom_function": CUSTOM_FUNCTION_VIEW}
    return message + ". " + reasons.get(view._creation_meta, _NO_GRAD_VIEW)
