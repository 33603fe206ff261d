"""Smaller mismatches found by the bad-input checks, against real PyTorch: the legacy
constructors' errors for data that is not a sequence of numbers or sizes that are not
integers, ``to``'s refusal of a keyword it does not take (on a tensor and on a module), and
the class of a backward node, which PyTorch files under ``builtins``
(``<class 'MulBackward0'>``)."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome

LEGACY = {
    "FloatTensor('a')": lambda torch: torch.FloatTensor("a"),
    "LongTensor(2.5)": lambda torch: torch.LongTensor(2.5),
    "Tensor(2.5)": lambda torch: torch.Tensor(2.5),
    "FloatTensor([1, 'a'])": lambda torch: torch.FloatTensor([1, "a"]),
    "LongTensor(['a'])": lambda torch: torch.LongTensor(["a"]),
    "LongTensor([2.5, 'x'])": lambda torch: torch.LongTensor([2.5, "x"]),
    "BoolTensor([1, 'a'])": lambda torch: torch.BoolTensor([1, "a"]),
    "BoolTensor([1, None])": lambda torch: torch.BoolTensor([1, None]),
    "FloatTensor([None])": lambda torch: torch.FloatTensor([None]),
    "FloatTensor([[1], 'a'])": lambda torch: torch.FloatTensor([[1], "a"]),
    "FloatTensor([[1], 'ab'])": lambda torch: torch.FloatTensor([[1], "ab"]),
    "FloatTensor([[1], 2])": lambda torch: torch.FloatTensor([[1], 2]),
    "FloatTensor([1, [2]])": lambda torch: torch.FloatTensor([1, [2]]),
    "FloatTensor(['a', 1])": lambda torch: torch.FloatTensor(["a", 1]),
    "FloatTensor(2.0, 3)": lambda torch: torch.FloatTensor(2.0, 3),
    "FloatTensor(True, 2)": lambda torch: torch.FloatTensor(True, 2),
    "FloatTensor(None, 2)": lambda torch: torch.FloatTensor(None, 2),
    "FloatTensor(2, 3.0)": lambda torch: torch.FloatTensor(2, 3.0),
    "Tensor('a', 2)": lambda torch: torch.Tensor("a", 2),
    "Tensor([1], 2)": lambda torch: torch.Tensor([1], 2),
    "FloatTensor([1, 2.0], 3)": lambda torch: torch.FloatTensor([1, 2.0], 3),
    "FloatTensor((1, 'a'), 3)": lambda torch: torch.FloatTensor((1, "a"), 3),
    "FloatTensor(Size([2]), 3)": lambda torch: torch.FloatTensor(torch.Size([2]), 3),
    "FloatTensor(array, 3)": lambda torch: torch.FloatTensor(np.ones(2), 3),
    "FloatTensor(tensor, 3)": lambda torch: torch.FloatTensor(torch.ones(2), 3),
    "FloatTensor(float32, 3)": lambda torch: torch.FloatTensor(torch.float32, 3),
    "FloatTensor([[1]], 3)": lambda torch: torch.FloatTensor([[1]], 3),
    "FloatTensor([], 3)": lambda torch: torch.FloatTensor([], 3),
    "FloatTensor([[], [1]])": lambda torch: torch.FloatTensor([[], [1]]),
    "LongTensor([[], 'a'])": lambda torch: torch.LongTensor([[], "a"]),
    "FloatTensor([[1], []])": lambda torch: torch.FloatTensor([[1], []]),
    "x.new(2.0, 3)": lambda torch: torch.ones(1).new(2.0, 3),
    "x.new('a')": lambda torch: torch.ones(1).new("a"),
    "FloatTensor([1.0], a=1, b=2)": lambda torch: torch.FloatTensor([1.0], a=1, b=2),
}


@pytest.mark.parametrize("call", LEGACY.values(), ids=LEGACY.keys())
def test_a_legacy_constructor_refuses_bad_data_as_pytorch_does(call):
    def scenario(torch):
        try:
            return call(torch)
        except (TypeError, ValueError, RuntimeError) as error:
            # PyTorch lists reasons under the signatures only for positional arguments
            # here; the keyword reasons are left out (the first line is compared for them).
            text = str(error)
            return type(error).__name__, text.split("\n")[0] if "=int" in text else text

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    lambda torch: torch.FloatTensor(np.float64(2)),
    lambda torch: torch.FloatTensor(np.array(2.0)),
    lambda torch: torch.LongTensor([1, np.float64(2.5)]),
    lambda torch: torch.FloatTensor([1, torch.tensor(2.0)]),
    lambda torch: torch.FloatTensor(size=(2, 3)).shape,
    lambda torch: torch.Tensor(size=[1, 2]).shape,
], ids=["numpy float", "0-d array", "numpy float in a list", "0-d tensor in a list",
        "size=(2, 3)", "Tensor(size=[1, 2])"])
def test_a_legacy_constructor_takes_numbers_of_numpy_and_tensors_and_size(call):
    def scenario(torch):
        try:
            return call(torch)
        except (TypeError, ValueError) as error:
            return type(error).__name__, str(error)

    assert_same_outcome(scenario)


TO = {
    "tensor.to(bad=1)": lambda torch: torch.ones(1).to(bad=1),
    "tensor.to(dtype, bad=1)": lambda torch: torch.ones(1).to(dtype=torch.float64, bad=1),
    "tensor.to('cpu', a=1, b=2)": lambda torch: torch.ones(1).to("cpu", a=1, b=2),
    "module.to(bad=1)": lambda torch: torch.nn.Linear(1, 1).to(bad=1),
    "module.to(a=1, b=2, c=3)": lambda torch: torch.nn.Linear(1, 1).to(a=1, b=2, c=3),
    "module.to(tensor, bad=1)": lambda torch: torch.nn.Linear(1, 1).to(torch.ones(1), bad=1),
    "module.to(dtype=float64)": lambda torch: torch.nn.Linear(1, 1).to(
        dtype=torch.float64).weight.dtype,
    "module.to(non_blocking=True)": lambda torch: torch.nn.Linear(1, 1).to(
        non_blocking=True).weight.dtype,
    "tensor.to(float64, copy=True)": lambda torch: torch.ones(1).to(torch.float64,
                                                                     copy=True).dtype,
}


@pytest.mark.parametrize("call", TO.values(), ids=TO.keys())
def test_to_refuses_a_keyword_it_does_not_take(call):
    def scenario(torch):
        try:
            return call(torch)
        except (TypeError, RuntimeError) as error:
            return type(error).__name__, str(error)

    assert_same_outcome(scenario)


def test_a_backward_node_is_a_class_of_builtins():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        nodes = [(x * 2).grad_fn, x.sum().grad_fn, x.sum().grad_fn.next_functions[0][0],
                 torch.nn.functional.linear(x, torch.ones(3, 2)).grad_fn, x[0].grad_fn]
        return [(str(type(node)), type(node).__name__, type(node).__module__,
                 type(node).__qualname__) for node in nodes]

    assert_same_outcome(scenario)


def test_a_custom_functions_node_is_a_class_of_torch_autograd_function():
    def scenario(torch):
        class Double(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        node = Double.apply(torch.ones(2, requires_grad=True)).grad_fn
        return (type(node).__name__, type(node).__module__, type(node).__qualname__,
                isinstance(node, torch.autograd.function.BackwardCFunction))

    assert_same_outcome(scenario)
