"""``F.instance_norm``: each sample's channels normalised on their own.

PyTorch computes it as a batch norm (``torch.instance_norm`` in ATen): the input viewed as
one sample of ``N * C`` channels, the weight and bias (and running statistics) repeated
``N`` times to match; the running statistics it updates are then averaged over the samples
and copied back. So its graph is a ``ViewBackward0`` over ``NativeBatchNormBackward0``,
whose inputs are a view of the input and ``RepeatBackward0`` of the weight and bias.
Import it from ``minitorch_hooks.nn.functional``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.instance_norm.html>
"""

from __future__ import annotations

import math

from .._ops.repeat import repeat
from .._tensor import Tensor

__all__ = ["instance_norm"]


def _repeated(value: Tensor | None, times: int) -> Tensor | None:
    return None if value is None else repeat(value, times)


def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each (sample, channel) of ``(N, C, ...)`` over its positions.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.instance_norm.html>
    """
    from .functional import batch_norm  # (functional imports this module)
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size "
                         f"{input.size()}")
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    b, c = input.shape[0], input.shape[1]
    weight_, bias_ = _repeated(weight, b), _repeated(bias, b)
    running_mean_, running_var_ = _repeated(running_mean, b), _repeated(running_var, b)
    reshaped = input.contiguous().view(1, b * c, *input.shape[2:])
    out = batch_norm(reshaped, running_mean_, running_var_, weight_, bias_, use_input_stats,
                     momentum, eps)
    if running_mean is not None:
        running_mean.detach().copy_(running_mean_.view(b, c).mean(0))
    if running_var is not None:
        running_var.detach().copy_(running_var_.view(b, c).mean(0))
    return out.view(input.shape)
