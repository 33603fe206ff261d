"""Loss layers: each stores its options and calls the function in ``nn.functional``.

``reduction`` says what to do with the per-element losses: ``"mean"`` (the default),
``"sum"`` or ``"none"`` (return them all).
See <https://docs.pytorch.org/docs/2.13/nn.html#loss-functions>
"""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, *, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction


class _WeightedLoss(_Loss):
    """A loss with a weight per class, kept as a buffer so it follows the module around
    (``state_dict``, ``.to()``) without being trained."""

    def __init__(self, weight: Tensor | None = None, *, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """The mean (or sum) absolute error ``|input - target|``."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """The mean (or sum) squared error ``(input - target) ** 2``."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """The negative log likelihood of the target classes; expects log-probabilities."""

    def __init__(self, weight: Tensor | None = None, *, ignore_index: int = -100,
                 reduction: str = "mean") -> None:
        super().__init__(weight, reduction=reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """``log_softmax`` then ``NLLLoss``: raw scores ``(N, C)`` and class indices ``(N,)``."""

    def __init__(self, weight: Tensor | None = None, *, ignore_index: int = -100,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, reduction=reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class SmoothL1Loss(_Loss):
    """L1 beyond ``beta``, quadratic within: robust to outliers, smooth near 0.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.SmoothL1Loss.html>
    """

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Quadratic within ``delta``, linear beyond: ``SmoothL1Loss`` times ``delta``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.HuberLoss.html>
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """The Kullback-Leibler divergence of ``target`` from ``input`` (log-probabilities);
    ``reduction='batchmean'`` gives its mean over the batch.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.KLDivLoss.html>
    """

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities (after a sigmoid) against targets in [0, 1].
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.BCELoss.html>
    """

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(weight, reduction=reduction)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight,
                                      reduction=self.reduction)
