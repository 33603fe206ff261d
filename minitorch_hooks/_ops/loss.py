"""The losses PyTorch computes in one kernel, with a backward node of their own:
``mse_loss`` (``MseLossBackward0``), ``nll_loss`` (``NllLossBackward0``) and
``binary_cross_entropy_with_logits`` (``BinaryCrossEntropyWithLogitsBackward0``).

Other losses are compositions of ordinary operations (``l1_loss`` is ``abs(input -
target)`` and then ``mean``), so their graphs need no new node. ``reduction`` is
``"none"`` (one loss per element), ``"sum"`` or ``"mean"``.
See <https://docs.pytorch.org/docs/2.13/nn.html#loss-functions>
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import promote, record, shown_dim


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
    saved_names = ("self", "target")

    def backward(self, grad):
        x, target = self.saved_arrays()
        grad_input = 2 * (x - target) * grad
        if self.reduction == "mean":
            grad_input = grad_input / formula.numel(x)
        return grad_input, -grad_input


def mse_loss(input: Tensor, target: Tensor, reduction: str) -> Tensor:
    """The squared error ``(input - target) ** 2``, reduced; the shapes must already match."""
    x, t = promote(input, target)
    difference = x - t
    return record(_reduce(difference * difference, reduction), MseLossBackward0,
                  (input, target), saved=(input, target), reduction=reduction)


class NllLossBackward0(Node):
    """Each counted sample's gradient goes to the one score its target picked:
    ``-weight[target]`` times the incoming gradient (over the total weight for ``"mean"``).
    ``weights`` is None when there are no class weights: every weight is 1.

    It saves what PyTorch's saves, so that in-place changes are caught and saved-tensor
    hooks see the same tensors: the input, the targets, the class weights and the total
    weight (a second output of PyTorch's kernel). The rows and classes picked are kept too.
    """

    __slots__ = ("shape", "rows", "classes", "weights", "reduction", "ignore_index")
    saved_names = ("self", "target", "weight", "total_weight")
    saved_attributes = ("ignore_index",)  # kept as C++'s unsigned int64 shows it

    @property
    def _saved_reduction(self) -> int:
        """PyTorch's C++ enum for the reduction: 0 for "none", 1 "mean", 2 "sum"."""
        return ("none", "mean", "sum").index(self.reduction)

    def backward(self, grad):
        *_, total_weight = self.saved_arrays()
        if self.reduction == "none":
            scale = grad.reshape(-1)[self.rows]
        elif self.reduction == "sum":
            scale = grad
        else:
            scale = grad / total_weight  # nan if nothing was counted, as in PyTorch
        picked = -scale if self.weights is None else -(formula.like(self.weights, scale) * scale)
        grad_input = formula.scatter((math.prod(self.shape[:-1]), self.shape[-1]),
                               (self.rows, self.classes), picked)
        return grad_input.reshape(self.shape)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
             ignore_index: int) -> Tensor:
    """The negative log likelihood ``-weight[c] * input[c]`` of each target class ``c``.

    ``input`` holds log-probabilities, ``(N, C)`` or ``(C,)`` for a single sample; ``target``
    the class indices. Samples whose target is ``ignore_index`` count for nothing, not even
    in the ``"mean"``, which divides by the total weight of the counted targets.
    A loss is computed after every training step's forward, so it is written with as few
    NumPy calls as possible: the common case, no class weights, skips the multiplications.
    """
    scores, targets = input._data, target._data
    if target.dtype.scalar_name not in ("Long", "Byte"):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{target.dtype.scalar_name}")
    if targets.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    classes = scores.shape[-1]
    if weight is not None:
        if weight._data.shape != (classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {classes} "
                               "classes or no classes but got weight tensor of shape: "
                               f"{list(weight.shape)}")
        if weight._data.dtype != scores.dtype:
            raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                               f"{weight.dtype.scalar_name}")
    flat = targets.reshape(-1).astype(np.int64, copy=False)
    rows = np.flatnonzero(flat != ignore_index)
    picked = flat[rows]
    if picked.size and (picked.min() < 0 or picked.max() >= classes):
        raise IndexError(f"Target {picked[(picked < 0) | (picked >= classes)][0]} is out of "
                         "bounds.")
    picked_scores = scores.reshape(len(flat), classes)[rows, picked]
    if weight is None:
        sample_weights, losses = None, -picked_scores
        total_weight = scores.dtype.type(len(rows))
    else:
        sample_weights = weight._data[picked]
        losses = -sample_weights * picked_scores
        total_weight = sample_weights.sum(dtype=scores.dtype)
    if reduction == "mean":
        # Silent, as in PyTorch: nan when every target is ignored (0 / 0), inf when the
        # class weights of the counted targets sum to 0.
        with np.errstate(divide="ignore", invalid="ignore"):
            value = losses.sum(dtype=scores.dtype) / total_weight
    elif reduction == "sum":
        value = losses.sum(dtype=scores.dtype)
    else:  # one loss per sample, 0 for the ignored ones
        value = np.zeros(len(flat), dtype=scores.dtype)
        value[rows] = losses
        value = value.reshape(len(flat) if scores.ndim == 2 else ())
    out = record(value, NllLossBackward0, (input,), saved=(input, target, weight),
                 shape=scores.shape, rows=rows, classes=picked, weights=sample_weights,
                 reduction=reduction, ignore_index=shown_dim(ignore_index))
    if out._grad_fn is not None:
        out._grad_fn._save_output(wrap(np.asarray(total_weight)))
    return out


