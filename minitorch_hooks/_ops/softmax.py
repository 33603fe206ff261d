"""``softmax`` and ``log_softmax`` along a dimension, computed stably.

Subtracting the maximum first keeps ``exp`` from overflowing; the result is the same.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.softmax.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap_dim
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record, shown_dim
from .conversion import to
from .reduction import _axes


def _log_softmax_values(x: np.ndarray, axis: int) -> np.ndarray:
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


class SoftmaxBackward0(Node):
    __slots__ = ("axis", "dim")
    saved_names = ("result",)
    saved_attributes = ("dim",)

    def backward(self, grad):
        (y,) = self.saved_arrays()
        return y * (grad - formula.sum(grad * y, self.axis, keepdims=True))


def softmax(input: Tensor, dim: int, dtype: object = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``; with ``dtype``, the input is converted first
    (a recorded ``to``, as in PyTorch)."""
    if dtype is not None:
        input = to(input, dtype)
    x = np.ascontiguousarray(input._data)  # PyTorch's kernel returns a contiguous result
    if x.ndim == 0:
        return record(np.ones_like(x), SoftmaxBackward0, (input,), save_output=True, axis=None,
                      dim=shown_dim(dim))
    axis = _wrap_dim(dim, x.ndim)
    shifted = np.exp(x - x.max(axis=axis, keepdims=True))
    return record(shifted / shifted.sum(axis=axis, keepdims=True), SoftmaxBackward0, (input,),
                  save_output=True, axis=axis, dim=shown_dim(dim))


class LogSoftmaxBackward0(Node):
    __slots__ = ("axis", "dim")
    saved_names = ("result",)
    saved_attributes = ("dim",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return grad - formula.exp(result) * formula.sum(grad, self.axis, keepdims=True)


def log_softmax(input: Tensor, dim: int, dtype: object = None) -> Tensor:
    """``x - log(sum(exp(x)))`` along ``dim``, without computing ``softmax`` first."""
    if dtype is not None:
        input = to(input, dtype)
    x = np.ascontiguousarray(input._data)  # PyTorch's kernel returns a contiguous result
    if x.ndim == 0:
        return record(np.zeros_like(x), LogSoftmaxBackward0, (input,), save_output=True,
                      axis=None, dim=shown_dim(dim))
    axis = _wrap_dim(dim, x.ndim)
    return record(_log_softmax_values(x, axis), LogSoftmaxBackward0, (input,),
                  save_output=True, axis=axis, dim=shown_dim(dim))


class LogsumexpBackward0(Node):
    """``d/dx log(sum(exp(x))) = exp(x - result)``: the softmax of the reduced elements."""

    __slots__ = ("axes", "dim", "keepdim")
    saved_names = ("self", "result")
    saved_attributes = ("dim", "keepdim")

    def backward(self, grad):
        x, result = self.saved_arrays()
        if not self.keepdim:
            grad = formula.expand_dims(grad, self.axes)
            result = formula.expand_dims(result, self.axes)
        return grad * formula.exp(x - result)


def logsumexp(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(x)))`` along ``dim``, without overflow: the largest value is taken out
    first (unless it is infinite), as PyTorch does. Integers compute in float32.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.logsumexp.html>
    """
    data = input._data if input._data.dtype.kind == "f" else input._data.astype(np.float32)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    axes = _axes(dims, data.ndim)
    with np.errstate(all="ignore"):
        if data.size:
            largest = np.max(data, axis=axes, keepdims=True)
            largest = np.where(np.isinf(largest), 0, largest).astype(data.dtype)
        else:
            largest = np.zeros((1,) * data.ndim, dtype=data.dtype)
        total = np.exp(data - largest).sum(axis=axes, keepdims=True)
        result = (np.log(total) + largest).astype(data.dtype)
    if not keepdim and axes:
        result = result.squeeze(axes)
    return record(result, LogsumexpBackward0, (input,), saved=(input,), save_output=True,
                  axes=axes, dim=tuple(shown_dim(d) for d in dims), keepdim=keepdim)
