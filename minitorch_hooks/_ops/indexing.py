"""Indexing, ``x[index]``, taken apart as PyTorch takes it: basic indices make views
(``SelectBackward0``, ``SliceBackward0``), integer and boolean arrays gather a copy
(``IndexBackward0``). Apart from ``shape.py`` because indexing is its own chapter in
PyTorch too (``ATen/TensorIndexing.h``, ``TensorAdvancedIndexing.cpp``); writing,
``x[index] = v``, is beside it in ``setitem.py``.
See <https://docs.pytorch.org/docs/2.13/tensor_view.html>
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .shape import _as_view, unsqueeze


class SelectBackward0(Node):
    __slots__ = ("shape", "index")
    double_backward = formula.SelectBackwardBackward0  # the node its formula records on Tensors

    def backward(self, grad):
        return formula.scatter(self.shape, self.index, grad, node_type=self.double_backward)


class SliceBackward0(SelectBackward0):
    __slots__ = ()
    double_backward = formula.SliceBackwardBackward0


class AliasBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad


class IndexBackward0(Node):
    """The index arrays are saved, as PyTorch saves its index tensors (a saved-tensor hook
    sees them; changing one in place is caught), with the dimension each indexes."""

    __slots__ = ("shape", "dims")
    saved_names = ("indices",)

    def _read_saved(self, name: str, raw: bool) -> Any:
        """``_saved_indices`` is every index tensor, a tuple (one name for all of them)."""
        if self._saved is None:
            return super()._read_saved(name, raw)  # the error
        return tuple(saved if raw else saved.tensor(self) for saved in self._saved)

    def backward(self, grad):
        key = _gather_key(zip(self.dims, map(formula.array, self.saved_arrays())))
        return formula.scatter(self.shape, key, grad, accumulate=True)  # repeated indices add up


def getitem(input: Tensor, index: Any) -> Tensor:
    """``x[index]``, taken apart as PyTorch takes it.

    First the basic indices, one dimension at a time, each a view with its own node: an
    integer selects (``SelectBackward0``), a slice slices (``SliceBackward0``; a full slice
    inside a tuple is skipped), ``None`` unsqueezes, ``...`` skips dimensions. Then, if there
    were integer or boolean arrays, one ``IndexBackward0`` gathers a copy. A result that is
    still the input itself becomes an alias (``x[...]`` is a new tensor too).
    """
    if isinstance(index, slice):  # a lone slice is always recorded, even a full one
        return _slice(input, 0, index)
    if _is_integer(index):
        return _select(input, 0, int(index))
    items = index if isinstance(index, tuple) else (index,)
    items = tuple(_as_index(item) for item in items)
    ndim = input._data.ndim
    specified = sum(_dims_indexed(item) for item in items)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result, dim, arrays = input, 0, []
    for item in items:
        if item is Ellipsis:
            dim += ndim - specified
        elif item is None:
            result = unsqueeze(result, dim)
            dim += 1
        elif isinstance(item, bool):  # x[True] adds a dimension and keeps it all (or none)
            result = unsqueeze(result, dim)
            arrays.append((dim, np.arange(int(item))))
            dim += 1
        elif isinstance(item, int):
            result = _select(result, dim, item)
        elif isinstance(item, slice):
            if item.indices(result._data.shape[dim]) != (0, result._data.shape[dim], 1):
                result = _slice(result, dim, item)
            dim += 1
        else:
            arrays.append((dim, item))
            dim += item.ndim if item.dtype == np.bool_ else 1
    if arrays:
        return _index(result, arrays)
    if result is input:
        return alias(input)
    return result


def alias(input: Tensor) -> Tensor:
    """A new tensor object that is a view of all of ``input``: ``x[...]``, and the legacy
    constructors given a tensor (``torch.Tensor(x)``, ``x.new(x)``)."""
    return _as_view(record(input._data.view(), AliasBackward0, (input,)), input)


def numpy_key(index: Any) -> tuple:
    """``index`` as a NumPy index that picks the same elements as ``getitem`` (for an index
    that ``getitem`` accepted: NumPy and PyTorch agree on valid indices)."""
    items = index if isinstance(index, tuple) else (index,)
    return tuple(_as_index(item) for item in items)


def _is_integer(item: Any) -> bool:
    if isinstance(item, Tensor):
        return item._data.ndim == 0 and item._data.dtype.kind in "iu"
    return isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))


def _as_index(item: Any) -> Any:
    """One index item as Python ints, slices, ``None``, ``...``, bools or NumPy arrays."""
    if item is None or item is Ellipsis or isinstance(item, (slice, bool)):
        return item
    if _is_integer(item):
        return int(item)
    if isinstance(item, Tensor):
        if item._data.dtype.kind not in "iub":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if item._data.ndim == 0:  # a 0-d bool tensor acts like a Python bool
            return bool(item._data)
        return item._data
    if isinstance(item, (list, np.ndarray)):
        array = np.asarray(item)
        return array.astype(np.int64) if array.size == 0 else array
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     f"Variables are valid indices (got {type(item).__name__})")


def _dims_indexed(item: Any) -> int:
    """How many of the input's dimensions an index item uses up."""
    if item is None or item is Ellipsis or isinstance(item, bool):
        return 0
    if isinstance(item, np.ndarray) and item.dtype == np.bool_:
        return item.ndim
    return 1


