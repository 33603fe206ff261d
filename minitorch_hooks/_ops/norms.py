"""Vector and matrix norms: ``torch.linalg.vector_norm``, ``matrix_norm`` and ``norm``, and
``Tensor.norm``/``torch.norm``, which call them.

The ``ord``-norm of a vector is ``sum(|x| ** ord) ** (1 / ord)``; 1 and 2 are the usual
ones, ``inf`` the largest ``|x|``, ``-inf`` the smallest, and 0 counts the nonzero elements.
``Tensor.norm(p)`` is ``vector_norm`` for any number ``p`` (also with two ``dim``), and
``'fro'`` is the 2-norm of the elements; only the other strings (``'nuc'``) make it a matrix
norm.

The gradient is PyTorch's ``norm_backward``, one formula per kind of ``ord``:

* 2: ``grad * x / norm``, with 0 where the norm is 0 (a subgradient: ``x`` is 0 there);
* 1: ``sign(x) * grad``, so 0 at ``x = 0``;
* ``inf`` and ``-inf``: the gradient of ``amax(|x|)``, shared evenly among the elements
  whose ``|x|`` is the extreme (a NaN counts as one), times their sign;
* 0: none at all (the count of nonzero elements is flat), so ``x.grad`` stays ``None``;
* other ``ord``: ``sign(x) * |x| ** (ord - 1) * grad / norm ** (ord - 1)``, again 0 where
  the norm is 0 (for ``ord < 1``, 0 where ``x`` is 0 instead).

A matrix norm of order 1 or ``inf`` (``-1``, ``-inf``) is the largest (smallest) 1-norm of
its columns (rows): ``amax`` of a ``vector_norm``, recorded as those two nodes, as PyTorch
records it. The orders 2, -2 and ``'nuc'`` are the largest, the smallest and the sum of the
singular values (``svdvals``, in ``svd.py``), whose gradient is that of the SVD.
See <https://docs.pytorch.org/docs/2.13/generated/torch.linalg.vector_norm.html>,
<https://docs.pytorch.org/docs/2.13/generated/torch.linalg.matrix_norm.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.norm.html>
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _dtype
from .._tensor import Tensor, _wrap_dim, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from . import reduction as _reduction
from ._record import record, shown_dim
from .reduction import _axes, amax, amin
from .shape import permute, unsqueeze
from .svd import svdvals

Dims = int | Sequence[int] | None


class _VectorNormBackward(Node):
    """PyTorch's ``norm_backward``, shared by the two nodes that record a vector norm."""

    __slots__ = ("axes", "keepdim", "ord", "dim")
    saved_names = ("self", "result")

    def backward(self, grad):
        x, norm = self.saved_arrays()
        order = float(self.ord)
        if order == 0:
            return None
        if self.axes is not None and not self.keepdim and formula.array(x).ndim:
            grad, norm = formula.expand_dims(grad, self.axes), formula.expand_dims(norm, self.axes)
        if order == 1:
            return formula.sign(x) * grad
        if order == 2:
            return grad * formula.where(norm == 0, 0, x / norm)
        if math.isinf(order):
            size = abs(x)
            winners = formula.astype(
                formula.like(formula.array((size == norm) | (size != size)), grad),
                formula.dtype(grad))
            count = formula.sum(winners, self.axes, keepdims=True)
            return formula.sign(x) * (grad / count * winners)
        if order < 1:
            scaled = formula.sign(x) * formula.where(x == 0, 0, abs(x) ** (order - 1))
            return scaled * grad * norm ** (1 - order)
        scaled = formula.sign(x) * abs(x) ** (order - 1) if order < 2 else \
            x * abs(x) ** (order - 2)
        return scaled * formula.where(norm == 0, 0, grad / norm ** (order - 1))


class LinalgVectorNormBackward0(_VectorNormBackward):
    __slots__ = ()
    saved_attributes = ("dim", "keepdim", "ord")


class NormBackward0(_VectorNormBackward):
    """ATen's older ``norm(self, p)`` over every element, which PyTorch's own C++ code calls
    (``norm_except_dim`` in weight normalisation); Python's ``torch.norm`` goes to
    ``vector_norm`` instead. The same gradient; ``p`` saved as given (an int stays one)."""

    __slots__ = ()
    saved_attributes = ("p",)

    @property
    def p(self) -> float:
        return self.ord


