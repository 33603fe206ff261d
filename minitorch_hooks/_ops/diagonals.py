"""Triangles and diagonals of matrices: ``triu``, ``tril`` and ``diag``.

``triu(x, k)`` keeps the elements on and above the ``k``-th diagonal and zeros the rest
(``tril``: on and below): attention masks and pairwise-score tables are built with them.
Its gradient is the same triangle of the output's gradient, the zeroed elements having had
no effect. ``diag`` goes both ways: a vector becomes a square matrix with it on a diagonal
(``DiagEmbedBackward0``), a matrix gives a copy of one of its diagonals
(``DiagonalBackward0_copy``, as PyTorch names that node).
See <https://docs.pytorch.org/docs/2.13/generated/torch.triu.html>
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record, shown_dim


def _triangle_mask(shape: tuple[int, ...], diagonal: int, upper: bool) -> np.ndarray:
    rows, cols = shape[-2:]
    return np.triu(np.ones((rows, cols), dtype=bool), diagonal) if upper else \
        np.tril(np.ones((rows, cols), dtype=bool), diagonal)


class TriuBackward0(Node):
    __slots__ = ("diagonal",)
    upper = True

    @property
    def _saved_diagonal(self) -> int:
        return shown_dim(self.diagonal)  # a C++ int64 that PyTorch shows unsigned

    def backward(self, grad):
        mask = _triangle_mask(formula.array(grad).shape, self.diagonal, self.upper)
        return formula.where(mask, grad, 0)


class TrilBackward0(TriuBackward0):
    __slots__ = ()
    upper = False


def _triangle(name: str, input: Tensor, diagonal: int, upper: bool) -> Tensor:
    data = input._data
    if data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    kept = np.where(_triangle_mask(data.shape, diagonal, upper), data, data.dtype.type(0))
    node_type = TriuBackward0 if upper else TrilBackward0
    return record(kept, node_type, (input,), diagonal=diagonal)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle of each matrix (the last two dimensions), on and above the
    ``diagonal``-th diagonal (0 the main one, positive above it); zeros elsewhere."""
    return _triangle("triu", input, diagonal, upper=True)


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle of each matrix, on and below the ``diagonal``-th diagonal."""
    return _triangle("tril", input, diagonal, upper=False)


def _diagonal_positions(rows: int, cols: int, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """The (row, column) indices of the ``offset``-th diagonal of a ``rows x cols`` matrix."""
    start_row, start_col = max(-offset, 0), max(offset, 0)
    length = max(min(rows - start_row, cols - start_col), 0)
    return np.arange(length) + start_row, np.arange(length) + start_col


class _DiagonalNode(Node):
    """What both ``diag`` nodes show: the offset, and the two dimensions of the matrix
    (PyTorch's ``diag_embed`` counts them from the end)."""

    __slots__ = ("offset",)
    dims = (0, 1)

    @property
    def _saved_offset(self) -> int:
        return shown_dim(self.offset)

    @property
    def _saved_dim1(self) -> int:
        return shown_dim(self.dims[0])

    @property
    def _saved_dim2(self) -> int:
        return shown_dim(self.dims[1])


class DiagEmbedBackward0(_DiagonalNode):
    """A vector placed on a diagonal: its gradient is read back off that diagonal."""

    __slots__ = ()
    dims = (-2, -1)

    def backward(self, grad):
        size = formula.array(grad).shape[0]
        return grad[_diagonal_positions(size, size, self.offset)]


class DiagonalBackward0_copy(_DiagonalNode):  # noqa: N801 - PyTorch's name
    """A diagonal copied out of a matrix: its gradient goes back onto that diagonal, zeros
    elsewhere."""

    __slots__ = ("self_sym_sizes",)
    saved_attributes = ("self_sym_sizes",)

    def backward(self, grad):
        positions = _diagonal_positions(*self.self_sym_sizes, self.offset)
        return formula.scatter(self.self_sym_sizes, positions, grad)


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """A vector's square matrix with the vector on the ``diagonal``-th diagonal, or a
    matrix's ``diagonal``-th diagonal as a new vector.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.diag.html>
    """
    data = input._data
    if data.ndim == 1:
        size = data.shape[0] + abs(diagonal)
        matrix = np.zeros((size, size), dtype=data.dtype)
        matrix[_diagonal_positions(size, size, diagonal)] = data
        return record(matrix, DiagEmbedBackward0, (input,), offset=diagonal)
    if data.ndim == 2:
        values = data[_diagonal_positions(*data.shape, diagonal)]
        return record(values, DiagonalBackward0_copy, (input,), offset=diagonal,
                      self_sym_sizes=data.shape)
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{data.ndim}D")


class DiagonalBackward0(_DiagonalNode):
    """``diagonal``, a view: its gradient goes back onto the diagonal of zeros."""

    __slots__ = ("axes", "dims", "shape")  # its own dims, as given

    @property
    def _saved_self_sym_sizes(self) -> tuple[int, ...]:
        return self.shape

    def backward(self, grad):
        first, second = self.axes
        others = [d for d in range(len(self.shape)) if d not in self.axes]
        moved_shape = tuple(self.shape[d] for d in others) + (self.shape[first],
                                                               self.shape[second])
        rows, cols = _diagonal_positions(self.shape[first], self.shape[second], self.offset)
        key = (slice(None),) * len(others) + (rows, cols)
        spread = formula.scatter(moved_shape, key, grad)
        return formula.permute(spread, np.argsort(others + [first, second]))


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The ``offset``-th diagonal of the matrices in dimensions ``dim1`` and ``dim2``, as a
    view (the diagonal becomes the last dimension).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.diagonal.html>
    """
    from .._tensor import _wrap_dim
    from .shape import _as_view

    data = input._data
    first, second = _wrap_dim(dim1, data.ndim), _wrap_dim(dim2, data.ndim)
    if first == second:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    moved = np.moveaxis(data, (first, second), (-2, -1))
    rows, cols = _diagonal_positions(moved.shape[-2], moved.shape[-1], offset)
    start = moved[..., rows[0]:, cols[0]:] if rows.size else moved[..., :0, :0]
    step = moved.strides[-2] + moved.strides[-1]
    view = np.lib.stride_tricks.as_strided(start, start.shape[:-2] + (rows.size,),
                                           start.strides[:-2] + (step,))
    out = record(view, DiagonalBackward0, (input,), offset=offset, dims=(dim1, dim2),
                 axes=(first, second), shape=data.shape)
    return _as_view(out, input)
