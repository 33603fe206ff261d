"""``unique`` and ``bincount``: which values a tensor holds and how often, what activation
statistics and dead-unit counts are made of.

``unique`` sorts (on the CPU, also when asked not to), and can say where each element went
(``return_inverse``) and how many there were (``return_counts``); with ``dim`` it compares
whole slices. A NaN is unequal to everything, itself included, so each NaN is unique.
PyTorch records a node for it that cannot go backward. ``bincount`` counts the
non-negative integers of a vector, or adds up their ``weights``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.unique.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.bincount.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap_dim, wrap
from ..autograd.graph import Node
from ._record import record
from .division import NotImplementedBackward


class NoDerivative(Node):
    """A node whose derivative PyTorch does not implement: backward through it raises."""

    __slots__ = ()
    function = ""

    def backward(self, *grads):
        raise NotImplementedError(f"the derivative for '{self.function}' is not implemented.")


class Unique2Backward0(NoDerivative):
    __slots__ = ()
    function = "_unique2"


class UniqueDimBackward0(NoDerivative):
    __slots__ = ()
    function = "unique_dim"


def _unique_values(data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted distinct values, where each element went, and the counts, every NaN on
    its own (NumPy's ``equal_nan=False``)."""
    flat = data.reshape(-1)
    values, inverse, counts = np.unique(flat, return_inverse=True, return_counts=True,
                                        equal_nan=False)
    return values, inverse.reshape(data.shape), counts


def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, dim: int | None = None) -> Any:
    """The distinct values of ``input`` (or slices along ``dim``), in ascending order."""
    data = input._data
    if dim is None:
        values, inverse, counts = _unique_values(data)
        node = Unique2Backward0
    else:
        axis = _wrap_dim(dim, data.ndim)
        moved = np.moveaxis(data, axis, 0)
        if moved.shape[0] == 0:
            values, inverse, counts = moved, np.zeros(0, np.int64), np.zeros(0, np.int64)
        else:
            values, inverse, counts = np.unique(moved.reshape(moved.shape[0], -1), axis=0,
                                                return_inverse=True, return_counts=True)
            values = values.reshape(-1, *moved.shape[1:])
        values = np.moveaxis(values, 0, axis)  # a view, as PyTorch's
        inverse = inverse.reshape(-1)
        node = UniqueDimBackward0
    out = record(values, node, (input,)) if data.dtype.kind == "f" else wrap(values)
    extras = [wrap(array.astype(np.int64)) for array, wanted in
              ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return (out, *extras) if extras else out


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each of 0, 1, ..., ``max(input)`` occurs (at least ``minlength`` bins);
    with ``weights``, the sum of the weights of each value's elements, in float64 unless
    they are float32 (integers add up as float64)."""
    data = input._data
    if data.dtype.kind not in "iu":
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for "
                                  f"'{input.dtype.scalar_name}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if data.ndim != 1 or (data.size and data.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights.numel() != data.size):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if weights is None:
        return wrap(np.bincount(data, minlength=minlength).astype(np.int64))
    kind = np.float32 if weights._data.dtype == np.float32 else np.float64
    counts = np.bincount(data, weights=weights._data.astype(np.float64), minlength=minlength)
    return record(counts.astype(kind), NotImplementedBackward, (weights,), op="bincount")
