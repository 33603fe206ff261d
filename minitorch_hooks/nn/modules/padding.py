"""Padding layers: ``F.pad`` as a module, one class per mode and number of dimensions.

``padding`` is one number for every side, or the (before, after) amounts starting from
the last dimension, as ``F.pad`` takes them: ``ZeroPad2d((left, right, top, bottom))``.
As layers they can sit in a ``Sequential`` and carry hooks. ``CircularPad*`` and the 3-d
reflect and replicate padding raise ``NotImplementedError`` when called, as ``F.pad`` does
here.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.ZeroPad2d.html>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d",
           "ZeroPad2d", "ZeroPad3d"]


def _sides(padding: Any, count: int) -> tuple[int, ...]:
    """PyTorch's ``_pair``/``_quadruple``/``_ntuple(6)``: a number for every side."""
    return tuple(padding) if isinstance(padding, Sequence) else (padding,) * count


class _PadNd(Module):
    """A padding layer: ``mode``, and ``_sides`` amounts (two per padded dimension)."""

    mode = "constant"
    _sides = 2

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _sides(padding, self._sides)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    """Pads with the values from the other end, as if the input wrapped around."""

    mode = "circular"

    def forward(self, input: Tensor) -> Tensor:
        low = self._sides // 2 + 1
        if input.dim() not in (low, low + 1):
            raise ValueError(f"expected {low}D or {low + 1}D input (got {input.dim()}D input)")
        return super().forward(input)


class CircularPad1d(_CircularPadNd):
    _sides = 2


class CircularPad2d(_CircularPadNd):
    _sides = 4


class CircularPad3d(_CircularPadNd):
    _sides = 6


class _ConstantPadNd(_PadNd):
    """Pads with ``value``."""

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    _sides = 2


class ConstantPad2d(_ConstantPadNd):
    _sides = 4


class ConstantPad3d(_ConstantPadNd):
    _sides = 6


class ZeroPad1d(ConstantPad1d):
    """Pads with zeros."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pads with zeros: ``(left, right, top, bottom)``."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ReflectionPadNd(_PadNd):
    """Pads with the input mirrored at its edges (the edge itself not repeated)."""

    mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    _sides = 2


class ReflectionPad2d(_ReflectionPadNd):
    _sides = 4


class ReflectionPad3d(_ReflectionPadNd):
    _sides = 6


class _ReplicationPadNd(_PadNd):
    """Pads with copies of the edge values."""

    mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    _sides = 2


class ReplicationPad2d(_ReplicationPadNd):
    _sides = 4


class ReplicationPad3d(_ReplicationPadNd):
    _sides = 6
