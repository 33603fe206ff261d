"""Copies and dtype conversions: ``clone``, ``contiguous``, ``to``, ``float``, ...

Their backward passes the gradient through unchanged; the engine casts it back to the
input's dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from ..autograd.graph import Node
from ._record import record


class CloneBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad


def _copy(input: Tensor, order: str) -> Tensor:
    return record(np.array(input._data, order=order, copy=True), CloneBackward0, (input,))


def clone(input: Tensor) -> Tensor:
    """A copy with the same memory layout: a transposed tensor's clone is still not
    contiguous, as in PyTorch (``memory_format=torch.preserve_format``)."""
    return _copy(input, "K")


def contiguous(input: Tensor) -> Tensor:
    """The tensor itself if its memory is in row-major order, else a row-major copy."""
    return input if input._data.flags.c_contiguous else _copy(input, "C")


class ToCopyBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad


def to(input: Tensor, *args: Any, dtype: _dtype.dtype | None = None, **kwargs: Any) -> Tensor:
    """Convert to another dtype (``to(torch.float64)``); devices other than the CPU are an
    error. Converting to the dtype it already has returns the tensor itself."""
    for arg in args:
        if isinstance(arg, _dtype.dtype):
            dtype = arg
        elif isinstance(arg, Tensor):
            dtype = arg.dtype
        else:
            from .._tensor import device

            device(arg)  # raises for anything but the CPU
    if kwargs.get("device") is not None:
        from .._tensor import device

        device(kwargs["device"])
    if dtype is None or dtype is input.dtype:
        return input
    if input._requires_grad and not dtype.is_floating_point:
        return Tensor._wrap(input._data.astype(dtype.numpy_type))
    return record(input._data.astype(dtype.numpy_type), ToCopyBackward0, (input,))


def _converter(target: _dtype.dtype):
    def convert(input: Tensor) -> Tensor:
        return to(input, target)

    convert.__doc__ = f"``to({target!r})``."
    return convert


float = _converter(_dtype.float32)  # noqa: A001
double = _converter(_dtype.float64)
half = _converter(_dtype.float16)
long = _converter(_dtype.int64)
int = _converter(_dtype.int32)  # noqa: A001
bool = _converter(_dtype.bool)  # noqa: A001


def type_as(input: Tensor, other: Tensor) -> Tensor:
    return to(input, other.dtype)
