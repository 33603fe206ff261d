"""``clamp_min`` and ``clamp_max``: one-sided ``clamp``, with a number or a tensor as the
limit (PyTorch's ``clamp`` calls them when given one side only, and ``F.normalize`` clamps
a norm away from 0 with ``clamp_min``).

The gradient passes where the limit did not apply and is a *selected* 0 elsewhere, so an
infinite upstream gradient at a clipped element stays out. A NaN input does not compare
``>= min``, so it gets 0, as in PyTorch. With a tensor limit, the limit gets the gradient
of the elements it replaced.
See <https://docs.pytorch.org/docs/2.13/generated/torch.clamp.html>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._tensor import Tensor, _c_name
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .inplace import _in_place
from .pointwise import _binary, clamp


class ClampMinBackward0(Node):
    __slots__ = ("min",)
    saved_names = ("self",)
    saved_attributes = ("min",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return formula.where(x >= self.min, grad, 0)


class ClampMaxBackward0(Node):
    __slots__ = ("max",)
    saved_names = ("self",)
    saved_attributes = ("max",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return formula.where(x <= self.max, grad, 0)


class ClampMinBackward1(Node):
    __slots__ = ()
    saved_names = ("min", "self")

    def backward(self, grad):
        limit, x = self.saved_arrays()
        return formula.where(x >= limit, grad, 0), formula.where(x < limit, grad, 0)


class ClampMaxBackward1(Node):
    __slots__ = ()
    saved_names = ("max", "self")

    def backward(self, grad):
        limit, x = self.saved_arrays()
        return formula.where(x <= limit, grad, 0), formula.where(x > limit, grad, 0)


def _check_limit(name: str, side: str, limit: Any) -> None:
    if limit is None or isinstance(limit, (str, list, tuple)):
        given = "NoneType" if limit is None else type(limit).__name__
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (Tensor, {given}), "
            f"but expected one of:\n * (Tensor input, Tensor {side}, *, Tensor out = None)\n"
            f" * (Tensor input, Number {side}, *, Tensor out = None)\n")


def clamp_min(input: Tensor, min: Any) -> Tensor:  # noqa: A002 - torch's name
    """``input`` where it is at least ``min``, ``min`` elsewhere (a NaN stays NaN)."""
    _check_limit("clamp_min", "min", min)
    data = _binary(input, min, np.maximum)
    if isinstance(min, Tensor):
        return record(data, ClampMinBackward1, (input, min), saved=(min, input))
    return record(data, ClampMinBackward0, (input,), saved=(input,), min=min)


def clamp_max(input: Tensor, max: Any) -> Tensor:  # noqa: A002 - torch's name
    """``input`` where it is at most ``max``, ``max`` elsewhere (a NaN stays NaN)."""
    _check_limit("clamp_max", "max", max)
    data = _binary(input, max, np.minimum)
    if isinstance(max, Tensor):
        return record(data, ClampMaxBackward1, (input, max), saved=(max, input))
    return record(data, ClampMaxBackward0, (input,), saved=(input,), max=max)


def _number_limits_fit(operation: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """The in-place form of ``operation``: a float limit cannot clamp an integer tensor in
    place, which PyTorch's clamp kernels refuse naming the C++ type (``long int``)."""
    def in_place(input: Tensor, *limits: Any, **named: Any) -> Tensor:
        if input._data.dtype.kind in "biu" and any(
                isinstance(limit, float) for limit in (*limits, *named.values())):
            raise RuntimeError("result type Float can't be cast to the desired output type "
                               f"{_c_name(input.dtype)}")
        return operation(input, *limits, **named)

    in_place.__name__ = operation.__name__
    return in_place


clamp_min_ = _number_limits_fit(_in_place(clamp_min))
clamp_max_ = _number_limits_fit(_in_place(clamp_max))
clamp_ = _number_limits_fit(_in_place(clamp))
