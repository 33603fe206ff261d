"""``Tensor.random_`` against real PyTorch, bit for bit: the integers its CPU generator
draws for every dtype, with one bound, two bounds or none, what it does to the generator's
state, and its errors."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome

DTYPES = ["float32", "float64", "float16", "int64", "int32", "uint8", "bool"]
CALLS = {
    "random_()": lambda x: x.random_(),
    "random_(10)": lambda x: x.random_(10),
    "random_(3, 7)": lambda x: x.random_(3, 7),
    "random_(-5, 5)": lambda x: x.random_(-5, 5),
    "random_(0, 2**30)": lambda x: x.random_(0, 2**30),
    "random_(to=2)": lambda x: x.random_(to=2),
}


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_random_draws_as_pytorch(dtype, call):
    def scenario(torch):
        torch.manual_seed(7)
        x = torch.zeros(2, 9, dtype=getattr(torch, dtype))
        try:
            out = CALLS[call](x)
        except RuntimeError as error:
            return str(error)
        transposed = torch.zeros(3, 4, dtype=getattr(torch, dtype)).t()
        CALLS[call](transposed)
        return out is x, x, x._version, transposed, torch.rand(2)  # the state after it

    assert_same_outcome(scenario)


def test_random_with_a_generator_and_on_a_leaf():
    def scenario(torch):
        g = torch.Generator().manual_seed(3)
        x = torch.empty(5).random_(0, 100, generator=g)
        w = torch.zeros(3, requires_grad=True)
        try:
            w.random_(4)
        except RuntimeError as error:
            refused = str(error)
        with torch.no_grad():
            w.random_(4, generator=g)
        return x, refused, w

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.zeros(3).random_(5, 5), id="from == to"),
    pytest.param(lambda torch: torch.zeros(3, dtype=torch.uint8).random_(0, 300), id="uint8"),
    pytest.param(lambda torch: torch.zeros(3, dtype=torch.bool).random_(0, 3), id="bool"),
])
def test_random_errors(call):
    assert_same_outcome(call)
