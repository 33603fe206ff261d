"""``nn.PairwiseDistance`` and ``nn.CosineSimilarity``: how far apart, or how aligned, two
batches of vectors are, as layers.

Each holds its few settings and calls the function of ``nn.functional`` (as PyTorch's
``torch/nn/modules/distance.py`` does), so forward hooks see the two inputs and the
distances. Neither prints its settings: PyTorch's define no ``extra_repr``. Attribution
libraries (Captum's Lime) take ``CosineSimilarity`` as the default way to weigh samples.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.PairwiseDistance.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.nn.CosineSimilarity.html>
"""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["PairwiseDistance", "CosineSimilarity"]


class PairwiseDistance(Module):
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dimension. The degree is kept as
    ``norm``, PyTorch's attribute name, though the argument is ``p``."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
