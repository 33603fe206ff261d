"""``adaptive_max_pool2d``: the maximum of each of ``output_size`` windows that tile the
plane, whatever its size.

Output cell ``i`` (along one axis of length ``L``, ``out`` cells) covers the input rows
``floor(i * L / out)`` to ``ceil((i + 1) * L / out)``: the windows cover everything and may
overlap. The maximum's flat position in its plane is returned too (``result1``, saved by
``AdaptiveMaxPool2DBackward0``): a window's gradient goes to that one element, and
overlapping windows add up there. The first maximum of a window wins, and a nan beats any
number, as in PyTorch's kernel.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.AdaptiveMaxPool2d.html>
"""

from __future__ import annotations

import math

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .pooling import _scatter_to_planes


def _bounds(size: int, out: int) -> list[tuple[int, int]]:
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


class AdaptiveMaxPool2DBackward0(Node):
    __slots__ = ("shape",)
    saved_names = ("self", "result1")

    def backward(self, grad):
        _, indices = self.saved_arrays()
        flat = formula.array(indices).reshape(math.prod(self.shape[:-2]), -1)
        return _scatter_to_planes(self.shape, flat, grad.reshape(flat.shape))


def adaptive_max_pool2d(input: Tensor, output_size: tuple[int, int]) -> tuple[Tensor, Tensor]:
    data = input._data
    height, width = data.shape[-2:]
    planes = data.reshape(-1, height, width)
    out_h, out_w = output_size
    values = np.empty((planes.shape[0], out_h, out_w), dtype=data.dtype)
    positions = np.empty((planes.shape[0], out_h, out_w), dtype=np.int64)
    for i, (top, bottom) in enumerate(_bounds(height, out_h)):
        for j, (left, right) in enumerate(_bounds(width, out_w)):
            window = planes[:, top:bottom, left:right].reshape(planes.shape[0], -1)
            nan_first = np.where(np.isnan(window), np.inf, window)
            best = np.argmax(nan_first, axis=1)
            values[:, i, j] = window[np.arange(window.shape[0]), best]
            rows, cols = np.divmod(best, right - left)
            positions[:, i, j] = (top + rows) * width + left + cols
    shape = (*data.shape[:-2], out_h, out_w)
    indices = wrap(positions.reshape(shape))
    out = record(values.reshape(shape), AdaptiveMaxPool2DBackward0, (input,),
                 saved=(input, indices), shape=data.shape)
    return out, indices
