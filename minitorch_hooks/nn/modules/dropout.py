"""``nn.Dropout`` and ``Dropout1d/2d/3d``: random zeroing while training, the identity in
``eval()`` mode (the ``1d/2d/3d`` forms zero whole channels).

The layer's ``training`` flag (set by ``model.train()`` / ``model.eval()``) is what
switches it; the random mask is drawn from the global generator, as in PyTorch, so a
seeded run drops the same elements.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Dropout.html>
"""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class _DropoutNd(Module):
    """``p`` and ``inplace``, which every dropout layer takes."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zero each element with probability ``p`` and scale the others by ``1 / (1 - p)``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zero whole channels of ``(N, C, L)`` inputs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Dropout1d.html>
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of ``(N, C, H, W)`` feature maps.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Dropout2d.html>
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zero whole channels of ``(N, C, D, H, W)`` volumes.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Dropout3d.html>
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout3d(input, self.p, self.training, self.inplace)
