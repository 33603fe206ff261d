"""Trigonometric and hyperbolic functions, ``rsqrt``, ``log1p``, ``expm1``, ``log2`` and
``log10``, with their derivatives.

Each is one NumPy function forward and one line of calculus backward. Integer and bool
tensors compute in float32, the default dtype. PyTorch saves what the derivative needs
most cheaply: the input for ``sin`` (``cos x``), the result for ``tan``
(``1 + tan^2 x``) and ``rsqrt`` (``-r^3 / 2``); ``grad_fn._saved_self`` or
``grad_fn._saved_result`` shows which.
See <https://docs.pytorch.org/docs/2.13/torch.html#pointwise-ops>
"""

from __future__ import annotations

import math

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .pointwise import _floating


class SinBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad * formula.cos(x)


class CosBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return -grad * formula.sin(x)


class TanBackward0(Node):
    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return grad * (1 + result * result)


class AsinBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad / formula.sqrt(1 - x * x)


class AcosBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return -grad / formula.sqrt(1 - x * x)


class AtanBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad / (1 + x * x)


class SinhBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad * formula.cosh(x)


class CoshBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad * formula.sinh(x)


class RsqrtBackward0(Node):
    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return -0.5 * grad * result * result * result


class ErfBackward0(Node):
    """The error function's slope is the normal density, up to scale:
    ``2 / sqrt(pi) * exp(-x**2)``."""

    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad * (2 / math.sqrt(math.pi)) * formula.exp(-x * x)


class Log1PBackward0(Node):
    """``log(1 + x)``, accurate for small ``x`` (where ``log(1 + x)`` loses the digits of
    ``x`` to rounding): its slope is ``1 / (1 + x)``."""

    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad / (x + 1)


class Expm1Backward0(Node):
    """``exp(x) - 1``, accurate for small ``x``: its slope ``exp(x)`` is the result plus 1."""

    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return grad * (result + 1)


class Log2Backward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad / (x * math.log(2))


class Log10Backward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad / (x * math.log(10))


def _unary(ufunc: np.ufunc, node_type: type[Node], saves_result: bool):
    """The function ``torch.<name>``: ``ufunc`` on the values, recorded as ``node_type``,
    which saves the input or the result. Outside the domain (``asin(2)``, ``rsqrt(-1)``)
    the value is nan or inf, silently, as in PyTorch."""
    def function(input: Tensor) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(f"{function.__name__}(): argument 'input' (position 1) must be "
                            f"Tensor, not {type(input).__name__}")
        with np.errstate(all="ignore"):
            data = ufunc(_floating(input))
        if saves_result:
            return record(data, node_type, (input,), save_output=True)
        return record(data, node_type, (input,), saved=(input,))

    function.__name__ = node_type.__name__[:-len("Backward0")].lower()
    return function


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return 1 / np.sqrt(x)


_erf_values = np.vectorize(math.erf, otypes=[np.float64])  # NumPy has no erf; math's is exact


def _erf(x: np.ndarray) -> np.ndarray:
    return _erf_values(x).astype(x.dtype)


sin = _unary(np.sin, SinBackward0, saves_result=False)
cos = _unary(np.cos, CosBackward0, saves_result=False)
tan = _unary(np.tan, TanBackward0, saves_result=True)
asin = _unary(np.arcsin, AsinBackward0, saves_result=False)
acos = _unary(np.arccos, AcosBackward0, saves_result=False)
atan = _unary(np.arctan, AtanBackward0, saves_result=False)
sinh = _unary(np.sinh, SinhBackward0, saves_result=False)
cosh = _unary(np.cosh, CoshBackward0, saves_result=False)
rsqrt = _unary(_rsqrt, RsqrtBackward0, saves_result=True)
erf = _unary(_erf, ErfBackward0, saves_result=False)
log1p = _unary(np.log1p, Log1PBackward0, saves_result=False)
expm1 = _unary(np.expm1, Expm1Backward0, saves_result=True)
log2 = _unary(np.log2, Log2Backward0, saves_result=False)
log10 = _unary(np.log10, Log10Backward0, saves_result=False)
arcsin, arccos, arctan = asin, acos, atan  # NumPy's names, which PyTorch accepts too

UNARY = {"sin": sin, "cos": cos, "tan": tan, "asin": asin, "acos": acos, "atan": atan,
         "sinh": sinh, "cosh": cosh, "rsqrt": rsqrt, "erf": erf, "log1p": log1p, "expm1": expm1,
         "log2": log2, "log10": log10, "arcsin": arcsin, "arccos": arccos, "arctan": arctan}
