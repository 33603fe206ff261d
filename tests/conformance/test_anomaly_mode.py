"""Anomaly mode against real PyTorch: turning it on and off (``detect_anomaly``, which
warns, and ``set_detect_anomaly`` as a call or a block), the NaN check after each node
(also after a post-hook that makes the NaN, and not with ``check_nan=False``), the forward
stack each node keeps, and the warning that names the node whose backward failed.
"""

from __future__ import annotations

import warnings

import pytest
from harness import assert_same_outcome


def test_turning_it_on_and_off():
    def scenario(torch):
        states = [(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())]
        with torch.autograd.detect_anomaly(check_nan=False):
            states.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
            with torch.autograd.set_detect_anomaly(False):
                states.append(torch.is_anomaly_enabled())
            states.append(torch.is_anomaly_enabled())
        torch.autograd.set_detect_anomaly(True)
        states.append(torch.is_anomaly_enabled())
        torch.autograd.set_detect_anomaly(False)
        states.append(torch.is_anomaly_enabled())
        return states

    assert_same_outcome(scenario)


def _sqrt_at_zero(torch):
    x = torch.tensor([0.0, 4.0], requires_grad=True)
    (x.sqrt() * 0).sum().backward()
    return x.grad


def _post_hook_makes_nan(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * float("nan"),
                                                               None))
    y.sum().backward()
    return x.grad


def _failing_function(torch):
    class Fails(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("backward failed")

    Fails.apply(torch.ones(2, requires_grad=True)).sum().backward()


CASES = {"sqrt at zero": _sqrt_at_zero, "a post-hook's NaN": _post_hook_makes_nan,
         "a failing Function": _failing_function}


@pytest.mark.parametrize("check_nan", [True, False])
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_nan_or_an_error_in_backward(case, check_nan):
    """The error, and the first line of each warning (the forward stack that follows has
    each library's own frames)."""
    def scenario(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with torch.autograd.set_detect_anomaly(True, check_nan=check_nan):
                try:
                    result = case(torch)
                except Exception as error:  # noqa: BLE001 - the error is compared
                    result = (type(error).__name__, str(error))
        return result, [str(w.message).split("\n")[0] for w in caught]

    assert_same_outcome(scenario)


def test_a_node_keeps_the_stack_of_the_line_that_made_it():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        with torch.autograd.set_detect_anomaly(True):
            inside = (x * 2).grad_fn
        outside = (x * 2).grad_fn
        stack = inside.metadata["traceback_"]
        return (type(stack).__name__, stack[-1].strip().splitlines()[-1],
                "traceback_" in outside.metadata)

    assert_same_outcome(scenario)
