"""``F.unfold`` and ``F.fold``: sliding blocks of an image as columns, and back.

``unfold`` (PyTorch's ``im2col``) turns each ``kernel_size`` block a convolution would see
into one column: ``(N, C, H, W)`` becomes ``(N, C * kh * kw, L)``, ``L`` the number of
block positions. A convolution is then one matrix product with the weights, which is how
Grad-CAM-style code inspects what each output position looked at. ``fold`` (``col2im``) is
its adjoint: it puts columns back into an image, *adding up* the elements where blocks
overlap. So each is the other's gradient: ``Im2ColBackward0`` folds, ``Col2ImBackward0``
unfolds, and the pair differentiates twice for free.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Unfold.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap_dim
from ..autograd.graph import Node
from ._record import record

Pair = tuple[int, int]


def _pair(value: Any) -> Pair:
    return (value, value) if isinstance(value, int) else tuple(value)


def _check_geometry(kernel: Pair, dilation: Pair, padding: Pair, stride: Pair) -> None:
    """PyTorch's ``im2col_shape_check`` and ``col2im_shape_check``, in their order."""
    checks = (("kernel size should be greater than zero", "kernel", kernel, 1),
              ("dilation should be greater than zero", "dilation", dilation, 1),
              ("padding should be non-negative", "pad", padding, 0),
              ("stride should be greater than zero", "stride", stride, 1))
    for message, name, (height, width), least in checks:
        if height < least or width < least:
            raise RuntimeError(f"{message}, but got {name}_height: {height} {name}_width: "
                               f"{width}")


def _blocks(size: Pair, kernel: Pair, dilation: Pair, padding: Pair, stride: Pair) -> Pair:
    """How many block positions fit along height and width."""
    return tuple((size[d] + 2 * padding[d] - dilation[d] * (kernel[d] - 1) - 1) // stride[d] + 1
                 for d in (0, 1))


def _block_slices(i: int, j: int, blocks: Pair, dilation: Pair, stride: Pair) -> tuple:
    """Where kernel element ``(i, j)`` of every block sits in the padded image."""
    return (Ellipsis,
            slice(i * dilation[0], i * dilation[0] + stride[0] * (blocks[0] - 1) + 1, stride[0]),
            slice(j * dilation[1], j * dilation[1] + stride[1] * (blocks[1] - 1) + 1, stride[1]))


