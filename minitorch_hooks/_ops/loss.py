"""The two losses PyTorch computes in one kernel, with a backward node of their own:
``mse_loss`` (``MseLossBackward0``) and ``nll_loss`` (``NllLossBackward0``).

Other losses are compositions of ordinary operations (``l1_loss`` is ``abs(input -
target)`` and then ``mean``), so their graphs need no new node. ``reduction`` is
``"none"`` (one loss per element), ``"sum"`` or ``"mean"``.
See https://pytorch.org/docs/stable/nn.html#loss-functions
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd.graph import Node
from ._record import promote, record


def _reduce(losses: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "none":
        return losses
    total = losses.sum(dtype=losses.dtype)
    if reduction == "sum":
        return total
    with np.errstate(invalid="ignore"):  # the mean of nothing is 0 / 0 = nan, as in PyTorch
        return total / losses.size


class MseLossBackward0(Node):
    __slots__ = ("reduction",)

    def backward(self, grad):
        x, target = self.saved_arrays()
        grad_input = 2 * (x - target) * grad
        if self.reduction == "mean":
            grad_input = grad_input / x.size
        return grad_input, -grad_input


def mse_loss(input: Tensor, target: Tensor, reduction: str) -> Tensor:
    """The squared error ``(input - target) ** 2``, reduced; the shapes must already match."""
    x, t = promote(input, target)
    difference = x - t
    return record(_reduce(difference * difference, reduction), MseLossBackward0,
                  (input, target), saved=(input, target), reduction=reduction)


class NllLossBackward0(Node):
    """Each counted sample's gradient goes to the one score its target picked:
    ``-weight[target]`` times the incoming gradient (over the total weight for ``"mean"``)."""

    __slots__ = ("shape", "rows", "classes", "weights", "total_weight", "reduction")

    def backward(self, grad):
        if self.reduction == "none":
            scale = grad.reshape(-1)[self.rows]
        elif self.reduction == "sum":
            scale = grad
        else:
            with np.errstate(divide="ignore", invalid="ignore"):  # nothing counted
                scale = grad / self.total_weight
        samples = int(np.prod(self.shape[:-1]))
        grad_input = np.zeros((samples, self.shape[-1]), dtype=grad.dtype)
        grad_input[self.rows, self.classes] = -self.weights * scale
        return grad_input.reshape(self.shape)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
             ignore_index: int) -> Tensor:
    """The negative log likelihood ``-weight[c] * input[c]`` of each target class ``c``.

    ``input`` holds log-probabilities, ``(N, C)`` or ``(C,)`` for a single sample; ``target``
    the class indices. Samples whose target is ``ignore_index`` count for nothing, not even
    in the ``"mean"``, which divides by the total weight of the counted targets.
    """
    scores, targets = input._data, target._data
    if target.dtype.scalar_name not in ("Long", "Byte"):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{target.dtype.scalar_name}")
    if targets.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    classes = scores.shape[-1]
    weights = np.ones(classes, dtype=scores.dtype)
    if weight is not None:
        if weight._data.shape != (classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {classes} "
                               "classes or no classes but got weight tensor of shape: "
                               f"{list(weight.shape)}")
        if weight._data.dtype != scores.dtype:
            raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                               f"{weight.dtype.scalar_name}")
        weights = weight._data
    flat = targets.reshape(-1).astype(np.int64)
    rows = np.flatnonzero(flat != ignore_index)
    picked = flat[rows]
    out_of_bounds = (picked < 0) | (picked >= classes)
    if out_of_bounds.any():
        raise IndexError(f"Target {picked[out_of_bounds][0]} is out of bounds.")
    sample_weights = weights[picked]
    losses = np.zeros(len(flat), dtype=scores.dtype)
    losses[rows] = -sample_weights * scores.reshape(len(flat), classes)[rows, picked]
    total_weight = sample_weights.sum(dtype=scores.dtype)
    if reduction == "mean":
        with np.errstate(invalid="ignore"):  # every target ignored: 0 / 0 is nan, as in PyTorch
            value = losses.sum(dtype=scores.dtype) / total_weight
    else:
        value = _reduce(losses.reshape(len(flat) if scores.ndim == 2 else ()), reduction)
    return record(value, NllLossBackward0, (input,), shape=scores.shape, rows=rows,
                  classes=picked, weights=sample_weights, total_weight=total_weight,
                  reduction=reduction)
