"""Ordering values: ``sort``, ``argsort``, ``topk`` and ``kthvalue``.

Saliency and pruning code sorts activations or gradients and keeps the largest:
``scores.topk(k)``. A sort's gradient is a permutation: each value's gradient goes back
to the position it came from (``SortBackward0``, ``TopkBackward0``; positions ``topk``
did not keep get zero).

Ties are where a faithful copy takes care. PyTorch's CPU kernels sort ``(value, index)``
pairs with C++'s ``std::sort`` (or ``std::stable_sort`` when asked for ``stable=True``), and
pick the top ``k`` with ``std::nth_element`` or ``std::partial_sort``; all but
``stable_sort`` may reorder equal values, each in its own way, so ``cpp_algorithms.py``
repeats them step by step. A nan counts as larger than every number: last in an ascending
sort, first in a descending one and among the largest for ``topk``. ``kthvalue`` uses
neither: PyTorch's own quickselect (``quick_select_template``, from Torch7), repeated here.
See <https://docs.pytorch.org/docs/2.13/generated/torch.sort.html>
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import return_types
from .._size_argument import _is_integer
from .._tensor import Tensor, _wrap_dim, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ..utils.hooks import type_name
from . import cpp_algorithms
from ._record import record, shown_dim
from .gather_scatter import positions
from .reduction import _PickedAlongDimBackward


def _ascending(x: tuple, y: tuple) -> bool:
    """PyTorch's ``KeyValueCompAsc``: x before y; a nan after every number."""
    return (not math.isnan(x[0]) and math.isnan(y[0])) or x[0] < y[0]


def _descending(x: tuple, y: tuple) -> bool:
    """PyTorch's ``KeyValueCompDesc``: x before y; a nan before every number."""
    return (math.isnan(x[0]) and not math.isnan(y[0])) or x[0] > y[0]


def _stable_order(row: np.ndarray, descending: bool) -> np.ndarray:
    """``std::stable_sort``'s order: equal values keep their order (NumPy's stable sort
    does the same; a nan sorts as the largest value)."""
    if not descending:
        return np.argsort(row, kind="stable")
    wide = row.astype(np.float64)
    nan = np.isnan(wide)
    return np.lexsort((-np.where(nan, 0, wide), ~nan))


