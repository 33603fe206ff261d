"""Neural-network building blocks, as in ``torch.nn``."""

from .. import _missing
from . import functional, init, modules, utils
from .modules import (
    GELU,
    AdaptiveAvgPool2d,
    AvgPool2d,
    BatchNorm1d,
    BatchNorm2d,
    Conv1d,
    Conv2d,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    Flatten,
    GroupNorm,
    Identity,
    L1Loss,
    LayerNorm,
    LazyLinear,
    LeakyReLU,
    Linear,
    LogSoftmax,
    MaxPool2d,
    Module,
    ModuleDict,
    ModuleList,
    MSELoss,
    MultiheadAttention,
    NLLLoss,
    ReLU,
    Sequential,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Tanh,
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
    Upsample,
)
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["AdaptiveAvgPool2d", "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "Buffer", "Conv1d",
           "Conv2d", "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "GELU", "GroupNorm",
           "Identity", "L1Loss", "LayerNorm", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax",
           "MSELoss", "MaxPool2d", "Module", "ModuleDict", "ModuleList", "MultiheadAttention",
           "NLLLoss", "Parameter",
           "ReLU", "Sequential", "SiLU", "Sigmoid", "Softmax", "Softmin", "Tanh",
           "UninitializedBuffer", "UninitializedParameter", "Upsample", "functional", "init",
           "modules", "utils"]

__getattr__ = _missing.module_getattr(__name__, "torch.nn")  # PyTorch's missing names say so
