"""``cdist``: the ``p``-norm distance between every row of ``x1`` and every row of ``x2``
(batched over leading dimensions), used by retrieval, clustering and attribution code.

PyTorch has two ways to compute it, and its choice shows in the graph. For ``p = 2`` with
more than 25 rows on either side (or ``compute_mode='use_mm_for_euclid_dist'``) it expands
``|a - b|^2 = |a|^2 - 2 a.b + |b|^2`` into one matrix product (``EuclideanDistBackward0``,
under a ``ViewBackward0``): fast, but the cancellation leaves rounding noise, so equal rows
can be a little apart. Otherwise it computes each distance from the differences
(``CdistBackward0``).

The gradient of a distance ``d`` with respect to a difference ``x = a - b`` is
``sign(x) |x|^(p-1) / d^(p-1)``: ``x / d`` for ``p = 2``, ``sign(x)`` for 1, the largest
``|x|`` only for ``inf``, none for 0. Where ``d`` is 0 (equal rows) it is a *selected* 0:
the distance has no slope there.
See <https://docs.pytorch.org/docs/2.13/generated/torch.cdist.html>
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _blas
from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .counting import NoDerivative
from .shape import view

_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
          "donot_use_mm_for_euclid_dist")


def _differences(x1: Any, x2: Any) -> Any:
    """``x1[..., i, :] - x2[..., j, :]`` for every pair: shape ``(..., r1, r2, c)``."""
    return formula.expand_dims(x1, -2) - formula.expand_dims(x2, -3)


def _pair_gradient(diff: Any, dist: Any, grad: Any, p: float) -> Any:
    """Each pair's gradient with respect to its difference (PyTorch's ``_cdist_backward``)."""
    dist, grad = formula.expand_dims(dist, -1), formula.expand_dims(grad, -1)
    if p == 1:
        return grad * formula.sign(diff)
    if math.isinf(p):
        return grad * formula.sign(diff) * formula.astype(
            formula.like(formula.array(abs(diff) == dist), diff), formula.dtype(diff))
    if p == 2:
        return formula.where(dist == 0, 0, grad * diff / dist)
    if p < 2:
        scaled = formula.sign(diff) * abs(diff) ** (p - 1) * grad / dist ** (p - 1)
        if p < 1:
            scaled = formula.where(diff == 0, 0, scaled)
        return formula.where(dist == 0, 0, scaled)
    return formula.where(dist == 0, 0, diff * abs(diff) ** (p - 2) * grad / dist ** (p - 1))


class CdistBackward0(Node):
    __slots__ = ("p",)
    saved_names = ("x1", "x2", "result")
    saved_attributes = ("p",)

    def backward(self, grad):
        x1, x2, dist = self.saved_arrays()
        if type(grad) is Tensor:  # create_graph: PyTorch has no second derivative here
            arrays = [formula.array(t) for t in (grad, x1, x2, dist)]
            first, second = self._gradients(*arrays)
            return (record(first, CdistBackwardBackward0, (grad, x1, x2, dist)),
                    record(second, CdistBackwardBackward0, (grad, x2, x1, dist)))
        return self._gradients(grad, x1, x2, dist)

    def _gradients(self, grad: Any, x1: Any, x2: Any, dist: Any) -> tuple[Any, Any]:
        if self.p == 0:
            return np.zeros_like(x1), np.zeros_like(x2)
        pairs = _pair_gradient(_differences(x1, x2), dist, grad, self.p)
        return formula.sum(pairs, -2), -formula.sum(pairs, -3)


class CdistBackwardBackward0(NoDerivative):
    """The node of ``cdist``'s gradient under create_graph: PyTorch does not differentiate
    it again."""

    __slots__ = ()
    function = "_cdist_backward"


class EuclideanDistBackward0(Node):
    """The gradient of the matrix-product form (PyTorch's ``_euclidean_dist_backward``)."""

    __slots__ = ()
    saved_names = ("x1", "x2", "result")

    def backward(self, grad):
        x1, x2, dist = self.saved_arrays()
        ratio = formula.where(dist == 0, 0, grad / dist)
        return (x1 * formula.sum(ratio, -1, keepdims=True) - _blas.matmul(ratio, x2),
                x2 * formula.expand_dims(formula.sum(ratio, -2), -1)
                - _blas.matmul(formula.swapaxes(ratio, -1, -2), x1))


def _direct(a: np.ndarray, b: np.ndarray, p: float) -> np.ndarray:
    size = np.abs(_differences(a, b))
    if p == 0:
        return (size != 0).sum(-1).astype(a.dtype)
    if p == 1:
        return size.sum(-1)
    if p == 2:
        return np.sqrt((size * size).sum(-1))
    if math.isinf(p):
        return size.max(-1, initial=0)
    return (size ** p).sum(-1) ** (1 / p)


def _euclidean(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``sqrt(max(|a|^2 - 2 a.b + |b|^2, 0))`` as one product, as PyTorch computes it."""
    a_norm = (a * a).sum(-1, keepdims=True)
    b_norm = (b * b).sum(-1, keepdims=True)
    left = np.concatenate([a * a.dtype.type(-2), a_norm, np.ones_like(a_norm)], -1)
    right = np.concatenate([b, np.ones_like(b_norm), b_norm], -1)
    squared = _blas.matmul(left, np.swapaxes(right, -1, -2))
    return np.sqrt(np.maximum(squared, 0))


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The ``p``-norm distances between the rows of ``x1`` and those of ``x2``."""
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{x.dim()}D")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.is_floating_point():
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{x.dtype.scalar_name}")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError("X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if compute_mode not in _MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    a, b = x1._data, x2._data
    rows1, rows2 = a.shape[-2], b.shape[-2]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if p == 2 and a.ndim == b.ndim == 2 and (
                compute_mode == "use_mm_for_euclid_dist"
                or compute_mode == _MODES[0] and (rows1 > 25 or rows2 > 25)):
            distances = record(_euclidean(a, b), EuclideanDistBackward0, (x1, x2),
                               saved=(x1, x2), save_output=True)
            return view(distances, rows1, rows2)
        return record(_direct(a, b, p).astype(a.dtype, copy=False), CdistBackward0, (x1, x2),
                      saved=(x1, x2), save_output=True, p=float(p))
