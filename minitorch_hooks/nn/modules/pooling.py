"""``nn.MaxPool1d/2d/3d``, ``AvgPool1d/2d/3d``, ``AdaptiveAvgPool1d/2d/3d``,
``AdaptiveMaxPool1d/2d/3d``, ``MaxUnpool1d/2d/3d``: layers without parameters that keep
their arguments and call the ``F.`` function of the same name.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.MaxPool2d.html>
"""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class MaxPool2d(Module):
    """The maximum of each window; ``return_indices`` also returns where it is."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Any:
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
                f", dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool3d(MaxPool2d):
    """The maximum of each window of ``(N, C, D, H, W)`` inputs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.MaxPool3d.html>
    """

    def forward(self, input: Tensor) -> Any:
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool2d(Module):
    """The mean of each window (see ``F.avg_pool2d`` for the divisor)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool3d(AvgPool2d):
    """The mean of each window of ``(N, C, D, H, W)`` inputs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.AvgPool3d.html>
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed ``output_size``, whatever the input's size."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool3d(AdaptiveAvgPool2d):
    """Average pooling of ``(N, C, D, H, W)`` inputs to a fixed ``output_size``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.AdaptiveAvgPool3d.html>
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class MaxPool1d(MaxPool2d):
    """The maximum of each window of ``(N, C, L)`` inputs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.MaxPool1d.html>
    """

    def forward(self, input: Tensor) -> Any:
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(Module):
    """The mean of each window of ``(N, C, L)`` inputs; its arguments are kept as 1-tuples.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.AvgPool1d.html>
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _one_tuple(kernel_size)
        self.stride = _one_tuple(stride if stride is not None else kernel_size)
        self.padding = _one_tuple(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _one_tuple(value: Any) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """Average pooling to ``output_size`` positions.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.AdaptiveAvgPool1d.html>
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling to ``output_size`` positions.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.AdaptiveMaxPool1d.html>
    """

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed ``output_size``, whatever the input's size.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.AdaptiveMaxPool2d.html>
    """

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling of ``(N, C, D, H, W)`` inputs to a fixed ``output_size``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.AdaptiveMaxPool3d.html>
    """

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _MaxUnpoolNd(Module):
    """Keeps its arguments as tuples of one per spatial dimension, as PyTorch does."""

    spatial = 2

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = _spatial_tuple(kernel_size, self.spatial)
        self.stride = _spatial_tuple(stride if stride is not None else kernel_size,
                                     self.spatial)
        self.padding = _spatial_tuple(padding, self.spatial)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _spatial_tuple(value: Any, spatial: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * spatial


class MaxUnpool1d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool1d``: its maxima written back where they were.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.MaxUnpool1d.html>
    """

    spatial = 1

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        return F.max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)


class MaxUnpool2d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool2d``: its maxima written back where they were.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.MaxUnpool2d.html>
    """

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)


class MaxUnpool3d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool3d``: its maxima written back where they were.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.MaxUnpool3d.html>
    """

    spatial = 3

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        return F.max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)
