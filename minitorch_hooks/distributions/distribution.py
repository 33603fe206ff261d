"""``Distribution``, the base class of ``torch.distributions``: shapes, argument
validation, and the methods every distribution may define.

A distribution's parameters may be batched: ``batch_shape`` is the shape of the batch of
independent distributions, ``event_shape`` the shape of one draw of one of them. A sample
of ``sample_shape`` has shape ``sample_shape + batch_shape + event_shape``
(``_extended_shape``).

**Validation.** Unless built with ``validate_args=False`` (or ``python -O``, or after
``Distribution.set_default_validate_args(False)``), a distribution checks each parameter
against its entry of ``arg_constraints`` when it is built, and ``log_prob`` checks its
value's shape and that it lies in the ``support``, raising a ValueError that prints the
offending values. A parameter not given (a ``lazy_property`` not yet computed) and a
dependent constraint are skipped.
See <https://docs.pytorch.org/docs/2.13/distributions.html#distribution>
"""

from __future__ import annotations

import warnings
from typing import Any

from .._size import Size
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from . import constraints
from .utils import lazy_property

__all__ = ["Distribution"]

# The default shapes: no batch, one value per event, one sample (a Size is immutable).
SCALAR = Size()


def _all_true(valid: Tensor) -> bool:
    return bool(valid.all())


class Distribution:
    """The abstract base class for probability distributions."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Whether distributions built from now on validate their arguments (on by
        default, as ``assert`` is, and off under ``python -O``)."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape: Size = SCALAR, event_shape: Size = SCALAR,
                 validate_args: bool | None = None) -> None:
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            try:
                arg_constraints = self.arg_constraints
            except NotImplementedError:
                arg_constraints = {}
                warnings.warn(
                    f"{self.__class__} does not define `arg_constraints`. Please set "
                    "`arg_constraints = {}` or initialize the distribution with "
                    "`validate_args=False` to turn off validation.", stacklevel=2)
            for param, constraint in arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue  # cannot be checked on its own
                if param not in self.__dict__ and isinstance(getattr(type(self), param),
                                                             lazy_property):
                    continue  # not given, and computing it would only check the other
                value = getattr(self, param)
                if not _all_true(constraint.check(value)):
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape "
                        f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}")
        super().__init__()

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """A new distribution with its batch dimensions expanded to ``batch_shape``, its
        parameters expanded views (not copies), without checking them again."""
        raise NotImplementedError

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    @property
    def arg_constraints(self) -> dict[str, constraints.Constraint]:
        """The constraint each tensor parameter must satisfy, by name."""
        raise NotImplementedError

    @property
    def support(self) -> constraints.Constraint | None:
        """The constraint every sample satisfies."""
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def sample(self, sample_shape: Any = SCALAR) -> Tensor:
        """A sample (or a batch of ``sample_shape`` samples), without gradients."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = SCALAR) -> Tensor:
        """A reparameterized sample, through which gradients flow to the parameters."""
        raise NotImplementedError

    def sample_n(self, n: int) -> Tensor:
        """``sample((n,))``, under its old name, with PyTorch's FutureWarning."""
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
                      FutureWarning, stacklevel=2)
        return self.sample(Size((n,)))

    def log_prob(self, value: Tensor) -> Tensor:
        """The logarithm of the probability (mass or density) of ``value``."""
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """Every value a discrete distribution can take, along dimension 0."""
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        """``exp(entropy)``: the number of equally likely outcomes with that entropy."""
        return self.entropy().exp()

    def _extended_shape(self, sample_shape: Any = SCALAR) -> Size:
        """``sample_shape + batch_shape + event_shape``: the shape of a sample."""
        if not isinstance(sample_shape, Size):
            sample_shape = Size(sample_shape)
        return Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value: Tensor) -> None:
        """``log_prob``'s check of its value: a tensor whose trailing dimensions match
        the event shape and broadcast with the batch shape, within the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError("The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        actual_shape = value.size()
        expected_shape = self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual_shape), reversed(expected_shape)):
            if i != 1 and j != 1 and i != j:
                raise ValueError("Value is not broadcastable with batch_shape+event_shape: "
                                 f"{actual_shape} vs {expected_shape}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(
                f"{self.__class__} does not define `support` to enable sample validation. "
                "Please initialize the distribution with `validate_args=False` to turn off "
                "validation.", stacklevel=2)
            return
        if support is None:
            raise AssertionError("support is unexpectedly None")
        if not _all_true(support.check(value)):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) to be within the support ({support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{value}")

    def _get_checked_instance(self, cls: type, _instance: Any = None) -> Any:
        """The instance ``expand`` fills in: a subclass with its own ``__init__`` must
        expand itself."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self) -> str:
        param_names = [k for k in self.arg_constraints if k in self.__dict__]
        args_string = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in param_names)
        return self.__class__.__name__ + "(" + args_string + ")"
