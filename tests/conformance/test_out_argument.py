"""``torch.mul(..., out=...)`` against real PyTorch (TorchCAM writes its masked inputs into
slices of one buffer so): the result written into ``out``'s memory (a view writes into its
base), ``out`` returned, versions, resizing with its warning, dtype casts, and the refusals:
arguments that require grad under grad mode, a float result into an integer ``out``, an
expanded ``out``, ``out=`` on the method."""

from __future__ import annotations

import warnings

import pytest
from harness import assert_same_outcome
from ops_support import caught


def test_the_result_goes_into_a_slice_of_a_buffer():
    def scenario(torch):
        a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 2.0, -1.0])
        buffer = torch.zeros(5)
        chunk = buffer[:3]
        result = torch.mul(a, b, out=chunk)
        into_self = torch.mul(a, 2, out=a)
        return (result is chunk, buffer, chunk._version, buffer._version, into_self is a, a,
                torch.mul(torch.tensor([1, 2]), torch.tensor([3, 4]), out=torch.zeros(2)))

    assert_same_outcome(scenario)


def test_an_out_of_another_shape_is_resized():
    def scenario(torch):
        a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 2.0, 2.0])
        empty, small = torch.empty(0), torch.zeros(2)
        with warnings.catch_warnings(record=True) as caught_warnings:
            warnings.simplefilter("always")
            torch.mul(a, b, out=empty)
            torch.mul(a, b, out=small)
        return empty, small, [(w.category.__name__, str(w.message)) for w in caught_warnings]

    assert_same_outcome(scenario)


def test_under_no_grad_a_leaf_that_requires_grad_may_be_written():
    def scenario(torch):
        x = torch.zeros(3, requires_grad=True)
        with torch.no_grad():
            torch.mul(torch.ones(3), 4.0, out=x)
        return x, x.grad_fn, x.requires_grad, x._version

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.mul(torch.ones(3, requires_grad=True), 2.0,
                                         out=torch.zeros(3)), id="an input requires grad"),
    pytest.param(lambda torch: torch.mul(torch.ones(3), 2.0,
                                         out=torch.zeros(3, requires_grad=True)),
                 id="out requires grad"),
    pytest.param(lambda torch: torch.mul(torch.ones(3), 2.5,
                                         out=torch.zeros(3, dtype=torch.int64)),
                 id="float into int64"),
    pytest.param(lambda torch: torch.mul(torch.tensor([1, 2]), 3,
                                         out=torch.zeros(2, dtype=torch.bool)),
                 id="int into bool"),
    pytest.param(lambda torch: torch.mul(torch.ones(3), 2.0, out=torch.zeros(1).expand(3)),
                 id="an expanded out"),
    pytest.param(lambda torch: torch.ones(3).mul(2.0, out=torch.zeros(3)), id="the method"),
    pytest.param(lambda torch: torch.mul(torch.ones(3), 2.0, out=[0.0]), id="not a tensor"),
])
def test_refusals(call):
    assert_same_outcome(lambda torch: caught(lambda: call(torch)))
