"""Pooling: ``max_pool2d`` and ``avg_pool2d`` (the separable resamplings,
``adaptive_avg_pool2d`` and ``interpolate``, are in ``resampling.py``).

A pooling window reads a few elements of one channel's plane. We list, once per call,
which element of the plane each window's taps read (its *taps*: a flat position, or -1
for padding, -2 past the padding, where ``ceil_mode`` lets the last window hang over).
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


def plane_taps(*geometry: Sequence[int]) -> np.ndarray:
    """``(windows, taps)``: the flat position in an ``(H, W)`` plane each tap reads, for
    the plane's ``size``, the ``out`` size, ``kernel``, ``stride``, ``padding`` and
    ``dilation`` (in that order). Read-only, and worked out once per geometry: a training
    loop pools the same shapes at every step."""
    return _plane_taps(*(tuple(pair) for pair in geometry))


@functools.lru_cache(maxsize=128)
def _plane_taps(size: tuple[int, int], out: tuple[int, int], kernel: tuple[int, int],
                stride: tuple[int, int], padding: tuple[int, int],
                dilation: tuple[int, int]) -> np.ndarray:
    rows, cols = (_axis_taps(*args) for args in zip(size, out, kernel, stride, padding,
                                                    dilation))
    row, col = rows[:, None, :, None], cols[None, :, None, :]
    flat = np.where(np.minimum(row, col) < 0, np.minimum(row, col), row * size[1] + col)
    flat = flat.reshape(out[0] * out[1], kernel[0] * kernel[1])
    flat.setflags(write=False)
    return flat


def _planes(x: np.ndarray) -> np.ndarray:
    """``(N, C, H, W)`` as ``(N * C, H * W)``: one row per plane."""
    return x.reshape(-1, x.shape[-2] * x.shape[-1])


def _scatter_to_planes(shape: tuple[int, ...], positions: np.ndarray, values: object) -> object:
    """Zeros of ``shape`` with ``values`` (one row per plane) added at the flat
    ``positions`` of each plane: the backward of reading them."""
    planes = math.prod(shape[:-2])
    key = (np.arange(planes)[:, None], positions if positions.ndim == 2 else positions[None])
    return formula.scatter((planes, shape[-2] * shape[-1]), key, values,
                     accumulate=True).reshape(shape)


class MaxPool2DWithIndicesBackward0(Node):
    """Each window's gradient goes to the element that was its maximum."""

    __slots__ = ("kernel_size", "stride", "padding", "dilation", "ceil_mode", "shape")
    saved_names = ("self", "result1")
    saved_attributes = ("kernel_size", "stride", "padding", "dilation", "ceil_mode")

    def backward(self, grad):
        _, indices = self.saved_arrays()
        flat = formula.array(indices).reshape(math.prod(self.shape[:-2]), -1)
        return _scatter_to_planes(self.shape, flat, grad.reshape(flat.shape))


def _window_maxima(values: np.ndarray, taps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each window's maximum over its taps (``values`` is ``(planes, taps, windows)``) and
    the plane position it came from, as PyTorch's kernel scans: a tap wins if it is
    greater than the best so far, or NaN, so ties keep the first and NaNs the last.

    One pass per tap over whole arrays: a window has few taps, and NumPy's ``argmax``
    over such a short axis pays its per-row cost once per window."""
    best = values[:, 0]
    indices = np.broadcast_to(taps[0], best.shape)
    for tap in range(1, len(taps)):
        candidate = values[:, tap]
        wins = candidate > best
        if values.dtype.kind == "f":
            wins |= np.isnan(candidate)
        best = np.where(wins, candidate, best)
        indices = np.where(wins, taps[tap], indices)
    return best, indices.astype(np.int64)


def max_pool2d_with_indices(input: Tensor, kernel: Sequence[int], stride: Sequence[int],
                            padding: Sequence[int], dilation: Sequence[int], ceil_mode: bool,
                            stride_given: tuple) -> tuple[Tensor, Tensor]:
    """The maximum of each window, and where it is (a flat position in its plane; the first
    one, on ties). ``input`` is ``(N, C, H, W)``, already checked."""
    x = input._data
    size = x.shape[-2:]
    out = [pooled_size(*args, ceil_mode) for args in zip(size, kernel, stride, padding,
                                                          dilation)]
    taps = plane_taps(size, out, kernel, stride, padding, dilation).T  # (taps, windows)
    values = _planes(x)[:, np.maximum(taps, 0)]  # (planes, taps, windows)
    values[:, taps < 0] = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    best, indices = _window_maxima(values, taps)
    # Contiguous, as PyTorch's kernel writes them: ``x.view(-1, n)`` follows a pooling.
    result = np.ascontiguousarray(best.reshape(*x.shape[:-2], *out))
    indices = np.ascontiguousarray(indices.reshape(result.shape))
    indices_tensor = wrap(indices.astype(np.int64))
    output = record(result, MaxPool2DWithIndicesBackward0, (input,), saved=(input,),
                    kernel_size=tuple(kernel), stride=stride_given, padding=tuple(padding),
                    dilation=tuple(dilation), ceil_mode=ceil_mode, shape=x.shape)
    if output._grad_fn is not None:
        output._grad_fn._save_output(indices_tensor)
    return output, indices_tensor


class AvgPool2DBackward0(Node):
    """Each window's gradient, divided by its divisor, goes to every element it read."""

    __slots__ = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                 "divisor_override", "shape", "windows", "positions", "divisors")
    saved_names = ("self",)
    saved_attributes = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                        "divisor_override")

    def backward(self, grad):
        self.saved_arrays()  # unused, but checked: PyTorch's node saves the input
        scaled = grad.reshape(math.prod(self.shape[:-2]), -1) / formula.like(self.divisors, grad)
        return _scatter_to_planes(self.shape, self.positions, scaled[:, self.windows])


def avg_pool2d(input: Tensor, kernel: Sequence[int], stride: Sequence[int],
               padding: Sequence[int], ceil_mode: bool, count_include_pad: bool,
               divisor_override: int | None, stride_given: tuple) -> Tensor:
    """The mean of each window. Its divisor counts the padding it covers with
    ``count_include_pad`` (but never the overhang of ``ceil_mode``), only the input's
    elements without; ``divisor_override`` replaces it."""
    x = input._data
    size = x.shape[-2:]
    out = [pooled_size(*args, 1, ceil_mode) for args in zip(size, kernel, stride, padding)]
    taps = plane_taps(size, out, kernel, stride, padding, (1, 1))
    counted = taps >= (_PAD if count_include_pad else 0)
    divisors = (np.full(len(taps), divisor_override) if divisor_override
                else counted.sum(axis=1)).astype(x.dtype)
    values = np.where(taps >= 0, _planes(x)[:, np.maximum(taps, 0)], 0).sum(axis=-1)
    means = np.ascontiguousarray(values / divisors)  # as PyTorch writes them
    if x.dtype.kind != "f":  # integers divide as in C: the fraction is cut off
        means = np.trunc(means).astype(x.dtype)
    windows, tap = np.nonzero(taps >= 0)
    return record(means.reshape(*x.shape[:-2], *out), AvgPool2DBackward0,
                  (input,), saved=(input,), kernel_size=tuple(kernel), stride=stride_given,
                  padding=tuple(padding), ceil_mode=ceil_mode,
                  count_include_pad=count_include_pad, divisor_override=divisor_override,
                  shape=x.shape, windows=windows, positions=taps[windows, tap],
                  divisors=divisors)
