"""Weight initialisation: fill a tensor in place, outside autograd, with PyTorch's numbers.

Every function runs under ``no_grad``: a parameter is a leaf that requires grad, and
changing it in place while recording would be refused (and would make no sense: the
initial value is not part of any computation). The random ones draw from the same
generator as ``torch.rand``, in the same order and with the same formulas as PyTorch, so
``manual_seed(0)`` followed by ``nn.Linear(10, 5)`` gives PyTorch's weights bit for bit.
See <https://docs.pytorch.org/docs/2.13/nn.init.html>
"""

from __future__ import annotations

import math
import warnings

from .._generator import Generator
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad

_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
               "conv_transpose2d", "conv_transpose3d")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor by which an activation shrinks or grows the variance of its input.

    Initialisers multiply their standard deviation by it, so that the variance stays about
    the same from layer to layer: ``relu`` zeroes half its input, hence ``sqrt(2)``.
    """
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """How many inputs feed each output (fan in) and how many outputs each input feeds.

    A weight is ``(out_features, in_features, *kernel)``; each kernel position counts as
    another input (or output) connection.
    """
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field_size = 1
    for size in tensor.shape[2:]:
        receptive_field_size *= size
    return tensor.size(1) * receptive_field_size, tensor.size(0) * receptive_field_size


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


@no_grad()
def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0,
             generator: Generator | None = None) -> Tensor:
    """Fill ``tensor`` with samples of the uniform distribution on ``[a, b)``."""
    return tensor.uniform_(a, b, generator=generator)


@no_grad()
def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0,
            generator: Generator | None = None) -> Tensor:
    """Fill ``tensor`` with samples of the normal distribution ``N(mean, std**2)``."""
    return tensor.normal_(mean, std, generator=generator)


@no_grad()
def constant_(tensor: Tensor, val: float) -> Tensor:
    return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


@no_grad()
def zeros_(tensor: Tensor) -> Tensor:
    return tensor.zero_()


def xavier_uniform_(tensor: Tensor, gain: float = 1.0,
                    generator: Generator | None = None) -> Tensor:
    """Glorot initialisation: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``,
    which keeps the variance of activations and of gradients alike across layers."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std  # a uniform on [-a, a) has standard deviation a / sqrt(3)
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0,
                   generator: Generator | None = None) -> Tensor:
    """Glorot initialisation with normal samples: ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float | None:
    """He initialisation's standard deviation, ``gain / sqrt(fan)``; ``None`` (after
    PyTorch's warning) for a tensor with no elements."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
        return None
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu",
                     generator: Generator | None = None) -> Tensor:
    """He initialisation: ``U(-bound, bound)`` with ``bound = gain * sqrt(3 / fan)``.

    ``nn.Linear`` calls it with ``a=sqrt(5)``, which makes ``bound = 1 / sqrt(fan_in)``
    (see https://github.com/pytorch/pytorch/issues/57109). The bound is computed in this
    order, as PyTorch computes it: a mathematically equal formula can differ in the last
    bit of a double, and then in the random numbers.
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std  # a uniform on [-b, b) has standard deviation b / sqrt(3)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu",
                    generator: Generator | None = None) -> Tensor:
    """He initialisation with normal samples: ``std = gain / sqrt(fan)``."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0, std, generator)
