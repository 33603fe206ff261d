"""Sizes no tensor can have, against real PyTorch: negative, past an int64, and products
that overflow the storage's byte count or a stride, for every creation function and
several dtypes (the byte count depends on the item size: ``2**62`` bytes fit in an int64,
``2**62`` float32 elements do not).

PyTorch checks in a fixed order, each with its own error: the argument parser (a size
must fit in a C++ ``long long``: TypeError), the sign of each size, the storage's byte
count, the strides, and last the allocator. NumPy would answer each with a ValueError of
its own.
"""

from __future__ import annotations

import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome

import minitorch_hooks

SIZES = {
    "2**62": (2**62,),
    "int64 max": (2**63 - 1,),
    "2**63": (2**63,),
    "2**64": (2**64,),
    "below int64": (3, -(2**63) - 1),
    "-1": (-1,),
    "-5, 3": (-5, 3),
    "2**31 x 2**31": (2**31, 2**31),
    "2**32 x 2**32": (2**32, 2**32),
    "2**40 x 2**30": (2**40, 2**30),
    "2**62 x 2**62 x 0": (2**62, 2**62, 0),
    "0 x 2**62 x 2**62": (0, 2**62, 2**62),
    "3 x 2**63": (3, 2**63),
}

MAKERS = {
    "empty": lambda torch, size, dtype: torch.empty(*size, dtype=dtype),
    "empty of a tuple": lambda torch, size, dtype: torch.empty(size, dtype=dtype),
    "zeros": lambda torch, size, dtype: torch.zeros(size, dtype=dtype),
    "ones": lambda torch, size, dtype: torch.ones(*size, dtype=dtype),
    "full": lambda torch, size, dtype: torch.full(size, 1, dtype=dtype),
    "new_zeros": lambda torch, size, dtype: torch.ones(1, dtype=dtype).new_zeros(size),
    "new_empty": lambda torch, size, dtype: torch.ones(1, dtype=dtype).new_empty(size),
    "new_full": lambda torch, size, dtype: torch.ones(1, dtype=dtype).new_full(size, 0),
}


def first_line(torch, make, size, dtype):
    """What making the tensor raised: its type and the first line of its message (PyTorch
    appends a C++ backtrace, with addresses, to its argument parser's overflow error)."""
    try:
        make(torch, size, None if dtype is None else getattr(torch, dtype))
    except (RuntimeError, TypeError) as error:
        return type(error).__name__, str(error).split("\n")[0]
    return "no error"


@pytest.mark.parametrize("dtype", [None, "float64", "int64", "uint8", "bool"])
@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("make", MAKERS.values(), ids=MAKERS.keys())
def test_an_impossible_size_is_refused_as_pytorch_refuses_it(make, size, dtype):
    assert_same_outcome(lambda torch: first_line(torch, make, size, dtype))


RANDOM = {
    "rand": lambda torch, size, dtype: torch.rand(*size, dtype=dtype),
    "randn": lambda torch, size, dtype: torch.randn(size, dtype=dtype),
    "randint": lambda torch, size, dtype: torch.randint(0, 5, size),
}


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("make", RANDOM.values(), ids=RANDOM.keys())
def test_a_random_tensor_of_an_impossible_size_draws_nothing(make, size):
    def scenario(torch):
        torch.manual_seed(0)
        return first_line(torch, make, size, "float64"), torch.rand(2)

    assert_same_outcome(scenario)


VIEWS = {
    "expand to 2**63": lambda torch: torch.ones(1).expand(2**63),
    "expand to 2**63, 0": lambda torch: torch.ones(1, 1).expand(2**63, 0),
    "expand to 2**32 x 2**32": lambda torch: torch.ones(1, 1).expand(2**32, 2**32),
    "expand to 2**62 x 2": lambda torch: torch.ones(1, 1).expand(2**62, 2),
    "expand to 2**62 x 2**62 x 0": lambda torch: torch.ones(1, 1, 1).expand(2**62, 2**62, 0),
    "expand a new dim to -2": lambda torch: torch.ones(1).expand(-2, 1),
    "expand a size 1 to -3": lambda torch: torch.ones(1).expand(3, -3),
    "expand a size 2 to -2": lambda torch: torch.ones(2).expand(-2),
    "expand below int64": lambda torch: torch.ones(1).expand(-(2**63) - 1),
    "reshape to 2**63": lambda torch: torch.ones(4).reshape(2**63),
    "reshape to 2**62 x 2": lambda torch: torch.ones(4).reshape(2**62, 2),
    "reshape to 2**62 x -1": lambda torch: torch.ones(4).reshape(2**62, -1),
    "reshape 0 elements to 2**32 x 2**32": lambda torch: torch.ones(0).reshape(2**32, 2**32),
    "view 0 elements as 2**62 x 2**62 x 0": lambda torch: torch.ones(0).view(2**62, 2**62, 0),
    "view 0 elements as -2 x 0": lambda torch: torch.ones(0).view(-2, 0),
    "view as 2**63, 0": lambda torch: torch.ones(0).view(2**63, 0),
}


