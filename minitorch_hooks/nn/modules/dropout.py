"""``nn.Dropout``: random zeroing while training, the identity in ``eval()`` mode.

The layer's ``training`` flag (set by ``model.train()`` / ``model.eval()``) is what
switches it; the random mask is drawn from the global generator, as in PyTorch, so a
seeded run drops the same elements.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Dropout.html>
"""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class Dropout(Module):
    """Zero each element with probability ``p`` and scale the others by ``1 / (1 - p)``."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
