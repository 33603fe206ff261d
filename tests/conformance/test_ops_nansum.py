"""``nansum`` against real PyTorch: a sum that counts nan as zero (TorchCAM sums its
weighted activation maps with it). Its node, ``NansumBackward0``, saves the input, and its
gradient is the sum's times 0 where the input was nan; then dtypes, empty inputs and
infinities, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import caught, graph, leaf, run, saved, second_order

NAN, INF = np.nan, np.inf
WITH_NAN = np.array([[1.0, NAN, 2.0, -1.5], [NAN, NAN, 3.0, 0.5], [4.0, 1.0, NAN, 2.0]],
                    dtype=np.float32)

CALLS = {
    "nansum()": lambda torch, x: torch.nansum(x),
    "nansum(1)": lambda torch, x: torch.nansum(x, 1),
    "nansum(dim=(0, 1), keepdim=True)": lambda torch, x: x.nansum(dim=(0, 1), keepdim=True),
    "nansum(-1, True)": lambda torch, x: torch.nansum(x, -1, True),
    "nansum(0, dtype=float64)": lambda torch, x: x.nansum(0, dtype=torch.float64),
}


@pytest.mark.parametrize("op", list(CALLS))
def test_nan_counts_as_zero_and_gets_no_gradient(op):
    def scenario(torch):
        x = leaf(torch, WITH_NAN)
        out = CALLS[op](torch, x)
        return saved(out.grad_fn), run(torch, CALLS[op], WITH_NAN)

    assert_same_outcome(scenario)


def test_an_infinite_gradient_and_the_second_order():
    def scenario(torch):
        x = leaf(torch, WITH_NAN)
        torch.nansum(x, 0).backward(torch.tensor([INF, 1.0, -INF, 2.0]))
        return x.grad, second_order(torch, lambda torch, x: torch.nansum(x * x, 1),
                                    WITH_NAN[:2])

    assert_same_outcome(scenario)


def test_dtypes_empty_inputs_and_infinities():
    def scenario(torch):
        return (torch.nansum(torch.tensor([1, 2, 3])), torch.nansum(torch.tensor([True, True])),
                torch.nansum(torch.tensor([1, 2], dtype=torch.int8)),
                torch.nansum(torch.tensor([1, 2, 3]), dtype=torch.float32),
                torch.nansum(torch.tensor([1.5, NAN]), dtype=torch.int64),
                torch.nansum(torch.tensor([1.5, 1.5, NAN]), dtype=torch.int64),
                torch.nansum(torch.zeros(0)), torch.nansum(torch.zeros(2, 0), 1),
                torch.nansum(torch.tensor([INF, NAN, -INF])),
                torch.nansum(torch.tensor([NAN, NAN])),
                graph(torch.nansum(torch.tensor(NAN, requires_grad=True)).grad_fn))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.nansum(torch.ones(2), 1), id="dim out of range"),
    pytest.param(lambda torch: torch.nansum(torch.ones(2, 2), (0, 0)), id="repeated dim"),
])
def test_errors(call):
    assert_same_outcome(lambda torch: caught(lambda: call(torch)))
