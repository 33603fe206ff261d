"""Neural-network building blocks, as in ``torch.nn``."""

from . import functional, init, modules, utils
from .modules import (
    AdaptiveAvgPool2d,
    AvgPool2d,
    Conv1d,
    Conv2d,
    CrossEntropyLoss,
    Dropout,
    Flatten,
    Identity,
    L1Loss,
    Linear,
    LogSoftmax,
    MaxPool2d,
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
    Upsample,
)
from .parameter import Parameter

__all__ = ["AdaptiveAvgPool2d", "AvgPool2d", "Conv1d", "Conv2d", "CrossEntropyLoss", "Dropout",
           "Flatten", "Identity", "L1Loss", "Linear", "LogSoftmax", "MSELoss", "MaxPool2d",
           "Module", "ModuleDict", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential",
           "Sigmoid", "Softmax", "Tanh", "Upsample", "functional", "init", "modules", "utils"]