class NormBackward1(NormBackward0):
    """ATen's ``norm(self, p, dim, keepdim)``: ``norm_except_dim`` along a dimension, and
    ``F.pairwise_distance``."""

    __slots__ = ()
    saved_attributes = ("dim", "keepdim", "p")


def _dims(dim: Dims) -> tuple[int, ...] | None:
    return None if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))


def _vector_norm_values(data: np.ndarray, order: float, axes: tuple[int, ...] | None,
                        keepdim: bool) -> np.ndarray:
    size = np.abs(data)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        if order == math.inf:
            return size.max(axis=axes, keepdims=keepdim)
        if order == -math.inf:
            return size.min(axis=axes, keepdims=keepdim)
        if order == 0:
            return (data != 0).sum(axis=axes, keepdims=keepdim).astype(data.dtype)
        if order == 1:
            return size.sum(axis=axes, keepdims=keepdim)
        if order == 2:
            return np.sqrt((data * data).sum(axis=axes, keepdims=keepdim))
        return (size ** order).sum(axis=axes, keepdims=keepdim) ** (1 / order)


def vector_norm(x: Tensor, ord: float = 2, dim: Dims = None, keepdim: bool = False, *,  # noqa: A002
                dtype: _dtype.dtype | None = None) -> Tensor:
    """The ``ord``-norm of all of ``x``, or of each slice along ``dim``."""
    return _vector_norm(x, ord, dim, keepdim, dtype, LinalgVectorNormBackward0)


def _vector_norm(x: Tensor, ord: float, dim: Dims, keepdim: bool,  # noqa: A002
                 dtype: _dtype.dtype | None, node_type: type[_VectorNormBackward]) -> Tensor:
    """``vector_norm``, its result recorded as ``node_type``: ``LinalgVectorNormBackward0``,
    or ``NormBackward1`` for ATen's ``norm`` (see ``aten_norm``)."""
    data = x._data
    if data.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {x.dtype.scalar_name}")
    if dtype is not None:
        data = data.astype(dtype.numpy_type)
    dims = _dims(dim)
    axes = _axes(dims, data.ndim)
    order = float(ord)
    if (order < 0 or math.isinf(order)) and data.size == 0:
        if axes is None:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {ord} norm on an empty "
                               "tensor because the operation does not have an identity")
        for axis in axes:
            if data.shape[axis] == 0:  # (PyTorch's message lacks the space before because)
                raise RuntimeError(f"linalg.vector_norm cannot compute the {ord} norm on the "
                                   f"dimension {axis}because this dimension is empty and the "
                                   "operation does not have an identity")
    result = _vector_norm_values(data, order, axes, keepdim).astype(data.dtype, copy=False)
    shown = None if dims is None else tuple(shown_dim(d) for d in dims)
    return record(result, node_type, (x,), saved=(x,), save_output=True,
                  axes=axes, keepdim=keepdim, ord=ord, dim=shown)


def aten_norm(input: Tensor, p: float, dim: Dims = None, keepdim: bool = False) -> Tensor:
    """ATen's ``norm(self, p[, dim, keepdim])``, as PyTorch's C++ functions call it: the
    vector norm, recorded as ``NormBackward0`` (all elements) or ``NormBackward1``."""
    node_type = NormBackward0 if dim is None else NormBackward1
    return _vector_norm(input, p, dim, keepdim, None, node_type)


def _matrix_norm_checks(A: Tensor, dim: Any, low_precision: bool) -> tuple[int, int]:  # noqa: N803
    """PyTorch's checks of a matrix norm's input, in its order: at least a matrix, of a
    floating dtype (not half precision for the norms that need singular values), and two
    different dimensions; the dimensions, made non-negative."""
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if not A.is_floating_point():
        raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor "
                           f"as input. Got {A.dtype.scalar_name}")
    if not low_precision and A.dtype is _dtype.float16:
        raise RuntimeError("linalg.matrix_norm: Low precision dtypes not supported. Got "
                           f"{A.dtype.scalar_name}")
    dims = list(dim)
    if len(dims) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                           + " ".join(map(str, dims)))
    rows, columns = (_wrap_dim(d, A.dim()) for d in dims)
    if rows == columns:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({rows}, "
                           f"{columns})")
    return rows, columns


