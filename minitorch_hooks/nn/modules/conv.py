"""``nn.Conv1d`` and ``nn.Conv2d``: a bank of learned kernels slid over the input.

The weight is ``(out_channels, in_channels // groups, *kernel_size)``, the bias one number
per output channel; both are drawn as ``nn.Linear`` draws its own (a kernel is a linear map
of the window it sees, with ``in_channels // groups * prod(kernel_size)`` inputs), so a
seeded script builds PyTorch's layer bit for bit. The computation is ``F.conv1d`` or
``F.conv2d``; a ``padding_mode`` other than ``'zeros'`` pads explicitly first (``F.pad``).
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


def _ntuple(value: Any, n: int) -> tuple:
    """PyTorch's ``_single`` / ``_pair``: a number repeated, a sequence as a tuple."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """What ``Conv1d`` and ``Conv2d`` share; ``_dims`` is 1 or 2."""

    _dims = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        super().__init__()
        nd = self._dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        kernel_size, stride, dilation = (_ntuple(v, nd) for v in (kernel_size, stride, dilation))
        if isinstance(padding, str):
            valid_padding_strings = {"same", "valid"}  # a set, printed in its own order
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _ntuple(padding, nd)
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.transposed, self.output_padding = dilation, False, (0,) * nd
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
        self.weight = Parameter(empty((out_channels, in_channels // groups, *kernel_size),
                                      device=device, dtype=dtype))
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
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        conv = F.conv1d if self._dims == 1 else F.conv2d
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
