"""Padding layers: ``F.pad`` as a module, one class per mode and number of dimensions.

Laid out as PyTorch's ``torch/nn/modules/padding.py``: a private base per mode
(``_ConstantPadNd``, ``_ReflectionPadNd``, ``_ReplicationPadNd``, ``_CircularPadNd``) holds
the forward and the repr; a public class only turns its ``padding`` argument into the tuple
of its number of dimensions (``_pair``, ``_quadruple``, and ``_sextuple`` for PyTorch's
``_ntuple(6)``) and, for circular padding, names the input dimensions it accepts.
``ZeroPad*d`` is ``ConstantPad*d`` with 0.

``padding`` is one number for every side, or the (before, after) amounts starting from
the last dimension, as ``F.pad`` takes them: ``ZeroPad2d((left, right, top, bottom))``.
As layers they can sit in a ``Sequential`` and carry hooks. ``CircularPad*`` and the 3-d
reflect and replicate padding raise ``NotImplementedError`` when called, as ``F.pad`` does
here.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.ZeroPad2d.html>
"""

from __future__ import annotations

from collections.abc import Sequence

from ..._tensor import Tensor
from .. import functional as F
from .module import Module
from .utils import _ntuple, _pair, _quadruple

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d",
           "ZeroPad2d", "ZeroPad3d"]

# The ``padding`` argument of a 1-, 2- or 3-d layer, as PyTorch types it: one number for
# every side, or the (before, after) amounts, last dimension first.
_size_2_t = int | tuple[int, int]
_size_4_t = int | tuple[int, int, int, int]
_size_6_t = int | tuple[int, int, int, int, int, int]
_sextuple = _ntuple(6, "_sextuple")


class _PadNd(Module):
    """What the padding modes share: ``F.pad`` with ``mode``, and the padding as repr."""

    mode = "constant"
    padding: Sequence[int]

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    """Pads with the values from the other end, as if the input wrapped around. Unlike the
    other modes, the layer checks the input's dimensions itself, before ``F.pad``: an
    ``n``-d layer takes an input with or without its batch dimension."""

    mode = "circular"
    _input_dims: tuple[int, int]

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in self._input_dims:
            low, high = self._input_dims
            raise ValueError(f"expected {low}D or {high}D input (got {input.dim()}D input)")
        return super().forward(input)


class CircularPad1d(_CircularPadNd):
    _input_dims = (2, 3)

    def __init__(self, padding: _size_2_t) -> None:
        super().__init__()
        self.padding = _pair(padding)


class CircularPad2d(_CircularPadNd):
    _input_dims = (3, 4)

    def __init__(self, padding: _size_4_t) -> None:
        super().__init__()
        self.padding = _quadruple(padding)


class CircularPad3d(_CircularPadNd):
    _input_dims = (4, 5)

    def __init__(self, padding: _size_6_t) -> None:
        super().__init__()
        self.padding = _sextuple(padding)


class _ConstantPadNd(_PadNd):
    """Pads with ``value``."""

    def __init__(self, value: float) -> None:
        super().__init__()
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    def __init__(self, padding: _size_2_t, value: float) -> None:
        super().__init__(value)
        self.padding = _pair(padding)


class ConstantPad2d(_ConstantPadNd):
    def __init__(self, padding: _size_4_t, value: float) -> None:
        super().__init__(value)
        self.padding = _quadruple(padding)


class ConstantPad3d(_ConstantPadNd):
    def __init__(self, padding: _size_6_t, value: float) -> None:
        super().__init__(value)
        self.padding = _sextuple(padding)


class _ReflectionPadNd(_PadNd):
    """Pads with the input mirrored at its edges (the edge itself not repeated)."""

    mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    def __init__(self, padding: _size_2_t) -> None:
        super().__init__()
        self.padding = _pair(padding)


class ReflectionPad2d(_ReflectionPadNd):
    def __init__(self, padding: _size_4_t) -> None:
        super().__init__()
        self.padding = _quadruple(padding)


class ReflectionPad3d(_ReflectionPadNd):
    def __init__(self, padding: _size_6_t) -> None:
        super().__init__()
        self.padding = _sextuple(padding)


class _ReplicationPadNd(_PadNd):
    """Pads with copies of the edge values."""

    mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    def __init__(self, padding: _size_2_t) -> None:
        super().__init__()
        self.padding = _pair(padding)


class ReplicationPad2d(_ReplicationPadNd):
    def __init__(self, padding: _size_4_t) -> None:
        super().__init__()
        self.padding = _quadruple(padding)


class ReplicationPad3d(_ReplicationPadNd):
    def __init__(self, padding: _size_6_t) -> None:
        super().__init__()
        self.padding = _sextuple(padding)


# ZeroPad*d is ConstantPad*d with the value fixed at 0, which its repr leaves out.
class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding: _size_2_t) -> None:
        super().__init__(padding, 0.0)

    extra_repr = _PadNd.extra_repr


class ZeroPad2d(ConstantPad2d):
    """Pads with zeros: ``(left, right, top, bottom)``."""

    def __init__(self, padding: _size_4_t) -> None:
        super().__init__(padding, 0.0)

    extra_repr = _PadNd.extra_repr


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding: _size_6_t) -> None:
        super().__init__(padding, 0.0)

    extra_repr = _PadNd.extra_repr
