"""``nn.PixelShuffle`` and ``nn.PixelUnshuffle``: layers without parameters that keep their
factor and call ``F.pixel_shuffle`` or ``F.pixel_unshuffle``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.PixelShuffle.html>
"""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class PixelShuffle(Module):
    """``(*, C * r * r, H, W)`` to ``(*, C, H * r, W * r)``, ``r = upscale_factor``."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """``(*, C, H * r, W * r)`` to ``(*, C * r * r, H, W)``, ``r = downscale_factor``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.PixelUnshuffle.html>
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
