"""Pooling (``max_pool2d/3d``, ``avg_pool2d/3d``, ``adaptive_max_pool2d/3d``) and its
inverse (``max_unpool``), each written once for any number of spatial dimensions (the
separable resamplings, ``adaptive_avg_pool2d/3d`` and ``interpolate``, are in
``resampling.py``).

A pooling window reads a few elements of one channel's plane (or volume, in 3-d). We list,
once per call, which element of the plane each window's taps read (its *taps*: a flat
position, or -1 for padding, -2 past the padding, where ``ceil_mode`` lets the last window
hang over, or past the end of a shorter adaptive window). The taps of each axis are
worked out alone and then combined, which is all that the number of dimensions changes.
Then the forward pass is an indexing and a max or a sum over the taps, and the backward
pass sends each gradient back to the positions it came from (``_formula.scatter``, which
under create_graph records a node of its own: double backward works).
See <https://docs.pytorch.org/docs/2.13/nn.html#pooling-layers>
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record

_PAD, _OVERHANG = -1, -2


def pooled_size(size: int, kernel: int, stride: int, padding: int, dilation: int,
                ceil_mode: bool) -> int:
    """PyTorch's ``pooling_output_shape``: with ``ceil_mode`` a last, partial window counts,
    but only if it starts inside the input or its left padding."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _axis_taps(size: int, out: int, kernel: int, stride: int, padding: int,
               dilation: int) -> np.ndarray:
    """``(out, kernel)``: the position each tap of each window reads along one axis."""
    position = np.arange(out)[:, None] * stride - padding + np.arange(kernel)[None] * dilation
    outside = np.where(position < size + padding, _PAD, _OVERHANG)
    return np.where((position >= 0) & (position < size), position, outside)


