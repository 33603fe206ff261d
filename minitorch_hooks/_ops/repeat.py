"""``Tensor.repeat``: the tensor tiled ``repeats[i]`` times along each dimension (new
leading dimensions when ``repeats`` is longer than the shape). Each output element is a
copy of one input element, so the gradient of an input element is the sum of the
gradients of its copies: the upstream gradient seen as ``(r0, s0, r1, s1, ...)`` and
summed over the ``r`` axes (``RepeatBackward0``, which keeps ``_saved_repeats``).
``instance_norm`` repeats its weight once per sample with it.
See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.repeat.html>
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record


class RepeatBackward0(Node):
    __slots__ = ("repeats", "self_shape")
    saved_attributes = ("repeats",)

    def backward(self, grad):
        extra = len(self.repeats) - len(self.self_shape)
        shape = (1,) * extra + tuple(self.self_shape)
        interleaved = []
        for repeat, size in zip(self.repeats, shape):
            interleaved += [repeat, size]
        summed = formula.sum(grad.reshape(tuple(interleaved)),
                             tuple(range(0, 2 * len(shape), 2)))
        return summed.reshape(tuple(self.self_shape))


def repeat(input: Tensor, *repeats: int | Sequence[int]) -> Tensor:
    """``input`` tiled ``repeats`` times along each dimension."""
    if len(repeats) == 1 and not isinstance(repeats[0], int):
        repeats = tuple(repeats[0])
    data = input._data
    if len(repeats) < data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    result = np.tile(data, repeats)
    return record(np.ascontiguousarray(result), RepeatBackward0, (input,),
                  repeats=tuple(repeats), self_shape=data.shape)
