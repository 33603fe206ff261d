"""``zeros``, ``ones``, ``empty``, ``rand`` and ``randn`` need a size: called without one
they raise PyTorch's TypeError (they do not make a 0-d tensor, which takes ``size=()``).
``rand`` and ``randn`` have two signatures, so PyTorch's parser names the missing size
only when one keyword came with the call; with none or several it lists both signatures.
A 0-d tensor from an empty size, ``()``, still works."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import caught

KEYWORDS = {
    "none": lambda torch: {},
    "dtype": lambda torch: {"dtype": torch.float64},
    "requires_grad": lambda torch: {"requires_grad": True},
    "device": lambda torch: {"device": "cpu"},
    "generator": lambda torch: {"generator": torch.Generator()},
    "dtype, requires_grad": lambda torch: {"dtype": torch.float64, "requires_grad": True},
    "device, dtype": lambda torch: {"device": "cpu", "dtype": torch.float64},
    "dtype, requires_grad, generator": lambda torch: {
        "dtype": torch.float32, "requires_grad": False, "generator": torch.Generator()},
}


@pytest.mark.parametrize("keywords", list(KEYWORDS))
@pytest.mark.parametrize("function", ["zeros", "ones", "empty", "rand", "randn"])
def test_no_size_is_an_error(function, keywords):
    if keywords == "generator" and function not in ("rand", "randn"):
        keywords = "none"  # zeros(generator=...) is refused for the keyword itself
    assert_same_outcome(lambda torch: caught(
        lambda: getattr(torch, function)(**KEYWORDS[keywords](torch))))


@pytest.mark.parametrize("function", ["zeros", "ones", "empty", "rand", "randn"])
def test_an_empty_size_makes_a_0d_tensor(function):
    def scenario(torch):
        made = [getattr(torch, function)(()), getattr(torch, function)(size=()),
                getattr(torch, function)([], dtype=torch.float64)]
        return [(tuple(t.shape), t.dtype) for t in made]

    assert_same_outcome(scenario)
