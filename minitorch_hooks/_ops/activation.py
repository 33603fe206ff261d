"""The smooth and leaky cousins of ``relu``: ``gelu``, ``silu`` and ``leaky_relu``.

Each is one node, saving its input (``grad_fn._saved_self``): the derivative is a function
of ``x``. The exception is ``leaky_relu_`` in place, which overwrites its input and so
saves the result instead (``LeakyReluBackward1``); the sign of the result tells the same.
See <https://docs.pytorch.org/docs/2.13/nn.functional.html#non-linear-activation-functions>
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record

_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


def _floating_only(input: Tensor, name: str, kernel: str) -> np.ndarray:
    """PyTorch computes these for floating-point tensors only."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{input.dtype.scalar_name}'")
    return input._data


def _normal_cdf(x: Any) -> Any:
    return 0.5 * (1 + formula.erf(x / math.sqrt(2)))


class GeluBackward0(Node):
    __slots__ = ("approximate",)
    saved_names = ("self",)
    saved_attributes = ("approximate",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        if self.approximate == "tanh":
            t = formula.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))
            inner = _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
            return grad * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * inner)
        density = formula.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        return grad * (_normal_cdf(x) + x * density)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """``x * P(X <= x)`` for a standard normal ``X``: ``relu`` with the corner rounded off.
    ``approximate='tanh'`` is the formula used before ``erf`` was fast everywhere.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.gelu.html>
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    x = _floating_only(input, "gelu", "GeluKernelImpl")
    if approximate == "tanh":
        data = 0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)))
    else:
        data = x * _normal_cdf(x)
    return record(data, GeluBackward0, (input,), saved=(input,), approximate=approximate)


def _sigmoid(x: Any) -> Any:
    return 1 / (1 + formula.exp(-x))


class SiluBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        s = _sigmoid(x)
        return grad * s * (1 + x * (1 - s))


def silu(input: Tensor) -> Tensor:
    """``x * sigmoid(x)`` (also called swish).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.silu.html>
    """
    x = _floating_only(input, "silu", "silu_cpu")
    return record(x * _sigmoid(x), SiluBackward0, (input,), saved=(input,))


class LeakyReluBackward0(Node):
    __slots__ = ("negative_slope",)
    saved_names = ("self",)
    saved_attributes = ("negative_slope",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return formula.where(x > 0, grad, grad * self.negative_slope)


class LeakyReluBackward1(Node):
    __slots__ = ("negative_slope",)
    saved_names = ("result",)
    saved_attributes = ("negative_slope",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return formula.where(result > 0, grad, grad * self.negative_slope)


def _leaky(x: np.ndarray, negative_slope: float) -> np.ndarray:
    return np.where(x > 0, x, x * x.dtype.type(negative_slope))


def leaky_relu(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """``x`` where positive, ``negative_slope * x`` elsewhere: a small gradient still flows
    through negative inputs, so a unit cannot die as a ``relu`` unit can.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.leaky_relu.html>
    """
    x = _floating_only(input, "leaky_relu", "leaky_relu_cpu")
    return record(_leaky(x, negative_slope), LeakyReluBackward0, (input,), saved=(input,),
                  negative_slope=negative_slope)


def leaky_relu_result_saved(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """The out-of-place step of ``leaky_relu_``: the same values, but the node saves its
    result, which is the tensor that the in-place version overwrites."""
    x = _floating_only(input, "leaky_relu", "leaky_relu_cpu")
    return record(_leaky(x, negative_slope), LeakyReluBackward1, (input,), save_output=True,
                  negative_slope=negative_slope)


class PreluKernelBackward0(Node):
    """``prelu``'s two gradients: the input's is ``grad`` where ``x > 0`` and ``weight *
    grad`` elsewhere, the weight's is ``x * grad`` where ``x <= 0``, summed over every
    element that shares the slope. Both select with ``where`` rather than multiply by a
    mask, so an infinite upstream gradient at a clipped position gives no ``nan``."""

    __slots__ = ()
    saved_names = ("self", "weight")

    def backward(self, grad):
        x, weight = self.saved_arrays()
        positive = formula.array(x) > 0
        grad_weight = formula.where(positive, 0, x * grad)
        return (formula.where(positive, grad, weight * grad),
                formula.sum_to_shape(grad_weight, formula.array(weight).shape))


def prelu_kernel(input: Tensor, weight: Tensor) -> Tensor:
    """``x`` where positive, ``weight * x`` elsewhere, with ``weight`` already shaped to
    broadcast over ``input`` (PyTorch's ``_prelu_kernel``)."""
    x = input._data
    if x.dtype.kind != "f":
        raise NotImplementedError(f"\"prelu_cpu\" not implemented for "
                                  f"'{input.dtype.scalar_name}'")
    # ``np.where`` keeps the input's memory order, as PyTorch's TensorIterator does.
    return record(np.where(x > 0, x, weight._data * x), PreluKernelBackward0,
                  (input, weight), saved=(input, weight))
