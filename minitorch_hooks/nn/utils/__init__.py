"""Utilities around modules: gradient clipping and pruning, as in ``torch.nn.utils``."""

from . import prune
from .clip_grad import clip_grad_norm_, clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_", "prune"]
