"""``torch.distributions.Categorical`` and its base class against real PyTorch: how
``probs`` and ``logits`` are normalised and derived from each other, ``log_prob`` with
broadcasting, ``entropy`` with zero probabilities, sample shapes and the draws themselves
for a seed, ``expand``, gradients through the parameters, printing, and the errors of
argument validation (``validate_args``) with their messages.

A class prints with its module (``<class '...distribution.Distribution'>``): there the
scenarios put PyTorch's package name in place of ours, the one documented difference."""

from __future__ import annotations

import importlib
import warnings

import pytest
from harness import assert_same_outcome


def _distributions(torch):
    return importlib.import_module(torch.__name__ + ".distributions")


def _message(torch, error: Exception | Warning) -> str:
    return str(error).replace(torch.__name__ + ".", "torch.")


GIVEN = {
    "probs": lambda torch: {"probs": torch.tensor([[0.2, 0.8], [1.0, 3.0], [1.0, 0.0]])},
    "logits": lambda torch: {"logits": torch.tensor([[0.5, -1.0, 2.0], [0.0, 0.0, 0.0]])},
    "probs, float64": lambda torch: {"probs": torch.tensor([0.0, 1.0, 3.0],
                                                            dtype=torch.float64)},
    "logits, one category": lambda torch: {"logits": torch.tensor([4.0])},
}


@pytest.mark.parametrize("given", GIVEN.values(), ids=GIVEN.keys())
def test_parameters_and_what_follows_from_them(given):
    def scenario(torch):
        d = _distributions(torch).Categorical(**given(torch))
        return (repr(d), d.probs, d.logits, repr(d), d.batch_shape, d.event_shape,
                d.param_shape, d.entropy(), d.perplexity(), d.mean, d.variance, d.mode,
                repr(d.support), d.enumerate_support(), d.enumerate_support(expand=False),
                d.has_enumerate_support, d.has_rsample)

    assert_same_outcome(scenario)


VALUES = {
    "one per row": lambda torch: torch.tensor([0, 1, 0]),
    "a column broadcast": lambda torch: torch.tensor([[0], [1]]),
    "a float index": lambda torch: torch.tensor([1.0, 0.0, 1.0]),
    "a scalar": lambda torch: torch.tensor(1),
    "out of the support": lambda torch: torch.tensor([5, 0, 1]),
    "not an integer": lambda torch: torch.tensor(1.5),
    "not broadcastable": lambda torch: torch.tensor([0, 1]),
    "a list": lambda torch: [0, 1, 0],
}


@pytest.mark.parametrize("validate_args", [None, False])
@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
def test_log_prob(value, validate_args):
    def scenario(torch):
        d = _distributions(torch).Categorical(
            probs=torch.tensor([[0.2, 0.8], [0.5, 0.5], [1.0, 0.0]]), validate_args=validate_args)
        try:
            return d.log_prob(value(torch))
        except (ValueError, RuntimeError, AttributeError) as error:
            return type(error).__name__, _message(torch, error)

    assert_same_outcome(scenario)


INVALID = {
    "a negative probability": lambda torch: {"probs": torch.tensor([0.2, -0.8])},
    "a nan logit": lambda torch: {"logits": torch.tensor([0.2, float("nan")])},
    "a row of zeros": lambda torch: {"probs": torch.tensor([[1.0, 2.0], [0.0, 0.0]])},
    "scalar probs": lambda torch: {"probs": torch.tensor(0.3)},
    "scalar logits": lambda torch: {"logits": torch.tensor(0.3)},
    "neither": lambda torch: {},
    "both": lambda torch: {"probs": torch.ones(2), "logits": torch.ones(2)},
}


@pytest.mark.parametrize("validate_args", [None, False])
@pytest.mark.parametrize("given", INVALID.values(), ids=INVALID.keys())
def test_invalid_parameters(given, validate_args):
    def scenario(torch):
        try:
            d = _distributions(torch).Categorical(**given(torch), validate_args=validate_args)
        except ValueError as error:
            return "ValueError", _message(torch, error)
        return repr(d), d.probs

    assert_same_outcome(scenario)