def _each_slice(data: np.ndarray, axis: int, order: Callable[[np.ndarray], np.ndarray],
                length: int) -> np.ndarray:
    """The indices ``order`` picks for every 1-d slice of ``data`` along ``axis``."""
    moved = np.moveaxis(data, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    picked = np.empty((rows.shape[0], length), dtype=np.int64)
    for i, row in enumerate(rows):
        picked[i] = order(row)
    return np.moveaxis(picked.reshape(moved.shape[:-1] + (length,)), -1, axis)


def _pairs(row: np.ndarray) -> list[tuple[Any, int]]:
    return list(zip(row.tolist(), range(row.size)))


def _sort_order(descending: bool, stable: bool) -> Callable[[np.ndarray], np.ndarray]:
    def order(row: np.ndarray) -> np.ndarray:
        if stable:
            return _stable_order(row, descending)
        pairs = _pairs(row)
        cpp_algorithms.sort(pairs, 0, len(pairs), _descending if descending else _ascending)
        return np.array([index for _, index in pairs], dtype=np.int64)

    return order


class _SelectionBackward(Node):
    """The gradient of each chosen value goes back to where it came from; zeros
    elsewhere (PyTorch scatters it into zeros)."""

    __slots__ = ("axis", "dim", "self_sym_sizes")
    saved_names = ("indices",)
    saved_attributes = ("dim", "self_sym_sizes")

    def backward(self, grad):
        (indices,) = self.saved_arrays()
        shape = self.self_sym_sizes or (1,)
        chosen = formula.array(indices).reshape(formula.array(grad).shape or (1,))
        spread = formula.scatter(shape, positions(chosen, self.axis), grad.reshape(chosen.shape),
                                 node_type=formula.ScatterBackward0)
        return spread.reshape(self.self_sym_sizes)


class SortBackward0(_SelectionBackward):
    __slots__ = ()


class SortBackward1(_SelectionBackward):
    """``sort(..., stable=...)``: PyTorch's overload with the ``stable`` argument has a node
    of its own (given ``stable=False`` too)."""

    __slots__ = ()


class TopkBackward0(_SelectionBackward):
    __slots__ = ()


def _selected(name: str, node_type: type[Node], input: Tensor, dim: int,
              indices: np.ndarray) -> Any:
    """``(values, indices)`` as the named tuple ``name``, the values recorded as picked
    from ``input`` at ``indices`` along ``dim``."""
    data = input._data
    axis = _wrap_dim(dim, data.ndim)
    work = data.reshape(1) if data.ndim == 0 else data
    values = np.take_along_axis(work, indices, axis=axis)
    if data.ndim == 0:
        values, indices = values.reshape(()), indices.reshape(())
    out = record(values, node_type, (input,), axis=axis, dim=shown_dim(dim),
                 self_sym_sizes=data.shape)
    chosen = wrap(indices)
    if out._grad_fn is not None:
        out._grad_fn._save_output(chosen)  # PyTorch saves the indices output
    return getattr(return_types, name)(out, chosen)


def sort(input: Tensor, dim: int = -1, descending: bool = False, *,
         stable: bool | None = None) -> Any:
    """``(values, indices)``: the values along ``dim`` in ascending (or descending) order,
    and where each came from.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.sort.html>
    """
    data = input._data
    axis = _wrap_dim(dim, data.ndim)
    work = data.reshape(1) if data.ndim == 0 else data
    indices = _each_slice(work, axis, _sort_order(descending, bool(stable)), work.shape[axis])
    node_type = SortBackward0 if stable is None else SortBackward1
    return _selected("sort", node_type, input, dim, indices)


def argsort(input: Tensor, dim: int = -1, descending: bool = False, *,
            stable: bool | None = None) -> Tensor:
    """Only the indices of ``sort``: the order that sorts ``input`` along ``dim``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.argsort.html>
    """
    return sort(input, dim, descending, stable=stable).indices


def _topk_order(k: int, largest: bool, ordered: bool) -> Callable[[np.ndarray], np.ndarray]:
    """PyTorch's ``topk_impl_loop``: a partial sort when ``k`` is small next to the slice
    (``64 k <= n``), else ``nth_element`` and, for ``sorted``, a sort of the ``k - 1``
    elements before the ``k``-th (already in place)."""
    less = _descending if largest else _ascending

    def order(row: np.ndarray) -> np.ndarray:
        pairs = _pairs(row)
        if k * 64 <= len(pairs):
            cpp_algorithms.partial_sort(pairs, 0, k, len(pairs), less)
        else:
            cpp_algorithms.nth_element(pairs, 0, k - 1, len(pairs), less)
            if ordered:
                cpp_algorithms.sort(pairs, 0, k - 1, less)
        return np.array([index for _, index in pairs[:k]], dtype=np.int64)

    return order


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True,
         sorted: bool = True) -> Any:  # noqa: A002 - PyTorch's argument name
    """``(values, indices)`` of the ``k`` largest (or, with ``largest=False``, smallest)
    elements along ``dim``, in order when ``sorted``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.topk.html>
    """
    data = input._data
    axis = _wrap_dim(dim, data.ndim)
    work = data.reshape(1) if data.ndim == 0 else data
    if not 0 <= k <= work.shape[axis]:
        raise RuntimeError("selected index k out of range")
    if k == 0:
        indices = np.zeros(work.shape[:axis] + (0,) + work.shape[axis + 1:], dtype=np.int64)
    else:
        indices = _each_slice(work, axis, _topk_order(k, largest, sorted), k)
    return _selected("topk", TopkBackward0, input, dim, indices)


def _greater_or_nan(x: Any, y: Any) -> bool:
    """``kthvalue``'s comparison: x after y; a nan after every number."""
    return (math.isnan(x) and not math.isnan(y)) or x > y


