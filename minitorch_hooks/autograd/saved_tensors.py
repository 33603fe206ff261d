"""What an operation keeps for its backward, and the hooks that may pack it instead.

``y = a * b`` must remember ``a`` and ``b``: the gradient of each factor is the other one.
A :class:`SavedTensor` remembers a tensor with the version it had, so that backward can
refuse values that an in-place change has overwritten since.

Under ``saved_tensors_hooks(pack_hook, unpack_hook)`` a tensor is not kept at all: what
``pack_hook(tensor)`` returns is kept instead, and ``unpack_hook(packed)`` gives a tensor
back when backward needs it. That is how activations can be stored compressed, on disk or
on another device (``save_on_cpu``), and how one can watch what autograd saves.
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#hooks-for-saved-tensors>
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor import Tensor, wrap
from ..utils.hooks import PACK_HOOK, UNPACK_HOOK, call_single_hook, library_hook, type_name
from .grad_mode import no_grad

# The pairs of hooks in force, innermost last: only the innermost pair packs (PyTorch's
# rule when the context managers are nested). And the message that refuses any hooks while
# ``disable_saved_tensors_hooks`` is in force.
_hooks_stack: list[tuple[Callable, Callable]] = []
_disabled_message: str | None = None

_UNPACKED_OUTPUT = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This "
    "is not supported, please use out-of-place `.detach()` instead")
_PACK_CHANGED_INPUT = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the "
    "input to a pack hook.")


class SavedTensor:
    """A tensor an operation keeps for its backward, with the version it had then.

    If the tensor is changed in place before backward runs, its version counter has moved
    on and unpacking raises PyTorch's "modified by an inplace operation" error: the saved
    values are no longer the ones the gradient formula needs. A tensor packed by a hook is
    not checked: the hook decided what to keep, perhaps a copy.
    """

    __slots__ = ("_array", "_version_counter", "_saved_version", "_tensor", "_output_nr",
                 "_requires_grad", "_packed", "_unpack_hook")

    def __init__(self, tensor: Tensor, is_output: bool = False) -> None:
        if tensor._is_inference:
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors "
                "created in inference mode in computation tracked by autograd. To work around "
                "this, you can make a clone to get a normal tensor and use it in autograd, or "
                "use `torch.no_grad()` instead of `torch.inference_mode()`.")
        self._array = tensor._data
        self._version_counter = counter = tensor._version_counter
        self._saved_version = counter[0]
        # An input is kept itself, so that the error can name the node that produces it
        # *now* (after ``a.add_(1)``, that is ``AddBackward0``), as PyTorch's does. An output's
        # producer is the saving node: keeping the output here would make a reference cycle,
        # so ``unpack`` is told the node instead, and the output's number is kept (a custom
        # Function can save its output 1), and whether it requires grad.
        if is_output:
            self._tensor = None
            self._output_nr, self._requires_grad = tensor._output_nr, tensor._requires_grad
        else:
            self._tensor = tensor
        self._unpack_hook = None
        if _hooks_stack:
            self._pack(tensor, *_hooks_stack[-1])

    def _pack(self, tensor: Tensor, pack_hook: Callable, unpack_hook: Callable) -> None:
        """Keep what ``pack_hook`` makes of ``tensor``, not its values."""
        with no_grad():  # PyTorch packs with gradient recording off, even in forward
            self._packed = call_single_hook(PACK_HOOK, None, pack_hook, tensor)
        if tensor._version_counter[0] != self._saved_version:
            raise RuntimeError(_PACK_CHANGED_INPUT)
        self._unpack_hook, self._array = unpack_hook, None

    @property
    def data(self) -> Any:
        """What is kept, as PyTorch's ``SavedTensor.data`` shows it: what the pack hook
        returned, as is; else a saved input itself, or a saved output detached (the output
        itself would hold its own node alive from inside that node)."""
        if self._unpack_hook is not None:
            return self._packed
        if self._tensor is not None:
            return self._tensor
        return wrap(self._array)

    @property
    def unpack_hook(self) -> Callable[[Any], Tensor] | None:
        """The hook that will give the tensor back, or None if no hook packed it."""
        return self._unpack_hook

    def register_hooks(self, pack_hook: Callable[[Tensor], Any],
                       unpack_hook: Callable[[Any], Tensor]) -> None:
        """Pack this one saved tensor now, as ``saved_tensors_hooks`` would have packed it
        (``grad_fn._raw_saved_self.register_hooks(pack, unpack)``)."""
        if self._unpack_hook is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have "
                               "already been set. Hint: only one pair of hooks is allowed at "
                               "a time.")
        _check_callable(pack_hook, unpack_hook)
        tensor = self._tensor if self._tensor is not None else wrap(self._array)
        self._pack(tensor, pack_hook, unpack_hook)

    def unpack(self) -> Tensor:
        """The saved tensor, outside any backward (PyTorch's ``SavedTensor.unpack()``): a
        saved input itself, or what the unpack hook gives back, as a tensor in the input's
        place. A saved output has no node to hang from here, which PyTorch reports as a
        detached tensor."""
        if self._tensor is None and self._requires_grad:
            raise RuntimeError(_UNPACKED_OUTPUT)
        return self.tensor(None)

    def tensor(self, node: Any) -> Tensor:
        """The saved tensor, as backward's formulas see it but as a tensor again: an input
        is the input itself; an output, or what an unpack hook gave back, is a new tensor
        in the saved tensor's place in the graph (an output keeps ``node`` as grad_fn).
        What ``grad_fn._saved_self`` and a custom Function's ``saved_tensors`` return."""
        array = self.array(node)
        if self._tensor is None:
            place = (node if self._requires_grad else None, self._output_nr, self._requires_grad)
        elif self._unpack_hook is None:
            return self._tensor
        else:
            original = self._tensor
            place = (original.grad_fn, original._output_nr, original.requires_grad)
        grad_fn, output_nr, requires_grad = place
        tensor = wrap(array, requires_grad=requires_grad)
        tensor.grad_fn, tensor._output_nr = grad_fn, output_nr
        if requires_grad and grad_fn is None:
            # An unpacked leaf is a new leaf, but its gradients still reach the original's
            # .grad: PyTorch gives it the original's AccumulateGrad node.
            from .graph import grad_accumulator  # graph.py imports this module
            tensor._grad_accumulator = weakref.ref(grad_accumulator(self._tensor))
        return tensor

    def array(self, node: Any) -> np.ndarray:
        """The saved values for ``node``'s formula: from the unpack hook, or checked against
        in-place changes since saving."""
        if self._unpack_hook is not None:
            # In the grad mode of the caller: backward's, which is ``create_graph``, so that
            # what an unpack hook computes is differentiable when a graph is being built.
            tensor = call_single_hook(UNPACK_HOOK, None, self._unpack_hook, self._packed)
            if not isinstance(tensor, Tensor):
                raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but "
                                f"got result of type {type_name(tensor)}")
            return tensor._data
        current = self._version_counter[0]
        if current != self._saved_version:
            # A saved input is the tensor itself in PyTorch, so the message shows it as it is
            # now (``t_()`` changes its shape); a saved output is a copy of its metadata.
            if self._tensor is None:
                grad_fn, output_nr, data = node, self._output_nr, self._array
            else:
                grad_fn, output_nr = self._tensor.grad_fn, self._tensor._output_nr
                data = self._tensor._data
            raise RuntimeError(_modified_message(data, grad_fn, output_nr, current,
                                                 self._saved_version))
        return self._array


