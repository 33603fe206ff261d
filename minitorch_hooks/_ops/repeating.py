"""Repeating and rotating a tensor's elements: ``repeat``, ``tile`` and ``roll``.

``repeat`` lays whole copies side by side along each dimension (a copy, not a view), so
its gradient adds up what each copy received. ``roll`` shifts the elements along a
dimension, those pushed off one end coming back at the other; its gradient rolls back.
See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.repeat.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._size_argument import size_argument
from .._tensor import Tensor, _shape_from, _wrap_dim, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record, shown_dim


class RepeatBackward0(Node):
    """Each input element was copied ``prod(repeats)`` times: its gradient is the sum of
    the copies' gradients."""

    __slots__ = ("repeats", "shape")
    saved_attributes = ("repeats",)

    @property
    def _saved_self_sym_sizes(self) -> tuple[int, ...]:
        return self.shape

    def backward(self, grad):
        padded = (1,) * (len(self.repeats) - len(self.shape)) + tuple(self.shape)
        interleaved = tuple(size for pair in zip(self.repeats, padded) for size in pair)
        copies = tuple(range(0, 2 * len(padded), 2))
        return formula.sum(grad.reshape(interleaved), copies).reshape(self.shape)


def repeat(input: Tensor, *repeats: Any) -> Tensor:
    """``repeats[d]`` copies along each dimension ``d``; more repeats than dimensions add
    leading dimensions.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.repeat.html>
    """
    repeats = size_argument("repeat", repeats, name="repeats")
    data = input._data
    if len(repeats) < data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    padded = data.reshape((1,) * (len(repeats) - data.ndim) + data.shape)
    return record(np.tile(padded, repeats), RepeatBackward0, (input,), repeats=repeats,
                  shape=data.shape)


def tile(input: Tensor, *dims: Any) -> Tensor:
    """``repeat``, with fewer repeats than dimensions allowed (the leading ones get 1).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.tile.html>
    """
    dims = _shape_from(dims)
    return repeat(input, (1,) * (input._data.ndim - len(dims)) + tuple(dims))


class RollBackward0(Node):
    __slots__ = ("shifts", "dims", "axes")

    @property
    def _saved_shifts(self) -> tuple[int, ...]:
        return tuple(shown_dim(s) for s in self.shifts)

    @property
    def _saved_dims(self) -> tuple[int, ...]:
        return tuple(shown_dim(d) for d in self.dims)

    def backward(self, grad):
        back = tuple(-s for s in self.shifts)
        if type(grad) is Tensor:
            return roll(grad, back, self.dims)
        return _rolled(grad, back, self.axes)


def _rolled(data: np.ndarray, shifts: tuple[int, ...], axes: tuple[int, ...] | None
            ) -> np.ndarray:
    if axes is None:  # no dims: roll the flattened tensor
        return np.roll(data.reshape(-1), shifts[0]).reshape(data.shape)
    return np.roll(data, shifts, axes)


def roll(input: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    """The elements shifted by ``shifts`` along ``dims`` (along the flattened tensor without
    ``dims``), wrapping around.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.roll.html>
    """
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    given = () if dims is None else ((dims,) if isinstance(dims, int) else tuple(dims))
    data = input._data
    if given and len(shifts) != len(given):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(given)}")
    axes = tuple(_wrap_dim(d, data.ndim) for d in given) if given else None
    return record(np.ascontiguousarray(_rolled(data, shifts, axes)), RollBackward0, (input,),
                  shifts=shifts, dims=given, axes=axes)


def repeat_interleave(input: Any, repeats: Any = None, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """Each element (each slice along ``dim``; of the flattened tensor without ``dim``)
    repeated ``repeats`` times in place, ``[1, 2] -> [1, 1, 2, 2]``; ``repeats`` may be a
    tensor of counts, one per slice. With a number, PyTorch records the steps it takes
    (an expanded new dimension, copied and merged: ``ViewBackward0`` over ``CloneBackward0``
    over ``ExpandBackward0``); with counts, it selects (``IndexSelectBackward0``).
    ``torch.repeat_interleave(counts)`` alone gives the positions ``[0, 0, 1, ...]``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.repeat_interleave.html>
    """
    from .conversion import contiguous
    from .gather_scatter import index_select
    from .shape import expand, flatten, unsqueeze

    if repeats is None:  # the positions, each repeated by its count
        counts = input._data
        return wrap(np.repeat(np.arange(counts.size), counts))
    source = input if dim is not None else flatten(input)
    axis = _wrap_dim(0 if dim is None else dim, input.dim())
    if isinstance(repeats, Tensor):
        counts = repeats._data.reshape(-1)
        size = source.shape[axis] if source.dim() else 1
        if counts.size == 1:  # one count for every slice
            counts = np.full(size, counts[0])
        if counts.size != size:
            raise RuntimeError("repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {counts.size} and input.size({axis}) = "
                               f"{size}")
        if (counts < 0).any():
            raise RuntimeError("repeats can not be negative")
        positions = np.repeat(np.arange(size), counts)
        return index_select(source, axis, wrap(positions.astype(np.int64)))
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    shape = list(source.shape) or [1]
    grown = unsqueeze(source if source.dim() else flatten(source), axis + 1)
    wide = expand(grown, *shape[:axis + 1], repeats, *shape[axis + 1:])
    return flatten(contiguous(wide), axis, axis + 1)
