"""Item assignment, ``x[index] = value``, against real PyTorch: the values written, the node
recorded (``CopySlices``, ``IndexPutBackward0``, or ``fill_``/``copy_``'s own when the index
selects everything), the gradients, the version counter, and the errors and warnings; then
``masked_fill``, which writes one value where a mask is True."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, upstream, values

INDICES = [
    pytest.param(lambda: 1, id="[1]"),
    pytest.param(lambda: -1, id="[-1]"),
    pytest.param(lambda: slice(1, 3), id="[1:3]"),
    pytest.param(lambda: slice(None, None, 2), id="[::2]"),
    pytest.param(lambda: (slice(None), 2), id="[:, 2]"),
    pytest.param(lambda: (Ellipsis, 0), id="[..., 0]"),
    pytest.param(lambda: (None, 1), id="[None, 1]"),
    pytest.param(lambda: (1, 2), id="[1, 2]"),
    pytest.param(lambda: slice(None), id="[:] (everything)"),
    pytest.param(lambda: Ellipsis, id="[...] (everything)"),
    pytest.param(lambda: (slice(0, 3), slice(None)), id="[0:3, :] (everything)"),
    pytest.param(lambda: [0, 2], id="[[0, 2]]"),
    pytest.param(lambda: ([0, 1], [1, 2]), id="[[0, 1], [1, 2]]"),
    pytest.param(lambda: (slice(None), [0, 3]), id="[:, [0, 3]]"),
    pytest.param(lambda: (1, [0, 3]), id="[1, [0, 3]] (a view, then index_put_)"),
    pytest.param(lambda: (slice(1, None), [0, 2]), id="[1:, [0, 2]]"),
    pytest.param(lambda: "mask", id="[y > 0]"),
]

VALUES = [
    pytest.param(lambda torch: 0.5, id="number"),
    pytest.param(lambda torch: leaf(torch, values((), seed=3)), id="0-d tensor"),
    pytest.param(lambda torch: leaf(torch, values((1,), seed=4)), id="(1,) tensor"),
]


@pytest.mark.parametrize("make_value", VALUES)
@pytest.mark.parametrize("make_index", INDICES)
def test_assigning_into_a_non_leaf_is_recorded(make_index, make_value):
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=1))
        y = x * 2
        index = make_index()
        index = y > 0 if index == "mask" else index
        value = make_value(torch)
        y[index] = value
        result = (y, graph(y.grad_fn), y._version, y.requires_grad)
        (y * upstream(torch, y)).sum().backward()
        return result, x.grad, getattr(value, "grad", None)

    assert_same_outcome(scenario)


@pytest.mark.parametrize(("index", "shape"), [
    pytest.param(1, (4,), id="[1] = (4,)"),
    pytest.param(1, (1, 4), id="[1] = (1, 4): leading 1s dropped"),
    pytest.param(slice(0, 2), (2, 1), id="[0:2] = (2, 1): broadcast"),
    pytest.param((slice(None), 1), (3,), id="[:, 1] = (3,)"),
    pytest.param([0, 2], (4,), id="[[0, 2]] = (4,): broadcast"),
    pytest.param([0, 2], (1, 2, 4), id="[[0, 2]] = (1, 2, 4)"),
])
def test_a_tensor_value_is_broadcast_and_receives_its_summed_gradient(index, shape):
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=1))
        w = leaf(torch, values(shape, seed=2))
        y = x * 2
        y[index] = w
        (y * upstream(torch, y)).sum().backward()
        return y, graph(y.grad_fn), x.grad, w.grad

    assert_same_outcome(scenario)


def test_a_value_requiring_grad_makes_the_target_require_grad():
    def scenario(torch):
        v = leaf(torch, values((3,), seed=2))
        b = torch.zeros(3)
        b[0] = v.sum()
        b[[1, 2]] = v[1:] * 3
        (b * upstream(torch, b)).sum().backward()
        return b, graph(b.grad_fn), b.requires_grad, b.is_leaf, v.grad

    assert_same_outcome(scenario)


def test_assigning_into_plain_tensors_casts_and_bumps_the_version_once_each():
    def scenario(torch):
        a = torch.zeros(4)
        a[1] = torch.tensor(2.0, dtype=torch.float64)
        a[[0, 2]] = torch.tensor([5.0, 6.0])
        a[1:3] = torch.tensor([5, 6])  # copy_ casts; index_put_ would refuse an int64 value
        a[a > 4] = True
        a[3] = 7
        ints = torch.zeros(3, dtype=torch.int64)
        ints[0] = -2.7
        ints[1:] = torch.tensor([3.9, -3.9])
        flags = torch.zeros(2, dtype=torch.bool)
        flags[0] = 5
        small = torch.zeros(2, dtype=torch.uint8)
        small[0] = -1
        scalar = torch.zeros(())
        scalar[()] = 3
        return a, a._version, ints, flags, small, scalar, scalar._version, a.grad_fn

    assert_same_outcome(scenario)


def test_assignment_writes_through_views_into_their_base():
    def scenario(torch):
        base = torch.zeros(2, 3)
        row = base[1]
        row[0] = 4
        base[0][1:] = torch.tensor([5.0, 6.0])
        return base, base._version, row._version

    assert_same_outcome(scenario)


def test_a_hook_that_masks_part_of_the_gradient():
    def scenario(torch):
        w = leaf(torch, values((4,), seed=5))
        seen = []

        def keep_small(grad):
            seen.append(grad.clone())
            grad = grad.clone()
            grad[grad.abs() > 0.5] = 0
            return grad

        w.register_hook(keep_small)
        (w * upstream(torch, w)).sum().backward()
        return seen, w.grad

    assert_same_outcome(scenario)


def test_a_saved_tensor_overwritten_by_assignment_breaks_backward():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=1))
        y = x * 2
        z = y * y
        y[0] = 1
        z.sum().backward()

    assert_same_outcome(scenario)


def test_assigning_into_a_leaf_is_allowed_under_no_grad():
    def scenario(torch):
        x = leaf(torch, values((4,), seed=1))
        with torch.no_grad():
            x[0] = 1
            x[[1, 2]] = 0
            x[:] = x * 2
        return x, x._version, x.requires_grad, x.is_leaf

    assert_same_outcome(scenario)


@pytest.mark.parametrize("assign", [
    pytest.param(lambda torch, x: x.__setitem__(0, 1.0), id="leaf[0]: a view of a leaf"),
    pytest.param(lambda torch, x: x.__setitem__(slice(None), 1.0), id="leaf[:]: the leaf"),
    pytest.param(lambda torch, x: x.__setitem__(Ellipsis, torch.ones(4)), id="leaf[...] = t"),
    pytest.param(lambda torch, x: x.__setitem__([0], 1.0), id="leaf[[0]]"),
    pytest.param(lambda torch, x: x.__setitem__(x > 0, 1.0), id="leaf[mask]"),
    pytest.param(lambda torch, x: x.__setitem__(5, 1.0), id="index out of range first"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__(0, None), id="None value"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__(0, [1.0]), id="list value"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__([5], 1.0), id="[[5]]"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__(slice(None), torch.ones(2, 3)),
                 id="value with more dimensions"),
    pytest.param(lambda torch, x: torch.zeros(2, 3).__setitem__(slice(None), torch.ones(2, 2)),
                 id="value that does not broadcast"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__([0, 1], torch.ones(3)),
                 id="index_put_ value that does not broadcast"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__(0, 2**70), id="int beyond int64"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__(0, 1e300), id="1e300 into float32"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__(0, 1j), id="complex"),
    pytest.param(lambda torch, x: torch.zeros(3, dtype=torch.uint8).__setitem__(0, 300),
                 id="300 into uint8"),
    pytest.param(lambda torch, x: torch.zeros(3, dtype=torch.uint8).__setitem__(0, -300),
                 id="-300 into uint8"),
    pytest.param(lambda torch, x: torch.zeros(3, dtype=torch.int32).__setitem__(0, 2**40),
                 id="2**40 into int32"),
    pytest.param(lambda torch, x: torch.zeros(3, dtype=torch.int64).__setitem__(
        0, float("nan")), id="nan into int64"),
    pytest.param(lambda torch, x: torch.zeros(3).__setitem__([0], torch.tensor([1])),
                 id="index_put_ value of another dtype"),
    pytest.param(lambda torch, x: torch.zeros(1).expand(3).__setitem__(slice(None), 5.0),
                 id="expanded[:] = number"),
    pytest.param(lambda torch, x: torch.zeros(1).expand(3).__setitem__(
        slice(0, 2), torch.tensor([1.0, 2.0])), id="expanded[0:2] = tensor"),
])
def test_assignment_errors(assign):
    def scenario(torch):
        x = leaf(torch, values((4,), seed=1))
        assign(torch, x)
        return x, x._version

    assert_same_outcome(scenario)


def test_assigning_into_an_expanded_tensor():
    def scenario(torch):
        a = torch.zeros(1).expand(3)
        a[0] = 1  # one element: allowed, and every element shares it
        rows = torch.zeros(1, 3).expand(2, 3)
        rows[0] = torch.tensor([1.0, 2.0, 3.0])
        b = torch.zeros(1).expand(3)
        b[[0, 1]] = 5.0  # deprecated, with a warning
        return a, rows, b

    assert_same_outcome(scenario)


def test_fill_refuses_numbers_that_overflow_the_dtype():
    def scenario(torch):
        outcomes = []
        for dtype, number in [(torch.uint8, 300), (torch.uint8, -1), (torch.int32, 2**40),
                              (torch.float32, 1e300), (torch.float32, float("inf")),
                              (torch.int64, 2.0**63), (torch.bool, 5), (torch.float16, 1e6)]:
            try:
                outcomes.append(torch.zeros(2, dtype=dtype).fill_(number))
            except RuntimeError as error:
                outcomes.append(str(error))
        return outcomes

    assert_same_outcome(scenario)


def test_grad_fn_reprs_name_the_python_type():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=1))
        y = x * 2
        y[0] = 1.0
        copied = torch.ones(3).copy_(x * 2)
        return (repr(y).split("grad_fn=")[1], repr(copied).split("grad_fn=")[1],
                y.grad_fn.name(), copied.grad_fn.name(),
                repr(y.grad_fn).split(" object")[0], repr(copied.grad_fn).split(" object")[0],
                repr(x.grad_fn), repr(y.grad_fn.next_functions[0][0].next_functions[0][0])
                .split(" object")[0])

    assert_same_outcome(scenario)


# -- masked_fill --------------------------------------------------------------------------------

MASK = np.array([[True, False, True, False], [False, False, True, True], [True, True, False,
                                                                          False]])

MASKED_FILLS = {
    "a number": lambda torch, x, mask: x.masked_fill(mask, -1.5),
    "torch.masked_fill": lambda torch, x, mask: torch.masked_fill(x, mask, 0),
    "a broadcast mask": lambda torch, x, mask: x.masked_fill(mask[0], 2.0),
    "a mask that broadcasts x": lambda torch, x, mask: x[0].masked_fill(mask, 2.0),
    "-inf, as in attention": lambda torch, x, mask: x.masked_fill(mask, float("-inf"))
    .softmax(-1),
    "a 0-d tensor": lambda torch, x, mask: x.masked_fill(mask, torch.tensor(3.0)),
    "in place on a clone": lambda torch, x, mask: (x * 1).masked_fill_(mask, 4.0),
}


@pytest.mark.parametrize("name", list(MASKED_FILLS))
def test_masked_fill(name):
    def scenario(torch):
        return run(torch, lambda torch, x: MASKED_FILLS[name](torch, x, torch.tensor(MASK)),
                   values((3, 4), seed=7))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("in_place", [False, True])
def test_masked_fill_with_a_0d_tensor_requiring_grad_sums_its_gradient(in_place):
    def scenario(torch):
        x = torch.tensor(values((3, 4), seed=8), requires_grad=True)
        value = torch.tensor(0.5, requires_grad=True)
        y = x * 2
        out = y.masked_fill_(torch.tensor(MASK), value) if in_place else \
            y.masked_fill(torch.tensor(MASK), value)
        (out * upstream(torch, out)).sum().backward()
        return out, graph(out.grad_fn), x.grad, value.grad, out is y

    assert_same_outcome(scenario)


def test_masked_fill_in_a_gradient_hook():
    def scenario(torch):
        x = torch.tensor([[1.0, -2.0], [3.0, -4.0]], requires_grad=True)
        x.register_hook(lambda grad: grad.masked_fill(x.detach() < 0, 0.0))
        (x * x).sum().backward()
        return x.grad

    assert_same_outcome(scenario)


def test_masked_fill_in_place_bumps_the_version_and_casts_the_value():
    def scenario(torch):
        x = torch.arange(4)
        version = x._version
        x.masked_fill_(torch.tensor([True, False, True, False]), 7.9)
        return x, x._version - version, torch.ones(2, dtype=torch.bool).masked_fill(
            torch.tensor([True, False]), 0)

    assert_same_outcome(scenario)


MASKED_FILL_ERRORS = {
    "an int mask": lambda torch: torch.ones(2).masked_fill(torch.tensor([1, 0]), 0.0),
    "a uint8 mask": lambda torch: torch.ones(2).masked_fill(
        torch.tensor([1, 0], dtype=torch.uint8), 0.0),
    "a float mask": lambda torch: torch.ones(2).masked_fill(torch.ones(2), 0.0),
    "a 1-d value": lambda torch: torch.ones(2).masked_fill(torch.ones(2, dtype=torch.bool),
                                                           torch.ones(2)),
    "shapes that do not broadcast": lambda torch: torch.ones(2).masked_fill(
        torch.ones(3, dtype=torch.bool), 1.0),
    "in place, a mask that grows the tensor": lambda torch: torch.ones(2).masked_fill_(
        torch.ones(2, 2, dtype=torch.bool), 1.0),
    "in place on a leaf requiring grad": lambda torch: torch.ones(
        2, requires_grad=True).masked_fill_(torch.ones(2, dtype=torch.bool), 1.0),
    "a value that overflows": lambda torch: torch.ones(2, dtype=torch.uint8).masked_fill(
        torch.ones(2, dtype=torch.bool), 300),
}


@pytest.mark.parametrize("name", list(MASKED_FILL_ERRORS))
def test_masked_fill_errors(name):
    assert_same_outcome(MASKED_FILL_ERRORS[name])
