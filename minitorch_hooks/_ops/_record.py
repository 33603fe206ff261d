"""The one step every differentiable operation shares: record a node for backward.

An operation computes its result with NumPy, then calls :func:`record`. If gradient
recording is on and some input requires grad, ``record`` builds the operation's node
(``MulBackward0``, ...), saves what the backward formula needs, and makes the node the
result's ``grad_fn``. Otherwise the result is a plain leaf and nothing else happens.
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.grad_mode import _State
from ..autograd.graph import Node, SavedTensor


def record(data: Any, node_type: type[Node], inputs: tuple, saved: tuple = (),
           save_output: bool = False, **attributes: Any) -> Tensor:
    """Wrap ``data`` as the result of an operation on ``inputs``, recording its node.

    ``saved`` lists inputs the backward formula needs (tensors are saved with their version,
    numbers as they are); ``save_output`` also saves the result; ``attributes`` (a ``dim``,
    an exponent, ...) are set on the node.
    """
    out = Tensor._wrap(data)
    if _State.enabled and any(getattr(t, "_requires_grad", False) for t in inputs):
        kept = tuple(SavedTensor(s) if isinstance(s, Tensor) else s for s in saved)
        if save_output:
            kept += (SavedTensor(out, is_output=True),)
        node = node_type(tuple(t if isinstance(t, Tensor) else None for t in inputs), kept)
        for name, value in attributes.items():
            setattr(node, name, value)
        out.grad_fn = node
        out._requires_grad = True
    return out


def value_of(x: Any) -> Any:
    """The NumPy array of a tensor, or a plain Python number as it is."""
    return x._data if isinstance(x, Tensor) else x


def _category(kind: str) -> int:
    """PyTorch promotes across categories bool < integer < floating point."""
    return 2 if kind == "f" else (0 if kind == "b" else 1)


def as_number(x: Any) -> bool | int | float:
    """A Python number from a Python or NumPy scalar; anything else is a TypeError."""
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, Number) and not isinstance(x, complex):
        return x
    raise TypeError(f"unsupported operand type for a tensor operation: '{type(x).__name__}'")


def promote(x: Any, y: Any) -> tuple[Any, Any]:
    """The values of two operands, cast so that NumPy computes in PyTorch's result dtype.

    PyTorch's rules: a higher category wins (an integer tensor times 2.5 is float32, the
    default dtype); within a category, a tensor with dimensions beats a 0-d tensor, which
    beats a Python number. NumPy agrees on most cases; the casts below cover the rest.
    See https://pytorch.org/docs/stable/tensor_attributes.html#type-promotion-doc
    """
    x_is_tensor, y_is_tensor = isinstance(x, Tensor), isinstance(y, Tensor)
    if x_is_tensor and y_is_tensor:
        a, b = x._data, y._data
        if a.dtype == b.dtype:
            return a, b
        target = _tensor_result_dtype(a, b)
        return a.astype(target, copy=False), b.astype(target, copy=False)
    if x_is_tensor:
        a, number = x._data, as_number(y)
        return _cast_for_number(a, number), number
    if y_is_tensor:
        b, number = y._data, as_number(x)
        return number, _cast_for_number(b, number)
    raise TypeError("at least one operand must be a tensor")


def _tensor_result_dtype(a: np.ndarray, b: np.ndarray) -> np.dtype:
    category_a, category_b = _category(a.dtype.kind), _category(b.dtype.kind)
    if category_a != category_b:
        return a.dtype if category_a > category_b else b.dtype
    if a.ndim == 0 and b.ndim > 0:
        return b.dtype
    if b.ndim == 0 and a.ndim > 0:
        return a.dtype
    return np.promote_types(a.dtype, b.dtype)


def _cast_for_number(array: np.ndarray, number: bool | int | float) -> np.ndarray:
    kind = array.dtype.kind
    if isinstance(number, float) and kind != "f":
        return array.astype(np.float32)  # the default dtype, not NumPy's float64
    if isinstance(number, int) and not isinstance(number, bool) and kind == "b":
        return array.astype(np.int64)
    return array
