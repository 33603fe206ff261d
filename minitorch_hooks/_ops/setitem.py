"""Item assignment, ``x[index] = value``: an in-place operation on part of a tensor.

PyTorch turns the assignment into operations it already has: the basic indices (integers,
slices, ``None``, ``...``) make a view, and the value is copied or filled into it, or put at
the positions of integer and boolean index arrays (``index_put_``). The same in-place guards
apply as for ``add_``, and the recorded node tells which way the write went: ``CopySlices``
through a view, ``IndexPutBackward0`` for arrays alone, ``fill_`` or ``copy_``'s own node
when the index selects the whole tensor. Its relative ``masked_fill`` (write one value where
a mask is True) is here too.
See <https://docs.pytorch.org/docs/2.13/tensor_view.html>
"""

from __future__ import annotations

import warnings
from numbers import Number
from typing import Any

import numpy as np

from .. import _dtype
from .._tensor import Tensor, _c_name, wrap
from ..autograd import _formula as formula
from ..autograd.grad_mode import _State, no_grad
from ..autograd.graph import Node
from . import indexing, shape
from ._record import record
from .inplace import (
    VIEW_OF_LEAF,
    apply_in_place,
    bump_version,
    check_in_place,
    check_no_internal_overlap,
    copy_,
    fill_,
    scalar_for,
)
from .pointwise import broadcast_shapes


class IndexPutBackward0(Node):
    """``x[index] = value`` through integer or boolean arrays (PyTorch's ``index_put_``).

    The overwritten elements no longer affect the result, so ``x``'s old value gets a zero
    gradient there; ``value`` gets the output's gradient at ``index`` (summed where it was
    broadcast; a position written twice sends its gradient to both writes).
    """

    __slots__ = ("key",)  # the basic items of the index; the index arrays are saved
    saved_names = ("indices",)

    def _read_saved(self, name: str, raw: bool) -> Any:
        return indexing.IndexBackward0._read_saved(self, name, raw)  # a tuple, as for x[index]

    def backward(self, grad):
        arrays = map(formula.array, self.saved_arrays())
        key = tuple(next(arrays) if isinstance(item, np.ndarray) else item for item in self.key)
        return formula.zero_at(grad, key), grad[key]


_EXPANDED_INDEX_PUT = (
    "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[indices] = "
    "tensor")


def setitem(self: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value``: one in-place operation on the elements ``index`` selects.

    PyTorch applies the basic indices (integers, slices, ``None``, ``...``) first, as a view,
    then writes into it: a ``copy_`` of ``value``, a ``fill_`` if ``value`` is a number or
    0-d, an ``index_put_`` if there are integer or boolean arrays too. If the basic indices
    leave the whole tensor, the write goes to the tensor itself and records its own node
    (``CopyBackwards``, ``FillBackward3``); through a view it records ``CopySlices``.
    See <https://docs.pytorch.org/docs/2.13/tensor_view.html>
    """
    if isinstance(value, (Number, np.generic)):
        value = wrap(scalar_for(value, self._data.dtype))
    elif not isinstance(value, Tensor):
        raise TypeError(f"can't assign a {type(value).__name__} to a {self.dtype.legacy_name}")
    with no_grad():
        selected = indexing.getitem(self, index)  # PyTorch's checks of the index, and its shape
    key = indexing.numpy_key(index)
    advanced = any(isinstance(item, np.ndarray) for item in key)
    through_view = _makes_a_view(key, self._data.shape)
    if advanced:
        value = _index_put_source(value, selected._data.shape, self._data.dtype)
        if 0 in self._data.strides and self._data.size > 1:
            warnings.warn(_EXPANDED_INDEX_PUT, UserWarning, stacklevel=2)
    else:
        value = _copy_source(value, selected._data.shape)
        if not through_view:
            if value._data.ndim == 0:
                fill_(self, value)
            else:
                copy_(self, value)
            return
        check_no_internal_overlap(selected)
    if through_view and _State.enabled and self._requires_grad and self.grad_fn is None:
        raise RuntimeError(VIEW_OF_LEAF)  # the view that PyTorch writes through
    if not _State.enabled or not (self.requires_grad or value.requires_grad):
        check_in_place(self)
        self._data[key] = value._data
        bump_version(self)
        return

    def assigned(previous: Tensor, value: Tensor) -> Tensor:
        data = previous._data.copy()
        data[key] = value._data
        # PyTorch saves the index tensors (a boolean mask as it is), not the whole index.
        arrays = tuple(wrap(item) for item in key if isinstance(item, np.ndarray))
        return record(data, IndexPutBackward0, (previous, value), saved=arrays, key=key)

    # Through a view, PyTorch records CopySlices around the write's own node; its gradient
    # is the same (apply_in_place wraps it).
    apply_in_place(self, assigned, value, may_overlap=True, through_view=through_view)


def _makes_a_view(key: tuple, shape: tuple[int, ...]) -> bool:
    """Whether the basic indices in ``key`` make a view: an integer, ``None`` or a bool does,
    and so does a slice that does not cover its whole dimension. ``...``, whole slices and
    the index arrays (applied afterwards) leave the tensor as it is."""
    def dims_used(item: Any) -> int:
        if item is Ellipsis:
            return 0
        return item.ndim if isinstance(item, np.ndarray) and item.dtype == np.bool_ else 1

    dim = 0
    for position, item in enumerate(key):
        if item is Ellipsis:
            dim = len(shape) - sum(dims_used(rest) for rest in key[position + 1:])
        elif isinstance(item, np.ndarray):
            dim += dims_used(item)
        elif isinstance(item, slice) and item.indices(shape[dim]) == (0, shape[dim], 1):
            dim += 1
        else:
            return True
    return False


def _copy_source(value: Tensor, target: tuple[int, ...]) -> Tensor:
    """PyTorch's ``copy_to``: a value of the target's shape, or 0-d (a fill), is used as it
    is; any other loses its leading 1s and is expanded to the target. Both steps are
    recorded, so their nodes sum the gradient back to the value's shape."""
    sizes = value._data.shape
    if not sizes or sizes == target:
        return value
    value = shape.view(value, _without_leading_ones(sizes))  # recorded even if unchanged
    return value if value._data.shape == target else shape.expand(value, *target)


def _index_put_source(value: Tensor, target: tuple[int, ...], dtype: np.dtype) -> Tensor:
    """``index_put_`` takes a value of the tensor's dtype only, and broadcasts it itself
    after dropping its leading 1s (a recorded view, made only if there are any)."""
    if value._data.dtype != dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{_dtype.from_numpy_dtype(dtype).scalar_name} for the destination and "
            f"{value.dtype.scalar_name} for the source.")
    sizes = value._data.shape
    stripped = _without_leading_ones(sizes)
    if stripped != sizes:
        value = shape.view(value, stripped)
    try:
        fits = np.broadcast_shapes(value._data.shape, target) == target
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(value.shape)} "
                           f"cannot be broadcast to indexing result of shape {list(target)}")
    return value


