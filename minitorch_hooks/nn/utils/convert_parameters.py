"""``parameters_to_vector`` and ``vector_to_parameters``: a model's tensors as one vector.

Flattening every parameter into one vector (and back) is what global pruning, some
second-order optimisers and weight-space tools work on. The vector is a ``cat`` of views,
so it is part of the graph: its gradient flows back to each parameter. Writing back sets
each parameter's ``.data``, outside autograd. On a CPU-only build every tensor is on the
same device, so PyTorch's check of the devices always passes.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parameters_to_vector.html>
"""

from __future__ import annotations

from collections.abc import Iterable

from ..._ops.shape import cat
from ..._tensor import Tensor
from ...utils.hooks import typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """One vector holding every parameter, flattened, in order."""
    return cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of ``vec`` into the parameters' ``.data``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.vector_to_parameters.html>
    """
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
