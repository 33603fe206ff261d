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
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .upsampling import Upsample

__all__ = ["AdaptiveAvgPool2d", "AvgPool2d", "Conv1d", "Conv2d", "CrossEntropyLoss", "Dropout",
           "Flatten", "Identity", "L1Loss", "Linear", "LogSoftmax", "MSELoss", "MaxPool2d",
           "Module", "ModuleDict", "ModuleList", "NLLLoss", "ReLU", "Sequential", "Sigmoid",
           "Softmax", "Tanh", "Upsample"]
