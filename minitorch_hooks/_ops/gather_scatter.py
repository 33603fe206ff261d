"""Reading and writing by index along one dimension: ``gather``, ``scatter``,
``scatter_add``, ``index_select``; and by a boolean mask: ``masked_select``,
``masked_scatter``.

``gather(x, dim, index)`` picks, for each position of ``index``, the element of ``x`` at
that position with its ``dim`` coordinate replaced by the index value: how a loss picks
each sample's score for its label, ``scores.gather(1, labels[:, None])``. ``scatter`` is
the reverse, writing ``src`` to those positions. Their gradients swap them: a gather's
gradient is scattered back (added up where an index repeats), a scatter's source gets the
output's gradient gathered, and the positions a scatter overwrote pass no gradient to the
tensor it wrote into.
See <https://docs.pytorch.org/docs/2.13/generated/torch.gather.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor import Tensor, _wrap_dim
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record, shown_dim
from .pointwise import broadcast_shapes


def positions(index: np.ndarray, axis: int) -> tuple:
    """The NumPy key that reaches, for every position of ``index``, the element at that
    position with its ``axis`` coordinate replaced by the index value."""
    ndim = index.ndim
    return tuple(index if d == axis else np.arange(size).reshape((-1,) + (1,) * (ndim - d - 1))
                 for d, size in enumerate(index.shape))


def _check_index(name: str, input: Tensor, axis: int, index: Tensor,
                 src: np.ndarray | None = None) -> np.ndarray:
    """``index`` checked as PyTorch checks it: an integer tensor of the input's rank, no
    larger than the input in the other dimensions (nor than ``src``), within bounds."""
    data, values = input._data, index._data
    if values.dtype.kind not in "iu":
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    if values.ndim != max(data.ndim, 1) and values.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    if src is not None:
        if src.ndim != values.ndim:
            raise RuntimeError("Index tensor must have the same number of dimensions as src "
                               "tensor")
        too_big = any(size > limit for d, (size, limit) in
                      enumerate(zip(values.shape, data.shape)) if d != axis) or any(
            size > limit for size, limit in zip(values.shape, src.shape))
        if too_big:
            raise RuntimeError(f"Expected index {list(values.shape)} to be no larger than self "
                               f"{list(data.shape)} apart from dimension {axis} and to be no "
                               f"larger size than src {list(src.shape)}")
    else:
        for d, (size, limit) in enumerate(zip(values.shape, data.shape)):
            if d != axis and size > limit:
                raise RuntimeError(f"Size does not match at dimension {d} expected index "
                                   f"{list(values.shape)} to be no larger than self "
                                   f"{list(data.shape)} apart from dimension {axis}")
    size = data.shape[axis] if data.ndim else 1
    outside = values[(values < 0) | (values >= size)]
    if outside.size:
        raise RuntimeError(f"index {outside.flat[0]} is out of bounds for dimension {axis} "
                           f"with size {size}")
    return values.astype(np.intp)


def _block(data: Any, shape: tuple[int, ...]) -> Any:
    """The leading block of ``data`` of ``shape``: the elements an index of that shape
    pairs with."""
    return data[tuple(slice(0, size) for size in shape)]


class GatherBackward0(Node):
    """The gradient goes back to the positions it was gathered from, added up where an
    index repeats (PyTorch's ``scatter_add`` into zeros)."""

    __slots__ = ("axis", "dim", "index", "sparse_grad", "shape")
    saved_names = ("self", "index")
    saved_attributes = ("dim", "sparse_grad")

    def backward(self, grad):
        return formula.scatter(self.shape, positions(self.index, self.axis), grad,
                               accumulate=True)


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """Pick ``input``'s elements along ``dim`` at ``index``: ``out[i][j] = input[i][index[i]
    [j]]`` for ``dim=1``. ``out`` has ``index``'s shape.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.gather.html>
    """
    axis = _wrap_dim(dim, input._data.ndim)
    picked = _check_index("gather", input, axis, index)
    work = input._data.reshape(1) if input._data.ndim == 0 else input._data
    values = work[positions(picked, axis)]
    return record(values.reshape(index._data.shape), GatherBackward0, (input,),
                  saved=(input, index), axis=axis, dim=shown_dim(dim), index=picked,
                  sparse_grad=sparse_grad, shape=input._data.shape)


class ScatterBackward0(Node):
    """``scatter`` of a tensor: the overwritten positions send nothing back to the input;
    the source gets the gradient at the positions it was written to."""

    __slots__ = ("axis", "dim", "index", "src_shape")
    saved_names = ("index",)
    saved_attributes = ("dim",)

    def backward(self, grad):
        key = positions(self.index, self.axis)
        if self.src_shape != self.index.shape:  # PyTorch's engine refuses the gather's shape
            raise RuntimeError(f"Function {self.name()} returned an invalid gradient at index "
                               f"1 - got {list(self.index.shape)} but expected shape "
                               f"compatible with {list(self.src_shape)}")
        return formula.zero_at(grad, key), grad[key]


class ScatterBackward1(ScatterBackward0):
    """``scatter`` of a number: only the input's gradient, zero where it was overwritten."""

    __slots__ = ()

    def backward(self, grad):
        return formula.zero_at(grad, positions(self.index, self.axis))


class ScatterAddBackward0(ScatterBackward0):
    """``scatter_add``: the input was added to, not overwritten, so its gradient passes
    whole; the source's is gathered."""

    __slots__ = ()

    def backward(self, grad):
        key = positions(self.index, self.axis)
        if self.src_shape != self.index.shape:
            raise RuntimeError(f"Function {self.name()} returned an invalid gradient at index "
                               f"1 - got {list(self.index.shape)} but expected shape "
                               f"compatible with {list(self.src_shape)}")
        return grad, grad[key]


def _scattered(name: str, input: Tensor, dim: int, index: Tensor, src: Any, add: bool
               ) -> Tensor:
    data = input._data
    axis = _wrap_dim(dim, data.ndim)
    if isinstance(src, Tensor):
        if src._data.dtype != data.dtype:
            raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")
        picked = _check_index(name, input, axis, index, src._data)
        values = _block(src._data, picked.shape)
    else:
        if add:
            raise TypeError(f"{name}(): argument 'src' (position 3) must be Tensor, not "
                            f"{type(src).__name__}")
        picked = _check_index(name, input, axis, index)
        values = np.asarray(src).astype(data.dtype)  # truncated into an integer tensor
    result = data.copy()
    key = positions(picked, axis)
    if add:
        np.add.at(result, key, values)
    else:
        result[key] = values
    if not isinstance(src, Tensor):
        return record(result, ScatterBackward1, (input,), saved=(index,), axis=axis,
                      dim=shown_dim(dim), index=picked, src_shape=picked.shape)
    node_type = ScatterAddBackward0 if add else ScatterBackward0
    return record(result, node_type, (input, src), saved=(index,), axis=axis, dim=shown_dim(dim),
                  index=picked, src_shape=src._data.shape)


def scatter(input: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    """A copy of ``input`` with ``src``'s elements (or the number ``value``) written along
    ``dim`` at ``index``: ``out[i][index[i][j]] = src[i][j]`` for ``dim=1``. Where an index
    repeats, the last write wins (PyTorch's CPU kernel writes in order; the documentation
    leaves it unspecified).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.scatter.html>
    """
    if reduce is not None:
        raise NotImplementedError("minitorch_hooks does not implement scatter's deprecated "
                                  "'reduce' argument")
    return _scattered("scatter", input, dim, index, value if src is None else src, add=False)


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """``scatter``, adding ``src``'s elements to those already there (every one, where an
    index repeats).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.scatter_add.html>
    """
    return _scattered("scatter_add", input, dim, index, src, add=True)


class IndexSelectBackward0(Node):
    """The gradient goes back to the selected slices, added up where an index repeats."""

    __slots__ = ("axis", "dim", "self_sym_sizes", "index")
    saved_names = ("index",)
    saved_attributes = ("dim", "self_sym_sizes")

    def backward(self, grad):
        key = (slice(None),) * self.axis + (self.index,)
        return formula.scatter(self.self_sym_sizes, key, grad, accumulate=True,
                               node_type=IndexAddBackward0)


class IndexAddBackward0(formula._ScatterBackward):
    """The node of index_select's gradient under ``create_graph`` (PyTorch computes it
    with ``index_add``): its own gradient is taken back at the same positions."""

    __slots__ = ()


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices of ``input`` along ``dim`` at the positions in the vector ``index``, in
    that order (repeats allowed): a copy.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.index_select.html>
    """
    data, values = input._data, index._data
    axis = _wrap_dim(dim, data.ndim)
    if values.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if values.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    size = data.shape[axis] if data.ndim else 1
    for value in values.reshape(-1):
        if not 0 <= value < size:
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={value} "
                               f"axis_dim={size}")
    flat = values.reshape(-1).astype(np.intp)
    selected = np.take(data.reshape(1) if data.ndim == 0 else data, flat, axis=axis)
    return record(selected, IndexSelectBackward0, (input,), saved=(index,), axis=axis,
                  dim=shown_dim(dim), self_sym_sizes=data.shape, index=flat)


class MaskedSelectBackward0(Node):
    """The gradient goes back to the selected positions (of the input and mask broadcast
    together), zeros elsewhere, then is summed back to the input's shape."""

    __slots__ = ("shape",)
    saved_names = ("self", "mask")

    def backward(self, grad):
        _, mask = self.saved_arrays()
        mask = np.broadcast_to(formula.array(mask), self.shape) if mask is not None else mask
        return formula.scatter(self.shape, mask, grad)


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements of ``input`` where the bool ``mask`` (broadcast with it) is True, as a
    new vector.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.masked_select.html>
    """
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = broadcast_shapes(mask._data.shape, input._data.shape)
    values = np.broadcast_to(input._data, shape)[np.broadcast_to(mask._data, shape)]
    return record(values, MaskedSelectBackward0, (input,), saved=(input, mask), shape=shape)


class MaskedScatterBackward0(Node):
    """The overwritten positions send nothing back to the input; the source's first
    elements, in order, get the gradient of the positions they were written to."""

    __slots__ = ("source_sym_sizes",)
    saved_names = ("mask",)
    saved_attributes = ("source_sym_sizes",)

    def backward(self, grad):
        (mask,) = self.saved_arrays()
        mask = np.broadcast_to(formula.array(mask), formula.array(grad).shape)
        count = int(mask.sum())
        size = int(np.prod(self.source_sym_sizes))
        written = grad[mask]
        if size > count:
            written = formula.concatenate([written, formula.zeros((size - count,), grad)], 0)
        return formula.zero_at(grad, mask), written.reshape(self.source_sym_sizes)


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` with ``source``'s elements, in order, written where the bool
    ``mask`` is True.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.masked_scatter.html>
    """
    data = input._data
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {from_numpy_dtype(mask._data.dtype).scalar_name}")
    if source._data.dtype != data.dtype:
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but "
                           f"got{input.dtype.scalar_name} and {source.dtype.scalar_name}")
    shape = broadcast_shapes(data.shape, mask._data.shape)
    where = np.broadcast_to(mask._data, shape)
    count = int(where.sum())
    if count > source._data.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    result = np.array(np.broadcast_to(data, shape))
    result[where] = source._data.reshape(-1)[:count]
    return record(result, MaskedScatterBackward0, (input, source), saved=(mask,),
                  source_sym_sizes=source._data.shape)