def _adaptive_axis_taps(size: int, out: int) -> np.ndarray:
    """``(out, longest window)``: adaptive window ``i`` reads from ``floor(i * size / out)``
    to ``ceil((i + 1) * size / out)``; a window shorter than the longest gets overhang taps,
    which never win and are never counted."""
    start = np.arange(out) * size // out
    end = -(-(np.arange(out) + 1) * size // out)
    longest = int((end - start).max(initial=1))  # (1 for an empty output: no window)
    position = start[:, None] + np.arange(longest)[None]
    return np.where(position < end[:, None], position, _OVERHANG)


def _combined_taps(size: Sequence[int], axes: Sequence[np.ndarray]) -> np.ndarray:
    """``(windows, taps)`` from each axis's ``(out, kernel)`` taps: the flat position in the
    input's plane (or volume) of each tap, or the most outside marker among its axes (a
    tap in the padding of one axis and the overhang of another is overhang)."""
    n = len(axes)
    lowest, flat = 0, 0
    for axis, taps in enumerate(axes):
        shape = [1] * (2 * n)
        shape[axis], shape[n + axis] = taps.shape
        taps = taps.reshape(shape)
        lowest = np.minimum(lowest, taps)
        flat = flat * size[axis] + taps
    windows, taps = (math.prod(t.shape[i] for t in axes) for i in (0, 1))
    flat = np.where(lowest < 0, lowest, flat).reshape(windows, taps)
    flat.setflags(write=False)
    return flat


def plane_taps(*geometry: Sequence[int]) -> np.ndarray:
    """``(windows, taps)``: the flat position in a plane ``(H, W)`` (or volume ``(D, H,
    W)``) each tap reads, for the plane's ``size``, the ``out`` size, ``kernel``,
    ``stride``, ``padding`` and ``dilation`` (in that order, one value per spatial axis).
    Read-only, and worked out once per geometry: a training loop pools the same shapes at
    every step."""
    return _plane_taps(*(tuple(values) for values in geometry))


@functools.lru_cache(maxsize=128)
def _plane_taps(size: tuple[int, ...], out: tuple[int, ...], kernel: tuple[int, ...],
                stride: tuple[int, ...], padding: tuple[int, ...],
                dilation: tuple[int, ...]) -> np.ndarray:
    return _combined_taps(size, [_axis_taps(*args) for args in zip(size, out, kernel, stride,
                                                                   padding, dilation)])


@functools.lru_cache(maxsize=128)
def adaptive_taps(size: tuple[int, ...], out: tuple[int, ...]) -> np.ndarray:
    """``(windows, taps)`` of adaptive pooling from ``size`` to ``out``, as ``plane_taps``."""
    return _combined_taps(size, [_adaptive_axis_taps(*args) for args in zip(size, out)])


def _planes(x: np.ndarray, spatial: int) -> np.ndarray:
    """``(N, C, *spatial)`` as ``(N * C, prod(spatial))``: one row per plane (or volume)."""
    return x.reshape(-1, math.prod(x.shape[-spatial:]))


def _scatter_to_planes(shape: tuple[int, ...], spatial: int, positions: np.ndarray,
                       values: object) -> object:
    """Zeros of ``shape`` with ``values`` (one row per plane) added at the flat
    ``positions`` of each plane: the backward of reading them."""
    planes = math.prod(shape[:-spatial])
    key = (np.arange(planes)[:, None], positions if positions.ndim == 2 else positions[None])
    return formula.scatter((planes, math.prod(shape[-spatial:])), key, values,
                           accumulate=True).reshape(shape)


class _WindowMaxBackward(Node):
    """Each window's gradient goes to the element that was its maximum (``result1``, its
    flat position in its plane); overlapping windows add up there."""

    __slots__ = ("shape",)
    saved_names = ("self", "result1")
    spatial = 2  # the number of spatial dimensions, set by each pooling's node

    def backward(self, grad):
        _, indices = self.saved_arrays()
        flat = formula.array(indices).reshape(math.prod(self.shape[:-self.spatial]), -1)
        return _scatter_to_planes(self.shape, self.spatial, flat, grad.reshape(flat.shape))


class _MaxPoolBackward(_WindowMaxBackward):
    __slots__ = ("kernel_size", "stride", "padding", "dilation", "ceil_mode")
    saved_attributes = ("kernel_size", "stride", "padding", "dilation", "ceil_mode")


class MaxPool2DWithIndicesBackward0(_MaxPoolBackward):
    __slots__ = ()


class MaxPool3DWithIndicesBackward0(_MaxPoolBackward):
    __slots__ = ()
    spatial = 3


class AdaptiveMaxPool2DBackward0(_WindowMaxBackward):
    __slots__ = ()


class AdaptiveMaxPool3DBackward0(_WindowMaxBackward):
    __slots__ = ()
    spatial = 3


def _window_maxima(values: np.ndarray, taps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each window's maximum over its taps (``values`` is ``(planes, taps, windows)``, minus
    infinity outside the input) and the plane position it came from, as PyTorch's kernel
    scans: it starts from minus infinity at the window's first position inside the input,
    and a tap wins if it is greater than the best so far, or NaN. So ties keep the first,
    NaNs the last, and a window of minus infinities points at its first input element.

    One pass per tap over whole arrays: a window has few taps, and NumPy's ``argmax``
    over such a short axis pays its per-row cost once per window."""
    lowest = -np.inf if values.dtype.kind == "f" else np.iinfo(values.dtype).min
    best = np.full(values.shape[::2], lowest, dtype=values.dtype)
    first_inside = taps[np.argmax(taps >= 0, axis=0), np.arange(taps.shape[1])]
    indices = np.broadcast_to(first_inside, best.shape)
    for tap in range(len(taps)):
        candidate = values[:, tap]
        wins = candidate > best
        if values.dtype.kind == "f":
            wins |= np.isnan(candidate)
        best = np.where(wins, candidate, best)
        indices = np.where(wins, taps[tap], indices)
    return best, indices.astype(np.int64)


def window_max(input: Tensor, taps: np.ndarray, out: Sequence[int], node_type: type[Node],
               **attributes: object) -> tuple[Tensor, Tensor]:
    """The maximum of each window, and where it is (a flat position in its plane; the first
    one, on ties), for the ``(windows, taps)`` of a max pooling or an adaptive one."""
    x = input._data
    spatial = len(out)
    taps = taps.T  # (taps, windows)
    values = _planes(x, spatial)[:, np.maximum(taps, 0)]  # (planes, taps, windows)
    values[:, taps < 0] = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    best, indices = _window_maxima(values, taps)
    # Contiguous, as PyTorch's kernel writes them: ``x.view(-1, n)`` follows a pooling.
    result = np.ascontiguousarray(best.reshape(*x.shape[:-spatial], *out))
    indices_tensor = wrap(np.ascontiguousarray(indices.reshape(result.shape)))
    output = record(result, node_type, (input,), saved=(input,), shape=x.shape, **attributes)
    if output._grad_fn is not None:
        output._grad_fn._save_output(indices_tensor)
    return output, indices_tensor


def max_pool_with_indices(input: Tensor, kernel: Sequence[int], stride: Sequence[int],
                          padding: Sequence[int], dilation: Sequence[int], ceil_mode: bool,
                          stride_given: tuple, node_type: type[Node]
                          ) -> tuple[Tensor, Tensor]:
    """``max_pool2d`` or ``max_pool3d`` (one value of each argument per spatial axis) of an
    input already checked, recorded as ``node_type``."""
    size = input.shape[-len(kernel):]
    out = [pooled_size(*args, ceil_mode) for args in zip(size, kernel, stride, padding,
                                                          dilation)]
    return window_max(input, plane_taps(size, out, kernel, stride, padding, dilation), out,
                      node_type, kernel_size=tuple(kernel), stride=stride_given,
                      padding=tuple(padding), dilation=tuple(dilation), ceil_mode=ceil_mode)


def adaptive_max_pool(input: Tensor, out: Sequence[int], node_type: type[Node]
                      ) -> tuple[Tensor, Tensor]:
    """``adaptive_max_pool2d`` or ``3d``: windows that tile the input, whatever its size."""
    size = tuple(input.shape[-len(out):])
    return window_max(input, adaptive_taps(size, tuple(out)), out, node_type)


class _AvgPoolBackward(Node):
    """Each window's gradient, divided by its divisor, goes to every element it read."""

    __slots__ = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                 "divisor_override", "shape", "windows", "positions", "divisors")
    saved_names = ("self",)
    saved_attributes = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                        "divisor_override")
    spatial = 2

    def backward(self, grad):
        self.saved_arrays()  # unused, but checked: PyTorch's node saves the input
        planes = math.prod(self.shape[:-self.spatial])
        scaled = grad.reshape(planes, -1) / formula.like(self.divisors, grad)
        return _scatter_to_planes(self.shape, self.spatial, self.positions,
                                  scaled[:, self.windows])


