"""Trigonometric and hyperbolic functions, ``rsqrt``, ``//``, ``%`` and ``fmod``,
``isclose``/``allclose`` and ``var_mean``/``std_mean``, against real PyTorch: values,
dtypes (integers compute in float32), ``grad_fn`` graphs and what each node saves,
gradients, in-place variants, printing and errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, saved, upstream, values

ELEMENTARY = ["sin", "cos", "tan", "atan", "sinh", "cosh", "arctan", "erf", "expm1"]
UNIT_INTERVAL = ["asin", "acos", "arcsin", "arccos"]  # defined on [-1, 1]
POSITIVE = ["rsqrt", "sqrt", "log1p"]


def _domain(name):
    if name in UNIT_INTERVAL:
        return dict(low=-0.9, high=0.9)
    if name in POSITIVE:
        return dict(low=0.2, high=3.0)
    return {}


@pytest.mark.parametrize("form", ["torch", "method", "in_place"])
@pytest.mark.parametrize("name", ELEMENTARY + UNIT_INTERVAL + POSITIVE)
def test_elementary_function_values_graph_saved_tensors_and_gradient(name, form):
    def op(torch, x):
        if form == "torch":
            return getattr(torch, name)(x)
        if form == "method":
            return getattr(x, name)()
        return getattr(x * 1, name + "_")()

    def scenario(torch):
        result = run(torch, op, values((2, 3), seed=5, **_domain(name)))
        x = leaf(torch, values((3,), seed=6, **_domain(name)))
        return result, saved(op(torch, x).grad_fn), repr(op(torch, x))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ELEMENTARY + UNIT_INTERVAL + POSITIVE)
def test_elementary_function_of_integers_bools_and_outside_its_domain(name):
    def scenario(torch):
        function = getattr(torch, name)
        return (function(torch.tensor([0, 1, 2])), function(torch.tensor([True, False])),
                function(torch.tensor([-2.0, 0.0, 4.0], dtype=torch.float64)))

    assert_same_outcome(scenario)


def test_an_int_tensor_cannot_take_a_float_result_in_place():
    assert_same_outcome(lambda torch: torch.tensor([1, 2]).sin_())


def test_elementary_functions_saved_tensor_changed_in_place_is_detected():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=7))
        y = x * 1
        z = y.sin()
        y.add_(1)
        z.sum().backward()

    assert_same_outcome(scenario)


# -- //, % and fmod ------------------------------------------------------------------------------

DIVIDENDS = [np.array([7.0, -7.0, 7.5, -7.5, 0.0]), np.array([7, -7, 6, -6, 0])]
DIVISORS = [2, -2, 2.5, -3.0]


@pytest.mark.parametrize("divisor", DIVISORS, ids=str)
@pytest.mark.parametrize("dividend", DIVIDENDS, ids=["float", "int"])
@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, a, b: a // b, id="//"),
    pytest.param(lambda torch, a, b: torch.floor_divide(a, b), id="floor_divide"),
    pytest.param(lambda torch, a, b: a % b, id="%"),
    pytest.param(lambda torch, a, b: a.remainder(b), id="remainder"),
    pytest.param(lambda torch, a, b: torch.fmod(a, b), id="fmod"),
    pytest.param(lambda torch, a, b: b // a[a != 0], id="number // tensor"),
    pytest.param(lambda torch, a, b: b % a[a != 0], id="number % tensor"),
])
def test_rounding_division_by_a_number(op, dividend, divisor):
    assert_same_outcome(lambda torch: op(torch, torch.tensor(dividend), divisor))


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod"])
def test_rounding_division_between_tensors_and_by_zero(name):
    def scenario(torch):
        function = getattr(torch, name)
        a, b = torch.tensor([7.0, -7.0, 7.0, 0.0]), torch.tensor([2.0, 2.0, 0.0, 0.0])
        result = [function(a, b), function(torch.tensor([7, -7]), torch.tensor([2, 3])),
                  function(torch.tensor([7, -7]), 2.5), function(a, torch.tensor([3]))]
        for bad in (lambda: function(torch.tensor([7, -7]), 0),
                    lambda: function(torch.tensor([7]), torch.tensor([0])),
                    lambda: function(torch.tensor([True]), torch.tensor([True])),
                    lambda: function(torch.ones(2), torch.ones(3))):
            try:
                result.append(bad())
            except (RuntimeError, NotImplementedError) as error:
                result.append((type(error).__name__, str(error)))
        return result

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, a, b: a % b, id="tensor % tensor"),
    pytest.param(lambda torch, a, b: torch.fmod(a, b), id="fmod(tensor, tensor)"),
    pytest.param(lambda torch, a, b: a % 0.75, id="tensor % number"),
    pytest.param(lambda torch, a, b: a.fmod(0.75), id="fmod(tensor, number)"),
    pytest.param(lambda torch, a, b: (a * 1).remainder_(b), id="remainder_"),
    pytest.param(lambda torch, a, b: (a * 1).fmod_(b), id="fmod_"),
])
def test_remainder_gradients_and_saved_tensors(op):
    def scenario(torch):
        result = run(torch, op, values((2, 3), seed=8), values((2, 3), seed=9, low=0.3))
        a, b = leaf(torch, values((3,), seed=8)), leaf(torch, values((3,), seed=9, low=0.3))
        return result, saved(op(torch, a, b).grad_fn)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, a: a // 2, id="//"),
    pytest.param(lambda torch, a: (a * 1).floor_divide_(2), id="floor_divide_"),
    pytest.param(lambda torch, a: 2 % a, id="number % tensor"),
])
def test_backward_through_an_op_without_a_derivative_raises(op):
    def scenario(torch):
        a = leaf(torch, values((3,), seed=10))
        out = op(torch, a)
        shown = (out.requires_grad, graph(out.grad_fn), type(out.grad_fn).__name__, repr(out))
        try:
            out.sum().backward()
        except RuntimeError as error:
            return shown, str(error)

    assert_same_outcome(scenario)


def test_in_place_operators_floordiv_and_mod():
    def scenario(torch):
        a = torch.tensor([7.0, -7.0])
        b = torch.tensor([7, -7])
        a //= 2
        b %= 3
        return a, b

    assert_same_outcome(scenario)


# -- isclose and allclose ------------------------------------------------------------------------

def test_isclose_and_allclose():
    def scenario(torch):
        a = torch.tensor([1.0, 1e10, 1e-8, float("inf"), float("nan"), 2.0])
        b = torch.tensor([1.0 + 1e-6, 1.00001e10, 1e-9, float("inf"), float("nan"), 2.1])
        return (torch.isclose(a, b), a.isclose(b, equal_nan=True),
                torch.isclose(a, b, rtol=0, atol=0.2), torch.allclose(a[:3], b[:3]),
                a.allclose(b, equal_nan=True, atol=0.2), torch.allclose(a, a),
                torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3]), atol=1),
                torch.isclose(torch.tensor([True]), torch.tensor([False])),
                torch.isclose(torch.ones(2, 1), torch.ones(3)),
                type(torch.allclose(a, a)).__name__)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("bad", [
    pytest.param(lambda torch: torch.isclose(torch.ones(2), torch.ones(2), rtol=-1), id="rtol"),
    pytest.param(lambda torch: torch.isclose(torch.ones(2), torch.ones(2), atol=-1), id="atol"),
    pytest.param(lambda torch: torch.allclose(torch.ones(2), torch.ones(2).double()),
                 id="dtypes"),
    pytest.param(lambda torch: torch.isclose(torch.ones(2), torch.ones(3)), id="shapes"),
    pytest.param(lambda torch: torch.isclose(torch.ones(2), 1.0), id="number"),
])
def test_isclose_refusals(bad):
    assert_same_outcome(bad)


# -- var_mean and std_mean -----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
@pytest.mark.parametrize("kwargs", [{}, {"dim": 0}, {"dim": -1, "keepdim": True},
                                    {"unbiased": False}, {"dim": (0, 1), "correction": 0},
                                    {"correction": 2}], ids=str)
def test_moments_values_node_and_gradients_of_both_results(name, kwargs):
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=11))
        first, mean = getattr(torch, name)(x, **kwargs)
        shown = (type(getattr(torch, name)(x)).__name__, first, mean,
                 first.grad_fn is mean.grad_fn, mean.output_nr, saved(first.grad_fn), repr(mean))
        (first * upstream(torch, first)).sum().backward(retain_graph=True)
        only_first = x.grad.clone()
        (mean * 3).sum().backward()
        return shown, only_first, x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_moments_refusals_and_warning(name):
    def scenario(torch):
        function = getattr(torch, name)
        result = [function(torch.tensor([1.0]))]  # degrees of freedom <= 0: a warning
        for bad in (lambda: function(torch.tensor([1, 2])),
                    lambda: function(torch.ones(2), unbiased=True, correction=1)):
            try:
                result.append(bad())
            except RuntimeError as error:
                result.append(str(error))
            except TypeError:
                result.append("TypeError")
        return result

    assert_same_outcome(scenario)
