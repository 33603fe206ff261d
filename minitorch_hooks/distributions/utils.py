"""Helpers the distributions share: parameters computed on first use (``lazy_property``)
and the two ways of giving a categorical's weights, probabilities and logits; and
``broadcast_all``, which makes a normal's ``loc`` and ``scale`` tensors of one shape.
See <https://github.com/pytorch/pytorch/blob/v2.13.0/torch/distributions/utils.py>
"""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from numbers import Number
from typing import Any

import numpy as np

from .. import _dtype, nn
from .._creation import tensor
from .._ops.pointwise import broadcast_shapes
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad

__all__ = ["broadcast_all", "clamp_probs", "lazy_property", "logits_to_probs",
           "probs_to_logits"]


class lazy_property:  # noqa: N801 - PyTorch's name
    """A parameter computed from another the first time it is read, then kept on the
    instance (a non-data descriptor, so the kept value hides it from then on). A
    categorical given ``probs`` computes ``logits`` only when asked. It is computed with
    grad enabled, even under ``no_grad``: it will be reused later, where gradients may be
    wanted."""

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)  # type: ignore[arg-type]

    def __get__(self, instance: Any, obj_type: Any = None) -> Any:
        if instance is None:
            return self
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def clamp_probs(probs: Tensor) -> Tensor:
    """``probs`` kept within ``[eps, 1 - eps]`` for its dtype's ``eps``, so that their
    logarithms stay finite."""
    eps = float(np.finfo(probs._data.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """Probabilities from logits: a sigmoid of log-odds (binary), else a softmax along
    the last dimension."""
    if is_binary:
        return logits.sigmoid()
    return nn.functional.softmax(logits, dim=-1)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """Logits from probabilities, clamped first: log-odds (binary), else logarithms."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return ps_clamped.log() - (-ps_clamped).log1p()
    return ps_clamped.log()


def broadcast_all(*values: Any) -> tuple[Tensor, ...]:
    """The ``values`` (tensors or numbers) as tensors of one shape: a number becomes a
    tensor of the first tensor's dtype (float32, the default dtype, if there is none), then
    each is expanded to the broadcast shape, as ``torch.broadcast_tensors`` does: an
    ``ExpandBackward0`` where the shape changes, the tensor itself where it does not."""
    if not all(isinstance(v, (Tensor, Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), _dtype.float32)
    tensors = [v if isinstance(v, Tensor) else tensor(v, dtype=dtype) for v in values]
    shape: tuple[int, ...] = ()
    for t in tensors:
        shape = broadcast_shapes(shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in tensors)
