"""``F.hardtanh``, ``F.relu6``, ``F.hardswish`` (the operations are in ``_ops/hardtanh.py``)
and ``F.pixel_shuffle`` / ``F.pixel_unshuffle``. Import them from
``minitorch_hooks.nn.functional``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.hardtanh.html>
"""

from __future__ import annotations

from .._ops import hardtanh as _hard
from .._tensor import Tensor

__all__ = ["hardswish", "hardtanh", "hardtanh_", "relu6"]


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """``input`` clipped to ``[min_val, max_val]``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.hardtanh.html>
    """
    if inplace:
        return _hard.hardtanh_(input, min_val, max_val)
    return _hard.hardtanh(input, min_val, max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return _hard.hardtanh_(input, min_val, max_val)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(input, 0), 6)``: ``hardtanh(input, 0, 6)``, and recorded as such.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.relu6.html>
    """
    return hardtanh(input, 0.0, 6.0, inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * relu6(input + 3) / 6``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.hardswish.html>
    """
    return _hard.hardswish_(input) if inplace else _hard.hardswish(input)
