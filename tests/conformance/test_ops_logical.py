"""The logical and bitwise operations that build masks (``~``, ``&``, ``|``, ``^``,
``bitwise_*``, ``logical_*`` and their in-place forms) against real PyTorch: values and
dtypes across bool, integer and float operands, broadcasting, and the errors."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome

OPERANDS = {
    "bool": lambda torch: torch.tensor([[True, False, True]]),
    "int64": lambda torch: torch.tensor([[3], [-6]]),
    "uint8": lambda torch: torch.tensor([1, 200, 0], dtype=torch.uint8),
    "int32": lambda torch: torch.tensor([7, 0, -1], dtype=torch.int32),
    "float": lambda torch: torch.tensor([1.0, 0.0, -2.5]),
    "True": lambda torch: True,
    "3": lambda torch: 3,
    "1.5": lambda torch: 1.5,
}

BINARY = {
    "&": lambda torch, a, b: a & b,
    "|": lambda torch, a, b: a | b,
    "^": lambda torch, a, b: a ^ b,
    "bitwise_and": lambda torch, a, b: torch.bitwise_and(a, b),
    "logical_and": lambda torch, a, b: torch.logical_and(a, b),
    "logical_or": lambda torch, a, b: torch.logical_or(a, b),
    "logical_xor method": lambda torch, a, b: a.logical_xor(b),
}


@pytest.mark.parametrize("right", list(OPERANDS))
@pytest.mark.parametrize("left", ["bool", "int64", "uint8", "float", "True", "3"])
@pytest.mark.parametrize("op", list(BINARY))
def test_binary_logical_and_bitwise_operations(op, left, right):
    def scenario(torch):
        a, b = OPERANDS[left](torch), OPERANDS[right](torch)
        if not hasattr(a, "shape") and not hasattr(b, "shape"):
            return None
        return BINARY[op](torch, a, b)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("operand", ["bool", "int64", "uint8", "int32", "float"])
def test_invert_and_bitwise_not(operand):
    def scenario(torch):
        x = OPERANDS[operand](torch)
        results = []
        for op in (lambda: ~x, lambda: torch.bitwise_not(x), lambda: x.bitwise_not()):
            try:
                results.append(op())
            except (TypeError, NotImplementedError) as error:
                results.append((type(error).__name__, str(error)))
        return results, ~torch.tensor(True), ~torch.tensor([[False], [True]])

    assert_same_outcome(scenario)


IN_PLACE = {
    "&=": lambda a, b: a.__iand__(b),
    "|=": lambda a, b: a.__ior__(b),
    "^=": lambda a, b: a.__ixor__(b),
    "bitwise_or_": lambda a, b: a.bitwise_or_(b),
    "logical_and_": lambda a, b: a.logical_and_(b),
    "logical_or_": lambda a, b: a.logical_or_(b),
    "bitwise_not_": lambda a, b: a.bitwise_not_(),
}


@pytest.mark.parametrize("other", ["bool", "int64", "float"])
@pytest.mark.parametrize("target", ["bool", "int64", "float"])
@pytest.mark.parametrize("op", list(IN_PLACE))
def test_in_place_forms_change_the_tensor_itself(op, target, other):
    def scenario(torch):
        a = OPERANDS[target](torch).expand(2, 3).clone()
        b = OPERANDS[other](torch)
        b = b.reshape(-1)[:1] if target != "int64" else b.reshape(-1)[:1]
        version = a._version
        out = IN_PLACE[op](a, b)
        return out is a, a, a._version - version

    assert_same_outcome(scenario)


def test_a_nan_detector_mask():
    """The pattern of a NaN-detecting hook: ``isnan | isinf``, ``~`` for the finite ones."""
    def scenario(torch):
        g = torch.tensor([1.0, float("nan"), float("inf"), -2.0, float("-inf")])
        bad = torch.isnan(g) | torch.isinf(g)
        return bad, ~bad, g[~bad], bad.any(), (bad & (g > 0)), bad.sum()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.logical_and(torch.tensor([1, 2]), 1), id="a number"),
    pytest.param(lambda torch: torch.tensor([1, 2]).logical_or(None), id="None"),
    pytest.param(lambda torch: torch.tensor([1, 2]) & torch.tensor([1, 2, 3]),
                 id="shapes that do not broadcast"),
    pytest.param(lambda torch: torch.tensor([True]) & [True], id="a list"),
])
def test_errors(call):
    assert_same_outcome(call)
