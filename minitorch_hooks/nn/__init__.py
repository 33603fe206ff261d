"""Neural-network building blocks, as in ``torch.nn``."""

from . import functional, init, modules, utils
from .modules import (
    Conv1d,
    Conv2d,
    CrossEntropyLoss,
    Dropout,
    Flatten,
    Identity,
    L1Loss,
    Linear,
    LogSoftmax,
    Module,
    ModuleDict,
    ModuleList,
    MSELoss,
    NLLLoss,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
)
from .parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "CrossEntropyLoss", "Dropout", "Flatten", "Identity", "L1Loss",
           "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList", "NLLLoss",
           "Parameter", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh", "functional", "init",
           "modules", "utils"]