def matrix_norm(A: Tensor, ord: Any = "fro", dim: tuple[int, int] = (-2, -1),  # noqa: A002, N803
                keepdim: bool = False, *, dtype: _dtype.dtype | None = None) -> Tensor:
    """The ``ord``-norm of the matrices along the two dimensions ``dim``: ``'fro'`` (the
    2-norm of the elements), ``'nuc'`` (the sum of the singular values), 2 and -2 (the
    largest and the smallest singular value), 1 and -1 (the largest and the smallest
    1-norm of a column), ``inf`` and ``-inf`` (of a row).

    PyTorch moves the two dimensions to the end (a ``permute``) before ``svdvals``, and
    when ``keepdim`` puts them back: those are the nodes of the graph, as here.
    """
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif abs(ord) not in (1, 2, math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    rows, columns = _matrix_norm_checks(A, dim, low_precision=ord not in ("nuc", 2, -2))
    if ord == "fro":
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if ord in ("nuc", 2, -2):
        return _singular_value_norm(A, ord, rows, columns, keepdim, dtype)
    if abs(ord) == math.inf:  # the largest row sum: the 1-norm of the transpose
        rows, columns = columns, rows
    if not keepdim and rows < columns:
        columns -= 1
    sums = vector_norm(A, 1, rows, keepdim, dtype=dtype)
    return (amax if ord > 0 else amin)(sums, columns, keepdim)


def _singular_value_norm(A: Tensor, ord: Any, rows: int, columns: int, keepdim: bool,  # noqa: A002, N803
                         dtype: _dtype.dtype | None) -> Tensor:
    """The sum (``'nuc'``), largest (2) or smallest (-2) of the singular values of the
    matrices along ``rows`` and ``columns``, moved last for ``svdvals``."""
    if dtype is not None:
        A = A.to(dtype)  # noqa: N806
    order = [d for d in range(A.dim()) if d not in (rows, columns)] + [rows, columns]
    values = svdvals(permute(A, order))
    if ord == "nuc":
        result = _reduction.sum(values, -1, keepdim)
    elif ord == 2 and values.shape[-1] == 0:  # no singular value: PyTorch's 2-norm is 0
        result = wrap(np.zeros(values.shape[:-1] + ((1,) if keepdim else ()),
                               dtype=values._data.dtype))
    else:
        result = (amax if ord > 0 else amin)(values, -1, keepdim)
    if keepdim:
        result = permute(unsqueeze(result, -1), [order.index(d) for d in range(A.dim())])
    return result


def norm(A: Tensor, ord: Any = None, dim: Dims = None, keepdim: bool = False, *,  # noqa: A002, N803
         dtype: _dtype.dtype | None = None) -> Tensor:
    """``torch.linalg.norm``: a vector norm or a matrix norm, chosen by ``ord`` and ``dim``.
    Without ``ord``, the 2-norm of all the elements."""
    dims = _dims(dim)
    if ord is None:
        if dims is not None and len(dims) == 2:
            return matrix_norm(A, "fro", dims, keepdim, dtype=dtype)
        return vector_norm(A, 2, dims, keepdim, dtype=dtype)
    if dims is None:
        if A.dim() not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input "
                               f"must be 1D or 2D. Got {A.dim()}D.")
        dims = tuple(range(A.dim()))
    if isinstance(ord, str) or len(dims) == 2:
        return matrix_norm(A, ord, dims, keepdim, dtype=dtype)
    return vector_norm(A, ord, dims, keepdim, dtype=dtype)


def tensor_norm(input: Tensor, p: Any = "fro", dim: Dims = None, keepdim: bool = False,
                dtype: _dtype.dtype | None = None) -> Tensor:
    """``torch.norm`` and ``Tensor.norm``: ``vector_norm`` for a number ``p`` and for
    ``'fro'`` (over at most two dimensions), ``matrix_norm`` for the other strings.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.norm.html>
    """
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return vector_norm(input, 2, dim, keepdim, dtype=dtype)
        return matrix_norm(input, p, tuple(range(input.dim())) if dim is None else dim,
                           keepdim, dtype=dtype)
    return vector_norm(input, 2.0 if p is None else p, dim, keepdim, dtype=dtype)
