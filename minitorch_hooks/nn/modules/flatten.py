"""``nn.Flatten``: merge dimensions ``start_dim .. end_dim`` into one.

The default ``start_dim=1`` keeps the batch dimension, so images ``(N, C, H, W)`` become
rows ``(N, C*H*W)`` for a following ``nn.Linear``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Flatten.html>
"""

from __future__ import annotations

from ..._tensor import Tensor
from .module import Module


class Flatten(Module):
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
