"""``threshold``, ``elu`` and ``softplus``: activations whose gradient PyTorch *selects*
by a comparison with the input.

* ``threshold(x, t, v)`` replaces every element ``<= t`` by ``v``. Its gradient is
  PyTorch's ``threshold_backward``: 0 where ``x <= t``, the upstream gradient elsewhere
  (a NaN input is not ``<= t``, so its gradient passes). ``relu`` is ``threshold(x, 0, 0)``.
* ``elu(x, alpha) = x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` elsewhere. Its gradient
  ``elu_backward`` picks one of the two slopes, 1 or ``alpha * exp(x)``; in place it is
  written from the result, ``result + alpha``, as the input is gone.
* ``softplus(x, beta, threshold) = log(1 + exp(beta * x)) / beta``, or ``x`` itself where
  ``beta * x > threshold`` (there the two agree to float precision and ``exp`` would
  overflow). Its gradient ``sigmoid(beta * x)`` is selected the same way.

Selecting, not multiplying by a 0/1 mask, keeps an infinite upstream gradient at a cut-off
element from turning into ``inf * 0 = nan``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.threshold.html>,
<https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.elu.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.softplus.html>
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .activation import _floating_only
from .inplace import apply_in_place


class ThresholdBackward0(Node):
    __slots__ = ("threshold",)
    saved_names = ("self",)
    saved_attributes = ("threshold",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return formula.where(x <= self.threshold, 0, grad)


class ThresholdBackward1(ThresholdBackward0):
    """``threshold_``: the same formula; PyTorch saves a copy of the input from before the
    change, which ``apply_in_place`` hands the operation."""

    __slots__ = ()


def _thresholded(input: Tensor, threshold: float, value: float) -> np.ndarray:
    data = input._data
    return np.where(data <= threshold, data.dtype.type(value), data)


def threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    """``value`` where ``input <= threshold``, ``input`` elsewhere."""
    return record(_thresholded(input, threshold, value), ThresholdBackward0, (input,),
                  saved=(input,), threshold=threshold)


def _threshold_result_saved(input: Tensor, threshold: float, value: float) -> Tensor:
    return record(_thresholded(input, threshold, value), ThresholdBackward1, (input,),
                  saved=(input,), threshold=threshold)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return apply_in_place(input, _threshold_result_saved, threshold, value)


class EluBackward0(Node):
    __slots__ = ("alpha", "scale", "input_scale")
    saved_names = ("self",)
    saved_attributes = ("alpha", "scale", "input_scale")

    def backward(self, grad):
        (x,) = self.saved_arrays()
        negative = grad * (self.input_scale * self.alpha * self.scale) * formula.exp(
            x * self.input_scale)
        return formula.where(x <= 0, negative, grad * self.scale)


class EluBackward1(Node):
    """``elu_``: the slope from the result, ``alpha * exp(x) = result + alpha``."""

    __slots__ = ("alpha", "scale", "input_scale")
    saved_names = ("result",)
    saved_attributes = ("alpha", "scale", "input_scale")

    def backward(self, grad):
        (result,) = self.saved_arrays()
        negative = grad * self.input_scale * (result + self.alpha * self.scale)
        return formula.where(result <= 0, negative, grad * self.scale)


def _elu(input: Tensor, alpha: float) -> np.ndarray:
    x = _floating_only(input, "elu", "elu_cpu")
    with np.errstate(over="ignore"):
        return np.where(x > 0, x, x.dtype.type(alpha) * np.expm1(x)).astype(x.dtype)


def elu(input: Tensor, alpha: float = 1.0) -> Tensor:
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere."""
    return record(_elu(input, alpha), EluBackward0, (input,), saved=(input,), alpha=alpha,
                  scale=1, input_scale=1)


def _elu_result_saved(input: Tensor, alpha: float) -> Tensor:
    return record(_elu(input, alpha), EluBackward1, (input,), save_output=True, alpha=alpha,
                  scale=1, input_scale=1)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return apply_in_place(input, _elu_result_saved, alpha)


class SoftplusBackward0(Node):
    __slots__ = ("beta", "threshold")
    saved_names = ("self",)
    saved_attributes = ("beta", "threshold")

    def backward(self, grad):
        (x,) = self.saved_arrays()
        z = formula.exp(x * self.beta)
        slope = z / (z + 1)
        # PyTorch's double backward multiplies by ``x * beta < threshold``: where the two
        # branches meet, the slope counts as a constant.
        slope = formula.where(x * self.beta < self.threshold, slope,
                              formula.like(formula.array(slope), slope))
        return formula.where(x * self.beta > self.threshold, grad, grad * slope)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``, ``x`` itself where ``beta * x > threshold``."""
    x = _floating_only(input, "softplus", "softplus_cpu")
    scaled = x * x.dtype.type(beta)
    with np.errstate(over="ignore"):
        smooth = np.log1p(np.exp(scaled)) / x.dtype.type(beta)
    result = np.where(scaled > threshold, x, smooth).astype(x.dtype)
    return record(result, SoftplusBackward0, (input,), saved=(input,), beta=beta,
                  threshold=threshold)
