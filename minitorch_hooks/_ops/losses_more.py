"""``smooth_l1_loss``, ``huber_loss`` and ``binary_cross_entropy``, which PyTorch computes
in one kernel each, with a node of its own, and ``xlogy``, which ``kl_div`` is built from.

* smooth L1 (``beta``): ``0.5 * d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 *
  beta``, for ``d = input - target``: quadratic near 0, so its gradient ``d / beta``
  shrinks smoothly, and linear beyond, so outliers pull no harder than L1;
* Huber (``delta``): ``0.5 * d**2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 *
  delta)``; smooth L1 times ``beta``, its gradient ``d`` clipped to ``[-delta, delta]``;
* binary cross-entropy: ``-w * (t * log(x) + (1 - t) * log(1 - x))``, each ``log`` clamped
  at -100 so that a probability of exactly 0 or 1 gives a finite loss; its gradient
  ``w * (x - t) / max(x * (1 - x), 1e-12)``.

Each node saves the input and target (and the weight): ``_saved_self``, ``_saved_target``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.SmoothL1Loss.html>
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import promote, record
from .loss import _reduce


def _mean_scale(grad, x, reduction: str):
    return grad / formula.numel(x) if reduction == "mean" else grad


class SmoothL1LossBackward0(Node):
    __slots__ = ("beta", "reduction")
    saved_names = ("self", "target")
    saved_attributes = ("beta",)

    def backward(self, grad):
        x, target = self.saved_arrays()
        d = x - target
        slope = formula.where(d < -self.beta, -1.0,
                              formula.where(d > self.beta, 1.0, d / self.beta))
        grad_input = slope * _mean_scale(grad, x, self.reduction)
        return grad_input, -grad_input


def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str, beta: float) -> Tensor:
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    x, t = promote(input, target)
    d = np.abs(x - t)
    losses = np.where(d < beta, 0.5 * d * d / beta if beta else 0.0, d - 0.5 * beta)
    return record(_reduce(losses.astype(x.dtype), reduction), SmoothL1LossBackward0,
                  (input, target), saved=(input, target), beta=beta, reduction=reduction)


class HuberLossBackward0(Node):
    __slots__ = ("delta", "reduction")
    saved_names = ("self", "target")
    saved_attributes = ("delta",)

    def backward(self, grad):
        x, target = self.saved_arrays()
        d = x - target
        slope = formula.where(d < -self.delta, -self.delta,
                              formula.where(d > self.delta, self.delta, d))
        grad_input = slope * _mean_scale(grad, x, self.reduction)
        return grad_input, -grad_input


def huber_loss(input: Tensor, target: Tensor, reduction: str, delta: float) -> Tensor:
    x, t = promote(input, target)
    d = np.abs(x - t)
    losses = np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    return record(_reduce(losses.astype(x.dtype), reduction), HuberLossBackward0,
                  (input, target), saved=(input, target), delta=delta, reduction=reduction)


class BinaryCrossEntropyBackward0(Node):
    __slots__ = ("reduction",)
    saved_names = ("self", "target", "weight")

    def backward(self, grad):
        x, target, weight = self.saved_arrays()
        denominator = formula.where(x * (1 - x) < 1e-12, 1e-12, x * (1 - x))
        grad_input = (x - target) / denominator * _mean_scale(grad, x, self.reduction)
        return grad_input if weight is None else grad_input * weight


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None,
                         reduction: str) -> Tensor:
    x, t = input._data, target._data
    if ((x < 0) | (x > 1)).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore"):
        log_x = np.maximum(np.log(x), -100)
        log_1mx = np.maximum(np.log(1 - x), -100)
    losses = -(t * log_x + (1 - t) * log_1mx)
    if weight is not None:
        losses = losses * weight._data
    if target._requires_grad:
        raise NotImplementedError("minitorch_hooks does not implement the gradient of "
                                  "binary_cross_entropy with respect to its target")
    return record(_reduce(losses.astype(x.dtype), reduction), BinaryCrossEntropyBackward0,
                  (input, target), saved=(input, target, weight), reduction=reduction)


class XlogyBackward0(Node):
    """``d/dx = xlogy(grad, y)`` (``grad * log(y)``, 0 where ``grad`` is 0), itself 0 where
    ``x`` is 0 and ``y <= 0``; ``d/dy = grad * x / y``."""

    __slots__ = ()
    saved_names = ("self", "other")

    def backward(self, grad):
        x, y = self.saved_arrays()
        through_log = formula.where(grad == 0, 0, grad * formula.log(y))
        grad_x = formula.where(x == 0, formula.where(y <= 0, 0, through_log), through_log)
        return grad_x, grad * x / y


def xlogy(input: Tensor, other: Tensor) -> Tensor:
    """``input * log(other)``, and 0 where ``input`` is 0 (unless ``other`` is nan): the
    entropy-like terms ``t * log(t)`` stay finite at ``t = 0``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.xlogy.html>
    """
    x, y = promote(input, other)
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where((x == 0) & ~np.isnan(y), 0, x * np.log(y)).astype(x.dtype)
    return record(result, XlogyBackward0, (input, other), saved=(input, other))