def _without_leading_ones(sizes: tuple[int, ...]) -> tuple[int, ...]:
    """PyTorch's ``slicePrefix1sSize``: a value (1, 1, 3) is written like one of shape (3,)."""
    ones = 0
    while ones < len(sizes) and sizes[ones] == 1:
        ones += 1
    return sizes[ones:]


# -- masked_fill: write one value where a mask is True ---------------------------------------

class MaskedFillBackward0(Node):
    """``masked_fill`` with a number: the filled elements no longer depend on the input, so
    their gradient is zero; the others pass theirs through."""

    __slots__ = ()
    saved_names = ("mask",)

    def backward(self, grad):
        (mask,) = self.saved_arrays()
        return formula.where(mask, 0, grad)


class MaskedFillBackward1(MaskedFillBackward0):
    """``masked_fill`` with a 0-d tensor: that value is in every filled element, so its
    gradient is the sum of theirs."""

    __slots__ = ()

    def backward(self, grad):
        (mask,) = self.saved_arrays()
        return formula.where(mask, 0, grad), formula.where(mask, grad, 0).sum()


def _masked_fill_value(mask: Tensor, value: Any, dtype: np.dtype) -> np.ndarray:
    """The fill value in ``dtype``, after PyTorch's checks on the mask and the value."""
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_c_name(mask.dtype)}")
    if isinstance(value, Tensor):
        if value._data.ndim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value._data.ndim} dimension(s).")
        value = value._data.item()
    return scalar_for(value, dtype)


def masked_fill(input: Tensor, mask: Tensor, value: Any) -> Tensor:
    """``value`` where ``mask`` is True, ``input`` elsewhere; ``mask`` and ``input``
    broadcast together. The usual way to hide positions (attention masks, a gradient to
    drop in a hook) without writing into a tensor that autograd needs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.masked_fill.html>
    """
    fill = _masked_fill_value(mask, value, input._data.dtype)
    broadcast_shapes(mask._data.shape, input._data.shape)  # PyTorch's message
    data = np.where(mask._data, fill, input._data)
    if isinstance(value, Tensor):
        return record(data, MaskedFillBackward1, (input, value), saved=(mask,))
    return record(data, MaskedFillBackward0, (input,), saved=(mask,))


def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    """In-place ``masked_fill``: ``mask`` must broadcast to this tensor's shape."""
    _masked_fill_value(mask, value, self._data.dtype)  # its errors come first
    if isinstance(value, Tensor):  # an input of the node too
        return apply_in_place(self, lambda t, v: masked_fill(t, mask, v), value)
    return apply_in_place(self, lambda t: masked_fill(t, mask, value))