@pytest.mark.parametrize("make", VIEWS.values(), ids=VIEWS.keys())
def test_a_view_of_an_impossible_size_is_refused_as_pytorch_refuses_it(make):
    assert_same_outcome(lambda torch: first_line(torch, lambda torch, size, dtype: make(torch),
                                                 None, None))


HUGE_AND_EMPTY = {
    "empty(2**62, 0)": lambda torch: torch.empty(2**62, 0),
    "zeros(0, 2**62)": lambda torch: torch.zeros(0, 2**62),
    "randn(int64 max, 0)": lambda torch: torch.randn(2**63 - 1, 0),
    "new_empty((5, 0, 2**62))": lambda torch: torch.ones(1).new_empty((5, 0, 2**62)),
    "full((0, 2**62), 1.0)": lambda torch: torch.full((0, 2**62), 1.0),
    "ones(1).expand(2**62)": lambda torch: torch.ones(1).expand(2**62),
    "ones(0).reshape(2**62, 0)": lambda torch: torch.ones(0).reshape(2**62, 0),
}


@pytest.mark.parametrize("make", HUGE_AND_EMPTY.values(), ids=HUGE_AND_EMPTY.keys())
def test_a_huge_shape_numpy_cannot_hold_is_refused_deviation(make):
    """DEVIATION: PyTorch keeps a tensor's sizes apart from its memory, so a tensor with no
    element (``torch.empty(2**62, 0)``) or a view that repeats one element
    (``torch.ones(1).expand(2**62)``) may have sizes whose product, times the item size,
    passes 2**63. NumPy, which holds every tensor here, multiplies the nonzero sizes and
    refuses such an array; minitorch_hooks raises a NotImplementedError that says so
    (rather than NumPy's ValueError, or a tensor of another shape). Holding those shapes
    would take a second kind of tensor that every operation would have to handle."""
    def scenario(torch):
        try:
            return tuple(make(torch).shape)
        except NotImplementedError as error:
            return type(error).__name__, str(error).split(":")[0]

    theirs, _ = pytorch_outcome(scenario)
    ours, _ = outcome(scenario, minitorch_hooks)
    assert isinstance(theirs, list) and all(isinstance(n, int) for n in theirs), theirs
    assert ours == ("NotImplementedError",
                    f"minitorch_hooks cannot hold a tensor of size {list(theirs)} with "
                    "4-byte elements"), ours


def test_a_one_byte_dtype_holds_what_numpy_can():
    """With one-byte elements NumPy's limit is PyTorch's, so these are tensors here too."""
    def scenario(torch):
        made = torch.empty(2**62, 0, dtype=torch.uint8), torch.zeros(0, 2**62, dtype=torch.bool)
        return [(tuple(t.shape), t.numel(), t.dtype) for t in made]

    assert_same_outcome(scenario)


ARGUMENTS = {
    "Tensor.view(size=...)": lambda torch: torch.arange(6.0).view(size=(2, 3)),
    "Tensor.view(size=...) of an int": lambda torch: torch.arange(6.0).view(size=6),
    "Tensor.view(shape=...)": lambda torch: torch.arange(6.0).view(shape=(2, 3)),
    "Tensor.reshape(shape=...)": lambda torch: torch.arange(6.0).reshape(shape=(3, 2)),
    "Tensor.reshape(shape=...) of an int": lambda torch: torch.arange(6.0).reshape(shape=6),
    "Tensor.reshape(size=...)": lambda torch: torch.arange(6.0).reshape(size=(3, 2)),
    "Tensor.expand(size=...)": lambda torch: torch.ones(1, 2).expand(size=(3, 2)),
    "torch.reshape(x, 2)": lambda torch: torch.reshape(torch.ones(2), 2),
    "torch.reshape(x, 2.0)": lambda torch: torch.reshape(torch.ones(2), 2.0),
    "torch.reshape(x, 2, 1)": lambda torch: torch.reshape(torch.ones(2), 2, 1),
    "torch.reshape(x, (2, 1))": lambda torch: torch.reshape(torch.ones(2), (2, 1)),
    "torch.reshape(x, shape=...)": lambda torch: torch.reshape(torch.ones(2), shape=[1, 2]),
    "torch.reshape(input=, shape=)": lambda torch: torch.reshape(input=torch.ones(2),
                                                                 shape=(2,)),
    "torch.randint(0, 3, 2)": lambda torch: torch.randint(0, 3, 2),
    "torch.randint(0, 3, 2.5)": lambda torch: torch.randint(0, 3, 2.5),
    "torch.randint(3, 2)": lambda torch: torch.randint(3, 2),
}


@pytest.mark.parametrize("call", ARGUMENTS.values(), ids=ARGUMENTS.keys())
def test_size_keywords_and_arguments(call):
    def scenario(torch):
        try:
            return call(torch)
        except TypeError as error:
            return type(error).__name__, str(error)

    assert_same_outcome(scenario)
