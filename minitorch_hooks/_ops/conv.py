"""Convolution: one operation, ``convolution``, behind ``F.conv1d``, ``F.conv2d`` and their
layers, as in PyTorch, whose node for all of them is ``ConvolutionBackward0``.

A convolution slides each kernel over the input and takes a dot product at every position.
Written the readable way, it is two steps (the "im2col" trick):

1. ``sliding_window_view`` gives, without copying, every window the kernel sees: an array
   ``(N, C, *positions, *kernel)``;
2. one matrix product multiplies those windows by the kernels.

The backward pass needs no new machinery: the gradient of the input is a *transposed*
convolution of the gradient with the same weight, and the gradient of the weight is again a
convolution, of the input with the gradient as its kernel. So the backward formula calls
``convolution`` itself (through ``_formula.convolution``), and under ``create_graph`` its
result is recorded like any forward convolution: double backward comes for free.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv2d.html>
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .. import _blas
from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record


def windows(x: np.ndarray, kernel: Sequence[int], stride: Sequence[int],
            dilation: Sequence[int]) -> np.ndarray:
    """Every window a kernel of size ``kernel`` sees in ``x`` ``(N, *spatial, C)``, as a
    view ``(N, *positions, C, *kernel)``: the window moves by ``stride``, and its taps are
    ``dilation`` apart."""
    nd = len(kernel)
    extent = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    view = np.lib.stride_tricks.sliding_window_view(x, extent, axis=tuple(range(1, 1 + nd)))
    return view[(slice(None),) + tuple(slice(None, None, s) for s in stride) + (slice(None),)
                + tuple(slice(None, None, d) for d in dilation)]


def crop(x: np.ndarray, amounts: Sequence[int]) -> np.ndarray:
    """``x`` without ``amounts[i]`` elements at both ends of its spatial dimension ``i``:
    the padding a transposed convolution takes back."""
    return x[(slice(None), slice(None)) + tuple(
        slice(amount, x.shape[2 + i] - amount) for i, amount in enumerate(amounts))]


def _padded_channels_last(x: np.ndarray, padding: Sequence[int]) -> np.ndarray:
    """``x`` ``(N, C, *spatial)`` copied once into ``(N, *padded, C)``: ``padding`` zeros
    at both ends of each spatial dimension, and the channels last."""
    n, channels, *size = x.shape
    out = np.zeros((n, *(length + 2 * p for length, p in zip(size, padding)), channels),
                   dtype=x.dtype)
    inside = tuple(slice(p, p + length) for length, p in zip(size, padding))
    out[(slice(None), *inside)] = np.moveaxis(x, 1, -1)
    return out


def im2col(x: np.ndarray, kernel: Sequence[int], stride: Sequence[int],
           padding: Sequence[int], dilation: Sequence[int],
           groups: int) -> tuple[np.ndarray, tuple[int, ...]]:
    """The im2col matrix of each group of channels of ``x`` zero-padded by ``padding``,
    ``(groups, N * positions, taps * channels per group)``: one row per window, and the
    positions of the windows.

    The input is first copied padded and with its channels last, so that the copy
    ``reshape`` makes here reads memory in runs of a row of taps by every channel: much
    faster than reading one channel at a time. With one channel a group (grey images,
    depthwise convolutions) such a run is only a kernel row long; there, copying tap by
    tap, each a whole shifted image, is several times faster.
    """
    n, channels = x.shape[:2]
    nd = len(kernel)
    channels_last = _padded_channels_last(x, padding)
    view = windows(channels_last, kernel, stride, dilation)  # (N, *pos, C, *kernel)
    positions = view.shape[1:1 + nd]
    if channels == groups:
        rows = np.empty((groups, n, *positions, *kernel), dtype=x.dtype)
        for tap in np.ndindex(*kernel):
            rows[(Ellipsis, *tap)] = np.moveaxis(view[(Ellipsis, *tap)], -1, 0)
        return rows.reshape(groups, n * math.prod(positions), -1), positions
    view = view.reshape(n, *positions, groups, channels // groups, *kernel)
    rows = view.transpose(1 + nd, 0, *range(1, 1 + nd), *range(3 + nd, 3 + 2 * nd), 2 + nd)
    return rows.reshape(groups, n * math.prod(positions), -1), positions


def _taps_then_channels(weight: np.ndarray, groups: int) -> np.ndarray:
    """The weight as one matrix per group, ``(groups, O / groups, taps * channels)``, its
    columns in the order of im2col's."""
    out_channels, per_group, *kernel = weight.shape
    per_group_weight = weight.reshape(groups, out_channels // groups, per_group, *kernel)
    return np.moveaxis(per_group_weight, 2, -1).reshape(groups, out_channels // groups, -1)


def correlate(x: np.ndarray, weight: np.ndarray, stride: Sequence[int],
              padding: Sequence[int], dilation: Sequence[int], groups: int) -> np.ndarray:
    """``out[n, o, p] = sum over c, k of x[n, c, p * stride + k * dilation] * weight[o, c, k]``
    on ``x`` zero-padded by ``padding``: what deep learning calls a convolution.

    With ``groups``, the channels are split into that many groups, each with its own
    kernels: one batched matrix product, a matrix per group.
    """
    n, out_channels, nd = x.shape[0], weight.shape[0], weight.ndim - 2
    rows, positions = im2col(x, weight.shape[2:], stride, padding, dilation, groups)
    out = _blas.matmul(rows, _taps_then_channels(weight, groups).transpose(0, 2, 1))
    out = out.reshape(groups, n, *positions, out_channels // groups)
    out = out.transpose(1, 0, 2 + nd, *range(2, 2 + nd))  # (N, groups, O / groups, *positions)
    return np.ascontiguousarray(out).reshape(n, out_channels, *positions)


def transposed_correlate(x: np.ndarray, weight: np.ndarray, stride: Sequence[int],
                         dilation: Sequence[int], output_padding: Sequence[int],
                         groups: int) -> np.ndarray:
    """The transpose of :func:`correlate` (before its padding is cut): each element of ``x``
    sends its product with the kernel back to the window it would have been computed from.

    Written as im2col backwards ("col2im"): one matrix product per group gives every
    window's contribution, then one addition per kernel tap puts them in place.
    """
    n, channels, *size = x.shape  # ``channels`` is the convolution's output channels
    per_group, kernel = weight.shape[1], weight.shape[2:]
    # The batch goes last, (groups, channels, *size, N): each tap's contribution below is
    # then added in runs of whole rows of N images, not one short image row at a time.
    columns = np.moveaxis(x.reshape(n, groups, channels // groups, *size), 0, -1)
    columns = columns.reshape(groups, channels // groups, -1)
    windows = _blas.matmul(_taps_then_channels(weight, groups).transpose(0, 2, 1), columns)
    windows = windows.reshape(groups, *kernel, per_group, *size, n)
    full = [(length - 1) * s + d * (k - 1) + 1 + extra for length, s, d, k, extra
            in zip(size, stride, dilation, kernel, output_padding)]
    out = np.zeros((groups, per_group, *full, n), dtype=x.dtype)
    for tap in np.ndindex(*kernel):
        where = tuple(slice(t * d, t * d + (length - 1) * s + 1, s)
                      for t, d, length, s in zip(tap, dilation, size, stride))
        out[(slice(None),) * 2 + where] += windows[(slice(None),) + tap]
    return np.moveaxis(out, -1, 0).reshape(n, groups * per_group, *full)


def convolve(input: np.ndarray, weight: np.ndarray, stride: Sequence[int],
             padding: Sequence[int], dilation: Sequence[int], transposed: bool,
             output_padding: Sequence[int], groups: int) -> np.ndarray:
    """The convolution of arrays, or with ``transposed`` its transpose (the map whose matrix
    is the transpose of the convolution's, which sends each output back to the inputs that
    made it: the gradient of the input)."""
    if not transposed:
        return correlate(input, weight, stride, padding, dilation, groups)
    out = transposed_correlate(input, weight, stride, dilation, output_padding, groups)
    return np.ascontiguousarray(crop(out, padding))


def weight_grad(input: object, grad: object, weight_shape: Sequence[int],
                stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                groups: int) -> object:
    """The gradient of a convolution's weight: ``sum over n, p of input[n, c, p * stride +
    k * dilation] * grad[n, o, p]``. It is itself a convolution: of the input, its channels
    taken as the batch, with the gradient as the kernel (stride and dilation swap roles),
    cut to the kernel's size. Arrays or Tensors, as every backward formula; on arrays the
    faster road: the input's im2col matrix times the gradient."""
    if type(input) is not Tensor and type(grad) is not Tensor:
        return _weight_grad_of_arrays(input, grad, weight_shape, stride, padding, dilation,
                                      groups)
    n, channels, *size = formula.array(input).shape
    per_group = channels // groups
    # input[n, g * per_group + c] becomes batch c, channel g * N + n
    batch = formula.permute(input.reshape(n, groups, per_group, *size),
                      (2, 1, 0, *range(3, 3 + len(size))))
    batch = batch.reshape(per_group, groups * n, *size)
    kernels = formula.swapaxes(grad, 0, 1)  # (O, N, *positions)
    out = formula.convolution(batch, kernels, dilation, padding, stride, False,
                              [0] * len(size), groups)
    out = out[(slice(None), slice(None)) + tuple(slice(0, k) for k in weight_shape[2:])]
    return formula.swapaxes(out, 0, 1)


def _weight_grad_of_arrays(input: np.ndarray, grad: np.ndarray, weight_shape: Sequence[int],
                           stride: Sequence[int], padding: Sequence[int],
                           dilation: Sequence[int], groups: int) -> np.ndarray:
    """:func:`weight_grad` as one matrix product per group: the gradient of each output
    channel at every position, times the window that produced it."""
    out_channels, per_group, *kernel = weight_shape
    rows, _ = im2col(input, kernel, stride, padding, dilation, groups)
    n = grad.shape[0]
    grads = grad.reshape(n, groups, out_channels // groups, -1).transpose(1, 2, 0, 3)
    taps = _blas.matmul(grads.reshape(groups, out_channels // groups, -1), rows)
    taps = taps.reshape(groups, out_channels // groups, *kernel, per_group)
    return np.moveaxis(taps, -1, 2).reshape(weight_shape)


class ConvolutionBackward0(Node):
    """Input, weight and bias gradients of ``convolution``; each computed only if needed."""

    __slots__ = ("stride", "padding", "dilation", "transposed", "output_padding", "groups",
                 "bias_sym_sizes_opt")
    saved_names = ("input", "weight")
    saved_attributes = ("stride", "padding", "dilation", "transposed", "output_padding",
                        "groups", "bias_sym_sizes_opt")

    def backward(self, grad):
        input, weight = self.saved_arrays()
        needs_input, needs_weight, needs_bias = (edge[0] is not None
                                                for edge in self.next_functions)
        grad_input = grad_weight = grad_bias = None
        nd = len(self.stride)
        stride, padding, dilation = self.stride, self.padding, self.dilation
        if not self.transposed:
            if needs_input:
                # The transposed convolution gives back the input's size up to the rows
                # the last stride skipped: ``output_padding`` restores them.
                size = formula.array(input).shape[2:]
                made = [(o - 1) * s - 2 * p + d * (k - 1) + 1 for o, s, p, d, k in zip(
                    formula.array(grad).shape[2:], stride, padding, dilation,
                    formula.array(weight).shape[2:])]
                grad_input = formula.convolution(grad, weight, stride, padding, dilation, True,
                                           [s - m for s, m in zip(size, made)], self.groups)
            if needs_weight:
                grad_weight = weight_grad(input, grad, formula.array(weight).shape, stride, padding,
                                          dilation, self.groups)
        else:
            if needs_input:
                grad_input = formula.convolution(grad, weight, stride, padding, dilation, False,
                                           [0] * nd, self.groups)
            if needs_weight:
                grad_weight = weight_grad(grad, input, formula.array(weight).shape, stride, padding,
                                          dilation, self.groups)
        if needs_bias:
            grad_bias = formula.sum(grad, (0, *range(2, 2 + nd)))
        return grad_input, grad_weight, grad_bias


def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Sequence[int],
                padding: Sequence[int], dilation: Sequence[int], transposed: bool,
                output_padding: Sequence[int], groups: int) -> Tensor:
    """PyTorch's ``torch.convolution`` on a batched input whose arguments are checked: the
    convolution, plus the bias of each output channel."""
    out = convolve(input._data, weight._data, stride, padding, dilation, transposed,
                   output_padding, groups)
    if bias is not None:
        out += bias._data.reshape(-1, *[1] * (out.ndim - 2))
    return record(out, ConvolutionBackward0, (input, weight, bias), saved=(input, weight),
                  stride=tuple(stride), padding=tuple(padding), dilation=tuple(dilation),
                  transposed=transposed, output_padding=tuple(output_padding), groups=groups,
                  bias_sym_sizes_opt=(0,) if bias is None else tuple(bias.shape))
