"""Copies and dtype conversions: ``clone``, ``contiguous``, ``to``, ``float``, ...

Their backward passes the gradient through unchanged; the engine casts it back to the
input's dtype.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from .. import _dtype
from .._allocation import allocation_failed
from .._device import check_available
from .._tensor import Tensor, wrap
from ..autograd.graph import Node
from ._arguments import invalid_combination
from ._record import record


class CloneBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad


def _copy(input: Tensor, order: str) -> Tensor:
    try:
        data = np.array(input._data, order=order, copy=True)
    except MemoryError as error:  # an expanded tensor made real
        raise allocation_failed(error) from None
    return record(data, CloneBackward0, (input,))


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


_TO_KEYWORDS = {"device", "dtype", "non_blocking", "copy", "memory_format"}
_TO_SIGNATURES = tuple(
    f"({first}bool non_blocking = False, bool copy = False, *, torch.memory_format "
    "memory_format = None)"
    for first in ("torch.device device = None, torch.dtype dtype = None, ",
                  "torch.dtype dtype, ", "Tensor tensor, "))


def parse_to(*args: Any, **kwargs: Any) -> _dtype.dtype | None:
    """The dtype that ``to``'s arguments ask for (``None``: keep it), checking on the way
    that any device they name is the CPU.

    ``to`` takes a device, a dtype or a tensor (whose dtype and device are copied), in any
    order, positionally or as ``device=``/``dtype=``; ``None`` leaves that one as it is,
    and a bool is ``non_blocking``, which means nothing on the CPU. ``Tensor.to`` and
    ``Module.to`` read their arguments the same way, as PyTorch's share ``_parse_to``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.to.html>
    """
    if kwargs.keys() - _TO_KEYWORDS:
        raise invalid_combination("to", args, kwargs, _TO_SIGNATURES)
    dtype = kwargs.get("dtype")
    for arg in args:
        if isinstance(arg, _dtype.dtype):
            dtype = arg
        elif isinstance(arg, Tensor):
            dtype = arg.dtype
        elif arg is not None and not isinstance(arg, builtins.bool):  # (``bool`` is ours)
            check_available(arg)  # raises for anything but the CPU
    if kwargs.get("device") is not None:
        check_available(kwargs["device"])
    return dtype


def to(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Convert to another dtype (``to(torch.float64)``); devices other than the CPU are an
    error. Converting to the dtype it already has returns the tensor itself."""
    dtype = parse_to(*args, **kwargs)
    if dtype is None or dtype is input.dtype:
        return input
    if input._requires_grad and not dtype.is_floating_point:
        return wrap(input._data.astype(dtype.numpy_type))
    return record(input._data.astype(dtype.numpy_type), ToCopyBackward0, (input,))


def cpu(input: Tensor) -> Tensor:
    """The tensor itself: it is on the CPU already, the only device here. (PyTorch too
    returns the same tensor when no copy is needed.)
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.cpu.html>
    """
    return input


def cuda(input: Tensor, device: Any = None, non_blocking: bool = False) -> Tensor:
    """Refused, as on a CPU-only PyTorch: ``AssertionError: Torch not compiled with CUDA
    enabled``; ``cuda(0)`` (an index, which means "the accelerator") fails first, as
    there is none. Code that calls ``.cuda()`` only when ``torch.cuda.is_available()``
    runs on the CPU instead.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.cuda.html>
    """
    check_available("cuda" if device is None else device)
    return input


def type(input: Tensor, dtype: Any = None, non_blocking: bool = False) -> Any:  # noqa: A001
    """Without an argument, the legacy type name (``'torch.FloatTensor'``); with a dtype, a
    legacy type (``torch.LongTensor``) or its name, the tensor converted to it. An old API
    that model code still uses, as ``Module.type`` does.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.type.html>
    """
    if dtype is None:
        return input.dtype.legacy_name
    from .._tensor_new import BY_NAME, tensortype

    if isinstance(dtype, tensortype):
        dtype = dtype.dtype
    elif isinstance(dtype, str):
        if dtype not in BY_NAME:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = BY_NAME[dtype]
    return to(input, dtype)


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
