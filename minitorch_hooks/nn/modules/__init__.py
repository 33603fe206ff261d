"""The layers. ``module.py`` holds the base class and every module hook."""

# ``_functions`` holds the identity Function that module full backward hooks are built on.
from . import _functions
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d
from .dropout import Dropout
from .flatten import Flatten
from .linear import Identity, Linear
from .loss import CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .module import Module

__all__ = ["Conv1d", "Conv2d", "CrossEntropyLoss", "Dropout", "Flatten", "Identity", "L1Loss",
           "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList", "NLLLoss",
           "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh"]
