"""``histc``: how many elements fall into each of ``bins`` equal-width bins.

Activation-statistics hooks call it on every forward to watch a layer's distribution
drift. It counts, so it has no gradient: the result never requires grad.

PyTorch's CPU kernel places an element ``x`` in bin ``(x - min) * bins / (max - min)``,
computed in the tensor's own dtype and truncated to an integer, and puts ``x == max`` in
the last bin; elements outside ``[min, max]`` (and nan) are not counted. With ``min ==
max`` (both 0 by default) the range is the data's own, widened by 1 on each side if all
elements are equal.
See <https://docs.pytorch.org/docs/2.13/generated/torch.histc.html>
"""

from __future__ import annotations

import math

import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor import Tensor, wrap
from ..utils.hooks import type_name


def _c_double(value: float) -> str:
    """A double as C++'s stream prints it (``%g``; nan with its sign bit)."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:g}"


def _range(data: np.ndarray, min: float, max: float) -> tuple[float, float]:  # noqa: A002
    low, high = float(min), float(max)
    if low == high and data.size:
        # A nan among the data makes the range nan; PyTorch's reduction gives the
        # processor's default nan, whose sign bit is set, and its message shows "-nan".
        low, high = (-math.nan if math.isnan(v) else v
                     for v in (float(data.min()), float(data.max())))
    if low == high:
        low, high = low - 1, high + 1
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{_c_double(low)}, {_c_double(high)}] is "
                           "not finite")
    if not low < high:
        raise RuntimeError("torch.histc: max must be larger than min")
    return low, high


def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa: A002
    """Counts of ``input``'s elements in ``bins`` equal bins over ``[min, max]``, as a
    tensor of the input's (floating-point) dtype."""
    if not isinstance(bins, int) or isinstance(bins, bool):
        raise TypeError(f"histc(): argument 'bins' (position 2) must be int, not "
                        f"{type_name(bins)}")
    data = input._data
    if data.dtype.kind != "f":
        raise NotImplementedError('"histogram_cpu" not implemented for '
                                  f"'{from_numpy_dtype(data.dtype).scalar_name}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           "dimension 0")
    low, high = _range(data, min, max)
    kind = data.dtype.type
    left, right = kind(low), kind(high)
    values = data.reshape(-1)
    inside = values[(values >= left) & (values <= right)]  # nan is neither
    positions = ((inside - left) * kind(bins) / (right - left)).astype(np.int64)
    positions[positions == bins] = bins - 1  # the right edge belongs to the last bin
    return wrap(np.bincount(positions, minlength=bins).astype(data.dtype))
