"""Optimisers, as in ``torch.optim``: they update parameters in place from their ``.grad``.

As in PyTorch, the submodules are not attributes of the package: the global step hooks are
imported by name, ``from torch.optim.optimizer import register_optimizer_step_pre_hook``.
"""

from .. import _missing
from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

del adam, optimizer, sgd  # noqa: F821 - bound by the imports above, as in PyTorch

__all__ = ["SGD", "Adam", "Optimizer"]

__getattr__ = _missing.module_getattr(__name__, "torch.optim")  # PyTorch's missing names say so
