"""Optimisers, as in ``torch.optim``: they update parameters in place from their ``.grad``."""

from . import optimizer
from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["SGD", "Adam", "Optimizer", "optimizer"]
