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
See https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv2d.html
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as F
from ..autograd.graph import Node
from ._record import record


def windows(x: np.ndarray, kernel: Sequence[int], stride: Sequence[int],
            dilation: Sequence[int]) -> np.ndarray:
    """Every window a kernel of size ``kernel`` sees in ``x`` ``(N, C, *spatial)``, as a
    view ``(N, C, *positions, *kernel)``: the window moves by ``stride``, and its taps are
    ``dilation`` apart."""
    extent = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    view = np.lib.stride_tricks.sliding_window_view(x, extent, axis=tuple(range(2, x.ndim)))
    every = (slice(None), slice(None))
    return view[every + tuple(slice(None, None, s) for s in stride)
                + tuple(slice(None, None, d) for d in dilation)]


def pad_or_crop(x: np.ndarray, before: Sequence[int], after: Sequence[int]) -> np.ndarray:
    """``x`` with zeros added around its spatial dimensions (a negative amount crops)."""
    if any(p < 0 for p in (*before, *after)):
        x = x[(slice(None), slice(None)) + tuple(
            slice(max(-b, 0), x.shape[2 + i] - max(-a, 0)) for i, (b, a)
            in enumerate(zip(before, after)))]
    if any(p > 0 for p in (*before, *after)):
        x = np.pad(x, [(0, 0), (0, 0)] + [(max(b, 0), max(a, 0)) for b, a in zip(before, after)])
    return x


def correlate(x: np.ndarray, weight: np.ndarray, stride: Sequence[int],
              dilation: Sequence[int], groups: int) -> np.ndarray:
    """``out[n, o, p] = sum over c, k of x[n, c, p * stride + k * dilation] * weight[o, c, k]``
    on an already padded ``x``: what deep learning calls a convolution.

    With ``groups``, the channels are split into that many groups, each with its own
    kernels: one batched matrix product, a matrix per group.
    """
    n, channels = x.shape[:2]
    out_channels, kernel = weight.shape[0], weight.shape[2:]
    nd = len(kernel)
    view = windows(x, kernel, stride, dilation)  # (N, C, *positions, *kernel)
    positions = view.shape[2:2 + nd]
    view = view.reshape(n, groups, channels // groups, *view.shape[2:])
    # One row per (sample, position), one column per (channel, kernel tap): the copy
    # ``reshape`` makes here is the im2col matrix.
    rows = view.transpose(1, 0, *range(3, 3 + nd), 2, *range(3 + nd, 3 + 2 * nd))
    rows = rows.reshape(groups, n * math.prod(positions), -1)
    kernels = weight.reshape(groups, out_channels // groups, -1).transpose(0, 2, 1)
    out = (rows @ kernels).reshape(groups, n, *positions, out_channels // groups)
    out = out.transpose(1, 0, 2 + nd, *range(2, 2 + nd))  # (N, groups, O / groups, *positions)
    return np.ascontiguousarray(out).reshape(n, out_channels, *positions)


def convolve(input: np.ndarray, weight: np.ndarray, stride: Sequence[int],
             padding: Sequence[int], dilation: Sequence[int], transposed: bool,
             output_padding: Sequence[int], groups: int) -> np.ndarray:
    """The convolution of arrays, or with ``transposed`` its transpose (the map whose matrix
    is the transpose of the convolution's, which sends each output back to the inputs that
    made it: the gradient of the input)."""
    if not transposed:
        return correlate(pad_or_crop(input, padding, padding), weight, stride, dilation, groups)
    # Spread the input out by ``stride`` (zeros between), pad it so that every kernel tap
    # reaches every element, and correlate with the kernels flipped, inputs and outputs
    # swapped within each group.
    n, channels, *size = input.shape
    spread = np.zeros((n, channels, *[(s - 1) * st + 1 for s, st in zip(size, stride)]),
                      dtype=input.dtype)
    spread[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in stride)] = input
    reach = [d * (k - 1) for k, d in zip(weight.shape[2:], dilation)]
    spread = pad_or_crop(spread, [r - p for r, p in zip(reach, padding)],
                         [r - p + o for r, p, o in zip(reach, padding, output_padding)])
    in_per_group, kernel = weight.shape[1], weight.shape[2:]
    flipped = weight.reshape(groups, channels // groups, in_per_group, *kernel).swapaxes(1, 2)
    flipped = flipped.reshape(groups * in_per_group, channels // groups, *kernel)
    flipped = flipped[(Ellipsis,) + (slice(None, None, -1),) * len(kernel)]
    return correlate(spread, flipped, [1] * len(kernel), dilation, groups)


def weight_grad(input: object, grad: object, weight_shape: Sequence[int],
                stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                groups: int) -> object:
    """The gradient of a convolution's weight: ``sum over n, p of input[n, c, p * stride +
    k * dilation] * grad[n, o, p]``. It is itself a convolution: of the input, its channels
    taken as the batch, with the gradient as the kernel (stride and dilation swap roles),
    cut to the kernel's size. Arrays or Tensors, as every backward formula."""
    n, channels, *size = F.array(input).shape
    per_group = channels // groups
    # input[n, g * per_group + c] becomes batch c, channel g * N + n
    batch = F.permute(input.reshape(n, groups, per_group, *size),
                      (2, 1, 0, *range(3, 3 + len(size))))
    batch = batch.reshape(per_group, groups * n, *size)
    kernels = F.swapaxes(grad, 0, 1)  # (O, N, *positions)
    out = F.convolution(batch, kernels, dilation, padding, stride, False, [0] * len(size), groups)
    out = out[(slice(None), slice(None)) + tuple(slice(0, k) for k in weight_shape[2:])]
    return F.swapaxes(out, 0, 1)


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
                size = F.array(input).shape[2:]
                made = [(o - 1) * s - 2 * p + d * (k - 1) + 1 for o, s, p, d, k in zip(
                    F.array(grad).shape[2:], stride, padding, dilation,
                    F.array(weight).shape[2:])]
                grad_input = F.convolution(grad, weight, stride, padding, dilation, True,
                                           [s - m for s, m in zip(size, made)], self.groups)
            if needs_weight:
                grad_weight = weight_grad(input, grad, F.array(weight).shape, stride, padding,
                                          dilation, self.groups)
        else:
            if needs_input:
                grad_input = F.convolution(grad, weight, stride, padding, dilation, False,
                                           [0] * nd, self.groups)
            if needs_weight:
                grad_weight = weight_grad(grad, input, F.array(weight).shape, stride, padding,
                                          dilation, self.groups)
        if needs_bias:
            grad_bias = F.sum(grad, (0, *range(2, 2 + nd)))
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
