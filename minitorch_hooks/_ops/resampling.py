"""The separable resamplings: ``adaptive_avg_pool2d/3d`` and ``interpolate``'s ``nearest``
and ``bilinear`` modes.

Each is *linear along each axis separately*: an output row is a weighted sum of a few input
rows, and an output column of a few input columns (and in 3-d, a slice of a few slices).
One axis's map is a list of *taps*: tap ``t`` adds ``weight * input[source]`` into
``output[target]`` for every output (the nearest pixel is one tap without a weight, a
copy; bilinear is two, the pixels on either side of the source position; an adaptive
average window is one tap per element it covers, summed and then divided by its length).
The forward pass applies the last axis's taps, then the one before; the backward pass
sends each gradient back through the same taps, from target to source.

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
    """The gradient of a separable resampling: the same taps, from target to source."""

    __slots__ = ("maps",)

    def backward(self, grad):
        grad = _divided(grad, self.maps)
        for axis, axis_map in enumerate(self.maps, start=-len(self.maps)):
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


class UpsampleNearest2DBackward0(_ResamplingBackward):
    __slots__ = ("output_size", "scales_h", "scales_w", "self_sym_sizes")
    saved_attributes = ("output_size", "scales_h", "scales_w", "self_sym_sizes")


class UpsampleBilinear2DBackward0(_ResamplingBackward):
    __slots__ = ("output_size", "align_corners", "scales_h", "scales_w", "self_sym_sizes")
    saved_attributes = ("align_corners", "output_size", "scales_h", "scales_w",
                        "self_sym_sizes")


def resample(input: Tensor, maps: tuple[AxisMap, ...], node_type: type[Node],
             **attributes: object) -> Tensor:
    """Every plane (or volume) of ``input`` mapped along its last ``len(maps)`` axes, the
    last axis first, recorded as ``node_type``."""
    x = out = input._data
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf, inf * 0: as PyTorch
        for axis, axis_map in reversed(list(enumerate(maps, start=-len(maps)))):
            out = along(out, axis, axis_map)
        out = _divided(out, maps)
    if x.dtype.kind != "f":  # a uint8 image resized to its nearest pixels: exact
        return wrap(out)
    saved = (input,) if "self" in node_type.saved_names else ()
    return record(out, node_type, (input,), saved=saved, maps=maps, **attributes)


def adaptive_average_map(size: int, out: int) -> AxisMap:
    """Output ``i`` averages the input from ``floor(i * size / out)`` to
    ``ceil((i + 1) * size / out)``: windows that cover the input, overlapping if needed."""
    starts = np.arange(out) * size // out
    ends = -(-(np.arange(out) + 1) * size // out)
    lengths = ends - starts
    taps = tuple(Tap(np.nonzero(lengths > k)[0], (starts + k)[lengths > k], None)
                 for k in range(int(lengths.max(initial=0))))
    return AxisMap(size, out, taps, lengths)


def nearest_map(size: int, out: int, scale: float | None) -> AxisMap:
    """Output ``i`` copies input ``floor(i * scale)``, where ``scale`` is ``1 /
    scale_factor`` when one was given, else ``size / out`` (PyTorch's legacy 'nearest')."""
    if out == size:  # PyTorch copies an axis whose size is unchanged, whatever the scale
        return AxisMap(size, size, (Tap(np.arange(size), np.arange(size), None),))
    ratio = np.float32(1 / scale if scale else size / out)
    source = np.floor(np.arange(out, dtype=np.float32) * ratio).astype(np.int64)
    return AxisMap(size, out, (Tap(np.arange(out), np.minimum(source, size - 1), None),))


def bilinear_map(size: int, out: int, align_corners: bool, scale: float | None) -> AxisMap:
    """Output ``i`` mixes the two inputs around its source position: with
    ``align_corners`` the corners' centres line up (``i * (size - 1) / (out - 1)``),
    without it the corners' edges do (``(i + 0.5) * scale - 0.5``, at least 0). At the
    last input both taps read it, and on an axis whose size is unchanged both taps read the
    same input, with weights 1 and 0 (so an ``inf`` there gives ``inf + inf * 0 = nan``, as
    in PyTorch)."""
    if out == size:
        same = np.arange(size)
        return AxisMap(size, out, (Tap(same, same, np.ones(size, dtype=np.float32)),
                                   Tap(same, same, np.zeros(size, dtype=np.float32))))
    i = np.arange(out, dtype=np.float32)
    if align_corners:
        source = i * np.float32((size - 1) / (out - 1) if out > 1 else 0)
    else:
        ratio = np.float32(1 / scale if scale else size / out)
        source = np.maximum((i + np.float32(0.5)) * ratio - np.float32(0.5), 0)
    low = np.minimum(np.floor(source).astype(np.int64), size - 1)
    high = np.minimum(low + 1, size - 1)
    weight = source - low
    targets = np.arange(out)
    return AxisMap(size, out, (Tap(targets, low, 1 - weight), Tap(targets, high, weight)))
