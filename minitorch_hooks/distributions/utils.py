"""Helpers the distributions share: parameters computed on first use (``lazy_property``)
and the two ways of giving a categorical's weights, probabilities and logits.
See <https://github.com/pytorch/pytorch/blob/v2.13.0/torch/distributions/utils.py>
"""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from typing import Any

import numpy as np

from .. import nn
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad

__all__ = ["clamp_probs", "lazy_property", "logits_to_probs", "probs_to_logits"]


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