class AvgPool2DBackward0(_AvgPoolBackward):
    __slots__ = ()


class AvgPool3DBackward0(_AvgPoolBackward):
    __slots__ = ()
    spatial = 3


def avg_pool(input: Tensor, kernel: Sequence[int], stride: Sequence[int],
             padding: Sequence[int], ceil_mode: bool, count_include_pad: bool,
             divisor_override: int | None, stride_given: tuple,
             node_type: type[Node]) -> Tensor:
    """The mean of each window (``avg_pool2d`` or ``3d``). Its divisor counts the padding
    it covers with ``count_include_pad`` (but never the overhang of ``ceil_mode``), only the
    input's elements without; ``divisor_override`` replaces it."""
    x = input._data
    spatial = len(kernel)
    size = x.shape[-spatial:]
    out = [pooled_size(*args, 1, ceil_mode) for args in zip(size, kernel, stride, padding)]
    taps = plane_taps(size, out, kernel, stride, padding, (1,) * spatial)
    counted = taps >= (_PAD if count_include_pad else 0)
    divisors = (np.full(len(taps), divisor_override) if divisor_override
                else counted.sum(axis=1)).astype(x.dtype)
    values = np.where(taps >= 0, _planes(x, spatial)[:, np.maximum(taps, 0)], 0).sum(axis=-1)
    means = np.ascontiguousarray(values / divisors)  # as PyTorch writes them
    if x.dtype.kind != "f":  # integers divide as in C: the fraction is cut off
        means = np.trunc(means).astype(x.dtype)
    windows, tap = np.nonzero(taps >= 0)
    return record(means.reshape(*x.shape[:-spatial], *out), node_type,
                  (input,), saved=(input,), kernel_size=tuple(kernel), stride=stride_given,
                  padding=tuple(padding), ceil_mode=ceil_mode,
                  count_include_pad=count_include_pad, divisor_override=divisor_override,
                  shape=x.shape, windows=windows, positions=taps[windows, tap],
                  divisors=divisors)


class _MaxUnpoolBackward(Node):
    """Each input element's gradient is read back from where it was written."""

    __slots__ = ()
    saved_names = ("indices",)
    spatial = 2

    def backward(self, grad):
        (indices,) = self.saved_arrays()
        flat = formula.array(indices)
        planes = math.prod(flat.shape[:-self.spatial]) if flat.ndim > self.spatial else 1
        positions = flat.reshape(planes, -1)
        return grad.reshape(planes, -1)[np.arange(planes)[:, None], positions].reshape(
            flat.shape)


class MaxUnpool2DBackward0(_MaxUnpoolBackward):
    __slots__ = ()


class MaxUnpool3DBackward0(_MaxUnpoolBackward):
    __slots__ = ()
    spatial = 3


def max_unpool(input: Tensor, indices: Tensor, out: Sequence[int],
               node_type: type[Node]) -> Tensor:
    """Zeros of the ``out`` size with each element of ``input`` written at its flat
    position in ``indices`` (as a max pooling returned them): a max pooling's partial
    inverse. A position outside the output is refused. Where two elements share a
    position, or several positions are outside, PyTorch's kernel (which writes in parallel)
    does not say which one stays or is named; here it is the last one."""
    x, where = input._data, indices._data
    spatial = len(out)
    planes = math.prod(x.shape[:-spatial])
    positions = where.reshape(planes, -1)
    size = math.prod(out)
    outside = positions[(positions < 0) | (positions >= size)]
    if outside.size:
        raise RuntimeError(f"Found an invalid max index: {outside[-1]} (output volumes are of "
                           f"size {'x'.join(map(str, out))})")
    result = np.zeros((planes, size), dtype=x.dtype)
    result[np.arange(planes)[:, None], positions] = x.reshape(planes, -1)
    return record(result.reshape(*x.shape[:-spatial], *out), node_type, (input,),
                  saved=(indices,))
