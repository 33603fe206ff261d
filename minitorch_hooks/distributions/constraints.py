"""The constraints of ``torch.distributions``: which values a parameter or a sample may
take, as objects a distribution can check against and print.

A constraint's ``check(value)`` answers element by element (or event by event, for
``event_dim`` trailing dimensions taken together) with a bool tensor; a distribution
built with ``validate_args`` raises a ValueError naming the constraint when any answer is
False. A *dependent* constraint is one that depends on the distribution's own parameters
(a categorical's support is ``0 .. K-1``): it cannot be checked on its own, so checking
skips it, and ``dependent_property`` makes one that is a property on an instance.

Only the constraints that ``Categorical`` and ``Normal`` use are here: ``real``,
``real_vector``, ``simplex``, ``positive``, ``greater_than``, ``integer_interval``,
``independent``, ``dependent`` and ``dependent_property``; PyTorch's others say they are
missing.
See <https://docs.pytorch.org/docs/2.13/distributions.html#module-torch.distributions.constraints>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _missing
from .._ops import reduction
from .._tensor import Tensor

__all__ = ["Constraint", "dependent", "dependent_property", "greater_than", "independent",
           "integer_interval", "is_dependent", "positive", "real", "real_vector", "simplex"]


class Constraint:
    """What every constraint has: ``is_discrete`` (whether the values are countable),
    ``event_dim`` (how many trailing dimensions one value spans) and ``check``. Printed
    as its class name without the leading underscore: ``Simplex()``."""

    is_discrete = False
    event_dim = 0

    def check(self, value: Tensor) -> Tensor:
        """A bool tensor of ``sample_shape + batch_shape``: which values satisfy it."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.__class__.__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on other variables, so has no check of its own. Its
    ``is_discrete`` and ``event_dim`` are known only when given; calling it gives a copy
    with them set: ``dependent(is_discrete=True, event_dim=1)``."""

    def __init__(self, *, is_discrete: Any = NotImplemented, event_dim: Any = NotImplemented
                 ) -> None:
        self._is_discrete = is_discrete
        self._event_dim = event_dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete: Any = NotImplemented, event_dim: Any = NotImplemented
                 ) -> _Dependent:
        if is_discrete is NotImplemented:
            is_discrete = self._is_discrete
        if event_dim is NotImplemented:
            event_dim = self._event_dim
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, x: Tensor) -> Tensor:
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint: Any) -> bool:
    """Whether ``constraint`` is dependent, so that validation must skip it."""
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property on an instance (``Categorical(...).support`` computes the interval from
    the number of categories) and a dependent constraint on the class
    (``Categorical.support``, which ``is_dependent`` recognises)."""

    def __init__(self, fn: Callable[..., Any] | None = None, *,
                 is_discrete: Any = NotImplemented, event_dim: Any = NotImplemented) -> None:
        super().__init__(fn)
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    def __call__(self, fn: Callable[..., Any]) -> _DependentProperty:  # type: ignore[override]
        """``@dependent_property(is_discrete=True, event_dim=0)`` over a method."""
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


class _IndependentConstraint(Constraint):
    """``base_constraint`` with ``reinterpreted_batch_ndims`` more dimensions counted as
    one event: an event is valid when all its entries are."""

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int) -> None:
        if not isinstance(base_constraint, Constraint):
            raise AssertionError("base_constraint must be a Constraint, got "
                                 f"{type(base_constraint).__name__}")
        if not isinstance(reinterpreted_batch_ndims, int):
            raise AssertionError("reinterpreted_batch_ndims must be an int, got "
                                 f"{type(reinterpreted_batch_ndims).__name__}")
        if reinterpreted_batch_ndims < 0:
            raise AssertionError("reinterpreted_batch_ndims must be >= 0, got "
                                 f"{reinterpreted_batch_ndims}")
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__()

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value: Tensor) -> Tensor:
        result = self.base_constraint.check(value)
        if result.dim() < self.reinterpreted_batch_ndims:
            expected = self.base_constraint.event_dim + self.reinterpreted_batch_ndims
            raise ValueError(f"Expected value.dim() >= {expected} but got {value.dim()}")
        result = result.reshape(result.shape[:result.dim() - self.reinterpreted_batch_ndims]
                                + (-1,))
        return result.all(-1)

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__[1:]}({self.base_constraint!r}, "
                f"{self.reinterpreted_batch_ndims})")


class _IntegerInterval(Constraint):
    """Integers from ``lower_bound`` to ``upper_bound``, both included."""

    is_discrete = True

    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        super().__init__()

    def check(self, value: Tensor) -> Tensor:
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound}, "
                f"upper_bound={self.upper_bound})")


class _Real(Constraint):
    """Any number from -inf to inf: only a nan fails (it is the one value not equal to
    itself)."""

    def check(self, value: Tensor) -> Tensor:
        return value == value


class _GreaterThan(Constraint):
    """Numbers strictly above ``lower_bound``: a normal's ``scale`` is ``positive``,
    ``GreaterThan(lower_bound=0.0)``."""

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound
        super().__init__()

    def check(self, value: Tensor) -> Tensor:
        return self.lower_bound < value

    def __repr__(self) -> str:
        return f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound})"


class _Simplex(Constraint):
    """Vectors along the last dimension whose entries are ``>= 0`` and add up to 1 (to
    within 1e-6): probabilities."""

    event_dim = 1

    def check(self, value: Tensor) -> Tensor:
        return reduction.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


dependent = _Dependent()
dependent_property = _DependentProperty
greater_than = _GreaterThan
independent = _IndependentConstraint
integer_interval = _IntegerInterval
positive = _GreaterThan(0.0)
real = _Real()
real_vector = independent(real, 1)
simplex = _Simplex()

__getattr__ = _missing.module_getattr(__name__, "torch.distributions.constraints")
