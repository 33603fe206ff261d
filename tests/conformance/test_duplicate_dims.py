"""A reduction over a list of dims that names one dim twice (``-1`` and ``1`` of a matrix
are the same) is refused with PyTorch's RuntimeError, by every reduction that takes a
list, before NumPy would raise its own ValueError."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome

CALLS = {
    "sum": lambda x: x.sum((0, 0)),
    "mean": lambda x: x.mean((1, -1)),
    "sum keepdim": lambda x: x.sum((0, -2), keepdim=True),
    "amax": lambda x: x.amax((0, 0)),
    "amin": lambda x: x.amin((1, -1)),
    "std": lambda x: x.std((1, 1)),
    "var": lambda x: x.var((0, 0)),
    "std_mean": lambda x: x.std_mean((0, 0)),
    "var_mean": lambda x: x.var_mean((1, 1)),
    "logsumexp": lambda x: x.logsumexp((0, 0)),
    "count_nonzero": lambda x: x.count_nonzero((0, 0)),
    "norm": lambda x: x.norm(dim=(0, 0)),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_a_dim_named_twice(call):
    assert_same_outcome(lambda torch: call(torch.ones(2, 3)))
