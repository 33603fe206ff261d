"""No NumPy RuntimeWarning reaches the user: NaN and inf arithmetic and reductions of
empty tensors are silent, as in PyTorch (``minitorch_hooks/_silent_numpy.py``).

Each row computes something whose IEEE result is inf or nan, or reduces nothing, with
RuntimeWarnings (NumPy's category) turned into errors; both libraries must give the same
values and the same other warnings (PyTorch's own UserWarning about degrees of freedom).
Forward rows run as they are; ``BACKWARD`` rows also differentiate through the op.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
from harness import assert_same_outcome

INF, NAN = float("inf"), float("nan")


def _t(torch: Any, *values: float, **kwargs: Any) -> Any:
    return torch.tensor(list(values), **kwargs)


FORWARD: dict[str, Callable[[Any], Any]] = {
    "divide_by_zero": lambda torch: _t(torch, 1.0, 0.0, -1.0) / _t(torch, 0.0, 0.0, 0.0),
    "integers_divided_by_zero": lambda torch: _t(torch, 1, 0) / 0,
    "log_of_zero_and_negative": lambda torch: torch.log(_t(torch, 0.0, -1.0)),
    "sqrt_of_negative": lambda torch: torch.sqrt(_t(torch, -1.0)),
    "exp_overflow": lambda torch: torch.exp(_t(torch, 1000.0)),
    "multiply_overflow": lambda torch: _t(torch, 3e38) * _t(torch, 10.0),
    "zero_times_inf": lambda torch: _t(torch, 0.0) * _t(torch, INF),
    "inf_minus_inf": lambda torch: _t(torch, INF) - _t(torch, INF),
    "inf_plus_minus_inf": lambda torch: _t(torch, INF) + _t(torch, -INF),
    "zero_to_a_negative_power": lambda torch: _t(torch, 0.0) ** -1.0,
    "negative_to_a_fractional_power": lambda torch: _t(torch, -1.0) ** 0.5,
    "power_overflow": lambda torch: _t(torch, 10.0) ** 100,
    "reciprocal_of_zero": lambda torch: _t(torch, 0.0).reciprocal(),
    "sigmoid_of_minus_a_thousand": lambda torch: torch.sigmoid(_t(torch, -1000.0)),
    "sum_overflow": lambda torch: _t(torch, 3e38, 3e38).sum(),
    "norm_overflow": lambda torch: _t(torch, 3e38, 3e38).norm(),
    "matmul_overflow": lambda torch: _t(torch, 3e38, 3e38) @ _t(torch, 3e38, 3e38),
    "mm_of_inf_and_zero": lambda torch: torch.mm(torch.tensor([[INF]]), torch.tensor([[0.0]])),
    "softmax_of_infs": lambda torch: torch.softmax(_t(torch, INF, INF), 0),
    "log_softmax_of_minus_infs": lambda torch: torch.log_softmax(_t(torch, -INF, -INF), 0),
    "cross_entropy_of_inf": lambda torch: torch.nn.functional.cross_entropy(
        torch.tensor([[INF, 0.0]]), torch.tensor([0])),
    "mean_of_empty": lambda torch: torch.zeros(0).mean(),
    "mean_of_empty_along_a_dim": lambda torch: torch.zeros(0, 3).mean(0),
    "mse_loss_of_empty": lambda torch: torch.nn.functional.mse_loss(torch.zeros(0),
                                                                     torch.zeros(0)),
    "var_of_empty": lambda torch: torch.zeros(0).var(),
    "std_of_one_element": lambda torch: _t(torch, 1.0).std(),
    "nan_to_long": lambda torch: _t(torch, NAN, INF).long().dtype,
    "big_float_to_uint8": lambda torch: _t(torch, 1e10).to(torch.uint8).dtype,
    "copy_nan_into_integers": lambda torch: torch.zeros(1, dtype=torch.int64).copy_(
        _t(torch, NAN)).dtype,
    "divide_in_place_by_zero": lambda torch: _t(torch, 1.0).div_(0),
    "multiply_in_place_overflow": lambda torch: _t(torch, 3e38).mul_(10),
    "add_in_place_inf_minus_inf": lambda torch: _t(torch, INF).add_(-INF),
    "exp_in_place_overflow": lambda torch: _t(torch, 1000.0).exp_(),
    "printing_inf_and_nan": lambda torch: repr(_t(torch, 3e38, NAN, 1.0) * 10),
    "comparing_nans": lambda torch: (_t(torch, NAN) == _t(torch, NAN), _t(torch, NAN) < 1),
}


def _grad_of(op: Callable[[Any], Any], *values: float) -> Callable[[Any], Any]:
    def scenario(torch):
        x = torch.tensor(list(values), requires_grad=True)
        y = op(x)
        y.sum().backward()
        return y, x.grad

    return scenario


BACKWARD: dict[str, Callable[[Any], Any]] = {
    "divide_by_zero": _grad_of(lambda x: x / 0, 0.0, 1.0),
    "log_of_zero": _grad_of(lambda x: x.log(), 0.0),
    "sqrt_of_zero": _grad_of(lambda x: x.sqrt(), 0.0),
    "power_one_half_at_zero": _grad_of(lambda x: x ** 0.5, 0.0),
    "tensor_power_of_a_negative_base": _grad_of(lambda x: x ** x.detach().abs(), -1.0),
    "mean_of_empty": _grad_of(lambda x: x.mean()),
    "var_of_one_element": _grad_of(lambda x: x.var(), 1.0),
    "var_of_empty": _grad_of(lambda x: x.var()),
    "std_of_empty": _grad_of(lambda x: x.std()),
    "norm_at_zero": _grad_of(lambda x: x.norm(), 0.0, 0.0),
    "exp_overflow": _grad_of(lambda x: x.exp(), 1000.0),
    "multiply_by_inf": _grad_of(lambda x: x * INF, 0.0),
    "softmax_of_infs": _grad_of(lambda x: x.softmax(0), INF, 1.0),
}


def _warnings_as_errors(scenario: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def strict(torch):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # NumPy's category
            return scenario(torch)

    return strict


@pytest.mark.parametrize("case", list(FORWARD))
def test_no_numpy_warning_in_forward(case):
    assert_same_outcome(_warnings_as_errors(FORWARD[case]))


@pytest.mark.parametrize("case", list(BACKWARD))
def test_no_numpy_warning_in_backward(case):
    assert_same_outcome(_warnings_as_errors(BACKWARD[case]))