def _quick_select(values: list, indices: list, k: int) -> None:
    """PyTorch's ``quick_select_template`` (``aten/src/ATen/native/Sorting.cpp``): moves
    the ``k``-th smallest of ``values`` (0-based) to position ``k``, swapping ``indices``
    along. A median-of-three pivot and Sedgewick's partition; equal values end up in an
    order that only this exact sequence of swaps gives, so the index ``kthvalue`` returns
    among ties is PyTorch's."""
    def swap(i: int, j: int) -> None:
        values[i], values[j] = values[j], values[i]
        indices[i], indices[j] = indices[j], indices[i]

    low, high = 0, len(values) - 1
    while high > low:
        if high == low + 1:  # two elements
            if _greater_or_nan(values[low], values[high]):
                swap(low, high)
            return
        swap((low + high) >> 1, low + 1)  # the median of three becomes the pivot, at low
        if _greater_or_nan(values[low + 1], values[high]):
            swap(low + 1, high)
        if _greater_or_nan(values[low], values[high]):
            swap(low, high)
        if _greater_or_nan(values[low + 1], values[low]):
            swap(low + 1, low)
        i, j, pivot = low + 1, high, values[low]
        while True:
            i += 1
            while _greater_or_nan(pivot, values[i]):
                i += 1
            j -= 1
            while _greater_or_nan(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:
            low = i
        if j >= k:
            high = j - 1


def _kth_order(k: int) -> Callable[[np.ndarray], np.ndarray]:
    def order(row: np.ndarray) -> np.ndarray:
        values, indices = row.tolist(), list(range(row.size))
        _quick_select(values, indices, k - 1)
        return np.array([indices[k - 1]], dtype=np.int64)

    return order


class KthvalueBackward0(_PickedAlongDimBackward):
    """The gradient goes to the one element picked, as for ``max(dim)``."""

    __slots__ = ()


def _kthvalue(input: Tensor, k: Any, dim: Any, keepdim: bool, positions: tuple[int, int]
              ) -> Any:
    for name, value, position in (("k", k, positions[0]), ("dim", dim, positions[1])):
        if not _is_integer(value):  # PyTorch's parser: an int, a NumPy or 1-element int tensor
            raise TypeError(f"kthvalue(): argument '{name}' (position {position}) must be "
                            f"int, not {type_name(value)}")
    k, dim = operator.index(k), operator.index(dim)
    data = input._data
    if data.dtype == np.bool_:
        raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
    axis = _wrap_dim(dim, data.ndim)
    work = data.reshape(1) if data.ndim == 0 else data
    if work.shape[axis] == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {axis} to have non-zero size.")
    if not 0 < k <= work.shape[axis]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {axis}")
    if work.size == 0:
        indices = np.zeros(work.shape[:axis] + (1,) + work.shape[axis + 1:], dtype=np.int64)
    else:
        indices = _each_slice(work, axis, _kth_order(k), 1)
    values = np.take_along_axis(work, indices, axis=axis)
    if not keepdim or data.ndim == 0:
        values, indices = values.squeeze(axis), indices.squeeze(axis)
        if data.ndim == 0:
            values, indices = values.reshape(()), indices.reshape(())
    out = record(values, KthvalueBackward0, (input,), shape=data.shape, axis=axis,
                 keepdim=keepdim, dim=shown_dim(dim))
    chosen = wrap(indices)
    if out._grad_fn is not None:
        out._grad_fn._save_output(chosen)  # PyTorch saves the indices output
    return return_types.kthvalue(out, chosen)


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False, *,
             out: Any = None) -> Any:
    """``(values, indices)``: the ``k``-th smallest element of each slice along ``dim``
    (``k`` counts from 1) and where it was; a nan counts as larger than every number.
    Among equal values, the index is the one PyTorch's quickselect leaves at rank ``k``
    (not always the first). ``out=`` is not implemented; ``k`` and ``dim`` given by
    keyword are reported at their positions when not ints.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.kthvalue.html>
    """
    if out is not None:
        raise NotImplementedError("minitorch_hooks does not implement out=")
    return _kthvalue(input, k, dim, keepdim, (2, 3))


def kthvalue_method(self: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """``Tensor.kthvalue(k, dim=-1, keepdim=False)``."""
    return _kthvalue(self, k, dim, keepdim, (1, 2))
