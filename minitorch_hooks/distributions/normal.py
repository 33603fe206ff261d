"""``Normal``: the normal (Gaussian) distribution with mean ``loc`` and standard deviation
``scale``, a batch of independent ones when they are tensors (broadcast against each other).

``sample`` draws without a graph, from ``torch.normal`` (SmoothGrad and TorchCAM's
SmoothGradCAM++ add such noise to an input); ``rsample`` is the reparameterised draw,
``loc + eps * scale`` with ``eps`` standard normal, through which gradients reach ``loc``
and ``scale`` (variational autoencoders). ``log_prob``, ``cdf`` and ``entropy`` are the
closed forms, built from recorded operations as in PyTorch, so their graphs are its graphs.
Not here: ``icdf`` (it needs ``erfinv``, which this library leaves out) and PyTorch's
``ExponentialFamily`` base class, which only adds a generic entropy that ``Normal``
overrides.
See <https://docs.pytorch.org/docs/2.13/distributions.html#normal>
"""

from __future__ import annotations

import math
from numbers import Number, Real
from typing import Any

from .. import _creation
from .._ops.normal import normal
from .._size import Size
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from . import constraints
from .distribution import SCALAR, Distribution
from .utils import broadcast_all

__all__ = ["Normal"]


class Normal(Distribution):
    """``N(loc, scale**2)``; ``loc`` and ``scale`` are numbers or tensors."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        if isinstance(loc, Number) and isinstance(scale, Number):
            batch_shape = SCALAR
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Normal:
        new = self._get_checked_instance(Normal, _instance)
        batch_shape = Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        super(Normal, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def sample(self, sample_shape: Any = SCALAR) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape: Any = SCALAR) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = _creation.empty(shape, dtype=self.loc.dtype).normal_()  # ``_standard_normal``
        return self.loc + eps * self.scale

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale**2
        log_scale = math.log(self.scale) if isinstance(self.scale, Real) else self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(
            math.sqrt(2 * math.pi))

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + ((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)).erf())

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()
