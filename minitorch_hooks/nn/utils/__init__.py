"""Utilities around modules: gradient clipping, pruning and packed sequences, as in
``torch.nn.utils``."""

from . import prune, rnn
from .clip_grad import clip_grad_norm_

__all__ = ["clip_grad_norm_", "prune", "rnn"]
