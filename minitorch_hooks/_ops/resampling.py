"""The separable resamplings: ``adaptive_avg_pool2d/3d`` and every mode of ``interpolate``:
``nearest``, ``nearest-exact``, ``linear``, ``bilinear``, ``bicubic``, ``trilinear``, and
the antialiased ``bilinear``, ``bicubic`` and ``lanczos``.

Each is *linear along each axis separately*: an output row is a weighted sum of a few input
rows, and an output column of a few input columns (and in 3-d, a slice of a few slices).
One axis's map is a list of *taps*: tap ``t`` adds ``weight * input[source]`` into
``output[target]`` for every output (the nearest pixel is one tap without a weight, a
copy; linear is two, the pixels on either side of the source position; cubic four; an
adaptive average window is one tap per element it covers, summed and then divided by its
length). ``bilinear`` and ``trilinear`` are ``linear``'s map along two or three axes, as
``bicubic`` is the cubic map along two. The forward pass applies the last axis's taps, then
the one before; the backward pass sends each gradient back through the same taps, from
target to source.

A matrix product would compute the same sums, but it multiplies *every* input by its
weight, 0 for all but a few: an ``inf`` anywhere in a row then makes ``inf * 0 = nan`` in
every output of that row. PyTorch's kernels touch only the taps, so an ``inf`` stays in the
outputs that read it; so do these. (A tap whose weight is 0, as bilinear's second pixel when
the source falls exactly on the first, still multiplies: PyTorch gives ``nan`` there too.)
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.interpolate.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.adaptive_avg_pool2d.html>
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record


class Tap(NamedTuple):
    """``output[targets[j]] += weights[j] * input[sources[j]]`` for each ``j``."""

    targets: np.ndarray
    sources: np.ndarray
    weights: np.ndarray | None  # None: a copy, no multiplication


class AxisMap(NamedTuple):
    """How one axis of ``size`` elements becomes ``out`` elements."""

    size: int
    out: int
    taps: tuple[Tap, ...]
    lengths: np.ndarray | None = None  # an average: each output divided by its length

    def reversed(self) -> AxisMap:
        """The same taps from target to source: the map of the gradient."""
        return AxisMap(self.out, self.size,
                       tuple(Tap(t.sources, t.targets, t.weights) for t in self.taps))


def _key(axis: int, positions: np.ndarray) -> tuple:
    return (Ellipsis, positions) + (slice(None),) * (-axis - 1)


def along(x: Any, axis: int, axis_map: AxisMap) -> Any:
    """``x`` with its axis ``axis`` (counted from the end: -1, -2, ...) mapped by
    ``axis_map``: NumPy on an array, recorded operations on a Tensor (so a gradient can be
    differentiated)."""
    shape = list(formula.array(x).shape)
    shape[axis] = axis_map.out
    if not axis_map.taps:  # an empty output, or the gradient of one: nothing is read
        return formula.like(np.zeros(shape, dtype=formula.dtype(x)), x)
    pieces = []
    for tap in axis_map.taps:
        values = x[_key(axis, tap.sources)]
        if tap.weights is not None:
            weights = tap.weights.astype(formula.dtype(x)).reshape((-1,) + (1,) * (-axis - 1))
            values = values * formula.like(weights, x)
        pieces.append(formula.scatter(tuple(shape), _key(axis, tap.targets), values,
                                      accumulate=True))
    total = pieces[0]
    for piece in pieces[1:]:
        total = total + piece
    return total


def _divided(x: Any, maps: tuple[AxisMap, ...]) -> Any:
    """An average's sums divided by the lengths of the first axis's windows, then the next
    axis's (PyTorch's ``sum / kh / kw``)."""
    for axis, axis_map in enumerate(maps, start=-len(maps)):
        if axis_map.lengths is not None:
            lengths = axis_map.lengths.reshape((-1,) + (1,) * (-axis - 1))
            x = x / formula.like(lengths.astype(formula.dtype(x)), x)
    return x


class _ResamplingBackward(Node):
    """The gradient of a separable resampling: the same taps, from target to source (or
    through ``gradient_maps``, where PyTorch's backward reads other taps than its forward)."""

    __slots__ = ("maps", "gradient_maps")

    def backward(self, grad):
        maps = self.gradient_maps or self.maps
        grad = _divided(grad, maps)
        for axis, axis_map in enumerate(maps, start=-len(maps)):
            grad = along(grad, axis, axis_map.reversed())
        return grad


class _AdaptiveAvgPoolBackward(_ResamplingBackward):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        self.saved_arrays()  # unused, but checked: PyTorch's node saves the input
        return super().backward(grad)


class AdaptiveAvgPool2DBackward0(_AdaptiveAvgPoolBackward):
    __slots__ = ()


class AdaptiveAvgPool3DBackward0(_AdaptiveAvgPoolBackward):
    __slots__ = ()


SCALE_NAMES = {1: ("scales",), 2: ("scales_h", "scales_w"),
               3: ("scales_d", "scales_h", "scales_w")}  # the scale factors, by axis


class _Upsample1DBackward(_ResamplingBackward):
    """What every ``upsample_*1d`` node saves: the sizes and the scale factor given."""

    __slots__ = ("output_size", "scales", "self_sym_sizes")
    saved_attributes = __slots__


class _Upsample2DBackward(_ResamplingBackward):
    __slots__ = ("output_size", "scales_h", "scales_w", "self_sym_sizes")
    saved_attributes = __slots__


class _Upsample3DBackward(_ResamplingBackward):
    __slots__ = ("output_size", "scales_d", "scales_h", "scales_w", "self_sym_sizes")
    saved_attributes = __slots__


class _Interpolate1DBackward(_Upsample1DBackward):
    """An interpolating mode's node also saves ``align_corners``."""

    __slots__ = ("align_corners",)
    saved_attributes = __slots__ + _Upsample1DBackward.saved_attributes


class _Interpolate2DBackward(_Upsample2DBackward):
    __slots__ = ("align_corners",)
    saved_attributes = __slots__ + _Upsample2DBackward.saved_attributes


class _Interpolate3DBackward(_Upsample3DBackward):
    __slots__ = ("align_corners",)
    saved_attributes = __slots__ + _Upsample3DBackward.saved_attributes


class UpsampleNearest1DBackward0(_Upsample1DBackward):
    __slots__ = ()


class UpsampleNearest2DBackward0(_Upsample2DBackward):
    __slots__ = ()


class UpsampleNearest3DBackward0(_Upsample3DBackward):
    __slots__ = ()


class UpsampleNearestExact1DBackward0(_Upsample1DBackward):
    __slots__ = ()


class UpsampleNearestExact2DBackward0(_Upsample2DBackward):
    __slots__ = ()


class UpsampleNearestExact3DBackward0(_Upsample3DBackward):
    __slots__ = ()


class UpsampleLinear1DBackward0(_Interpolate1DBackward):
    __slots__ = ()


class UpsampleBilinear2DBackward0(_Interpolate2DBackward):
    __slots__ = ()


class UpsampleBicubic2DBackward0(_Interpolate2DBackward):
    __slots__ = ()


class UpsampleTrilinear3DBackward0(_Interpolate3DBackward):
    __slots__ = ()


class UpsampleBilinear2DAaBackward0(_Interpolate2DBackward):
    __slots__ = ()


class UpsampleBicubic2DAaBackward0(_Interpolate2DBackward):
    __slots__ = ()


class UpsampleLanczos2DAaBackward0(_Interpolate2DBackward):
    __slots__ = ()


def resample(input: Tensor, maps: tuple[AxisMap, ...], node_type: type[Node],
             gradient_maps: tuple[AxisMap, ...] | None = None, **attributes: object) -> Tensor:
    """Every plane (or volume) of ``input`` mapped along its last ``len(maps)`` axes, the
    last axis first, recorded as ``node_type`` (whose gradient goes back through
    ``gradient_maps`` if given, else through ``maps``)."""
    x = out = input._data
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf, inf * 0: as PyTorch
        for axis, axis_map in reversed(list(enumerate(maps, start=-len(maps)))):
            out = along(out, axis, axis_map)
        out = _divided(out, maps)
    if x.dtype.kind != "f":  # a uint8 image resized to its nearest pixels: exact
        return wrap(out)
    saved = (input,) if "self" in node_type.saved_names else ()
    return record(out, node_type, (input,), saved=saved, maps=maps,
                  gradient_maps=gradient_maps, **attributes)


def adaptive_average_map(size: int, out: int) -> AxisMap:
    """Output ``i`` averages the input from ``floor(i * size / out)`` to
    ``ceil((i + 1) * size / out)``: windows that cover the input, overlapping if needed."""
    starts = np.arange(out) * size // out
    ends = -(-(np.arange(out) + 1) * size // out)
    lengths = ends - starts
    taps = tuple(Tap(np.nonzero(lengths > k)[0], (starts + k)[lengths > k], None)
                 for k in range(int(lengths.max(initial=0))))
    return AxisMap(size, out, taps, lengths)


def nearest_map(size: int, out: int, scale: float | None, exact: bool = False,
                copy_unchanged: bool = False) -> AxisMap:
    """Output ``i`` copies input ``floor(i * ratio)`` (``'nearest'``, PyTorch's legacy rule,
    which shifts the picture by half a pixel) or ``floor((i + 0.5) * ratio)``
    (``'nearest-exact'``, the centres' rule), where ``ratio`` is ``1 / scale_factor`` when
    one was given, else ``size / out``, in float32 whatever the dtype, as PyTorch computes
    it. With ``copy_unchanged`` an axis whose size is unchanged is copied whatever the
    scale factor: PyTorch does so in 'nearest''s 2-d forward and in every 'nearest'
    backward, not in its 1-d and 3-d forwards (so ``scale_factor=1.3`` on an axis of 3
    reads inputs 0, 0, 1 there, and sends the gradients back to 0, 1, 2)."""
    if out == size and copy_unchanged:
        return AxisMap(size, size, (Tap(np.arange(size), np.arange(size), None),))
    ratio = _pixel_ratio(size, out, False, scale, np.float32)
    position = np.arange(out, dtype=np.float32) + np.float32(0.5 if exact else 0)
    source = np.floor(position * ratio).astype(np.int64)
    return AxisMap(size, out, (Tap(np.arange(out), np.minimum(source, size - 1), None),))


def _source_positions(size: int, out: int, align_corners: bool, scale: float | None,
                      compute: type[np.floating]) -> np.ndarray:
    """Where each output falls on the input axis (PyTorch's
    ``area_pixel_compute_source_index``), in ``compute`` (float32, or float64 for a
    float64 input): with ``align_corners`` the corners' centres line up,
    ``i * (size - 1) / (out - 1)``; without it the corners' edges do,
    ``(i + 0.5) * ratio - 0.5``, where ``ratio`` is ``1 / scale_factor`` when one was
    given, else ``size / out``. The position may be negative near the first edge."""
    i = np.arange(out, dtype=compute)
    ratio = _pixel_ratio(size, out, align_corners, scale, compute)
    if align_corners:
        return i * ratio
    return ratio * (i + compute(0.5)) - compute(0.5)


def _pixel_ratio(size: int, out: int, align_corners: bool, scale: float | None,
                 compute: type[np.floating]) -> np.floating:
    """How far apart, in inputs, two neighbouring outputs lie (PyTorch's
    ``area_pixel_compute_scale``)."""
    if align_corners:
        return compute(size - 1) / compute(out - 1) if out > 1 else compute(0)
    return compute(1 / scale) if scale else compute(size) / compute(out)


def _floor_and_fraction(source: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The input at or before each position (at most the last one) and how far past it the
    position lies, between 0 and 1 (PyTorch's ``guard_index_and_lambda``)."""
    low = np.minimum(np.floor(source).astype(np.int64), size - 1)
    return low, np.clip(source - low, 0, 1).astype(source.dtype)


def linear_map(size: int, out: int, align_corners: bool, scale: float | None,
               compute: type[np.floating] = np.float32) -> AxisMap:
    """Output ``i`` mixes the two inputs around its source position (at least 0 here), by
    weights ``1 - t`` and ``t``: one axis of ``'linear'``, ``'bilinear'`` and
    ``'trilinear'``, which are this rule along each axis in turn. At the last input both
    taps read it, and on an axis whose size is unchanged both taps read the same input,
    with weights 1 and 0 (so an ``inf`` there gives ``inf + inf * 0 = nan``, as in
    PyTorch)."""
    targets = np.arange(out)
    if out == size:
        same = np.arange(size)
        return AxisMap(size, out, (Tap(same, same, np.ones(size, dtype=compute)),
                                   Tap(same, same, np.zeros(size, dtype=compute))))
    source = np.maximum(_source_positions(size, out, align_corners, scale, compute), 0)
    low, weight = _floor_and_fraction(source, size)
    high = np.minimum(low + 1, size - 1)
    return AxisMap(size, out, (Tap(targets, low, 1 - weight), Tap(targets, high, weight)))


CUBIC_A = -0.75  # PyTorch's (and OpenCV's) choice for the cubic convolution kernel
ANTIALIAS_CUBIC_A = -0.5  # Keys' own, Pillow's, for antialiasing


def _cubic_near(x: np.ndarray, a: np.floating) -> np.ndarray:
    """Keys' cubic convolution kernel at a distance ``x`` below 1."""
    return ((a + 2) * x - (a + 3)) * x * x + 1


def _cubic_far(x: np.ndarray, a: np.floating) -> np.ndarray:
    """Keys' cubic convolution kernel at a distance ``x`` from 1 to 2 (beyond, 0)."""
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def _cubic_weights(t: np.ndarray) -> tuple[np.ndarray, ...]:
    """The four weights of the inputs at distances ``1 + t``, ``t``, ``1 - t`` and
    ``2 - t`` from the position (PyTorch's ``get_cubic_upsample_coefficients``), which sum
    to 1."""
    a, one = t.dtype.type(CUBIC_A), t.dtype.type(1)
    return (_cubic_far(t + one, a), _cubic_near(t, a), _cubic_near(one - t, a),
            _cubic_far(one - t + one, a))


def cubic_map(size: int, out: int, align_corners: bool, scale: float | None,
              compute: type[np.floating] = np.float32) -> AxisMap:
    """Output ``i`` mixes the four inputs around its source position (one before, two
    after), by the cubic weights; an input past either edge is read at the edge (PyTorch's
    ``upsample_get_value_bounded``), so near the borders several taps read the same input.
    The position is not moved up to 0 as ``linear_map``'s is: the weights need the true
    distance. Nothing is copied when the size is unchanged: an ``inf`` then spreads, times
    the weights 0, as ``nan`` into its neighbours, as in PyTorch's forward."""
    low, t = _floor_and_fraction(_source_positions(size, out, align_corners, scale, compute),
                                 size)
    targets = np.arange(out)
    return AxisMap(size, out, tuple(Tap(targets, np.clip(low - 1 + k, 0, size - 1), weight)
                                    for k, weight in enumerate(_cubic_weights(t))))


def _triangle(x: np.ndarray) -> np.ndarray:
    """The antialiasing filter of ``'bilinear'``: 1 at the centre, 0 from a distance of 1."""
    x = np.abs(x)
    return np.where(x < 1, 1 - x, 0).astype(x.dtype)


def _keys_cubic(x: np.ndarray) -> np.ndarray:
    """The antialiasing filter of ``'bicubic'``: Keys' cubic with ``A = -0.5``, as Pillow
    (not the -0.75 of the plain bicubic mode, OpenCV's), 0 from a distance of 2."""
    a, x = x.dtype.type(ANTIALIAS_CUBIC_A), np.abs(x)
    return np.where(x < 1, _cubic_near(x, a), np.where(x < 2, _cubic_far(x, a), 0)
                    ).astype(x.dtype)


def _lanczos3(x: np.ndarray) -> np.ndarray:
    """The filter of ``'lanczos'``: ``sinc(x) * sinc(x / 3)``, 0 from a distance of 3."""
    def sinc(y):
        with np.errstate(invalid="ignore", divide="ignore"):
            scaled = y * y.dtype.type(np.pi)
            return np.where(y == 0, 1, np.sin(scaled) / scaled).astype(y.dtype)

    x = np.abs(x)
    return np.where(x < 3, sinc(x) * sinc((x / 3.0).astype(x.dtype)), 0).astype(x.dtype)


# Each antialiasing filter, with its reach (half its width: PyTorch's interp_size / 2).
FILTERS = {"bilinear": (_triangle, 1.0), "bicubic": (_keys_cubic, 2.0),
           "lanczos": (_lanczos3, 3.0)}


def antialias_map(size: int, out: int, align_corners: bool, scale: float | None, mode: str,
                  compute: type[np.floating] = np.float32) -> AxisMap:
    """``antialias=True`` (Pillow's resampling, PyTorch's
    ``_compute_indices_min_size_weights_aa``): when shrinking, the mode's filter (a
    triangle, the cubic, or Lanczos') is stretched by the ratio, so each output averages
    every input its wider window covers, not just the 2, 4 or 6 nearest; the weights inside
    the input are then divided by their sum. The window is centred at
    ``ratio * (i + 0.5)``; the number of taps is ``ceil(support) * 2 + 1`` at most."""
    ratio = _pixel_ratio(size, out, align_corners, scale, compute)
    shapes, reach = FILTERS[mode]
    support = compute(reach * ratio) if ratio >= 1 else compute(reach)
    inverse = compute(1.0 / ratio) if ratio >= 1 else compute(1.0)
    taps_at_most = int(np.ceil(support)) * 2 + 1
    centre = (np.float64(ratio) * (np.arange(out) + 0.5)).astype(compute)
    first = np.maximum(((centre - support) + 0.5).astype(np.int64), 0)  # (truncated, as C++)
    count = np.clip(np.minimum(((centre + support) + 0.5).astype(np.int64), size) - first,
                    0, taps_at_most)
    weights = [shapes(((j + first - centre) + 0.5).astype(compute) * inverse) for j in
               range(taps_at_most)]
    inside = [j < count for j in range(taps_at_most)]
    total = np.zeros(out, dtype=compute)
    for weight, used in zip(weights, inside):
        total = total + np.where(used, weight, 0).astype(compute)
    with np.errstate(invalid="ignore", divide="ignore"):
        normalised = [np.where(total != 0, weight / total, weight).astype(compute)
                      for weight in weights]
    targets = np.arange(out)
    return AxisMap(size, out, tuple(Tap(targets[used], (first + j)[used], weight[used])
                                    for j, (weight, used) in enumerate(zip(normalised, inside))
                                    if used.any()))
