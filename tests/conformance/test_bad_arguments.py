"""Values of the wrong kind, on minitorch_hooks and on real PyTorch: the same error.

A learner passes a dict, a list, None, a string or a number where a tensor belongs, to a
layer, a functional op, a top-level function or a Tensor method; makes a tensor of an
object array, of ragged lists, of strings or of None; allocates far more memory than
there is, or a negative size; gives ``backward`` a gradient that is not a tensor. PyTorch
refuses each with a TypeError, ValueError or RuntimeError whose message says what went
wrong (``linear(): argument 'input' (position 1) must be Tensor, not dict``): the table
compares type and message (``minitorch_hooks/_ops/_arguments.py``, ``_allocation.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from harness import assert_same_outcome

BAD_VALUES: dict[str, Callable[[], Any]] = {
    "dict": dict, "list": lambda: [1.0, 2.0], "None": lambda: None, "str": lambda: "a",
    "int": lambda: 3, "array": lambda: np.ones(2, dtype=np.float32),
}


def _x(torch: Any) -> Any:
    return torch.ones(2, 3)


def _top_level(name: str) -> Callable[[Any, Any], Any]:
    return lambda torch, bad: getattr(torch, name)(bad)


def _method(name: str) -> Callable[[Any, Any], Any]:
    return lambda torch, bad: getattr(_x(torch), name)(bad)


# Each call puts the bad value in one argument of one function.
CALLS: dict[str, Callable[[Any, Any], Any]] = {
    # layers and nn.functional
    "Linear": lambda torch, bad: torch.nn.Linear(3, 4)(bad),
    "Sequential": lambda torch, bad: torch.nn.Sequential(torch.nn.Linear(3, 2))(bad),
    "ReLU": lambda torch, bad: torch.nn.ReLU()(bad),
    "Tanh": lambda torch, bad: torch.nn.Tanh()(bad),
    "Sigmoid": lambda torch, bad: torch.nn.Sigmoid()(bad),
    "Softmax": lambda torch, bad: torch.nn.Softmax(0)(bad),
    "Flatten": lambda torch, bad: torch.nn.Flatten()(bad),
    "Dropout": lambda torch, bad: torch.nn.Dropout()(bad),
    "MSELoss_input": lambda torch, bad: torch.nn.MSELoss()(bad, _x(torch)),
    "L1Loss_target": lambda torch, bad: torch.nn.L1Loss()(_x(torch), bad),
    "CrossEntropyLoss_input": lambda torch, bad: torch.nn.CrossEntropyLoss()(
        bad, torch.tensor([0, 1])),
    "F.linear_weight": lambda torch, bad: torch.nn.functional.linear(_x(torch), bad),
    "F.linear_bias": lambda torch, bad: torch.nn.functional.linear(
        _x(torch), torch.ones(4, 3), bad if bad is not None else {}),
    "F.relu": lambda torch, bad: torch.nn.functional.relu(bad),
    "F.softmax": lambda torch, bad: torch.nn.functional.softmax(bad, 0),
    "F.log_softmax": lambda torch, bad: torch.nn.functional.log_softmax(bad, 0),
    "F.dropout": lambda torch, bad: torch.nn.functional.dropout(bad),
    "F.mse_loss_target": lambda torch, bad: torch.nn.functional.mse_loss(_x(torch), bad),
    "F.cross_entropy_target": lambda torch, bad: torch.nn.functional.cross_entropy(
        _x(torch), bad),
    "F.nll_loss_input": lambda torch, bad: torch.nn.functional.nll_loss(
        bad, torch.tensor([0, 1])),
    # top-level functions
    **{f"torch.{name}": _top_level(name)
       for name in ("abs", "exp", "log", "sqrt", "neg", "relu", "tanh", "sigmoid", "sign",
                    "isnan", "clone", "flatten", "t", "sum", "mean", "max", "argmax",
                    "unbind", "numel", "zeros_like", "ones_like", "rand_like", "sin", "cos",
                    "tan", "asin", "acos", "atan", "sinh", "cosh", "rsqrt")},
    "torch.allclose_other": lambda torch, bad: torch.allclose(_x(torch), bad),
    "torch.isclose_input": lambda torch, bad: torch.isclose(bad, _x(torch)),
    "torch.softmax": lambda torch, bad: torch.softmax(bad, 0),
    "torch.reshape": lambda torch, bad: torch.reshape(bad, (-1,)),
    "torch.transpose": lambda torch, bad: torch.transpose(bad, 0, 1),
    "torch.unsqueeze": lambda torch, bad: torch.unsqueeze(bad, 0),
    "torch.chunk": lambda torch, bad: torch.chunk(bad, 2),
    "torch.full_like": lambda torch, bad: torch.full_like(bad, 1.0),
    "torch.add_input": lambda torch, bad: torch.add(bad, _x(torch)),
    "torch.mul_other": lambda torch, bad: torch.mul(_x(torch), bad),
    "torch.div_other_keyword": lambda torch, bad: torch.div(_x(torch), other=bad),
    "torch.maximum_other": lambda torch, bad: torch.maximum(_x(torch), bad),
    "torch.matmul_input": lambda torch, bad: torch.matmul(bad, _x(torch)),
    "torch.matmul_other": lambda torch, bad: torch.matmul(_x(torch), bad),
    "torch.mm_mat2": lambda torch, bad: torch.mm(_x(torch), bad),
    "torch.addmm_mat1": lambda torch, bad: torch.addmm(_x(torch), bad, _x(torch).T),
    "torch.equal_input": lambda torch, bad: torch.equal(bad, _x(torch)),
    "torch.cat": lambda torch, bad: torch.cat(bad),
    "torch.cat_element": lambda torch, bad: torch.cat([_x(torch), bad]),
    "torch.stack": lambda torch, bad: torch.stack(bad),
    "torch.stack_element": lambda torch, bad: torch.stack((_x(torch), bad)),
    # Tensor methods: their positions count after self
    **{f"x.{name}": _method(name)
       for name in ("add", "mul", "matmul", "mm", "maximum", "equal", "expand_as", "view_as",
                    "type_as", "copy_", "add_", "mul_")},
    "x+": lambda torch, bad: _x(torch) + bad,
    "x@": lambda torch, bad: _x(torch) @ bad,
}


# ``tensor + array`` is a deviation by design (``_ops/__init__.py: _operator``): PyTorch
# lets NumPy compute it, outside the graph; minitorch_hooks refuses it.
_BY_DESIGN = {("x+", "array")}


@pytest.mark.parametrize(("call", "value"), [(call, value) for call in CALLS
                                             for value in BAD_VALUES
                                             if (call, value) not in _BY_DESIGN])
def test_a_value_that_is_not_a_tensor(call, value):
    assert_same_outcome(lambda torch: CALLS[call](torch, BAD_VALUES[value]()))


def test_a_class_of_the_learners_own_is_named_as_python_names_it():
    class Batch:
        pass

    assert_same_outcome(lambda torch: torch.nn.Linear(3, 4)(Batch()))


# -- making a tensor of data no tensor can hold ----------------------------------------------

NOT_TENSOR_DATA: dict[str, Callable[[Any], Any]] = {
    "object_array": lambda torch: torch.tensor(np.array([1, "a"], dtype=object)),
    "object_array_of_numbers": lambda torch: torch.tensor(np.array([1.0, 2.0], dtype=object)),
    "ragged_object_array": lambda torch: torch.tensor(
        np.array([np.zeros(2), np.zeros(3)], dtype=object)),
    "from_numpy_of_objects": lambda torch: torch.from_numpy(np.array([1.0], dtype=object)),
    "from_numpy_of_strings": lambda torch: torch.from_numpy(np.array(["a"])),
    "as_tensor_of_objects": lambda torch: torch.as_tensor(np.array([1.0], dtype=object)),
    "from_numpy_of_a_list": lambda torch: torch.from_numpy([1.0]),
    "ragged_lists": lambda torch: torch.tensor([[1.0, 2.0], [3.0]]),
    "a_number_where_a_list_belongs": lambda torch: torch.tensor([[1.0], 2.0]),
    "a_list_where_a_float_belongs": lambda torch: torch.tensor([1.0, [2.0]]),
    "a_list_where_an_int_belongs": lambda torch: torch.tensor([1, [2]]),
    "deeper_list_where_a_float_belongs": lambda torch: torch.tensor([[1.0], [[2.0]]]),
    "a_string": lambda torch: torch.tensor("abc"),
    "strings": lambda torch: torch.tensor(["a", "b"]),
    "a_number_then_a_string": lambda torch: torch.tensor([1.0, "a"]),
    "None": lambda torch: torch.tensor(None),
    "a_number_then_None": lambda torch: torch.tensor([1.0, None]),
    "a_dict_in_a_list": lambda torch: torch.tensor([{}]),
    "a_dict": lambda torch: torch.tensor({}),
    "tensors_of_two_elements": lambda torch: torch.tensor([torch.ones(2), torch.ones(2)]),
    "tensors_of_one_element": lambda torch: torch.tensor([torch.ones(1), torch.ones(1, 1)]),
}


@pytest.mark.parametrize("case", list(NOT_TENSOR_DATA))
def test_data_no_tensor_can_hold(case):
    assert_same_outcome(NOT_TENSOR_DATA[case])


NAN = float("nan")

# Numbers that do not fit the integer dtype asked for: an error, not NumPy's silent garbage.
DO_NOT_FIT: dict[str, Callable[[Any], Any]] = {
    "nan_as_int64": lambda torch: torch.tensor([NAN], dtype=torch.int64),
    "inf_as_int32": lambda torch: torch.tensor(float("inf"), dtype=torch.int32),
    "a_big_int_as_int32": lambda torch: torch.tensor([1, 2**40], dtype=torch.int32),
    "a_negative_float_as_uint8": lambda torch: torch.tensor([[2.7, -3.5]], dtype=torch.uint8),
    "just_above_uint8": lambda torch: torch.tensor([255.9], dtype=torch.uint8),
    "minus_one_wraps_into_uint8": lambda torch: torch.tensor([-1], dtype=torch.uint8),
    "beyond_64_bits": lambda torch: torch.tensor([1, 2**64]),
    "just_beyond_int64": lambda torch: torch.tensor([2**63]),
    "full_of_nan_as_int64": lambda torch: torch.full((2,), NAN, dtype=torch.int64),
    "full_of_nan_as_int32": lambda torch: torch.full((2,), NAN, dtype=torch.int32),
    "full_of_a_big_int_as_uint8": lambda torch: torch.full((1,), 2**40, dtype=torch.uint8),
    "new_full_of_nan_as_int64": lambda torch: torch.zeros(1, dtype=torch.int64).new_full(
        (2,), NAN),
}


@pytest.mark.parametrize("case", list(DO_NOT_FIT))
def test_numbers_that_do_not_fit_the_dtype(case):
    assert_same_outcome(DO_NOT_FIT[case])


# -- allocations far beyond the machine, and negative sizes ----------------------------------

HUGE = 10**13

ALLOCATIONS: dict[str, Callable[[Any], Any]] = {
    "zeros": lambda torch: torch.zeros(HUGE),
    "zeros_2d": lambda torch: torch.zeros(10**7, 10**7),
    "empty": lambda torch: torch.empty(HUGE),
    "ones": lambda torch: torch.ones(HUGE),
    "full": lambda torch: torch.full((HUGE,), 1.0),
    "rand": lambda torch: torch.rand(HUGE),
    "randn": lambda torch: torch.randn(HUGE),
    "randint": lambda torch: torch.randint(0, 3, (HUGE,)),
    "arange": lambda torch: torch.arange(HUGE),
    "new_zeros": lambda torch: torch.ones(2).new_zeros(HUGE),
    "zeros_like_an_expanded_tensor": lambda torch: torch.zeros_like(
        torch.ones(2).expand(HUGE, 2)),
    "expanded_then_contiguous": lambda torch: torch.ones(2).expand(HUGE, 2).contiguous(),
    "expanded_then_cloned": lambda torch: torch.ones(2).expand(HUGE, 2).clone(),
    "expanded_times_two": lambda torch: torch.ones(2).expand(HUGE, 2) * 2,
    "matmul_result": lambda torch: torch.ones(10**6, 1) @ torch.ones(1, 10**7),
    "zeros_negative": lambda torch: torch.zeros(-1),
    "zeros_negative_second": lambda torch: torch.zeros(2, -3),
    "empty_negative": lambda torch: torch.empty(-1),
    "ones_negative": lambda torch: torch.ones(-2),
    "full_negative": lambda torch: torch.full((-1,), 1.0),
    "rand_negative": lambda torch: torch.rand(-1),
    "randn_negative": lambda torch: torch.randn(-1),
    "randint_negative": lambda torch: torch.randint(0, 3, (-1,)),
    "view_negative": lambda torch: torch.ones(2).view(-2),
    "expand_negative": lambda torch: torch.ones(2).expand(-2),
}


@pytest.mark.parametrize("case", list(ALLOCATIONS))
def test_an_impossible_allocation(case):
    assert_same_outcome(ALLOCATIONS[case])


# -- gradients given to backward and autograd.grad -------------------------------------------

def _backward(gradient: Callable[[Any], Any], shape: tuple = ()) -> Callable[[Any], Any]:
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        y = (x * 2).sum() if shape == () else x * 2
        y.backward(gradient(torch))
        return x.grad

    return scenario


GRADIENTS: dict[str, Callable[[Any], Any]] = {
    "a_list_of_floats": _backward(lambda torch: [1.0]),
    "a_list_of_floats_for_a_vector": _backward(lambda torch: [1.0, 1.0], (2,)),
    "a_float": _backward(lambda torch: 1.0),
    "a_string": _backward(lambda torch: "a"),
    "an_empty_dict": _backward(lambda torch: {}),
    "a_numpy_array": _backward(lambda torch: np.ones(2, dtype=np.float32), (2,)),
    "a_tuple_with_a_tensor_and_a_number": _backward(
        lambda torch: (torch.ones(2), 3), (2,)),
    "the_wrong_shape": _backward(lambda torch: torch.ones(3), (2,)),
    "an_integer_tensor": _backward(lambda torch: torch.ones((), dtype=torch.int64)),
    "too_few_for_two_outputs": lambda torch: torch.autograd.backward(
        [torch.ones(2, requires_grad=True) * 2] * 2, [torch.ones(2)]),
    "a_number_to_autograd_grad": lambda torch: torch.autograd.grad(
        torch.ones(2, requires_grad=True).sum(), [torch.ones(1)], grad_outputs=[2.0]),
}


@pytest.mark.parametrize("case", list(GRADIENTS))
def test_a_gradient_that_is_not_a_tensor_or_does_not_fit(case):
    assert_same_outcome(GRADIENTS[case])


def _unused_input(torch: Any, **options: Any) -> tuple:
    x = torch.ones(2, requires_grad=True)
    unused = torch.ones(3, requires_grad=True)
    grads = torch.autograd.grad((x * 2).sum(), [x, unused], **options)
    return grads, [g.requires_grad for g in grads]


MATERIALIZE: dict[str, Callable[[Any], Any]] = {
    "zeros_for_an_unused_input": lambda torch: _unused_input(torch, materialize_grads=True),
    "with_allow_unused": lambda torch: _unused_input(
        torch, materialize_grads=True, allow_unused=True),
    "refused_with_allow_unused_false": lambda torch: _unused_input(
        torch, materialize_grads=True, allow_unused=False),
    "off_with_allow_unused_gives_none": lambda torch: torch.autograd.grad(
        (torch.ones(2, requires_grad=True) * 2).sum(),
        [torch.ones(3, requires_grad=True)], allow_unused=True, materialize_grads=False),
    "zeros_that_require_grad_under_create_graph": lambda torch: _unused_input(
        torch, materialize_grads=True, create_graph=True),
    "nothing_to_materialize": lambda torch: _unused_input(torch, materialize_grads=True)[0][0],
}


@pytest.mark.parametrize("case", list(MATERIALIZE))
def test_materialize_grads(case):
    assert_same_outcome(MATERIALIZE[case])
