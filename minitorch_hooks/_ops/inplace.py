"""In-place operations (``add_``, ``mul_``, ``zero_``, ...) and PyTorch's guards on them.

Changing a tensor in place is where autograd can silently go wrong, so PyTorch refuses or
detects the dangerous cases, and so do we:

* a leaf that requires grad cannot be changed in place while the graph is being recorded
  (its old value is what the gradient is about); under ``no_grad`` it can, which is how
  optimisers update weights;
* every in-place change bumps the tensor's version counter; a node that saved the tensor
  for backward notices the new version and raises instead of using the wrong values;
* a tensor whose elements share memory (an expanded one) cannot receive a computed result,
  whether or not autograd is involved.

With recording on, the tensor is rebased onto a new node, as in PyTorch: ``y.add_(1)``
gives ``y`` the grad_fn ``AddBackward0`` whose input is ``y``'s previous value. A change to
a view also changes its base, so it is the base that is rebased, onto ``CopySlices``, and
the views read their gradient out of the base's (``view_history.py``).
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#in-place-operations-with-autograd>
"""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Number
from typing import Any

import numpy as np

from .. import _dtype
from .._generator import Generator
from .._tensor import InferenceState, Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.function import custom_function_view_error
from ..autograd.grad_mode import _State
from ..autograd.graph import Node
from ..random import default_generator
from . import (
    activation,
    division,
    elementary,
    gather_scatter,
    logical,
    pointwise,
    rounding,
)
from ._record import any_requires_grad, promote, record, value_of
from .view_history import (
    INTERNAL_OVERLAP,
    CopySlices,
    positions_in_base,
    rebase_view_history,
    set_history,
    view_change_error,
)

VIEW_OF_LEAF = ("a view of a leaf Variable that requires grad is being used in an in-place "
                "operation.")


def check_in_place(tensor: Tensor, *args: Any) -> None:
    """Refuse the in-place changes that would corrupt the recorded graph.

    ``args`` are the operation's other inputs. As in PyTorch, the checks apply only when the
    change would be recorded: grad mode is on and something involved requires grad (for a
    view, its base counts).
    """
    if tensor._is_inference and not InferenceState.enabled:
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
            "make a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details.")
    if not _State.enabled:
        return
    message = custom_function_view_error(tensor)
    if message:
        raise RuntimeError(message)
    base = tensor._base
    if not (tensor.requires_grad or (base is not None and base._requires_grad)
            or any_requires_grad(args)):
        return
    if base is not None:
        if tensor._creation_meta is not None:
            raise RuntimeError(view_change_error(tensor, indirect=False))
        if tensor.requires_grad and base.grad_fn is None:
            raise RuntimeError(VIEW_OF_LEAF)
    if tensor._requires_grad and tensor.grad_fn is None:
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation.")


def check_no_internal_overlap(tensor: Tensor) -> None:
    """Refuse to write into a tensor whose elements share memory.

    An expanded tensor (``expand``, or the gradient that ``sum`` sends back) repeats one
    element along a dimension of stride 0. Writing an operation's result into it would
    compute each element from memory that the previous writes already changed, so PyTorch
    refuses. ``fill_`` and ``zero_``, which write one value everywhere, may.
    """
    strides = tensor._data.strides
    if 0 not in strides:  # the usual case, checked fast
        return
    for size, stride in zip(tensor._data.shape, strides):
        if stride == 0 and size > 1:
            raise RuntimeError(INTERNAL_OVERLAP)


def bump_version(tensor: Tensor) -> None:
    tensor._version_counter[0] += 1


def apply_in_place(tensor: Tensor, operation: Callable[..., Tensor], *args: Any,
                   may_overlap: bool = False, through_view: bool = False) -> Tensor:
    """Run ``operation(tensor, *args)`` out of place, then write the result into
    ``tensor``'s memory and, when recording, make its node the tensor's history.
    ``may_overlap`` is for the fills, which may write into an expanded tensor;
    ``through_view`` for item assignment, which PyTorch writes through a view of the
    tensor, so that it records ``CopySlices`` even on a tensor that is not a view.

    Every in-place operation comes here, recorded or not, so that it follows the same
    promotion, refusals and keywords as its operator. Computing an optimiser's unrecorded
    ``p.add_(g, alpha=-lr)`` straight into ``p``'s memory would save an array, but as a
    second path it had NumPy's rules instead (``x.sub_(True)`` went through where PyTorch
    refuses a bool)."""
    check_in_place(tensor, *args)
    if not may_overlap:
        check_no_internal_overlap(tensor)
    recording = _State.enabled and (
        tensor.requires_grad or any_requires_grad(args))
    if recording:
        # The node must see the value from before the change: give it a copy of it that
        # keeps the tensor's place in the graph.
        previous = wrap(tensor._data.copy(), tensor.requires_grad)
        previous.grad_fn, previous._output_nr = tensor.grad_fn, tensor._output_nr
        result = operation(previous, *args)
    else:  # nothing to record: grad mode is off, or no operand requires a gradient
        result = operation(tensor, *args)
    _write(tensor, result._data)
    if recording:
        node = result.grad_fn
        node._output_written_into(tensor)
        if tensor._base is not None:
            rebase_view_history(tensor, node)
        elif through_view:
            everything = positions_in_base(tensor._data, tensor._data)
            set_history(tensor, CopySlices(tensor, everything, node))
        else:
            set_history(tensor, node)
    return tensor


