"""Logical and bitwise operations: ``~``, ``&``, ``|``, ``^``, ``logical_and``/``or``/``xor``.

Hook code builds masks with them: ``torch.isnan(g) | torch.isinf(g)`` in a NaN detector,
``~mask`` to keep the other elements. None is differentiable: the results are bool or
integer tensors, outside the graph.

The bitwise ones work on the bits of bool and integer tensors (on bools, they are the
logical ones); a floating-point operand is refused, as PyTorch's CPU kernels refuse it.
The ``logical_*`` ones take any dtypes and answer in bool: non-zero is True.
See <https://docs.pytorch.org/docs/2.13/generated/torch.bitwise_and.html>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor import Tensor, wrap
from ._record import promote
from .pointwise import broadcast_shapes


def _not_implemented(kernel: str, dtype: np.dtype) -> NotImplementedError:
    return NotImplementedError(f'"{kernel}_cpu" not implemented for '
                               f"'{from_numpy_dtype(dtype).scalar_name}'")


def _bitwise(name: str, ufunc: np.ufunc) -> Callable[[Any, Any], Tensor]:
    """The operation ``torch.<name>``: ``ufunc`` on the operands, promoted as PyTorch
    promotes them (a bool tensor and an int tensor give int64)."""
    def operation(input: Any, other: Any) -> Tensor:
        a, b = promote(input, other)
        result_dtype = np.result_type(a, b)
        if result_dtype.kind == "f":
            raise _not_implemented(name, result_dtype)
        broadcast_shapes(np.shape(a), np.shape(b))
        return wrap(np.asarray(ufunc(a, b), dtype=result_dtype))

    operation.__name__ = name
    operation.__doc__ = f"``{ufunc.__name__}`` of bool or integer tensors, element-wise."
    return operation


bitwise_and = _bitwise("bitwise_and", np.bitwise_and)
bitwise_or = _bitwise("bitwise_or", np.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor)


def _reflected(operation: Callable[[Any, Any], Tensor]) -> Callable[[Any, Any], Tensor]:
    def reflected(self: Tensor, other: Any) -> Tensor:  # ``3 & t``: ``t.__rand__(3)``
        return operation(other, self)

    return reflected


def bitwise_not(input: Tensor) -> Tensor:
    """Every bit flipped: ``not`` on bools, ``-x - 1`` on signed integers.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.bitwise_not.html>
    """
    data = input._data
    if data.dtype.kind == "f":
        raise _not_implemented("bitwise_not", data.dtype)
    return wrap(np.invert(data))


def invert(input: Tensor) -> Tensor:
    """``~x``. Python's operator checks the dtype itself, with a TypeError of its own,
    before calling ``bitwise_not``."""
    if input._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return bitwise_not(input)


def _logical(name: str, ufunc: np.ufunc) -> Callable[[Tensor, Tensor], Tensor]:
    def operation(input: Tensor, other: Tensor) -> Tensor:
        broadcast_shapes(input._data.shape, other._data.shape)
        return wrap(ufunc(input._data, other._data))

    operation.__name__ = name
    operation.__doc__ = (f"``{ufunc.__name__}`` of two tensors of any dtypes, as bool (non-zero "
                         "is True).")
    return operation


logical_and = _logical("logical_and", np.logical_and)
logical_or = _logical("logical_or", np.logical_or)
logical_xor = _logical("logical_xor", np.logical_xor)

# The operators; ``&=`` and the in-place methods are in ``inplace.py``.
OPERATORS = {"__and__": bitwise_and, "__or__": bitwise_or, "__xor__": bitwise_xor,
             "__rand__": _reflected(bitwise_and), "__ror__": _reflected(bitwise_or),
             "__rxor__": _reflected(bitwise_xor)}
METHODS = {"bitwise_and": bitwise_and, "bitwise_or": bitwise_or, "bitwise_xor": bitwise_xor,
           "bitwise_not": bitwise_not, "__invert__": invert, "logical_and": logical_and,
           "logical_or": logical_or, "logical_xor": logical_xor}
