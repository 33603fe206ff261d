"""The layers. ``module.py`` holds the base class and every module hook."""

# ``_functions`` holds the identity Function that module full backward hooks are built on.
from . import _functions, lazy
from .activation import (
                          ELU,
                          GELU,
                          Hardswish,
                          Hardtanh,
                          LeakyReLU,
                          LogSoftmax,
                          PReLU,
                          ReLU,
                          ReLU6,
                          Sigmoid,
                          SiLU,
                          Softmax,
                          Softmin,
                          Softplus,
                          Tanh,
                          Threshold,
)
from .attention import MultiheadAttention
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .distance import CosineSimilarity, PairwiseDistance
from .dropout import Dropout, Dropout1d, Dropout2d, Dropout3d
from .flatten import Flatten
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Identity, LazyLinear, Linear
from .loss import (
                          BCELoss,
                          CrossEntropyLoss,
                          HuberLoss,
                          KLDivLoss,
                          L1Loss,
                          MSELoss,
                          NLLLoss,
                          SmoothL1Loss,
)
from .module import Module
from .normalization import GroupNorm, LayerNorm
from .padding import (
                          CircularPad1d,
                          CircularPad2d,
                          CircularPad3d,
                          ConstantPad1d,
                          ConstantPad2d,
                          ConstantPad3d,
                          ReflectionPad1d,
                          ReflectionPad2d,
                          ReflectionPad3d,
                          ReplicationPad1d,
                          ReplicationPad2d,
                          ReplicationPad3d,
                          ZeroPad1d,
                          ZeroPad2d,
                          ZeroPad3d,
)
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AdaptiveMaxPool3d,
    AvgPool1d,
    AvgPool2d,
    AvgPool3d,
    MaxPool1d,
    MaxPool2d,
    MaxPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .sparse import Embedding
from .transformer import (
                          Transformer,
                          TransformerDecoder,
                          TransformerDecoderLayer,
                          TransformerEncoder,
                          TransformerEncoderLayer,
)
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

__all__ = ["Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "GRU", "LSTM",
           "RNN", "GRUCell",
           "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase",
           "AdaptiveAvgPool2d", "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "Conv1d", "Conv2d",
           "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "GELU", "GroupNorm", "Identity",
           "L1Loss", "LayerNorm", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss",
           "MaxPool2d", "Module", "ModuleDict", "ModuleList", "MultiheadAttention", "NLLLoss",
           "ReLU", "Sequential",
           "SiLU", "Sigmoid", "Softmax", "Softmin", "Tanh", "Transformer", "TransformerDecoder",
           "TransformerDecoderLayer", "TransformerEncoder", "TransformerEncoderLayer", "Upsample",
           "ELU", "Softplus", "Threshold",
           "Hardswish", "Hardtanh", "PixelShuffle", "PixelUnshuffle", "PReLU", "ReLU6",
           "Dropout1d", "Dropout2d", "Dropout3d",
           "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d", "UpsamplingBilinear2d", "UpsamplingNearest2d",
           "BCELoss", "HuberLoss", "KLDivLoss", "SmoothL1Loss", "BatchNorm3d", "SyncBatchNorm",
           "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
           "AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d", "MaxPool1d",
           "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "AvgPool3d", "MaxPool3d", "MaxUnpool1d",
           "MaxUnpool2d", "MaxUnpool3d", "CosineSimilarity", "PairwiseDistance"]
