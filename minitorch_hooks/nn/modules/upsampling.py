"""``nn.Upsample`` (``F.interpolate`` as a layer) and its older forms ``UpsamplingNearest2d``
and ``UpsamplingBilinear2d``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Upsample.html>
"""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class Upsample(Module):
    """Resize signals, images or volumes to ``size`` or by ``scale_factor``, in any mode of
    ``F.interpolate`` (``'nearest'``, ``'linear'``, ``'bilinear'``, ``'bicubic'``,
    ``'trilinear'``, ...)."""

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        # Kept as floats, as PyTorch keeps them (its repr shows ``scale_factor=2.0``).
        self.scale_factor = (float(scale_factor) if isinstance(scale_factor, (int, float))
                             else tuple(float(s) for s in scale_factor) if scale_factor
                             else None)
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return f"{info}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """``Upsample(mode='nearest')`` for images, an older name PyTorch keeps.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.UpsamplingNearest2d.html>
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(mode='bilinear', align_corners=True)``: note the corners, which the
    default ``Upsample`` does not align.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.UpsamplingBilinear2d.html>
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