def _write(tensor: Tensor, values: np.ndarray) -> None:
    try:
        np.copyto(tensor._data, values, casting="same_kind")
    except TypeError:
        result = _dtype.from_numpy_dtype(values.dtype).scalar_name
        raise RuntimeError(f"result type {result} can't be cast to the desired output type "
                           f"{tensor.dtype.scalar_name}") from None
    except ValueError:
        raise RuntimeError(f"output with shape {list(tensor.shape)} doesn't match the broadcast "
                           f"shape {list(np.shape(values))}") from None
    bump_version(tensor)


def _in_place(operation: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return apply_in_place(self, lambda t, *a: operation(t, *a, **kwargs), *args)

    method.__name__ = operation.__name__ + "_"
    method.__doc__ = f"In-place ``{operation.__name__}``; returns the tensor itself."
    return method


add_ = _in_place(pointwise.add)
sub_ = _in_place(pointwise.sub)
mul_ = _in_place(pointwise.mul)
div_ = _in_place(pointwise.div)
pow_ = _in_place(pointwise.pow)
neg_ = _in_place(pointwise.neg)
exp_ = _in_place(pointwise.exp)
relu_ = _in_place(pointwise.relu)
tanh_ = _in_place(pointwise.tanh)
sigmoid_ = _in_place(pointwise.sigmoid)
sqrt_ = _in_place(pointwise.sqrt)
nan_to_num_ = _in_place(pointwise.nan_to_num)
abs_ = _in_place(pointwise.abs)
ROUNDING_ = {name + "_": _in_place(function) for name, function in rounding.METHODS.items()}
scatter_ = _in_place(gather_scatter.scatter)
scatter_add_ = _in_place(gather_scatter.scatter_add)
masked_scatter_ = _in_place(gather_scatter.masked_scatter)


def floor_divide_(self: Tensor, other: Any) -> Tensor:
    """In-place ``//``; its node, like PyTorch's, names the in-place op when it refuses."""
    apply_in_place(self, division.floor_divide, other)
    if type(self._grad_fn) is division.NotImplementedBackward:
        self._grad_fn.op = "floor_divide_"
    return self


remainder_ = _in_place(division.remainder)
fmod_ = _in_place(division.fmod)
ELEMENTARY_ = {name + "_": _in_place(function) for name, function in elementary.UNARY.items()}


def _bitwise_in_place(operation: Callable[[Any, Any], Tensor]) -> Callable[[Tensor, Any], Tensor]:
    """``a &= b`` and the like: PyTorch checks that the result's dtype fits ``a`` before
    looking for a kernel, so ``bool_tensor &= float_tensor`` is refused for the cast."""
    def method(self: Tensor, other: Any) -> Tensor:
        a, b = promote(self, other)
        result = np.result_type(a, b)
        if not np.can_cast(result, self._data.dtype, casting="same_kind"):
            raise RuntimeError(f"result type {_dtype.from_numpy_dtype(result).scalar_name} "
                               f"can't be cast to the desired output type "
                               f"{self.dtype.scalar_name}")
        return apply_in_place(self, operation, other)

    method.__name__ = operation.__name__ + "_"
    method.__doc__ = f"In-place ``{operation.__name__}``; returns the tensor itself."
    return method


LOGICAL_ = {
    **{name + "_": _bitwise_in_place(logical.METHODS[name])
       for name in ("bitwise_and", "bitwise_or", "bitwise_xor")},
    **{name + "_": _in_place(logical.METHODS[name])
       for name in ("bitwise_not", "logical_and", "logical_or", "logical_xor")},
}
silu_ = _in_place(activation.silu)


def leaky_relu_(self: Tensor, negative_slope: float = 0.01) -> Tensor:
    """In-place ``leaky_relu``: its node saves the result (``LeakyReluBackward1``)."""
    return apply_in_place(self, lambda t: activation.leaky_relu_result_saved(t, negative_slope))


class FillBackward2(Node):
    """``fill_`` with a number: the old values are gone, so their gradient is zero."""

    __slots__ = ()

    def backward(self, grad):
        return formula.zeros_like(grad)


class FillBackward3(FillBackward2):
    """``fill_`` with a 0-d tensor, whose gradient is the sum of the output's."""

    __slots__ = ()

    def backward(self, grad):
        return formula.zeros_like(grad), grad.sum()


class ZeroBackward0(FillBackward2):
    __slots__ = ()


def _filler(value: Any, node_type: type[Node]) -> Callable[..., Tensor]:
    def filled(t: Tensor, *tensor_value: Tensor) -> Tensor:
        return record(np.full_like(t._data, value_of(value)), node_type, (t, *tensor_value))

    return filled


def fill_(self: Tensor, value: Any) -> Tensor:
    """Set every element to ``value`` (a number or a 0-d tensor)."""
    if isinstance(value, Tensor):
        return apply_in_place(self, _filler(value, FillBackward3), value)
    number = scalar_for(value, self._data.dtype)
    return apply_in_place(self, _filler(number, FillBackward2), may_overlap=True)


# C++'s names for the types in PyTorch's message; the other integers are ``int64_t``, ...
_C_TYPE_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double",
                 "int32": "int", "bool": "bool"}


