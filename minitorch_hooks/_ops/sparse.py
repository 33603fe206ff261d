"""``embedding``: a lookup table, whose rows are picked by integer indices.

Its gradient adds each picked position's gradient into the row it came from (a row picked
twice gets both), except the ``padding_idx`` row, which stays at zero: padding marks
positions with no token, and their vector should not learn.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Embedding.html>
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record


class EmbeddingBackward0(Node):
    """With ``scale_grad_by_freq`` each row's gradient is divided by how many times the
    batch picked it, so that frequent tokens do not dominate."""

    __slots__ = ("num_weights", "padding_idx", "scale_grad_by_freq")
    saved_names = ("indices",)
    saved_attributes = ("padding_idx", "scale_grad_by_freq")
    _saved_sparse = False  # sparse gradients are left out

    @property
    def _saved_weight_sym_argsize_0(self) -> int:
        return self.num_weights

    def backward(self, grad):
        (indices,) = self.saved_arrays()
        indices = formula.array(indices).reshape(-1)
        rows = grad.reshape(-1, formula.array(grad).shape[-1])
        if self.scale_grad_by_freq:
            counts = np.bincount(indices, minlength=self.num_weights)[indices]
            rows = rows / formula.like(counts[:, None].astype(formula.dtype(rows)), rows)
        kept = indices != self.padding_idx
        return formula.scatter((self.num_weights, rows.shape[-1]), (indices[kept],), rows[kept],
                         accumulate=True)


def embedding(weight: Tensor, indices: Tensor, padding_idx: int,
              scale_grad_by_freq: bool) -> Tensor:
    """``weight[indices]``; ``padding_idx`` is -1 when there is none."""
    _check_index_dtype(indices, 1, "embedding")
    index = indices._data
    if index.size and (index.min() < 0 or index.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    return record(np.ascontiguousarray(weight._data[index]), EmbeddingBackward0,
                  (weight,), saved=(indices,), num_weights=weight.shape[0],
                  padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq)


def _check_index_dtype(indices: Tensor, position: int, function: str) -> None:
    if indices._data.dtype not in (np.int64, np.int32):
        # A bool tensor has no legacy type name: PyTorch prints its internal one.
        name = "CPUBoolType" if indices._data.dtype == np.bool_ else indices.type()
        raise RuntimeError(f"Expected tensor for argument #{position} 'indices' to have one "
                           f"of the following scalar types: Long, Int; but got {name} instead "
                           f"(while checking arguments for {function})")


def embedding_renorm_(weight: Tensor, indices: Tensor, max_norm: float,
                      norm_type: float) -> None:
    """Shrink, in place, each picked row whose ``norm_type``-norm exceeds ``max_norm`` to
    norm ``max_norm`` (a hair under: the scale is ``max_norm / (norm + 1e-7)``)."""
    _check_index_dtype(indices, 2, "embedding_renorm_")
    rows = np.unique(indices._data)
    outside = rows[(rows < -weight.shape[0]) | (rows >= weight.shape[0])]
    if outside.size:  # PyTorch selects each row in turn: a negative index counts from the end
        raise IndexError(f"select(): index {outside[0]} out of range for tensor of size "
                         f"{list(weight.shape)} at dimension 0")
    rows = np.unique(rows % weight.shape[0])
    picked = weight._data[rows].astype(np.float64)
    norms = np.linalg.norm(picked, ord=norm_type, axis=1)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    weight._data[rows] = (picked * scale[:, None]).astype(weight._data.dtype)
    weight._version_counter[0] += 1
