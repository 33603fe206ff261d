"""``repeat``, ``tile``, ``roll``, ``diagonal``, ``logsumexp``, ``nonzero``/``argwhere``/
``where(condition)`` and ``count_nonzero`` against real PyTorch: values, views, saved
attributes, gradients, inf, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import leaf, run, saved, values

OPS = {
    "repeat(2, 1)": lambda torch, x: x.repeat(2, 1),
    "repeat(2, 1, 3)": lambda torch, x: x.repeat(2, 1, 3),
    "repeat((1, 1))": lambda torch, x: x.repeat((1, 1)),
    "tile(2)": lambda torch, x: x.tile(2),
    "tile((2, 1, 1))": lambda torch, x: torch.tile(x, (2, 1, 1)),
    "roll(1)": lambda torch, x: x.roll(1),
    "roll(1, 0)": lambda torch, x: torch.roll(x, 1, 0),
    "roll((1, -1), (0, 1))": lambda torch, x: x.roll((1, -1), (0, 1)),
    "roll(-4, 1)": lambda torch, x: x.roll(-4, 1),
    "diagonal()": lambda torch, x: x.diagonal(),
    "diagonal(1)": lambda torch, x: torch.diagonal(x, 1),
    "diagonal(-1, 1, 0)": lambda torch, x: x.diagonal(-1, 1, 0),
    "diagonal(5)": lambda torch, x: x.diagonal(5),
    "logsumexp(1)": lambda torch, x: x.logsumexp(1),
    "logsumexp((0, 1), keepdim=True)": lambda torch, x: torch.logsumexp(x, (0, 1), keepdim=True),
    "logsumexp(-1)": lambda torch, x: x.logsumexp(-1),
}


@pytest.mark.parametrize("op", list(OPS))
def test_ops(op):
    def scenario(torch):
        result = run(torch, OPS[op], values((2, 3), seed=1))
        out = OPS[op](torch, leaf(torch, values((2, 3))))
        return result, saved(out.grad_fn), out._is_view(), out.stride(), out.is_contiguous()

    assert_same_outcome(scenario)


def test_diagonal_of_a_batch_is_a_view_that_writes_through():
    def scenario(torch):
        x = torch.arange(24.0).reshape(2, 3, 4)
        d = x.diagonal(0, 1, 2)
        d.mul_(10)
        y = leaf(torch, values((2, 3, 4)))
        run_result = run(torch, lambda torch, t: t.diagonal(1, -1, 0), values((2, 3, 4)))
        return x, d, d.shape, run_result, y.diagonal(dim1=2, dim2=0).shape

    assert_same_outcome(scenario)


def test_logsumexp_with_inf_integers_and_empty():
    def scenario(torch):
        x = leaf(torch, np.array([[1.0, -np.inf, 2.0], [-np.inf, -np.inf, -np.inf],
                                  [np.inf, 1.0, 0.0]], dtype=np.float32))
        out = x.logsumexp(1)
        (grad,) = torch.autograd.grad(out.sum(), x)
        return (out, grad, torch.arange(3).logsumexp(0), torch.tensor([]).logsumexp(0),
                torch.tensor([1e30, 1e30]).logsumexp(0))

    assert_same_outcome(scenario)


def test_nonzero_where_argwhere_count_nonzero():
    def scenario(torch):
        x = torch.tensor([[1.5, 0.0, 0.5], [0.0, 0.0, -3.7]])
        return (x.nonzero(), torch.nonzero(x, as_tuple=True), torch.where(x != 0),
                torch.argwhere(x), torch.count_nonzero(x), torch.count_nonzero(x, dim=1),
                x.count_nonzero((0, 1)), torch.tensor(0.0).nonzero().shape,
                torch.tensor(3).nonzero(as_tuple=True), torch.ones(0, 2).nonzero().shape,
                torch.where(x > 0, x, torch.zeros(1)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda x: x.repeat(2), id="repeat too few"),
    pytest.param(lambda x: x.roll(1, 2), id="roll dim"),
    pytest.param(lambda x: x.roll((1, 2), (0,)), id="roll shifts and dims"),
    pytest.param(lambda x: x.diagonal(0, 0, 0), id="diagonal same dims"),
    pytest.param(lambda x: x.diagonal(0, 0, 2), id="diagonal dim"),
    pytest.param(lambda x: x.logsumexp(2), id="logsumexp dim"),
])
def test_errors(call):
    assert_same_outcome(lambda torch: call(torch.ones(2, 3)))
