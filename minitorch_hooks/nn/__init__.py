"""Neural-network building blocks, as in ``torch.nn``."""

from . import modules
from .modules import Module
from .parameter import Parameter

__all__ = ["Module", "Parameter", "modules"]
