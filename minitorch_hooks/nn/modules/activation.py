"""Activation layers: each wraps the function of the same name in ``nn.functional``.

As modules they can sit in a ``Sequential`` and carry hooks of their own, which is how
activation statistics are usually collected.
See <https://docs.pytorch.org/docs/2.13/nn.html#non-linear-activations-weighted-sum-nonlinearity>
"""

from __future__ import annotations

from typing import Any

from ... import _dtype
from ..._creation import empty
from ..._ops import pointwise
from ..._ops._arguments import checked
from ..._tensor import Tensor
from .. import functional as F
from .. import init as nn_init
from ..parameter import Parameter
from .attention import MultiheadAttention  # noqa: F401 - PyTorch's home of it, as pickles name it
from .module import Module


class ReLU(Module):
    """``max(x, 0)``. With ``inplace=True`` it overwrites its input, saving memory; the
    input must then not be needed for any other gradient."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


# ``torch.tanh`` and ``torch.sigmoid``, which these layers call as PyTorch's do: their
# argument check gives a non-tensor input PyTorch's TypeError.
_tanh, _sigmoid = checked(pointwise.tanh), checked(pointwise.sigmoid)


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:
        return _tanh(input)


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return _sigmoid(input)


class Softmax(Module):
    """Probabilities along ``dim``. Leaving ``dim`` out is deprecated: PyTorch then guesses
    it and warns."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """Log-probabilities along ``dim``: what ``NLLLoss`` expects."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(Module):
    """Probabilities along ``dim`` that favour the smallest inputs: ``softmax(-x)``."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GELU(Module):
    """``x * P(X <= x)``, X standard normal; ``approximate='tanh'`` for the older formula.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.GELU.html>
    """

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """``x * sigmoid(x)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """``x`` where positive, ``negative_slope * x`` elsewhere."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace
                                                          else "")


class PReLU(Module):
    """``x`` where positive, ``weight * x`` elsewhere, with the slope ``weight`` learnt:
    ``num_parameters`` slopes (1, shared by every channel, or one per channel of
    dimension 1), each starting at ``init``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.PReLU.html>
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        nn_init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class Hardtanh(Module):
    """``input`` clipped to ``[min_val, max_val]``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Hardtanh.html>
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0,
                 inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val "
                                 f"({self.min_val})")

    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace_str}"


class ReLU6(Hardtanh):
    """``min(max(x, 0), 6)``: a ``Hardtanh(0, 6)``, as in PyTorch (so it is one).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.ReLU6.html>
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Hardswish(Module):
    """``x * relu6(x + 3) / 6``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Hardswish.html>
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.hardswish(input, self.inplace)


class Threshold(Module):
    """``value`` where the input is ``<= threshold``, the input elsewhere.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Threshold.html>
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace_str}"


class ELU(Module):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.ELU.html>
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``, the input itself above ``threshold``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Softplus.html>
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"
