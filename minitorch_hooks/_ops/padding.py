"""Padding the last dimensions of a tensor: with a constant (``ConstantPadNdBackward0``),
or by mirroring (``reflect``) or repeating (``replicate``) the border.

A constant pad puts the input in a region of a bigger tensor, so its gradient is that
region of the output's gradient. A reflection or replication pad instead *gathers*
elements of the input, some several times: we compute, once, which input element each
output element comes from (by padding a tensor of positions the same way), so the forward
pass is an indexing and the backward pass adds each gradient back where it came from.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.pad.html>
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record


def _region(sizes: Sequence[int], pads: Sequence[tuple[int, int]]) -> tuple[tuple, tuple]:
    """Where the input lands in the padded output: ``output[out_key] = input[in_key]`` (a
    negative pad cuts the input rather than adding to it)."""
    in_key, out_key = [], []
    for size, (before, after) in zip(sizes, pads):
        in_key.append(slice(max(-before, 0), size - max(-after, 0)))
        out_key.append(slice(max(before, 0), max(before, 0) + size - max(-before, 0)
                             - max(-after, 0)))
    return tuple(in_key), tuple(out_key)


class ConstantPadNdBackward0(Node):
    __slots__ = ("shape", "in_key", "out_key", "pad")
    saved_attributes = ("pad",)

    def backward(self, grad):
        inner = grad[self.out_key]
        if all(key == slice(0, size) for key, size in zip(self.in_key, self.shape)):
            return inner  # the usual case: nothing was cut, the gradient is a region
        return formula.scatter(self.shape, self.in_key, inner)


def constant_pad_nd(input: Tensor, pad: Sequence[int], value: float) -> Tensor:
    """``pad`` lists (before, after) amounts from the last dimension backwards, as in
    PyTorch: ``(1, 1, 2, 0)`` adds a column on each side and two rows on top."""
    x = input._data
    pairs = [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):
        pairs[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    if any(size + min(before, 0) + min(after, 0) < 0 for size, (before, after)
           in zip(x.shape, pairs)):
        raise RuntimeError("narrow(): length must be non-negative.")
    shape = tuple(size + before + after for size, (before, after) in zip(x.shape, pairs))
    in_key, out_key = _region(x.shape, pairs)
    out = np.full(shape, value, dtype=x.dtype)
    out[out_key] = x[in_key]
    return record(out, ConstantPadNdBackward0, (input,), shape=x.shape, in_key=in_key,
                  out_key=out_key, pad=_as_saved(pad))


def _as_saved(pad: Sequence[int]) -> tuple[int, ...]:
    """``_saved_pad`` as PyTorch shows it: its node keeps the amounts as unsigned 64-bit
    numbers, so a negative pad (a crop) reads as ``2**64`` minus its size. (NumPy's
    integers, which PyTorch accepts too, are made Python ints first: ``int64 % 2**64``
    overflows.)"""
    return tuple(operator.index(p) % 2**64 for p in pad)


class _GatherPadBackward(Node):
    """Each output element came from the input position ``sources`` names: its gradient
    goes back there, added up where a position was copied several times."""

    __slots__ = ("shape", "sources", "padding")
    saved_attributes = ("padding",)

    def backward(self, grad):
        lead = self.shape[:-len(self.sources.shape)]
        rows = math.prod(lead)
        flat = grad.reshape(rows, -1)
        key = (np.arange(rows)[:, None], self.sources.reshape(1, -1))
        return formula.scatter((rows, math.prod(self.shape[len(lead):])), key, flat,
                         accumulate=True).reshape(self.shape)


class ReflectionPad1DBackward0(_GatherPadBackward):
    __slots__ = ()


class ReflectionPad2DBackward0(_GatherPadBackward):
    __slots__ = ()


class ReplicationPad1DBackward0(_GatherPadBackward):
    __slots__ = ()


class ReplicationPad2DBackward0(_GatherPadBackward):
    __slots__ = ()


_GATHER_NODES = {("reflect", 1): ReflectionPad1DBackward0, ("reflect", 2): ReflectionPad2DBackward0,
                 ("replicate", 1): ReplicationPad1DBackward0,
                 ("replicate", 2): ReplicationPad2DBackward0}


def gather_pad(input: Tensor, pad: Sequence[int], mode: str) -> Tensor:
    """Reflection (``a b c`` -> ``b a b c b``) or replication (``a a b c c``) padding of the
    last ``len(pad) // 2`` dimensions, checked by the caller."""
    x = input._data
    nd = len(pad) // 2
    spatial = x.shape[-nd:]
    pairs = [(pad[2 * (nd - 1 - i)], pad[2 * (nd - 1 - i) + 1]) for i in range(nd)]
    if mode == "reflect":
        # PyTorch checks the last dimension first (the first pair of ``pad``).
        for dim, ((before, after), size) in reversed(list(enumerate(zip(pairs, spatial)))):
            if before >= size or after >= size:
                raise RuntimeError(
                    f"Argument #{4 + 2 * (nd - 1 - dim)}: Padding size should be less than "
                    "the corresponding input dimension, but got: padding "
                    f"({before}, {after}) at dimension {x.ndim - nd + dim} of input "
                    f"{list(x.shape)}")
    positions = np.arange(math.prod(spatial)).reshape(spatial)
    sources = np.pad(positions, pairs, mode="reflect" if mode == "reflect" else "edge")
    lead = x.shape[:-nd]
    flat = x.reshape(math.prod(lead), -1)
    out = flat[:, sources.reshape(-1)].reshape(*lead, *sources.shape)
    return record(out, _GATHER_NODES[mode, nd], (input,), shape=x.shape, sources=sources,
                  padding=tuple(pad))
