"""``clip_grad_norm_``: scale all gradients down together when their total norm is too big;
``clip_grad_value_``: clamp each gradient element.

Called between ``backward()`` and ``optimizer.step()``, it bounds the size of one update
(exploding gradients in RNNs are the classic case) without changing its direction: every
gradient is multiplied by the same factor ``max_norm / total_norm`` when that is below 1.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.clip_grad_norm_.html>
"""

from __future__ import annotations

import math
import types
import warnings
from collections.abc import Iterable

import numpy as np

from ..._creation import tensor
from ..._ops.pointwise import clamp
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def _vector_norm(values: np.ndarray, norm_type: float) -> np.ndarray:
    """``torch.linalg.vector_norm``: the ``p``-norm of all elements (``inf``: the largest)."""
    magnitudes = np.abs(values)
    if norm_type == math.inf:
        return magnitudes.max(initial=0)
    return (magnitudes**norm_type).sum(dtype=values.dtype) ** (1 / norm_type)


def _get_total_norm(grads: list[Tensor], norm_type: float, error_if_nonfinite: bool) -> Tensor:
    """The norm of the vector of every gradient's norm, which is the norm of all gradient
    elements taken together, as if the parameters were one long vector."""
    if not grads:
        return tensor(0.0)
    norms = np.stack([_vector_norm(g._data, norm_type) for g in grads])
    total_norm = tensor(_vector_norm(norms, norm_type))
    if error_if_nonfinite and not math.isfinite(total_norm.item()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the "
            "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    return total_norm


@no_grad()
def clip_grad_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float,
                    norm_type: float = 2.0, error_if_nonfinite: bool = False) -> Tensor:
    """Scale the ``.grad`` of ``parameters`` in place so that their total norm is at most
    ``max_norm``; returns the total norm from before the clipping."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)  # a generator could be read only once
        if is_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will "
                          "occur.", UserWarning, stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = _get_total_norm(grads, float(norm_type), error_if_nonfinite)
    # No ``if clip_coef < 1``: multiplying by a clamped factor of 1 is harmless, and on a
    # GPU it saves PyTorch a synchronisation with the host.
    clip_coef = float(max_norm) / (total_norm + 1e-6)
    clip_coef_clamped = clamp(clip_coef, max=1.0)
    for grad in grads:
        grad.mul_(clip_coef_clamped)
    return total_norm


@no_grad()
def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clamp every element of the ``.grad`` of ``parameters`` into ``[-clip_value,
    clip_value]``, in place. Unlike ``clip_grad_norm_`` it changes the gradient's direction;
    a nan stays nan. ``foreach`` chooses PyTorch's batched kernels, which give the same
    values; here each gradient is clamped in turn either way.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.clip_grad_value_.html>
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:  # PyTorch's grouping of the gradients by device refuses an empty list
        raise RuntimeError("Expected !nested_tensorlist[0].empty() to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    for grad in grads:
        grad.clamp_(min=-clip_value, max=clip_value)
