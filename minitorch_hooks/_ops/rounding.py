"""Rounding: ``floor``, ``ceil``, ``round``, ``trunc`` and ``frac``.

A rounded value is flat between the integers and jumps at them, so PyTorch defines its
gradient as zero everywhere (``FloorBackward0`` sends back zeros): training through
rounding needs a straight-through trick instead, ``x + (x.round() - x).detach()``, which
is hook material. ``frac`` (``x - trunc(x)``) has slope 1. Integer tensors are already
round and come back as copies.
See <https://docs.pytorch.org/docs/2.13/generated/torch.round.html>
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record


class _FlatBackward(Node):
    """The gradient of a step function: zero."""

    __slots__ = ()

    def backward(self, grad):
        return formula.zeros_like(grad)


class FloorBackward0(_FlatBackward):
    __slots__ = ()


class CeilBackward0(_FlatBackward):
    __slots__ = ()


class RoundBackward0(_FlatBackward):
    __slots__ = ()


class RoundBackward1(_FlatBackward):
    """``round(decimals=...)``."""

    __slots__ = ("decimals",)
    saved_attributes = ("decimals",)


class TruncBackward0(_FlatBackward):
    __slots__ = ()


class FracBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad


def _rounding(name: str, ufunc: np.ufunc, node_type: type[Node]) -> Callable[[Tensor], Tensor]:
    def operation(input: Tensor) -> Tensor:
        data = input._data
        if data.dtype == np.bool_:
            raise NotImplementedError(f'"{name}_vml_cpu" not implemented for \'Bool\'')
        return record(ufunc(data) if data.dtype.kind == "f" else data.copy(), node_type,
                      (input,))

    operation.__name__ = name
    operation.__doc__ = f"``{ufunc.__name__}`` of each element; zero gradient."
    return operation


floor = _rounding("floor", np.floor, FloorBackward0)
ceil = _rounding("ceil", np.ceil, CeilBackward0)
trunc = _rounding("trunc", np.trunc, TruncBackward0)


def round(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001 - torch's name
    """To the nearest integer, halves to the even one (``round(2.5)`` is 2), or to
    ``decimals`` places: ``x * 10**decimals`` rounded, divided back."""
    data = input._data
    if data.dtype == np.bool_:
        raise NotImplementedError('"round_vml_cpu" not implemented for \'Bool\'')
    if decimals == 0:
        values = np.round(data) if data.dtype.kind == "f" else data.copy()
        return record(values, RoundBackward0, (input,))
    if data.dtype.kind != "f":
        raise NotImplementedError(f'"round_cpu" not implemented for \'{input.dtype.scalar_name}\'')
    return record(np.round(data, decimals), RoundBackward1, (input,), decimals=decimals)


def frac(input: Tensor) -> Tensor:
    """The fractional part, ``x - trunc(x)``, with its sign; its gradient passes as is."""
    data = input._data
    if data.dtype.kind != "f":
        raise NotImplementedError(f'"frac_cpu" not implemented for \'{input.dtype.scalar_name}\'')
    return record(data - np.trunc(data), FracBackward0, (input,))


METHODS = {"floor": floor, "ceil": ceil, "round": round, "trunc": trunc, "frac": frac}
