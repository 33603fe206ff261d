"""``F.normalize``, ``F.cosine_similarity``, ``F.pairwise_distance`` and ``F.one_hot``: what
embedding, contrastive and attribution code does with vectors. Import them from
``minitorch_hooks.nn.functional``.

``normalize`` and ``cosine_similarity`` are built from recorded operations, the same ones
as in PyTorch, so their graphs are PyTorch's: ``normalize`` divides by the norm clamped
away from 0 (``clamp_min(eps)``, so a zero vector stays zero instead of becoming NaN);
``cosine_similarity`` divides each input by a *copy* of its norm, clamped in place without
recording, and sums the products (so a zero vector gives 0 too). ``pairwise_distance`` is
ATen's one line, ``norm(x1 - x2 + eps, p, last dim)``: the ``eps`` is added to every
difference, not to the distance, so that a negative ``p`` never takes a power of 0.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.normalize.html>,
<https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.cosine_similarity.html>,
<https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.pairwise_distance.html>
and <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.one_hot.html>
"""

from __future__ import annotations

import numpy as np

from .._dtype import from_numpy_dtype
from .._ops import clamping, conversion
from .._ops.norms import aten_norm, tensor_norm, vector_norm
from .._ops.pointwise import add_scalar, broadcast_shapes, div, mul, sub
from .._ops.reduction import sum
from .._ops.shape import expand, expand_as
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import no_grad

__all__ = ["cosine_similarity", "normalize", "one_hot", "pairwise_distance"]


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: Tensor | None = None) -> Tensor:
    """``input`` divided by its ``p``-norm along ``dim``, the norm at least ``eps``."""
    if out is not None:
        raise NotImplementedError("minitorch_hooks does not implement out=")
    denominator = clamping.clamp_min(tensor_norm(input, p, dim, keepdim=True), eps)
    return div(input, expand_as(denominator, input))


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim`` (broadcast first)."""
    common = from_numpy_dtype(np.result_type(x1._data, x2._data))
    if not common.is_floating_point:
        raise RuntimeError("expected common dtype to be floating point, yet common dtype is "
                           f"{common.scalar_name}")
    shape = broadcast_shapes(x1._data.shape, x2._data.shape)
    if x1._data.shape != x2._data.shape:  # both expanded, as ATen's expand_outplace does
        x1, x2 = expand(x1, shape), expand(x2, shape)
    norms = [conversion.clone(vector_norm(x, 2, dim, keepdim=True)) for x in (x1, x2)]
    with no_grad():
        for norm in norms:
            clamping.clamp_min_(norm, eps)
    return sum(mul(div(x1, norms[0]), div(x2, norms[1])), dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dimension of the broadcast
    inputs (rows of a batch, or two vectors)."""
    last = max(x1.dim(), x2.dim()) - 1
    return aten_norm(add_scalar(sub(x1, x2), eps), float(p), last, keepdim)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """An int64 tensor with one more dimension, of size ``num_classes``: 1 at each value's
    place, 0 elsewhere. Without ``num_classes``, one more than the largest value."""
    data = tensor._data
    if data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if data.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(data.max()) + 1
    if data.size and data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if data.size and data.max() >= num_classes or num_classes < 0:
        raise RuntimeError("Class values must be smaller than num_classes.")
    result = np.zeros(data.shape + (num_classes,), dtype=np.int64)
    np.put_along_axis(result, data[..., None], 1, axis=-1)
    return wrap(result)
