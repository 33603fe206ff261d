"""``tensor_split``: a tensor cut into views along one dimension, into ``n`` nearly equal
parts (the first ``size % n`` one element longer) or at given indices, which, like Python's
slices, may run past the end (the parts there are empty). Each part is a slice
(``SliceBackward0``), as in PyTorch.
See <https://docs.pytorch.org/docs/2.13/generated/torch.tensor_split.html>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap_dim
from .indexing import _slice

_SIGNATURES = ("(tuple of ints indices, int dim = 0)", "(Tensor tensor_indices_or_sections, "
               "int dim = 0)", "(int sections, int dim = 0)")


def _bounds(indices_or_sections: Any, size: int) -> list[tuple[int, int]]:
    if isinstance(indices_or_sections, Tensor):
        values = indices_or_sections._data
        if values.dtype != np.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {indices_or_sections.dtype.scalar_name}")
        if values.ndim > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a "
                               "zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {values.ndim} dims")
        indices_or_sections = int(values) if values.ndim == 0 else values.tolist()
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        base, extra = divmod(size, sections)
        starts = [k * base + min(k, extra) for k in range(sections + 1)]
        return list(zip(starts[:-1], starts[1:]))
    if not isinstance(indices_or_sections, Sequence):
        from ._arguments import invalid_combination
        raise invalid_combination("tensor_split", (indices_or_sections,), {}, _SIGNATURES)
    edges = [0, *indices_or_sections, size]
    return list(zip(edges[:-1], edges[1:]))


def tensor_split(input: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """The views of ``input`` between consecutive cut points along ``dim``."""
    axis = _wrap_dim(dim, input.dim())
    size = input.shape[axis]
    return tuple(_slice(input, axis, slice(start, end))
                 for start, end in _bounds(indices_or_sections, size))
