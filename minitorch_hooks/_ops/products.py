"""Products and running totals: ``prod``, ``cumsum`` and ``cumprod``.

Their gradients are where the arithmetic gets interesting. The derivative of a product
with respect to one factor is the product of all the *others*: ``result / x`` when no
factor is 0, but a zero factor makes that 0 / 0. So, as PyTorch does, a zero among the
factors switches to computing "the product of the others" directly, as the product of the
factors before each one times the product of those after it (two running products, one
of them reversed). A running sum sends each gradient back to every element that went into
it: the gradient's running sum taken from the end.
See <https://docs.pytorch.org/docs/2.13/generated/torch.prod.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import dtype as Dtype
from .._tensor import Tensor, _wrap_dim
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record, shown_dim


def _accumulated(input: Tensor, dtype: Dtype | None) -> np.ndarray:
    """The values to multiply or add up: cast to ``dtype`` when given; bools and integers
    widen to int64, as PyTorch's sums and products do (they overflow less)."""
    data = input._data
    if dtype is not None:
        return data.astype(dtype.numpy_type)
    return data.astype(np.int64) if data.dtype.kind in "biu" else data


def _along(axis: int, ndim: int, part: slice | int) -> tuple:
    """The key that takes ``part`` of dimension ``axis`` (all of the others)."""
    return (slice(None),) * axis + (part,)


def _has_zero(x: Any) -> bool:
    return bool((formula.array(x) == 0).any())


def _reversed_cumsum(x: Any, axis: int) -> Any:
    """The running sum from the end: element ``k`` is the sum of elements ``k`` onwards."""
    return formula.flip(formula.cumsum(formula.flip(x, (axis,)), axis), (axis,))


def _ones_like_a_slice(x: Any, axis: int) -> Any:
    shape = list(formula.array(x).shape)
    shape[axis] = 1
    return formula.like(np.ones(shape, dtype=formula.dtype(x)), x)


def _exclusive_cumprod(x: Any, axis: int) -> Any:
    """Element ``k``: the product of the elements before ``k`` (1 for the first)."""
    size = formula.array(x).shape[axis]
    shifted = formula.concatenate(
        [_ones_like_a_slice(x, axis), x[_along(axis, x.ndim, slice(0, size - 1))]], axis)
    return formula.cumprod(shifted, axis)


def _product_of_the_others(x: Any, axis: int) -> Any:
    """Element ``k``: the product of every element but ``k`` along ``axis``, without
    dividing (PyTorch's ``prod_safe_zeros_backward``)."""
    before = _exclusive_cumprod(x, axis)
    after = formula.flip(_exclusive_cumprod(formula.flip(x, (axis,)), axis), (axis,))
    return before * after


class ProdBackward0(Node):
    """``x.prod()``: each element's gradient is the product of all the others."""

    __slots__ = ()
    saved_names = ("self", "result")

    def backward(self, grad):
        x, result = self.saved_arrays()
        if x.ndim == 0:
            return grad
        if not _has_zero(x):
            return grad * (result / x)
        return (grad * _product_of_the_others(x.reshape(-1), 0)).reshape(x.shape)


class ProdBackward1(Node):
    """``x.prod(dim)``: the same, within each slice along ``dim``."""

    __slots__ = ("axis", "dim", "keepdim")
    saved_names = ("self", "result")
    saved_attributes = ("dim", "keepdim")

    def backward(self, grad):
        x, result = self.saved_arrays()
        if x.ndim == 0:
            return grad
        if not self.keepdim:
            grad = formula.expand_dims(grad, self.axis)
            result = formula.expand_dims(result, self.axis)
        if not _has_zero(x):
            return grad * (result / x)
        return grad * _product_of_the_others(x, self.axis)


def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *,
         dtype: Dtype | None = None) -> Tensor:
    """The product of all elements, or of each slice along ``dim``. Integers and bools
    multiply in int64.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.prod.html>
    """
    data = _accumulated(input, dtype)
    if dim is None:
        return record(data.prod(), ProdBackward0, (input,), saved=(input,), save_output=True)
    axis = _wrap_dim(dim, data.ndim)
    work = data.reshape(1) if data.ndim == 0 else data
    result = work.prod(axis=axis, keepdims=keepdim and data.ndim > 0)
    return record(result, ProdBackward1, (input,), saved=(input,), save_output=True,
                  axis=axis, dim=shown_dim(dim), keepdim=keepdim)


class CumsumBackward0(Node):
    """Element ``k`` of the input went into outputs ``k`` onwards: its gradient is their
    gradients summed, a running sum taken from the end."""

    __slots__ = ("axis", "dim")
    saved_attributes = ("dim",)

    def backward(self, grad):
        if formula.array(grad).ndim == 0:
            return grad
        return _reversed_cumsum(grad, self.axis)


def cumsum(input: Tensor, dim: int, *, dtype: Dtype | None = None) -> Tensor:
    """The running sum along ``dim``: element ``k`` is the sum of elements ``0..k``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.cumsum.html>
    """
    data = _accumulated(input, dtype)
    axis = _wrap_dim(dim, data.ndim)
    result = data.copy() if data.ndim == 0 else np.cumsum(data, axis=axis, dtype=data.dtype)
    return record(result, CumsumBackward0, (input,), axis=axis, dim=shown_dim(dim))


class CumprodBackward0(Node):
    """Output ``j`` is ``x_0 * ... * x_j``, so input ``k`` gets ``sum over j >= k of
    grad_j * output_j / x_k``; with a zero factor, the products without ``x_k`` are built
    one ``k`` at a time instead."""

    __slots__ = ("axis", "dim")
    saved_names = ("self", "result")
    saved_attributes = ("dim",)

    def backward(self, grad):
        x, result = self.saved_arrays()
        size = formula.array(x).shape[self.axis] if x.ndim else 1
        if size <= 1:
            return grad
        if not _has_zero(x):
            return _reversed_cumsum(grad * result, self.axis) / x
        return self._with_zeros(grad, x, size)

    def _with_zeros(self, grad: Any, x: Any, size: int) -> Any:
        axis, ndim = self.axis, x.ndim
        before = _exclusive_cumprod(x, axis)
        pieces = []
        for k in range(size):
            # The products x_0..x_j without x_k, for j = k, k+1, ...: the factors before k
            # times the running product of the factors after k (1 for j = k).
            after = formula.concatenate(
                [_ones_like_a_slice(x, axis),
                 formula.cumprod(x[_along(axis, ndim, slice(k + 1, size))], axis)], axis)
            without_k = before[_along(axis, ndim, slice(k, k + 1))] * after
            pieces.append(formula.sum(grad[_along(axis, ndim, slice(k, size))] * without_k,
                                      axis, keepdims=True))
        return formula.concatenate(pieces, axis)


def cumprod(input: Tensor, dim: int, *, dtype: Dtype | None = None) -> Tensor:
    """The running product along ``dim``: element ``k`` is ``x_0 * ... * x_k``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.cumprod.html>
    """
    data = _accumulated(input, dtype)
    axis = _wrap_dim(dim, data.ndim)
    result = data.copy() if data.ndim == 0 else np.cumprod(data, axis=axis, dtype=data.dtype)
    return record(result, CumprodBackward0, (input,), saved=(input,), save_output=True,
                  axis=axis, dim=shown_dim(dim))