def _check_callable(*hooks: object) -> None:
    for hook in hooks:
        if not callable(hook):
            raise TypeError(f"saved tensor hooks must be callable, not '{type(hook).__name__}'")


def _modified_message(data: np.ndarray, grad_fn: Any, output_nr: int,
                      current: int, saved: int) -> str:
    where = ""
    if grad_fn is not None:
        where = f", which is output {output_nr} of {op_name(grad_fn)},"
    return (
        "one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: [{from_numpy_dtype(data.dtype).legacy_name} {list(data.shape)}]"
        f"{where} is at "
        f"version {current}; expected version {saved} instead. Hint: enable anomaly detection "
        "to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def op_name(node: Any) -> str:
    """``MulBackward0`` -> ``Mul``, ``TBackward1`` -> ``T1``: PyTorch names the forward op
    in its errors (``Node::forward_op_name``)."""
    name = node.name()
    head, found, number = name.rpartition("Backward")
    if not found or not (number == "" or number.isdigit()):
        return name
    return head if number in ("", "0") else head + number


def hooks_state() -> tuple[list[tuple[Callable, Callable]], str | None]:
    """The saved-tensor hooks in force and the disabling message, to put back later."""
    return list(_hooks_stack), _disabled_message


def restore_hooks_state(state: tuple[list[tuple[Callable, Callable]], str | None]) -> None:
    """Put back what :func:`hooks_state` returned. PyTorch keeps these hooks in
    thread-local state that its engine captures when backward starts and puts back when it
    ends, so a hook that enters or leaves a ``saved_tensors_hooks`` context during backward
    changes nothing outside that backward."""
    global _disabled_message
    _hooks_stack[:], _disabled_message = state


class saved_tensors_hooks:  # noqa: N801 - torch's name
    """Within this context, each tensor an operation saves for backward goes through
    ``pack_hook(tensor)``, and what that returns is kept; backward gets the tensor back from
    ``unpack_hook(packed)``. Nested, only the innermost pair applies.

    The hooks that count are those in force when the tensor is *saved*, not when backward
    runs. ``pack_hook`` must not change its input in place; to avoid a reference cycle it
    should not return the tensor itself but, say, ``tensor.detach()``.
    See <https://docs.pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.saved_tensors_hooks>
    """

    __module__ = "minitorch_hooks.autograd.graph"  # its public home, as in PyTorch

    def __init__(self, pack_hook: Callable[[Tensor], Any],
                 unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if _disabled_message is not None:
            raise RuntimeError(_disabled_message)
        _check_callable(self.pack_hook, self.unpack_hook)
        _hooks_stack.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc_info: object) -> None:
        # Leaving pops the innermost pair, whichever context entered it, as PyTorch does.
        if not _hooks_stack:  # PyTorch's internal assert fails here: a RuntimeError too
            raise RuntimeError("saved_tensors_hooks: leaving a context with no saved tensor "
                               "hooks in force (more exits than enters)")
        _hooks_stack.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - torch's name
    """Keep saved tensors on the CPU and move them back for backward. Everything here is
    on the CPU already, so, as PyTorch does for CPU tensors, nothing is copied.
    See <https://docs.pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.save_on_cpu>
    """

    __module__ = "minitorch_hooks.autograd.graph"  # its public home, as in PyTorch

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        # The library's own hooks: a trace does not show them (``library_hook``).
        super().__init__(library_hook(lambda tensor: (tensor.device, tensor.cpu())),
                         library_hook(lambda packed: packed[1].to(packed[0])))


@contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Refuse saved tensor hooks within this context: entering ``saved_tensors_hooks`` (or
    this context while hooks are in force) raises ``RuntimeError(error_message)``. For code
    that cannot work with packed tensors.
    See <https://docs.pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.disable_saved_tensors_hooks>
    """
    global _disabled_message
    if _hooks_stack:
        raise RuntimeError(error_message)
    previous, _disabled_message = _disabled_message, error_message
    try:
        yield
    finally:
        _disabled_message = previous
