"""``hardtanh`` (and ``relu6``, which is ``hardtanh(x, 0, 6)``) and ``hardswish``: the
piecewise-linear activations of mobile networks (MobileNet, EfficientNet).

* ``hardtanh(x, min_val, max_val)``: ``x`` clipped to ``[min_val, max_val]``. Its gradient
  is the upstream gradient where ``min_val < x < max_val`` and 0 elsewhere, *including at
  the two ends*; it is selected, not multiplied by a mask, so an infinite upstream gradient
  at a clipped position gives 0, not ``inf * 0 = nan`` (PyTorch's ``hardtanh_backward``).
* ``hardswish(x) = x * relu6(x + 3) / 6``, a cheap ``x * sigmoid(x)``: its gradient is 0
  for ``x <= -3``, ``x / 3 + 1/2`` for ``-3 < x < 3``, 1 from 3 on.

Both save their input (``_saved_self``; hardtanh also its bounds, ``_saved_min_val`` and
``_saved_max_val``). In place (``relu6(x, inplace=True)``, as MobileNet's blocks use) they
record the same nodes.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Hardtanh.html>
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .inplace import apply_in_place


class HardtanhBackward0(Node):
    __slots__ = ("min_val", "max_val")
    saved_names = ("self",)
    saved_attributes = ("min_val", "max_val")

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return formula.where(x <= self.min_val, 0, formula.where(x >= self.max_val, 0, grad))


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """``input`` clipped to ``[min_val, max_val]``."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    data = input._data
    result = np.minimum(np.maximum(data, min_val), max_val).astype(data.dtype, copy=False)
    return record(result, HardtanhBackward0, (input,), saved=(input,), min_val=min_val,
                  max_val=max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return apply_in_place(input, hardtanh, min_val, max_val)


class HardswishBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        middle = grad * (x / 3 + 0.5)
        return formula.where(x <= -3, 0, formula.where(x < 3, middle, grad))


def hardswish(input: Tensor) -> Tensor:
    """``input * relu6(input + 3) / 6``."""
    data = input._data
    if data.dtype.kind != "f":
        raise NotImplementedError(f'"hardswish_cpu" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    result = data * np.minimum(np.maximum(data + 3, 0), 6) / 6
    return record(result.astype(data.dtype, copy=False), HardswishBackward0, (input,),
                  saved=(input,))


def hardswish_(input: Tensor) -> Tensor:
    return apply_in_place(input, hardswish)
