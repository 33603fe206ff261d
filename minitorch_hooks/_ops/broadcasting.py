"""``broadcast_to`` and ``meshgrid``: views that repeat a tensor along new or size-1
dimensions without copying (``expand``, stride 0), as PyTorch builds them.

``meshgrid`` makes one grid per vector: vector ``i`` viewed along dimension ``i`` and
expanded to the grid's shape (``ExpandBackward0`` over ``ViewBackward0``). With
``indexing='xy'`` (NumPy's and matplotlib's default) the first two dimensions trade places,
so the first vector runs along the columns. Without ``indexing``, PyTorch uses ``'ij'``
and warns that the argument will be required.
See <https://docs.pytorch.org/docs/2.13/generated/torch.broadcast_to.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.meshgrid.html>
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from .._tensor import Tensor
from .shape import expand, view


def broadcast_to(input: Tensor, size: Sequence[int]) -> Tensor:
    """``input`` expanded to ``size``: ``input.expand(size)``."""
    return expand(input, *size) if not isinstance(size, int) else expand(input, size)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    """One grid per 0-d or 1-d tensor, each of the shape of all their lengths."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass "
                      "the indexing argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if any(t.dim() > 1 for t in tensors):
        raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list")
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f"received: {indexing}")
    places = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:
        places[0], places[1] = 1, 0
    shape = [0] * len(tensors)
    for place, t in zip(places, tensors):
        shape[place] = t.numel()
    grids = []
    for place, t in zip(places, tensors):
        along = [1] * len(tensors)
        along[place] = -1
        grids.append(expand(view(t, *along), *shape))
    return tuple(grids)