@pytest.mark.parametrize("sample_shape", [(), (5,), (2, 3), [4], (0,)])
def test_samples_for_a_seed(sample_shape):
    def scenario(torch):
        torch.manual_seed(0)
        d = _distributions(torch).Categorical(
            probs=torch.tensor([[0.2, 0.8, 0.0], [0.3, 0.3, 0.4]]))
        try:
            sample = d.sample(sample_shape)
        except RuntimeError as error:
            return str(error)
        single = _distributions(torch).Categorical(logits=torch.tensor([0.5, -1.0, 2.0]))
        return (sample, sample.dtype, single.sample(), single.sample(torch.Size([6])),
                torch.randint(0, 2**31, (3,)).tolist())

    assert_same_outcome(scenario)


def test_expand():
    def scenario(torch):
        torch.manual_seed(1)
        d = _distributions(torch).Categorical(logits=torch.tensor([0.5, -1.0, 2.0]))
        e = d.expand((4, 2))
        results = [repr(e), e.batch_shape, e.logits.shape, e.sample(), e.log_prob(
            torch.tensor([0, 2])), e.entropy().shape, e._validate_args]
        try:
            _distributions(torch).Categorical(probs=torch.ones(3, 2)).expand((2,))
        except RuntimeError as error:
            results.append(str(error))
        return results

    assert_same_outcome(scenario)


def test_gradients_through_the_parameters():
    """``log_prob`` and ``entropy`` are differentiable in the logits and in the probs the
    distribution normalised; a lazily derived parameter is made with grad enabled, even
    under ``no_grad``."""
    def scenario(torch):
        categorical = _distributions(torch).Categorical
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        categorical(logits=x).log_prob(torch.tensor(2)).backward()
        grads = [x.grad.clone()]
        x.grad = None
        categorical(logits=x).entropy().backward()
        grads.append(x.grad.clone())
        y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        categorical(probs=y).log_prob(torch.tensor([0, 2])).sum().backward()
        grads.append(y.grad)
        with torch.no_grad():
            lazy = categorical(probs=y)
            made_under_no_grad = [lazy.probs.requires_grad, lazy.logits.requires_grad]
        return grads, made_under_no_grad

    assert_same_outcome(scenario)


def test_the_base_class():
    def scenario(torch):
        distribution = _distributions(torch).Distribution
        results = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for call in (lambda: distribution().mode, lambda: distribution().mean,
                         lambda: distribution(validate_args=False).sample(),
                         lambda: distribution().entropy(),
                         lambda: distribution.set_default_validate_args(3)):
                try:
                    call()
                except (NotImplementedError, ValueError) as error:
                    results.append((type(error).__name__, _message(torch, error)))
            results.append([distribution(torch.Size([2])).batch_shape,
                            distribution(event_shape=torch.Size([3])).event_shape,
                            distribution(validate_args=False)._extended_shape((4,)),
                            distribution(validate_args=False)._validate_args])
        # validating a distribution without ``arg_constraints`` warns, naming its class
        results.append([(w.category.__name__, _message(torch, w.message)) for w in caught])
        return results

    assert_same_outcome(scenario)


def test_sample_n_warns():
    def scenario(torch):
        torch.manual_seed(0)
        d = _distributions(torch).Categorical(probs=torch.tensor([0.5, 0.5]))
        return d.sample_n(3)

    assert_same_outcome(scenario)


def test_constraints():
    def scenario(torch):
        constraints = _distributions(torch).constraints
        value = torch.tensor([[0.2, 0.8], [0.5, 0.6], [-0.1, 1.1]])
        results = [repr(c) for c in (constraints.simplex, constraints.real_vector,
                                     constraints.real, constraints.integer_interval(0, 3),
                                     constraints.dependent)]
        results += [constraints.simplex.check(value), constraints.real_vector.check(
            torch.tensor([[1.0, float("nan")], [1.0, 2.0]])),
            constraints.integer_interval(0, 3).check(torch.tensor([0.0, 1.5, 3.0, 4.0])),
            constraints.is_dependent(constraints.dependent),
            constraints.is_dependent(constraints.real),
            constraints.simplex.event_dim, constraints.real_vector.event_dim,
            constraints.integer_interval(0, 1).is_discrete]
        categorical = _distributions(torch).Categorical
        results += [constraints.is_dependent(categorical.support),
                    categorical.support.is_discrete, categorical.support.event_dim]
        for check in (lambda: constraints.dependent.check(value),
                      lambda: constraints.dependent.event_dim,
                      lambda: constraints.independent(constraints.real, 2).check(
                          torch.tensor(1.0))):
            try:
                check()
            except (ValueError, NotImplementedError) as error:
                results.append((type(error).__name__, str(error)))
        return results

    assert_same_outcome(scenario)
