"""Medians and quantiles: ``median``, ``nanmedian``, ``quantile`` and ``nanquantile``.

The median of ``n`` values is the *lower* middle one, the ``(n - 1) // 2``-th in sorted
order (no averaging of the two middle values, unlike NumPy's): a value the tensor holds.
So its gradient goes to the elements holding it: over the whole tensor, shared evenly
among the elements equal to it, as ``max()``'s; along ``dim``, to the one index returned
(among ties, the later in the input: the stable sort's). A NaN makes ``median`` NaN (its
index is the NaN's); ``nanmedian`` leaves the NaNs out.

``quantile`` interpolates between the two sorted values around rank ``q * (n - 1)``, and
PyTorch builds it from recorded operations: a sort, two ``gather``s of the neighbours and
an in-place ``lerp_`` between them; so does this file, so the graph and gradients are
PyTorch's. A NaN among the values makes the quantile NaN; ``nanquantile`` ranks the other
values only.
See <https://docs.pytorch.org/docs/2.13/generated/torch.median.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.quantile.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import return_types
from .._tensor import Tensor, _wrap_dim, wrap
from ._record import record, shown_dim
from .reduction import _AllExtremumBackward, _PickedAlongDimBackward


class MedianBackward0(_AllExtremumBackward):
    __slots__ = ()


class NanmedianBackward0(_AllExtremumBackward):
    __slots__ = ()


class MedianBackward1(_PickedAlongDimBackward):
    __slots__ = ()


class NanmedianBackward1(MedianBackward1):
    __slots__ = ()


def _lower_middle(values: np.ndarray, skip_nan: bool) -> tuple[np.ndarray, np.ndarray]:
    """The lower median of each row of ``values`` (the last axis) and its index."""
    order = np.argsort(values, axis=-1, kind="stable")  # NaNs last
    nans = np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.shape, bool)
    count = np.full(values.shape[:-1], values.shape[-1]) - (nans.sum(-1) if skip_nan else 0)
    rank = np.maximum(count - 1, 0) // 2
    index = np.take_along_axis(order, rank[..., None], -1)[..., 0]
    if not skip_nan:  # a NaN in the row: the median is NaN, at the first NaN
        has_nan = nans.any(-1)
        index = np.where(has_nan, nans.argmax(-1), index)
    return np.take_along_axis(values, index[..., None], -1)[..., 0], index


def _median(input: Tensor, dim: int | None, keepdim: bool, skip_nan: bool) -> Any:
    data = input._data
    name = "median"  # (nanmedian's errors say median() too)
    if dim is None:
        if data.size == 0:
            return wrap(np.array(np.nan, dtype=data.dtype))
        value, _ = _lower_middle(data.reshape(1, -1), skip_nan)
        node = NanmedianBackward0 if skip_nan else MedianBackward0
        return record(value[0], node, (input,), saved=(input,), save_output=True)
    axis = _wrap_dim(dim, data.ndim)
    work = data.reshape(1) if data.ndim == 0 else data
    if work.shape[axis] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
    values, indices = _lower_middle(np.moveaxis(work, axis, -1), skip_nan)
    kept = keepdim and data.ndim > 0
    if kept:
        values, indices = np.expand_dims(values, axis), np.expand_dims(indices, axis)
    node = NanmedianBackward1 if skip_nan else MedianBackward1
    out = record(values, node, (input,), shape=data.shape, axis=axis, keepdim=kept,
                 dim=shown_dim(dim))
    winners = wrap(indices.astype(np.int64))
    if out._grad_fn is not None:
        out._grad_fn._save_output(winners)
    return getattr(return_types, name)(out, winners)


def median(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:
    """The lower median of all elements, or ``(values, indices)`` along ``dim``."""
    return _median(input, dim, keepdim, skip_nan=False)


def nanmedian(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:
    """``median`` of the elements that are not NaN (NaN if there are none)."""
    return _median(input, dim, keepdim, skip_nan=True)


_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input: Tensor, q: Any, dim: int | None, keepdim: bool, interpolation: str,
              skip_nan: bool) -> Tensor:
    from .blending import lerp_
    from .gather_scatter import gather
    from .shape import flatten, transpose, unsqueeze, view
    from .shape_inplace import squeeze_, transpose_, unsqueeze_
    from .sorting import sort

    name = "quantile"  # (nanquantile's errors say quantile() too)
    data = input._data
    if data.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    q_tensor = q if isinstance(q, Tensor) else None
    if q_tensor is not None:
        if q_tensor.dim() > 1:
            raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
        if q_tensor.dtype is not input.dtype:
            raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if data.size == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    qs = np.atleast_1d(q_tensor._data if q_tensor is not None else np.array(q, data.dtype))
    for value in qs:
        if not 0 <= value <= 1:
            if q_tensor is not None:
                raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
            raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
    if interpolation not in _MODES:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    # The output's shape: q's length first (when q is a vector), then the kept dimensions.
    if dim is None:
        out_shape = [1] * data.ndim if keepdim else []
        sorted_values = sort(flatten(input)).values
    else:
        axis = _wrap_dim(dim, data.ndim)
        out_shape = list(data.shape)
        if keepdim:
            out_shape[axis] = 1
        else:
            del out_shape[axis]
        if axis == data.ndim - 1:
            sorted_values = sort(input).values
        else:
            sorted_values = sort(transpose(unsqueeze(input, -1), axis, -1)).values
    scalar_q = q_tensor is None or q_tensor.dim() == 0
    in_shape = [*out_shape, sorted_values.shape[-1]]
    sorted_values = view(sorted_values, *in_shape)
    rows = sorted_values._data
    last = rows.shape[-1] - 1
    nans = np.isnan(rows)
    q_column = qs.reshape((1,) * len(out_shape) + (-1,)) if not scalar_q else qs
    if skip_nan:
        ranks = q_column * np.maximum((~nans).sum(-1, keepdims=True) - 1, 0)
    else:
        ranks = np.where(nans.any(-1, keepdims=True), last, q_column * last)
    ranks = np.broadcast_to(ranks, (*out_shape, qs.size)).astype(data.dtype)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)
    below = ranks.astype(np.int64)
    values = gather(sorted_values, -1, wrap(np.ascontiguousarray(below)))
    if interpolation in ("linear", "midpoint"):
        weights = (np.where(ranks == below, 0, 0.5) if interpolation == "midpoint"
                   else ranks - below).astype(data.dtype)
        above = gather(sorted_values, -1, wrap(np.ascontiguousarray(np.ceil(ranks).astype(
            np.int64))))
        values = lerp_(values, above, wrap(np.ascontiguousarray(weights)))
    if scalar_q:
        return squeeze_(values, -1)
    return squeeze_(transpose_(unsqueeze_(values, 0), 0, -1), -1)


def quantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
             interpolation: str = "linear") -> Tensor:
    """The ``q``-th quantiles of all elements, or of each slice along ``dim``."""
    return _quantile(input, q, dim, keepdim, interpolation, skip_nan=False)


def nanquantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
                interpolation: str = "linear") -> Tensor:
    """``quantile`` of the elements that are not NaN."""
    return _quantile(input, q, dim, keepdim, interpolation, skip_nan=True)
