"""Neural-network building blocks, as in ``torch.nn``."""

from . import functional, init, modules, utils
from .modules import (
    BatchNorm1d,
    BatchNorm2d,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    Flatten,
    GroupNorm,
    Identity,
    L1Loss,
    LayerNorm,
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

__all__ = ["BatchNorm1d", "BatchNorm2d", "CrossEntropyLoss", "Dropout", "Embedding",
           "Flatten", "GroupNorm", "Identity", "L1Loss", "LayerNorm", "Linear",
           "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList", "NLLLoss", "Parameter",
           "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh", "functional", "init", "modules",
           "utils"]