# -- binary cross-entropy on logits ---------------------------------------------------------------

_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}  # how PyTorch's C++ node keeps it


def _log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x))`` without overflow: ``min(x, 0) - log1p(exp(-|x|))``, on arrays or
    (differentiably) on Tensors."""
    if type(x) is Tensor:
        return x.clamp(max=0) - (-x.abs()).exp().log1p()
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


def _sigmoid(x: Any) -> Any:
    return x.sigmoid() if type(x) is Tensor else 1 / (1 + np.exp(-x))


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """``loss = (1 - t) x - (1 + (p - 1) t) log sigmoid(x)`` (``p`` the ``pos_weight``, 1
    without one), times ``weight``: its slope in ``x`` is ``(p t + 1 - t) sigmoid(x) - p t``,
    in ``t`` it is ``log sigmoid(-x) - p log sigmoid(x)`` (``-x`` when ``p`` is 1)."""

    __slots__ = ("reduction",)
    saved_names = ("self", "target", "weight", "pos_weight")

    @property
    def _saved_reduction(self) -> int:
        return _REDUCTION_ENUM[self.reduction]

    def backward(self, grad):
        x, target, weight, pos_weight = self.saved_arrays()
        if pos_weight is None:
            grad_input = _sigmoid(x) - target
            grad_target = -x
        else:
            weighted = pos_weight * target
            grad_input = (weighted + 1 - target) * _sigmoid(x) - weighted
            grad_target = _log_sigmoid(-x) - _log_sigmoid(x) * pos_weight
        grad_input, grad_target = grad_input * grad, grad_target * grad
        if weight is not None:
            grad_input, grad_target = grad_input * weight, grad_target * weight
        if self.reduction == "mean":
            count = formula.numel(x)
            grad_input, grad_target = grad_input / count, grad_target / count
        return grad_input, grad_target


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None,
                                     pos_weight: Tensor | None, reduction: str) -> Tensor:
    """The loss of independent yes/no predictions given as logits, computed as PyTorch
    does: ``(1 - target) * input - log_weight * log_sigmoid(input)``, in the dtype the
    operands promote to."""
    for name, given in (("weight", weight), ("pos_weight", pos_weight)):
        if given is not None and given.requires_grad:
            raise RuntimeError("The function 'binary_cross_entropy_with_logits' is not "
                               f"differentiable with respect to argument '{name}'. This input "
                               "cannot have requires_grad True.")
    if input._data.dtype.kind != "f":
        raise NotImplementedError('"log_sigmoid_cpu" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    if target._data.dtype.kind != "f":
        raise RuntimeError(f"result type {input.dtype.scalar_name} can't be cast to the "
                           f"desired output type {target.dtype.scalar_name}")
    x, t = promote(input, target)
    log_sigmoid = _log_sigmoid(input._data)
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight._data - 1) * t + 1)
    losses = (1 - t) * x - log_sigmoid
    if weight is not None:
        losses = losses * weight._data
    losses = losses.astype(np.result_type(x, t), copy=False)
    return record(_reduce(losses, reduction), BinaryCrossEntropyWithLogitsBackward0,
                  (input, target), saved=(input, target, weight, pos_weight),
                  reduction=reduction)
