"""``torch._weight_norm`` and ``torch.norm_except_dim``: ``w = g * v / ||v||``, per slice.

Weight normalisation writes a weight as a direction ``v`` and a magnitude ``g``: each
slice of ``v`` along ``dim`` (each output channel, for ``dim=0``) is divided by its own
2-norm and scaled by its entry of ``g``. ``norm_except_dim(v, 2, dim)`` is that norm, taken
over every dimension except ``dim`` and kept in a shape that broadcasts against ``v``
(``dim=-1`` means one norm over the whole tensor).

PyTorch computes the common cases, ``dim`` the first or the last dimension, in one kernel
whose node is ``WeightNormInterfaceBackward0`` (it also returns the norms, which the node
saves as ``result1``); any other ``dim`` is the composite ``v * (g / norm_except_dim(v, 2,
dim))``, recorded op by op. ``norm_except_dim`` itself is a composite of views and the
older ``norm`` kernel (``NormBackward0`` over everything, ``NormBackward1`` along a dim),
not ``linalg.vector_norm``. Both are recorded here as PyTorch records them.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.weight_norm.html>
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .norms import aten_norm


def norm_except_dim(v: Tensor, pow: int = 2, dim: int = 0) -> Tensor:  # noqa: A002 - PyTorch's name
    """The ``pow``-norm of each slice of ``v`` along ``dim``, shaped to broadcast against
    ``v`` (size 1 everywhere but ``dim``); ``dim=-1``: one norm of the whole tensor."""
    if dim == -1:
        return aten_norm(v, pow)
    last = v.dim() - 1
    if dim == 0:
        output_size = [1] * v.dim()
        output_size[0] = v.size(0)
        return aten_norm(v.contiguous().view(v.size(0), -1), pow, 1).view(output_size)
    if dim == last:
        output_size = [1] * v.dim()
        output_size[last] = v.size(last)
        return aten_norm(v.contiguous().view(-1, v.size(last)), pow, 0).view(output_size)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


class WeightNormInterfaceBackward0(Node):
    """``w = v * (g / norms)``: with ``s = sum(grad * v)`` over each slice,
    ``dv = (g / norms) * (grad - v * s / norms**2)`` and ``dg = s / norms``. PyTorch's
    ``_weight_norm_differentiable_backward``, the formula it uses under create_graph."""

    __slots__ = ("dim", "axes", "slice_shape")
    saved_names = ("v", "g", "result1")
    saved_attributes = ("dim",)

    def backward(self, grad):
        v, g, norms = self.saved_arrays()
        g_shape = formula.array(g).shape
        g, norms = g.reshape(self.slice_shape), norms.reshape(self.slice_shape)
        per_slice = formula.sum(grad * v, self.axes, keepdims=True)
        grad_v = (g / norms) * (grad - v * (per_slice / (norms * norms)))
        return grad_v, (per_slice / norms).reshape(g_shape)


def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """``v * (g / norm_except_dim(v, 2, dim))``: one node when ``dim`` is the first or last
    dimension, as PyTorch's fused kernel, else the composite."""
    v, g = v.contiguous(), g.contiguous()
    if dim not in (0, v.dim() - 1):
        return v * (g / norm_except_dim(v, 2, dim))
    data = v._data
    axes = tuple(axis for axis in range(data.ndim) if axis != dim)
    norms = np.sqrt((data * data).sum(axis=axes, keepdims=True)).astype(data.dtype)
    slice_shape = norms.shape
    result = data * (g._data.reshape(slice_shape) / norms)
    return record(result.astype(data.dtype), WeightNormInterfaceBackward0, (v, g),
                  saved=(v, g, wrap(norms.reshape(g._data.shape))), dim=dim, axes=axes,
                  slice_shape=slice_shape)
