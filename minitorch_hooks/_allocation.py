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


def allocating(function: Function) -> Function:
    """``function``, with a failed allocation reported as PyTorch reports it."""
    @functools.wraps(function)
    def with_pytorchs_error(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except MemoryError as error:
            raise allocation_failed(error) from None

    return with_pytorchs_error  # type: ignore[return-value]
