"""The layers. ``module.py`` holds the base class and every module hook."""

# ``_functions`` holds the identity Function that module full backward hooks are built on.
from . import _functions, lazy
from .activation import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softmin, Tanh
from .container import ModuleDict, ModuleList, Sequential
from .dropout import Dropout
from .flatten import Flatten
from .linear import Identity, LazyLinear, Linear
from .loss import CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .module import Module

__all__ = ["CrossEntropyLoss", "Dropout", "Flatten", "GELU", "Identity", "L1Loss", "LazyLinear",
           "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList",
           "NLLLoss", "ReLU", "Sequential", "SiLU", "Sigmoid", "Softmax", "Softmin", "Tanh"]
