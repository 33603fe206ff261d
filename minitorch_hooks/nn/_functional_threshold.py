"""``F.threshold``, ``F.elu`` and ``F.softplus`` (the operations are in
``_ops/threshold.py``). Import them from ``minitorch_hooks.nn.functional``.
See <https://docs.pytorch.org/docs/2.13/nn.functional.html#non-linear-activation-functions>
"""

from __future__ import annotations

from .._ops import threshold as _threshold
from .._tensor import Tensor

__all__ = ["elu", "elu_", "softplus", "threshold", "threshold_"]


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``value`` where ``input <= threshold``, ``input`` elsewhere.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.threshold.html>
    """
    if inplace:
        return _threshold.threshold_(input, threshold, value)
    return _threshold.threshold(input, threshold, value)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return _threshold.threshold_(input, threshold, value)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.elu.html>
    """
    return _threshold.elu_(input, alpha) if inplace else _threshold.elu(input, alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return _threshold.elu_(input, alpha)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``, a smooth ``relu``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.softplus.html>
    """
    return _threshold.softplus(input, beta, threshold)
