"""``torch.vdot``: the dot product of two vectors, the first conjugated.

For real tensors (the only kind minitorch_hooks has) it is ``dot``, with the same checks
and messages, but its own node, ``VdotBackward0``, which saves ``other`` before ``self``.
``parametrizations.spectral_norm`` computes its ``sigma`` with it.
See <https://docs.pytorch.org/docs/2.13/generated/torch.vdot.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.graph import Node
from ._record import record, saved_for_each_other
from .linalg import _check_same_dtype


class VdotBackward0(Node):
    __slots__ = ()
    saved_names = ("other", "self")

    def backward(self, grad: Any) -> tuple:
        other, this = self.saved_arrays()
        return None if other is None else grad * other, None if this is None else grad * this


def vdot(input: Tensor, other: Tensor) -> Tensor:
    """``sum(conj(input) * other)`` of two 1-d tensors of one size and dtype."""
    a, b = input._data, other._data
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.shape != b.shape:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.size}] and src [{b.size}] to have "
            f"the same number of elements, but got {a.size} and {b.size} elements "
            "respectively")
    _check_same_dtype(input, other, "dot : expected both vectors to have same dtype, but "
                                    "found {a.scalar_name} and {b.scalar_name}")
    this, that = saved_for_each_other(input, other)
    return record(np.asarray(np.dot(a, b)), VdotBackward0, (input, other), saved=(that, this))
