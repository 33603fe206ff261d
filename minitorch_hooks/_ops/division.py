"""Integer-style division: ``//`` (``floor_divide``), ``%`` (``remainder``) and ``fmod``.

``a // b`` rounds the quotient down, and ``a % b`` is what is left, with the sign of
``b``: ``-7 // 2 == -4`` and ``-7 % 2 == 1``, as in Python. ``fmod`` rounds toward zero
instead, like C: ``fmod(-7, 2) == -1``. NumPy's ``floor_divide``, ``remainder`` and
``fmod`` follow the same rules; an integer division by zero is PyTorch's error.

The quotient is a step function: PyTorch defines no derivative for ``floor_divide``, and
records a ``NotImplemented`` node that raises if backward reaches it. The remainder
``a - b * q`` has derivative 1 in ``a`` and ``-q`` in ``b`` (``q`` the rounded quotient).
See <https://docs.pytorch.org/docs/2.13/generated/torch.remainder.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .pointwise import _binary, _is_bool


class NotImplementedBackward(Node):
    """The node PyTorch records for an operation it cannot differentiate: building the
    graph works; running backward through it raises."""

    __slots__ = ("op",)

    def name(self) -> str:
        return "torch::autograd::NotImplemented"

    def backward(self, *grads):
        raise RuntimeError(f"derivative for aten::{self.op} is not implemented")


NotImplementedBackward.__name__ = NotImplementedBackward.__qualname__ = "NotImplemented"


class RemainderBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad


class RemainderBackward1(Node):
    __slots__ = ()
    saved_names = ("other", "self")

    def backward(self, grad):
        b, a = self.saved_arrays()
        # floor and trunc are flat where they are defined: the quotient is a constant
        quotient = None if a is None else np.floor_divide(formula.array(a), formula.array(b))
        return grad, None if a is None else -grad * formula.like(quotient, grad)


class FmodBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad


class FmodBackward1(Node):
    __slots__ = ()
    saved_names = ("other", "self")

    def backward(self, grad):
        b, a = self.saved_arrays()
        quotient = None if a is None else np.trunc(formula.array(a) / formula.array(b))
        return grad, None if a is None else -grad * formula.like(quotient, grad)


def _divide(input: Any, other: Any, ufunc: np.ufunc, kernel: str) -> np.ndarray:
    """``ufunc`` with PyTorch's refusals: bools, and integers divided by zero."""
    if _is_bool(input) and _is_bool(other):
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    with np.errstate(all="ignore"):  # a float divided by 0 is inf or nan, silently
        data = _binary(input, other, ufunc)
    if data.dtype.kind in "iu" and np.any(np.equal(other._data if isinstance(other, Tensor)
                                                   else other, 0)):
        raise RuntimeError("ZeroDivisionError")
    return data


def floor_divide(input: Any, other: Any) -> Tensor:
    """``input // other``, rounded down (toward minus infinity).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.floor_divide.html>
    """
    data = _divide(input, other, np.floor_divide, "div_floor_cpu")
    tensors = tuple(x for x in (input, other) if isinstance(x, Tensor))
    return record(data, NotImplementedBackward, tensors, op="floor_divide")


def _rfloordiv(self: Tensor, other: Any) -> Tensor:
    return floor_divide(other, self)


def remainder(input: Any, other: Any) -> Tensor:
    """What is left of ``input`` after ``input // other``: it has the sign of ``other``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.remainder.html>
    """
    data = _divide(input, other, np.remainder, "remainder_cpu")
    if not isinstance(input, Tensor):  # a number % a tensor: PyTorch cannot differentiate
        return record(data, NotImplementedBackward, (other,), op="remainder")
    if not isinstance(other, Tensor):
        return record(data, RemainderBackward0, (input,))
    return record(data, RemainderBackward1, (input, other), saved=(other, input))


def _rmod(self: Tensor, other: Any) -> Tensor:
    return remainder(other, self)


def fmod(input: Tensor, other: Any) -> Tensor:
    """The remainder of the division rounded toward zero: it has the sign of ``input``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.fmod.html>
    """
    data = _divide(input, other, np.fmod, "fmod_cpu")
    if not isinstance(other, Tensor):
        return record(data, FmodBackward0, (input,))
    return record(data, FmodBackward1, (input, other), saved=(other, input))


class DivBackward2(Node):
    """``div`` with a ``rounding_mode``: the quotient is flat where it is defined, so
    PyTorch's gradients are zeros (new ones, which nothing more depends on)."""

    __slots__ = ("rounding_mode",)
    saved_names = ("other", "self")
    saved_attributes = ("rounding_mode",)

    def backward(self, grad):
        return formula.zeros_like(grad), formula.zeros_like(grad)


def _trunc_divide(a: Any, b: Any) -> Any:
    """Division rounded toward zero: a float quotient cut, an integer one as C divides."""
    if np.result_type(a, b).kind == "f":
        return np.trunc(np.true_divide(a, b))
    quotient = np.floor_divide(a, b)
    return quotient + ((quotient * b != a) & ((np.sign(a) * np.sign(b)) < 0))


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    """``input / other``, rounded as ``rounding_mode`` says: ``None`` (true division),
    ``'trunc'`` (toward zero) or ``'floor'`` (down, as ``//``). A rounded quotient of
    integers stays an integer.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.div.html>
    """
    from .pointwise import div as true_divide

    if rounding_mode is None:
        return true_divide(input, other)
    if rounding_mode == "floor":
        data = _divide(input, other, np.floor_divide, "div_floor_cpu")
    elif rounding_mode == "trunc":
        data = _divide(input, other, _trunc_divide, "div_trunc_cpu")
    else:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")
    other_saved = other if isinstance(other, Tensor) else wrap(np.asarray(other))
    return record(data, DivBackward2, (input, other), saved=(other_saved, input),
                  rounding_mode=rounding_mode)
