"""Where the non-zero elements are: ``nonzero``, ``argwhere``, ``where(condition)`` and
``count_nonzero``. Their results are indices and counts, outside the graph.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nonzero.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from .reduction import _axes


def nonzero(input: Tensor, *, as_tuple: bool = False) -> Any:
    """The indices of the non-zero elements in row-major order: an ``(n, ndim)`` int64
    tensor, or with ``as_tuple`` one index vector per dimension."""
    data = input._data
    if as_tuple:
        if data.ndim == 0:
            return (wrap(np.zeros(int(data != 0), dtype=np.int64)),)
        return tuple(wrap(index.astype(np.int64)) for index in np.nonzero(data))
    return wrap(np.argwhere(data).astype(np.int64))


def argwhere(input: Tensor) -> Tensor:
    """``nonzero(input)``: the ``(n, ndim)`` indices of the non-zero elements."""
    return nonzero(input)


def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:
    """How many elements are non-zero, in all or along ``dim``, as int64."""
    data = input._data
    axes = _axes(dim, data.ndim)
    return wrap(np.asarray(np.count_nonzero(data, axis=axes), dtype=np.int64))


def where(condition: Tensor, input: Any = None, other: Any = None) -> Any:
    """``torch.where``: with one argument, ``nonzero(condition, as_tuple=True)``; with
    three, the element-wise choice of ``pointwise.where``."""
    from .pointwise import where as choose

    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return choose(condition, input, other)
