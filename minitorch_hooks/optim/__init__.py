"""Optimisers, as in ``torch.optim``: they update parameters in place from their ``.grad``.

As in PyTorch, the submodules are not attributes of the package (except ``lr_scheduler``):
the global step hooks are imported by name,
``from torch.optim.optimizer import register_optimizer_step_pre_hook``.
"""

from .. import _missing
from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

del adagrad, adam, adamw, optimizer, rmsprop, sgd  # noqa: F821 - bound by the imports above

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]

__getattr__ = _missing.module_getattr(__name__, "torch.optim")  # PyTorch's missing names say so
