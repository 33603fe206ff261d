"""``nn.Conv1d``, ``Conv2d``, ``Conv3d``, ``ConvTranspose1d``, ``2d``, ``3d``: a bank of
learned kernels slid over the input (or, transposed, spread over the output).

The weight is ``(out_channels, in_channels // groups, *kernel_size)``, the bias one number
per output channel; both are drawn as ``nn.Linear`` draws its own (a kernel is a linear map
of the window it sees, with ``in_channels // groups * prod(kernel_size)`` inputs), so a
seeded script builds PyTorch's layer bit for bit. The computation is ``F.conv1d``,
``F.conv2d`` or ``F.conv3d``; a ``padding_mode`` other than ``'zeros'`` pads explicitly first
(``F.pad``). A transposed convolution's weight is ``(in_channels, out_channels // groups,
*kernel_size)``, drawn the same way, and its ``forward`` may take the ``output_size`` wanted,
from which it works out ``output_padding`` (a strided convolution maps several input sizes
to one output size; this picks which one to go back to).
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Conv2d.html>
"""

from __future__ import annotations

from typing import Any

from ... import _dtype
from ..._creation import empty
from ..._tensor import Tensor
from .. import functional as F
from ..parameter import Parameter
from .linear import Linear
from .module import Module
from .utils import _ntuple


class _ConvNd(Module):
    """What the convolutions share; ``_dims`` is the number of spatial dimensions."""

    _dims = 0
    _transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None,
                 dtype: _dtype.dtype | None = None, output_padding: Any = 0) -> None:
        super().__init__()
        nd = self._dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        kernel_size, stride, dilation = map(_ntuple(nd), (kernel_size, stride, dilation))
        if isinstance(padding, str):
            valid_padding_strings = {"same", "valid"}  # a set, printed in its own order
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _ntuple(nd)(padding)
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.transposed = dilation, self._transposed
        self.output_padding = _ntuple(nd)(output_padding)
        self.groups, self.padding_mode = groups, padding_mode
        # F.pad's argument for the other padding modes: (before, after) pairs, last
        # dimension first. 'same' splits the kernel's reach, the odd one out going after.
        if padding == "same":
            pairs = [(d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2)
                     for d, k in zip(dilation, kernel_size)]
        elif padding == "valid":
            pairs = [(0, 0)] * nd
        else:
            pairs = [(p, p) for p in padding]
        self._reversed_padding_repeated_twice = [x for pair in pairs[::-1] for x in pair]
        channels = ((in_channels, out_channels // groups) if self._transposed
                    else (out_channels, in_channels // groups))
        self.weight = Parameter(empty((*channels, *kernel_size), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    # The same draws as ``nn.Linear``: kaiming_uniform_(a=sqrt(5)) for the weight, then
    # U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for the bias.
    reset_parameters = Linear.reset_parameters

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        conv = (F.conv1d, F.conv2d, F.conv3d)[self._dims - 1]
        if self.padding_mode != "zeros":
            return conv(F.pad(input, self._reversed_padding_repeated_twice,
                              mode=self.padding_mode), weight, bias, self.stride,
                        (0,) * self._dims, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_ConvNd):
    """A 1-D convolution over ``(N, C, L)`` inputs (or ``(C, L)``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Conv1d.html>
    """

    _dims = 1


class Conv2d(_ConvNd):
    """A 2-D convolution over ``(N, C, H, W)`` images (or ``(C, H, W)``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Conv2d.html>
    """

    _dims = 2


class Conv3d(_ConvNd):
    """A 3-D convolution over ``(N, C, D, H, W)`` volumes (or ``(C, D, H, W)``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Conv3d.html>
    """

    _dims = 3


class _ConvTransposeNd(_ConvNd):
    """What the transposed convolutions share. Their arguments come in PyTorch's order:
    ``output_padding`` after ``padding``, ``dilation`` after ``bias``."""

    _transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        if padding_mode != "zeros":
            raise ValueError('Only "zeros" padding mode is supported for '
                             f"{self.__class__.__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride,
                         _ntuple(self._dims)(padding), dilation, groups, bias, padding_mode,
                         device, dtype, output_padding)

    def _output_padding(self, input: Tensor, output_size: list[int] | None) -> list[int]:
        """``output_padding``, or what makes the output ``output_size`` (its spatial sizes,
        or with the batch and channel sizes before them)."""
        if output_size is None:
            return list(self.output_padding)
        nd = self._dims
        has_batch_dim = input.dim() == nd + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        output_size = list(output_size)
        if len(output_size) == num_non_spatial_dims + nd:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != nd:
            raise ValueError(f"ConvTranspose{nd}D: for {input.dim()}D input, output_size must "
                             f"have {nd} or {num_non_spatial_dims + nd} elements (got "
                             f"{len(output_size)})")
        min_sizes = [(input.size(d + num_non_spatial_dims) - 1) * self.stride[d]
                     - 2 * self.padding[d] + self.dilation[d] * (self.kernel_size[d] - 1) + 1
                     for d in range(nd)]
        max_sizes = [min_size + stride - 1 for min_size, stride in zip(min_sizes, self.stride)]
        for size, min_size, max_size in zip(output_size, min_sizes, max_sizes):
            if size < min_size or size > max_size:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                                 f"range from {min_sizes} to {max_sizes} (for an input of "
                                 f"{input.size()[2:]})")
        return [size - min_size for size, min_size in zip(output_size, min_sizes)]

    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor:
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self._dims - 1]
        return conv(input, self.weight, self.bias, self.stride, self.padding,
                    self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """The transpose of ``Conv1d``: ``(N, C_in, L)`` to ``(N, C_out, L_out)``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.ConvTranspose1d.html>
    """

    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """The transpose of ``Conv2d``: upsamples an image by ``stride``, with learned kernels.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.ConvTranspose2d.html>
    """

    _dims = 2


class ConvTranspose3d(_ConvTransposeNd):
    """The transpose of ``Conv3d``: upsamples a volume by ``stride``, with learned kernels.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.ConvTranspose3d.html>
    """

    _dims = 3
