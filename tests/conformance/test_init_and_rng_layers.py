"""Seeded layers and initialisers give PyTorch's numbers exactly: the same bits, not merely
close values. Each scenario seeds the global generator, builds or fills tensors, and then
draws ``torch.rand(3)`` once more, which proves that the same number of random draws was
consumed. Also: ``calculate_gain``, fan computations and the guards of the random fills."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from harness import assert_same_outcome, bits, pytorch_answer

import minitorch_hooks

SEEDS = [0, 1, 42]


def tensor_bits(tensors: list) -> list:
    """Each tensor's dtype name and :func:`harness.bits` (a zero's sign left out, as
    ``assert_array_equal`` leaves it out)."""
    def unsigned_zeros(array: np.ndarray) -> np.ndarray:
        return array + 0.0 if array.dtype.kind == "f" else array
    return [[str(t.dtype), bits(unsigned_zeros(t.detach().numpy()))] for t in tensors]


def assert_same_bits(scenario: Any) -> None:
    """Run ``scenario`` on both libraries; every tensor it returns must be bit-identical."""
    theirs = pytorch_answer(lambda torch: tensor_bits(scenario(torch)))
    mine = tensor_bits(scenario(minitorch_hooks))
    assert len(mine) == len(theirs)
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"tensor {i}: ours {m}, torch's {t}"


def params_then_next_draw(torch: Any, model: Any) -> list:
    return [p.detach() for p in model.parameters()] + [torch.rand(3)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", [(10, 5), (784, 128), (1, 1), (17, 3)], ids=str)
def test_linear_initialisation_is_bit_exact(shape, seed):
    def scenario(torch):
        torch.manual_seed(seed)
        return params_then_next_draw(torch, torch.nn.Linear(*shape))

    assert_same_bits(scenario)


@pytest.mark.parametrize("seed", SEEDS)
def test_linear_without_bias_and_in_float64(seed):
    def scenario(torch):
        torch.manual_seed(seed)
        plain = torch.nn.Linear(6, 4, bias=False)
        double = torch.nn.Linear(6, 4, dtype=torch.float64)
        return params_then_next_draw(torch, torch.nn.Sequential(plain, double))

    assert_same_bits(scenario)


@pytest.mark.parametrize("seed", SEEDS)
def test_sequential_of_linears_draws_in_construction_order(seed):
    def scenario(torch):
        nn = torch.nn
        torch.manual_seed(seed)
        model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 64), nn.Dropout(),
                              nn.Linear(64, 10))
        return params_then_next_draw(torch, model)

    assert_same_bits(scenario)


def test_reset_parameters_draws_again():
    def scenario(torch):
        torch.manual_seed(7)
        layer = torch.nn.Linear(5, 3)
        first = [p.detach().clone() for p in layer.parameters()]
        layer.reset_parameters()
        return first + params_then_next_draw(torch, layer)

    assert_same_bits(scenario)


INITS = {
    "uniform_": lambda init, w: init.uniform_(w),
    "uniform_(-0.3, 0.7)": lambda init, w: init.uniform_(w, -0.3, 0.7),
    "normal_": lambda init, w: init.normal_(w),
    "normal_(0.5, 2.0)": lambda init, w: init.normal_(w, 0.5, 2.0),
    "constant_": lambda init, w: init.constant_(w, 0.25),
    "ones_": lambda init, w: init.ones_(w),
    "zeros_": lambda init, w: init.zeros_(w),
    "kaiming_uniform_": lambda init, w: init.kaiming_uniform_(w),
    "kaiming_uniform_(sqrt5)": lambda init, w: init.kaiming_uniform_(w, a=math.sqrt(5)),
    "kaiming_uniform_(fan_out, relu)": lambda init, w: init.kaiming_uniform_(
        w, mode="fan_out", nonlinearity="relu"),
    "kaiming_normal_": lambda init, w: init.kaiming_normal_(w),
    "kaiming_normal_(fan_out)": lambda init, w: init.kaiming_normal_(w, mode="fan_out"),
    "xavier_uniform_": lambda init, w: init.xavier_uniform_(w),
    "xavier_uniform_(tanh)": lambda init, w: init.xavier_uniform_(
        w, gain=init.calculate_gain("tanh")),
    "xavier_normal_": lambda init, w: init.xavier_normal_(w),
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", [(3, 5), (16, 8), (8, 3, 3, 3)], ids=str)
@pytest.mark.parametrize("fill", INITS.values(), ids=INITS.keys())
def test_every_init_function_is_bit_exact(fill, shape, seed):
    def scenario(torch):
        torch.manual_seed(seed)
        weight = torch.nn.Parameter(torch.empty(shape))
        returned = fill(torch.nn.init, weight)
        assert returned is weight and weight.requires_grad and weight.grad_fn is None
        return [weight.detach(), torch.rand(3)]

    assert_same_bits(scenario)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_init_with_an_explicit_generator_leaves_the_global_one_alone(dtype):
    def scenario(torch):
        torch.manual_seed(0)
        generator = torch.Generator().manual_seed(123)
        weight = torch.empty(4, 6, dtype=getattr(torch, dtype))
        torch.nn.init.kaiming_uniform_(weight, generator=generator)
        other = torch.nn.init.normal_(torch.empty(20, dtype=getattr(torch, dtype)),
                                      generator=generator)
        return [weight, other, torch.rand(3)]

    assert_same_bits(scenario)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", [(8,), (3, 10)], ids=str)
def test_dropout_draws_are_bit_exact(shape, seed):
    def scenario(torch):
        torch.manual_seed(seed)
        x = torch.ones(shape) if len(shape) == 1 else torch.arange(30.0).reshape(shape) / 7
        return [torch.nn.Dropout(0.5)(x), torch.nn.functional.dropout(x, 0.2), torch.rand(3)]

    assert_same_bits(scenario)


def test_dropout_of_a_transposed_input_fills_memory_in_storage_order():
    def scenario(torch):
        torch.manual_seed(0)
        x = (torch.arange(12.0).reshape(3, 4) + 1).t()
        return [torch.nn.functional.dropout(x, 0.5), torch.rand(3)]

    assert_same_bits(scenario)


def test_dropout_of_seed_zero_is_the_documented_mask():
    torch = minitorch_hooks
    torch.manual_seed(0)
    assert torch.nn.Dropout(0.5)(torch.ones(8)).tolist() == [0, 0, 2, 0, 0, 0, 2, 2]


@pytest.mark.parametrize("seed", SEEDS)
def test_tensor_random_fill_methods_are_bit_exact(seed):
    def scenario(torch):
        torch.manual_seed(seed)
        a = torch.empty(3, 7).uniform_(-2, 5)
        b = torch.empty(40).normal_(1.5, 0.5)
        c = torch.empty(5, dtype=torch.float64).normal_()
        d = torch.empty(2, 9).bernoulli_(0.3)
        e = torch.empty(6).bernoulli_()
        return [a, b, c, d, e, torch.rand(3)]

    assert_same_bits(scenario)


# -- gains, fans and guards ---------------------------------------------------------------

@pytest.mark.parametrize("args", [("linear",), ("conv2d",), ("sigmoid",), ("tanh",), ("relu",),
                                  ("leaky_relu",), ("leaky_relu", 0.2), ("leaky_relu", 3),
                                  ("selu",), ("leaky_relu", "x"), ("leaky_relu", True),
                                  ("gelu",)], ids=str)
def test_calculate_gain(args):
    assert_same_outcome(lambda torch: torch.nn.init.calculate_gain(*args))


@pytest.mark.parametrize("shape", [(5,), (3, 4), (8, 3, 3, 3), (2, 4, 5)], ids=str)
def test_fan_in_and_fan_out(shape):
    assert_same_outcome(
        lambda torch: torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape)))


@pytest.mark.parametrize("case", ["mode", "vector", "zero_elements"])
def test_kaiming_errors_and_warnings(case):
    def scenario(torch):
        init = torch.nn.init
        if case == "mode":
            return init.kaiming_uniform_(torch.empty(2, 2), mode="fan_avg")
        if case == "vector":
            return init.kaiming_normal_(torch.empty(3))
        return init.kaiming_uniform_(torch.empty(0, 3)).shape

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["leaf_requiring_grad", "from_above_to", "bad_p",
                                  "negative_std", "integer_uniform"])
def test_random_fill_guards(case):
    def scenario(torch):
        if case == "leaf_requiring_grad":
            return torch.ones(3, requires_grad=True).uniform_()
        if case == "from_above_to":
            return torch.empty(3).uniform_(2, 1)
        if case == "bad_p":
            return torch.empty(3).bernoulli_(1.5)
        if case == "negative_std":
            return torch.empty(3).normal_(0, -1)
        return torch.zeros(3, dtype=torch.int64).uniform_()

    assert_same_outcome(scenario)


def test_random_fill_bumps_the_version_of_a_saved_tensor():
    def scenario(torch):
        x = torch.ones(3, requires_grad=True)
        y = x.exp()
        with torch.no_grad():
            y.normal_()
        y.sum().backward()

    assert_same_outcome(scenario)
