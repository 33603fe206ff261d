"""A failed allocation raises PyTorch's RuntimeError, not NumPy's MemoryError.

``torch.zeros(10**13)`` asks for 40 TB. PyTorch's CPU allocator refuses with a
RuntimeError that says how many bytes were asked for; NumPy raises a MemoryError with a
message of its own. Code written for PyTorch catches RuntimeError (and tests match its
message), so the places that allocate, the creation functions (:func:`allocating`) and the
operations whose result may be far bigger than their inputs (an expanded tensor made
contiguous, a broadcast product, a matrix product), turn NumPy's error into PyTorch's.
The ``try`` costs nothing until an allocation fails.
See <https://docs.pytorch.org/docs/2.13/notes/faq.html>
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

Function = TypeVar("Function", bound=Callable[..., Any])


def allocation_failed(error: MemoryError) -> MemoryError | RuntimeError:
    """PyTorch's error for the allocation NumPy could not make (NumPy's own error when it
    does not say what it tried to allocate)."""
    shape, dtype = getattr(error, "shape", None), getattr(error, "dtype", None)
    if shape is None or dtype is None:
        return error
    size = math.prod(shape) * np.dtype(dtype).itemsize
    return RuntimeError("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: "
                        f"can't allocate memory: you tried to allocate {size} bytes. Error "
                        "code 12 (Cannot allocate memory)")


_INT64_MAX = 2**63 - 1


def check_sizes(shape: tuple[int, ...], itemsize: int) -> None:
    """PyTorch's checks before it allocates a new contiguous tensor, in its order.

    First the storage: the product of the sizes, then times the item size, must fit in an
    int64, counted as PyTorch counts it, overflowing at the first product too big, so
    ``empty(2**62, 2**62, 0)`` fails though it holds nothing. Then the strides, from the
    last dimension leftwards (a size 0 counts as 1), so ``empty(0, 2**62, 2**62)`` fails
    there. A size that fits but cannot be had fails later, in the allocator
    (:func:`allocation_failed`). NumPy refuses all of these with a ValueError of its own.
    See ``computeStorageNbytesContiguous`` and ``empty_tensor_restride`` in c10.
    """
    product, overflowed = 1, False
    for size in shape:
        product *= size
        overflowed |= product > 2**64 - 1  # PyTorch multiplies in uint64
        product &= 2**64 - 1
    if overflowed or product * itemsize > _INT64_MAX:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    stride = 1
    for size in reversed(shape[1:]):
        stride *= max(size, 1)
        if stride > _INT64_MAX:
            raise RuntimeError("Stride calculation overflowed")


def check_numel(shape: tuple[int, ...]) -> None:
    """PyTorch's count of a new view's elements (c10's ``safe_compute_numel``): the sizes
    multiplied as unsigned 64-bit integers (so a negative size is a huge one), refused if a
    product overflows or the count passes the largest int64. ``x.expand(2**62, 2)`` and
    ``x.expand(-2, 1)`` fail here, though a view allocates nothing."""
    product, overflowed = 1, False
    for size in shape:
        product *= size % 2**64
        overflowed |= product > 2**64 - 1
        product &= 2**64 - 1
    if overflowed or product > _INT64_MAX:
        raise RuntimeError("numel: integer multiplication overflow")


def check_numpy_can_hold(shape: tuple[int, ...], itemsize: int) -> None:
    """Refuse, saying why, a shape that PyTorch allows but NumPy cannot hold.

    NumPy, which holds every tensor's elements here, multiplies the item size by every
    nonzero size and refuses an array whose count passes its largest index
    (``np.empty((2**62, 0))`` is "array is too big"), even when a zero makes it empty or
    the array would be a view that repeats one element (``expand``). PyTorch keeps a
    tensor's sizes apart from its memory, so ``torch.empty(2**62, 0)`` and
    ``torch.ones(1).expand(2**62)`` are valid there; holding such shapes here would take a
    second representation of tensors that every operation would have to know about.
    """
    count = itemsize
    for size in shape:
        count *= size or 1
    if count > np.iinfo(np.intp).max:
        raise NotImplementedError(f"minitorch_hooks cannot hold a tensor of size {list(shape)} "
                                  f"with {itemsize}-byte elements: NumPy refuses any array "
                                  "whose nonzero sizes times its item size pass "
                                  f"{np.iinfo(np.intp).max} (PyTorch, which keeps sizes apart "
                                  "from memory, allows it)")


def allocating(function: Function) -> Function:
    """``function``, with a failed allocation reported as PyTorch reports it."""
    @functools.wraps(function)
    def with_pytorchs_error(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except MemoryError as error:
            raise allocation_failed(error) from None

    return with_pytorchs_error  # type: ignore[return-value]
