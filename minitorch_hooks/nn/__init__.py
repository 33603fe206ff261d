"""Neural-network building blocks, as in ``torch.nn``."""

from . import functional, init, modules, utils
from .modules import (
    GELU,
    CrossEntropyLoss,
    Dropout,
    Flatten,
    Identity,
    L1Loss,
    LazyLinear,
    LeakyReLU,
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
    SiLU,
    Softmax,
    Softmin,
    Tanh,
)
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["Buffer", "CrossEntropyLoss", "Dropout", "Flatten", "GELU", "Identity", "L1Loss",
           "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict",
           "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "SiLU", "Sigmoid",
           "Softmax", "Softmin", "Tanh", "UninitializedBuffer", "UninitializedParameter",
           "functional", "init", "modules", "utils"]
