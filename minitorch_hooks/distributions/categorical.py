"""``Categorical``: one of ``K`` categories, drawn with given weights (what a classifier's
softmax describes, and what ``torch.multinomial`` samples from).

It is built from either ``probs`` or ``logits``, never both, and normalises what it was
given: ``probs`` divided by their sum along the last dimension, ``logits`` minus their
``logsumexp`` (so that ``logits.exp()`` are the probabilities). The other is computed
when first read (``lazy_property``). Leading dimensions make a batch of independent
categoricals.

``log_prob(k)`` picks the logit of category ``k`` (broadcasting ``k`` against the batch);
``entropy`` sums ``-p * log p``, with ``log p`` clamped to the dtype's lowest number so
that a zero probability adds 0 rather than nan; ``sample`` asks ``multinomial`` for
``sample_shape.numel()`` draws per row, with replacement. Its mean and variance are nan:
categories are labels, not numbers.
See <https://docs.pytorch.org/docs/2.13/distributions.html#categorical>
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _creation, _dtype
from .._ops.pointwise import broadcast_shapes
from .._ops.sampling import multinomial
from .._size import Size
from .._tensor import Tensor
from . import constraints
from .distribution import SCALAR, Distribution
from .utils import lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Categorical"]


class Categorical(Distribution):
    """A categorical distribution over ``0 .. K-1``, ``K = probs.size(-1)``."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.ndimension() > 1 else SCALAR
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Categorical:
        new = self._get_checked_instance(Categorical, _instance)
        batch_shape = Size(batch_shape)
        param_shape = batch_shape + Size((self._num_events,))
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(param_shape)
            new._param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(param_shape)
            new._param = new.logits
        new._num_events = self._num_events
        super(Categorical, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args: Any, **kwargs: Any) -> Tensor:
        return self._param.new(*args, **kwargs)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self) -> constraints.Constraint:
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits)

    @property
    def param_shape(self) -> Size:
        return self._param.size()

    @property
    def mean(self) -> Tensor:
        return _creation.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(dim=-1)

    @property
    def variance(self) -> Tensor:
        return _creation.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    def sample(self, sample_shape: Any = SCALAR) -> Tensor:
        if not isinstance(sample_shape, Size):
            sample_shape = Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        # ``torch.broadcast_tensors(value, self.logits)``: both expanded to one shape
        shape = broadcast_shapes(tuple(value.shape), tuple(self.logits.shape))
        value, log_pmf = value.expand(shape), self.logits.expand(shape)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self) -> Tensor:
        min_real = float(np.finfo(self.logits._data.dtype).min)
        logits = self.logits.clamp(min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        values = _creation.arange(self._num_events, dtype=_dtype.long)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + self._batch_shape)
        return values
