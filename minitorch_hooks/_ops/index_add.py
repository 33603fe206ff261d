"""``index_add``: ``alpha * source`` added into ``input`` at the positions ``index`` along
``dim`` (repeats add up), the operation behind scatter-style accumulation and, in PyTorch,
behind the gradient of ``index_select``.

Its gradient is the upstream gradient for ``input`` and the upstream gradient at the same
positions (``index_select``), times ``alpha``, for ``source``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.index_add_.html>
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor, _wrap_dim
from ..autograd.graph import Node
from ._record import record, saved_for, shown_dim
from .inplace import _in_place


class IndexAddBackward0(Node):
    __slots__ = ("axis", "dim", "alpha", "key", "source_dim", "source_shape")
    saved_names = ("index", "source")
    saved_attributes = ("alpha", "dim", "source_dim")

    def backward(self, grad):
        picked = grad[self.key]
        if self.alpha != 1:
            picked = picked * self.alpha
        return grad, picked.reshape(self.source_shape)


def _check(input: Tensor, axis: int, index: Tensor, source: Tensor) -> None:
    data, values = input._data, index._data
    if values.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{index.dtype.scalar_name}")
    if values.ndim > 1:
        raise IndexError("index_add_(): Index is supposed to be a vector, but got dim: "
                         f"{values.ndim} with type: {index.dtype.scalar_name} and size: "
                         f"{list(values.shape)}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"index_add_(): self ({input.dtype.scalar_name}) and source "
                           f"({source.dtype.scalar_name}) must have the same scalar type")
    expected = list(data.shape)
    if data.ndim:
        expected[axis] = values.size
    if source.dim() and list(source.shape) != expected or not source.dim() and data.ndim:
        if source.dim() and source.shape[axis] != values.size:
            raise RuntimeError(f"index_add_(): Number of indices ({values.size}) should be "
                               f"equal to source.size(dim): ({source.shape[axis]}), for dim: "
                               f"{axis}")
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(data.shape)} "
                           f"source.shape = {list(source.shape)}")
    size = data.shape[axis] if data.ndim else 1
    for value in values.reshape(-1):
        if not -size <= value < size:
            raise RuntimeError(f"index {value} is out of bounds for dimension {axis} with "
                               f"size {size}")


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *,
              alpha: float = 1) -> Tensor:
    """A copy of ``input`` with ``alpha * source[i]`` added at ``index[i]`` along ``dim``."""
    axis = _wrap_dim(dim, input.dim())
    _check(input, axis, index, source)
    key = (slice(None),) * axis + (index._data.reshape(-1).astype(np.intp),)
    data = input._data.copy()
    added = source._data if alpha == 1 else source._data * source._data.dtype.type(alpha)
    target = data.reshape(1) if data.ndim == 0 else data
    np.add.at(target, key, added.reshape(target[key].shape))
    return record(data, IndexAddBackward0, (input, source),
                  saved=(index, saved_for(source, source)),
                  axis=axis, dim=shown_dim(dim), alpha=alpha, key=key,
                  source_dim=source.dim(), source_shape=source._data.shape)


index_add_ = _in_place(index_add)
