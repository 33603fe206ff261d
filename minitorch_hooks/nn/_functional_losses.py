"""``F.smooth_l1_loss``, ``F.huber_loss``, ``F.kl_div`` and ``F.binary_cross_entropy``
(their kernels are in ``_ops/losses_more.py``). Import them from
``minitorch_hooks.nn.functional``.

``kl_div`` has no kernel of its own in PyTorch: it is ``xlogy(target, target) - target *
input`` (or ``exp(target) * (target - input)`` with ``log_target``), then reduced, so its
graph is those operations'. Its ``reduction='mean'`` divides by the number of elements,
which is not the KL divergence's mean over the batch; PyTorch warns and recommends
``'batchmean'``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.kl_div.html>
"""

from __future__ import annotations

import warnings

from .._ops import losses_more as _losses
from .._ops.pointwise import div, exp, mul, sub
from .._ops.reduction import mean, sum
from .._tensor import Tensor

__all__ = ["binary_cross_entropy", "huber_loss", "kl_div", "smooth_l1_loss"]


def _reduction_of(reduction: str, size_average: bool | None = None,
                  reduce: bool | None = None) -> str:
    if size_average is not None or reduce is not None:
        raise NotImplementedError("the deprecated size_average and reduce arguments are not "
                                  "implemented in minitorch_hooks: use reduction")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _broadcast_pair(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """``nn.functional``'s, imported when called: ``functional`` imports this module."""
    from .functional import _broadcast_pair as broadcast_pair
    return broadcast_pair(input, target)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """L1 beyond ``beta``, quadratic within; ``beta=0`` is ``l1_loss``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.smooth_l1_loss.html>
    """
    reduction = _reduction_of(reduction, size_average, reduce)
    input, target = _broadcast_pair(input, target)
    if beta == 0.0:
        from .functional import l1_loss  # (see _broadcast_pair)
        return l1_loss(input, target, reduction=reduction)
    return _losses.smooth_l1_loss(input, target, reduction, beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """Quadratic within ``delta``, linear with slope ``delta`` beyond.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.huber_loss.html>
    """
    if weight is not None:
        raise NotImplementedError("huber_loss(weight=...) is not implemented in "
                                  "minitorch_hooks")
    input, target = _broadcast_pair(input, target)
    return _losses.huber_loss(input, target, _reduction_of(reduction), delta)


def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None,
           reduce: bool | None = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """``sum(target * (log(target) - input))``: ``input`` holds log-probabilities, and
    ``target`` probabilities (or log-probabilities with ``log_target``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.kl_div.html>
    """
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and "
                      "the support size.'batchmean' divides only by the batch size, and "
                      "aligns with the KL div math definition.'mean' will be changed to "
                      "behave the same as 'batchmean' in the next major release.",
                      stacklevel=2)
    if reduction == "batchmean":
        reduction_enum = _reduction_of("sum", size_average, reduce)
    else:
        reduction_enum = _reduction_of(reduction, size_average, reduce)
    if log_target:
        output = mul(exp(target), sub(target, input))
    else:
        output = sub(_losses.xlogy(target, target), mul(target, input))
    if reduction_enum == "mean":
        reduced = mean(output)
    elif reduction_enum == "sum":
        reduced = sum(output)
    else:
        reduced = output
    if reduction == "batchmean" and input.dim() != 0:
        reduced = div(reduced, input.size()[0])
    return reduced


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """The cross-entropy of probabilities ``input`` against targets in ``[0, 1]``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.binary_cross_entropy.html>
    """
    reduction = _reduction_of(reduction, size_average, reduce)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the "
                         f"input size ({input.size()}) is deprecated. Please ensure they "
                         "have the same size.")
    if weight is not None and weight.shape != input.shape:
        weight = weight.expand(input.shape)
    return _losses.binary_cross_entropy(input, target, weight, reduction)