def _select(input: Tensor, dim: int, index: int) -> Tensor:
    data = input._data
    if data.ndim == 0:
        if index == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"index {index} is out of bounds for dimension 0 with size 0")
    size = data.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    # The trailing ``...`` keeps NumPy from returning a scalar copy for the last dimension:
    # even ``x[0]`` of a vector is a (0-d) view, which ``x[0].add_(1)`` must change.
    key = (slice(None),) * dim + (index, Ellipsis)
    return _as_view(record(data[key], SelectBackward0, (input,), shape=data.shape, index=key),
                    input)


def _slice(input: Tensor, dim: int, item: slice) -> Tensor:
    data = input._data
    if data.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if item.step is not None and item.step <= 0:
        raise ValueError("slice step cannot be zero" if item.step == 0
                         else "step must be greater than zero")
    key = (slice(None),) * dim + (item,)
    return _as_view(record(data[key], SliceBackward0, (input,), shape=data.shape, index=key),
                    input)


def _index(input: Tensor, arrays: list[tuple[int, np.ndarray]]) -> Tensor:
    """Gather with integer arrays (a boolean mask stands for the positions it selects), with
    PyTorch's checks and messages."""
    data = input._data
    for dim, array in arrays:
        if array.dtype == np.bool_:
            for j, size in enumerate(array.shape):
                if size != data.shape[dim + j]:
                    raise IndexError(
                        f"The shape of the mask {list(array.shape)} at index {j} does not match "
                        f"the shape of the indexed tensor {list(data.shape)} at index {dim + j}")
    key = _gather_key(arrays)
    indexed = [(i, k) for i, k in enumerate(key) if not isinstance(k, slice)]
    for number, (dim, positions) in enumerate(indexed):
        size = data.shape[dim]
        outside = positions[(positions < -size) | (positions >= size)]
        if outside.size:
            raise IndexError(f"index {outside.flat[0]} is out of bounds for dimension {number} "
                             f"with size {size}")
    try:
        np.broadcast_shapes(*(positions.shape for _, positions in indexed))
    except ValueError:
        shapes = ", ".join(str(list(positions.shape)) for _, positions in indexed)
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {shapes}") from None
    # NumPy lays a gather out in its own order (``x[:, [0, 3]]`` comes out transposed);
    # PyTorch's index kernel writes a contiguous result for a contiguous input.
    return record(np.ascontiguousarray(data[key]), IndexBackward0, (input,),
                  saved=tuple(wrap(array) for _, array in arrays),
                  shape=data.shape, dims=tuple(dim for dim, _ in arrays))


def _gather_key(arrays: Iterable[tuple[int, np.ndarray]]) -> tuple:
    """The NumPy index for ``arrays``, each indexing from dimension ``dim`` on: a boolean
    mask stands for the positions it selects."""
    key: list[Any] = []
    for dim, array in arrays:
        positions = np.nonzero(array) if array.dtype == np.bool_ else (array,)
        key += [slice(None)] * (dim - len(key)) + list(positions)
    return tuple(key)
