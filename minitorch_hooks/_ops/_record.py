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

from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _State
from ..autograd.graph import Node, SavedTensor


def record(data: Any, node_type: type[Node], inputs: tuple, saved: tuple = (),
           save_output: bool = False, **attributes: Any) -> Tensor:
    """Wrap ``data`` as the result of an operation on ``inputs``, recording its node.

    ``saved`` lists inputs the backward formula needs (tensors are saved with their version,
    numbers and ``None`` as they are); ``save_output`` also saves the result; ``attributes``
    (a ``dim``, an exponent, ...) are set on the node.
    """
    out = wrap(data)
    if not (_State.enabled and any_requires_grad(inputs)):
        return out
    node = node_type(inputs, _packed(saved) if saved else ())
    if attributes:
        for name, value in attributes.items():
            setattr(node, name, value)
    out._grad_fn = node  # the slot behind the ``grad_fn`` property: a new result is current
    out._requires_grad = True
    if save_output:
        node._save_output(out)
    return out


def _packed(saved: tuple) -> tuple:
    """What a node keeps of ``saved``: each tensor as a SavedTensor, anything else as it is."""
    packed = []
    for value in saved:
        packed.append(SavedTensor(value) if isinstance(value, Tensor) else value)
    return tuple(packed)


def any_requires_grad(inputs: tuple) -> bool:
    """Whether some input is a tensor that requires grad: then an operation on them is
    recorded (an in-place one too, even when the tensor it changes does not)."""
    for x in inputs:
        if getattr(x, "_requires_grad", False):
            return True
        if getattr(x, "_base", None) is not None and x.requires_grad:  # a view, whose base
            return True  # came to require grad since it was made (see Tensor.requires_grad)
    return False


def saved_for(value: Any, needed_by: Any) -> Any:
    """``value`` if the gradient of ``needed_by`` will be computed, else None.

    PyTorch saves for backward only what the gradients it will compute need: for ``a * 2``
    it keeps the 2 (``a``'s gradient is ``2 * grad``) but not ``a``, whose only use would be
    the gradient of the number. So changing ``a`` in place afterwards is harmless.
    """
    return value if getattr(needed_by, "_requires_grad", False) else None


def saved_for_each_other(a: Any, b: Any) -> tuple[Any, Any]:
    """What a product saves: ``a`` for the gradient of ``b`` and ``b`` for that of ``a``,
    each only if that gradient will be computed (``saved_for(a, b), saved_for(b, a)``)."""
    return (a if getattr(b, "_requires_grad", False) else None,
            b if getattr(a, "_requires_grad", False) else None)


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
    See <https://docs.pytorch.org/docs/2.13/tensor_attributes.html#type-promotion-doc>
    """
    kind = type(y)
    if (kind is float or kind is int) and type(x) is Tensor and x._data.dtype.kind == "f":
        return x._data, y  # a floating-point tensor and a number: nothing to cast
    x_is_tensor, y_is_tensor = isinstance(x, Tensor), isinstance(y, Tensor)
    if x_is_tensor and y_is_tensor:
        a, b = x._data, y._data
        if a.dtype == b.dtype:
            return a, b
        target = _tensor_result_dtype(a, b)
        return a.astype(target, copy=False), b.astype(target, copy=False)
    if x_is_tensor:
        number = as_number(y)
        a = _cast_for_number(x._data, number)
        return a, _number_for(a, number)
    if y_is_tensor:
        number = as_number(x)
        b = _cast_for_number(y._data, number)
        return _number_for(b, number), b
    raise TypeError("at least one operand must be a tensor")


def _number_for(array: np.ndarray, number: bool | int | float) -> Any:
    """A Python int outside an integer tensor's range wraps around, as it does in PyTorch
    (a uint8 tensor minus 1 wraps 0 to 255); NumPy 2 would raise instead."""
    if type(number) is int and array.dtype.kind in "iu":
        limits = np.iinfo(array.dtype)
        if not limits.min <= number <= limits.max:
            return np.array(number).astype(array.dtype)
    return number


def promote_types(a: np.dtype, b: np.dtype) -> np.dtype:
    """PyTorch's ``promote_types``: the higher category wins outright (float32 with int64
    is float32, where NumPy would say float64); within a category, NumPy's rule agrees."""
    category_a, category_b = _category(a.kind), _category(b.kind)
    if category_a != category_b:
        return a if category_a > category_b else b
    return np.promote_types(a, b)


def _tensor_result_dtype(a: np.ndarray, b: np.ndarray) -> np.dtype:
    if _category(a.dtype.kind) == _category(b.dtype.kind):
        if a.ndim == 0 and b.ndim > 0:
            return b.dtype
        if b.ndim == 0 and a.ndim > 0:
            return a.dtype
    return promote_types(a.dtype, b.dtype)


def _cast_for_number(array: np.ndarray, number: bool | int | float) -> np.ndarray:
    kind = array.dtype.kind
    if isinstance(number, float) and kind != "f":
        return array.astype(np.float32)  # the default dtype, not NumPy's float64
    if isinstance(number, int) and not isinstance(number, bool) and kind == "b":
        return array.astype(np.int64)
    return array


def shown_dim(dim: int) -> int:
    """A dimension as ``grad_fn._saved_dim`` shows it: PyTorch's C++ node keeps it
    unsigned, so -1 shows as 2**64 - 1."""
    return dim if dim >= 0 else dim + 2 ** 64