def im2col(data: np.ndarray, kernel: Pair, dilation: Pair, padding: Pair, stride: Pair
           ) -> np.ndarray:
    """The blocks of a ``(N, C, H, W)`` array as the columns of ``(N, C*kh*kw, L)``: row
    ``c * kh * kw + i * kw + j`` holds kernel element ``(i, j)`` of channel ``c``."""
    batch, channels = data.shape[:2]
    blocks = _blocks(data.shape[2:], kernel, dilation, padding, stride)
    padded = np.pad(data, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    columns = np.empty((batch, channels, kernel[0], kernel[1], *blocks), dtype=data.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            columns[:, :, i, j] = padded[_block_slices(i, j, blocks, dilation, stride)]
    return columns.reshape(batch, channels * kernel[0] * kernel[1], blocks[0] * blocks[1])


def col2im(columns: np.ndarray, size: Pair, kernel: Pair, dilation: Pair, padding: Pair,
           stride: Pair) -> np.ndarray:
    """``im2col``'s adjoint: the columns put back into a ``(N, C, H, W)`` image, overlapping
    elements added up."""
    batch = columns.shape[0]
    channels = columns.shape[1] // (kernel[0] * kernel[1])
    blocks = _blocks(size, kernel, dilation, padding, stride)
    parts = columns.reshape(batch, channels, kernel[0], kernel[1], *blocks)
    padded = np.zeros((batch, channels, size[0] + 2 * padding[0], size[1] + 2 * padding[1]),
                      dtype=columns.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            padded[_block_slices(i, j, blocks, dilation, stride)] += parts[:, :, i, j]
    return padded[:, :, padding[0]:padding[0] + size[0], padding[1]:padding[1] + size[1]]


class _BlocksNode(Node):
    __slots__ = ("kernel_size", "dilation", "padding", "stride", "batched")
    saved_attributes = ("kernel_size", "dilation", "padding", "stride")


class Im2ColBackward0(_BlocksNode):
    """``unfold``'s gradient is ``fold`` of the output's gradient."""

    __slots__ = ("size",)

    @property
    def _saved_self_sym_argsize_minus_1(self) -> int:
        return self.size[1]

    @property
    def _saved_self_sym_argsize_minus_2(self) -> int:
        return self.size[0]

    def backward(self, grad):
        if type(grad) is Tensor:
            return fold(grad, self.size, self.kernel_size, self.dilation, self.padding,
                        self.stride)
        batched = grad if self.batched else grad[None]
        result = col2im(batched, self.size, self.kernel_size, self.dilation, self.padding,
                        self.stride)
        return result if self.batched else result[0]


class Col2ImBackward0(_BlocksNode):
    """``fold``'s gradient is ``unfold`` of the output's gradient."""

    __slots__ = ()

    def backward(self, grad):
        if type(grad) is Tensor:
            return unfold(grad, self.kernel_size, self.dilation, self.padding, self.stride)
        batched = grad if self.batched else grad[None]
        result = im2col(batched, self.kernel_size, self.dilation, self.padding, self.stride)
        return result if self.batched else result[0]


def _floating(name: str, input: Tensor) -> None:
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for '
                                  f"'{input.dtype.scalar_name}'")


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Tensor:
    """The sliding ``kernel_size`` blocks of a ``(N, C, H, W)`` (or ``(C, H, W)``) input as
    columns ``(N, C * kh * kw, L)``."""
    kernel, dilation, padding, stride = map(_pair, (kernel_size, dilation, padding, stride))
    _check_geometry(kernel, dilation, padding, stride)
    data = input._data
    if data.ndim < 3:  # PyTorch reads the size of dimension 2 first
        _wrap_dim(2, data.ndim)
    if data.ndim not in (3, 4) or 0 in data.shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           "and other non-zero dimensions for input, but got: "
                           f"{list(data.shape)}")
    _floating("im2col", input)
    size = data.shape[-2:]
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError(f"Given input with spatial size {tuple(size)}, kernel_size={kernel}, "
                           f"dilation={dilation}, padding={padding}, calculated shape of the "
                           f"array of sliding blocks as {blocks}, but its components must be "
                           "at least one.")
    batched = data.ndim == 4
    columns = im2col(data if batched else data[None], kernel, dilation, padding, stride)
    return record(columns if batched else columns[0], Im2ColBackward0, (input,),
                  kernel_size=kernel, dilation=dilation, padding=padding, stride=stride,
                  batched=batched, size=size)


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1,
         padding: Any = 0, stride: Any = 1) -> Tensor:
    """Columns ``(N, C * kh * kw, L)`` (or ``(C * kh * kw, L)``) put back into an image of
    ``output_size``, overlapping elements added up."""
    size = _pair(output_size)
    kernel, dilation, padding, stride = map(_pair, (kernel_size, dilation, padding, stride))
    _check_geometry(kernel, dilation, padding, stride)
    data = input._data
    if data.ndim not in (2, 3) or 0 in data.shape[-2:]:
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           "batch size and non-zero dimensions for input, but got: "
                           f"{list(data.shape)}")
    _floating("col2im", input)
    rows, count = data.shape[-2:]
    if rows % (kernel[0] * kernel[1]):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={rows} and "
                           f"kernel_size={kernel}.")
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if blocks[0] * blocks[1] != count:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, "
                           f"dilation={dilation}, padding={padding}, stride={stride}, expected "
                           "size of input's dimension 2 to match the calculated number of "
                           f"sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, "
                           f"but got input.size(2)={count}.")
    batched = data.ndim == 3
    image = col2im(data if batched else data[None], size, kernel, dilation, padding, stride)
    # Contiguous, as the kernel of PyTorch writes it.
    return record(np.ascontiguousarray(image if batched else image[0]), Col2ImBackward0, (input,),
                  kernel_size=kernel, dilation=dilation, padding=padding, stride=stride,
                  batched=batched)
