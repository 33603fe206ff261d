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
from harness import assert_same_outcome

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