def scalar_for(number: Any, dtype: np.dtype) -> np.ndarray:
    """A Python number written into a tensor of ``dtype``, converted as PyTorch converts it.

    PyTorch reads an integer as a C ``long long`` first, and refuses a value that would
    overflow the tensor's type rather than let it wrap around silently, with one exception
    kept from C: a small negative number in an unsigned type (-1 is 255 in uint8). A float
    written into an integer tensor is truncated, as C's conversion does.
    """
    if isinstance(number, np.generic):
        number = number.item()
    if isinstance(number, complex):
        if number.imag:
            raise RuntimeError(_overflow(dtype))
        number = number.real
    if not isinstance(number, Number):
        raise TypeError(f"can't assign a {type(number).__name__} to a tensor")
    if type(number) is int and not -(2**63) <= number < 2**63:
        raise ValueError("Overflow when unpacking long long")
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        high = float(info.max) if isinstance(number, float) else info.max  # as C compares
        low = -high if dtype.kind == "u" else info.min
        if not low <= number <= high:  # also refuses nan and inf
            raise RuntimeError(_overflow(dtype))
    elif dtype.kind == "f" and math.isfinite(number) and abs(number) > float(np.finfo(dtype).max):
        raise RuntimeError(_overflow(dtype))
    with np.errstate(invalid="ignore"):  # 2.0**63 passes the check (as in C) and wraps
        return np.array(number).astype(dtype)


def _overflow(dtype: np.dtype) -> str:
    name = _C_TYPE_NAMES.get(dtype.name, f"{dtype.name}_t")
    return f"value cannot be converted to type {name} without overflow"


def zero_(self: Tensor) -> Tensor:
    return apply_in_place(self, _filler(0, ZeroBackward0), may_overlap=True)


class CopyBackwards(Node):
    __slots__ = ()

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"  # a C++ node, like AccumulateGrad

    def backward(self, grad):
        return formula.zeros_like(grad), grad


def copy_(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    """Copy ``src``'s values (or a number) into this tensor, broadcast to its shape and
    cast to its dtype. ``non_blocking`` lets a copy between the CPU and a GPU overlap
    with computation; between two CPU tensors there is nothing to overlap."""
    def copied(t: Tensor, s: Any) -> Tensor:
        values = np.broadcast_to(value_of(s), t._data.shape).astype(t._data.dtype)
        return record(values, CopyBackwards, (t, s))

    return apply_in_place(self, copied, src)


def fill_random_(self: Tensor, kernel: Callable[[np.ndarray], None]) -> Tensor:
    """Run a random-number kernel over this tensor's memory, with the in-place guards."""
    check_in_place(self)
    check_no_internal_overlap(self)
    kernel(self._data)
    bump_version(self)
    return self


# The random fills behind ``nn.init`` and dropout. Each hands the tensor's memory to the
# generator's kernel, which draws exactly the numbers PyTorch's CPU generator draws.

def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *,
             generator: Generator | None = None) -> Tensor:
    """Fill with uniform samples in ``[from, to)`` (PyTorch's first argument is ``from``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.uniform_.html>
    """
    gen = generator or default_generator
    return fill_random_(self, lambda data: gen._uniform_(data, from_, to))


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill with samples of the normal distribution ``N(mean, std**2)``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.normal_.html>
    """
    gen = generator or default_generator
    return fill_random_(self, lambda data: gen._normal_(data, mean, std))


def random_(self: Tensor, from_: int | None = None, to: int | None = None, *,
            generator: Generator | None = None) -> Tensor:
    """Fill with random integers: in ``[from, to)``, in ``[0, to)`` given one bound, or
    without bounds over every integer the dtype holds exactly from 0 up (to ``2**24`` for
    float32). The numbers are the ones PyTorch's CPU generator draws.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.random_.html>
    """
    gen = generator or default_generator
    if from_ is None and to is None:
        return fill_random_(self, gen._random_full_range_)
    low, high = (0, from_) if to is None else (from_ or 0, to)  # one bound: ``random_(to)``
    return fill_random_(self, lambda data: gen._random_(data, low, high))


def bernoulli_(self: Tensor, p: float = 0.5, *, generator: Generator | None = None) -> Tensor:
    """Fill with 1 with probability ``p`` and 0 otherwise: the mask that dropout draws.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.bernoulli_.html>
    """
    if isinstance(p, Tensor):
        raise NotImplementedError("minitorch_hooks implements bernoulli_ for a number p only")
    gen = generator or default_generator
    return fill_random_(self, lambda data: gen._bernoulli_(data, p))
