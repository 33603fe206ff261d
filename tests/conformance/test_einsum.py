"""``torch.einsum`` against real PyTorch: values, dtypes and shapes for explicit and
implicit outputs, diagonals, ellipses and broadcasting; gradients and second derivatives;
the errors; and, as a deviation, the ``grad_fn`` graph."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome
from ops_support import graph, run, values

import minitorch_hooks

EQUATIONS = {
    "bij,bjk->bik": ((2, 3, 4), (2, 4, 5)),
    "ij,jk": ((3, 4), (4, 2)),
    "ij->ji": ((2, 3),),
    "ii->i": ((3, 3),),
    "ii": ((3, 3),),
    "i,i->": ((4,), (4,)),
    "i,j->ij": ((3,), (2,)),
    "bij,j->bi": ((2, 3, 4), (4,)),
    "...ij->...ji": ((2, 3, 4),),
    "i...->...": ((3, 2),),
    "...j,j": ((2, 3), (3,)),
    "ba": ((2, 3),),
    "bhqd,bhkd->bhqk": ((1, 2, 3, 4), (1, 2, 5, 4)),
    "ij,ij->i": ((3, 4), (3, 4)),
    "i j , j k -> i k": ((2, 3), (3, 2)),
    "ij,kj->ik": ((2, 3), (1, 3)),
    "abc,cd,de->abe": ((2, 2, 3), (3, 4), (4, 2)),
}


@pytest.mark.parametrize("equation", list(EQUATIONS))
def test_einsum_values_and_gradients(equation):
    shapes = EQUATIONS[equation]

    def scenario(torch):
        arrays = [values(shape, seed=i) for i, shape in enumerate(shapes)]
        result = run(torch, lambda torch, *xs: torch.einsum(equation, *xs), *arrays)
        as_list = torch.einsum(equation, [torch.tensor(a) for a in arrays])
        # The graph and the strides follow the way of computing (see the deviation below).
        kept = {key: value for key, value in result.items()
                if key not in ("graph", "layout", "grads layout")}
        return kept, as_list

    assert_same_outcome(scenario, atol=1e-5)


def test_einsum_of_integers_and_second_derivatives():
    def scenario(torch):
        ints = torch.einsum("ij,jk->ik", torch.arange(6).reshape(2, 3),
                            torch.arange(6).reshape(3, 2))
        x = torch.tensor(values((3, 3), seed=1).astype(np.float64), requires_grad=True)
        y = torch.einsum("ij,jk,kk->i", x, x, x)
        (grad,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        return ints, grad, torch.autograd.grad((grad * grad).sum(), x)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch, a, b: torch.einsum("ij", a, b), id="more operands"),
    pytest.param(lambda torch, a, b: torch.einsum("ij,jk", a), id="fewer operands"),
    pytest.param(lambda torch, a, b: torch.einsum("ijk", a), id="subscript count"),
    pytest.param(lambda torch, a, b: torch.einsum("i1", a), id="invalid subscript"),
    pytest.param(lambda torch, a, b: torch.einsum("ij->k", a), id="unknown output"),
    pytest.param(lambda torch, a, b: torch.einsum("ij->ii", a), id="repeated output"),
    pytest.param(lambda torch, a, b: torch.einsum("ij,jk->ik", a, b.double()), id="dtypes"),
    pytest.param(lambda torch, a, b: torch.einsum("ij,ik->jk", a, b), id="sizes"),
    pytest.param(lambda torch, a, b: torch.einsum("ii", a), id="diagonal sizes"),
])
def test_einsum_errors(call):
    assert_same_outcome(lambda torch: call(torch, torch.ones(2, 3), torch.ones(3, 4)))


def test_einsum_graph_deviation():
    """DEVIATION: PyTorch contracts einsum's operands pairwise with ``bmm`` and records
    that chain (``PermuteBackward0``, ``ViewBackward0``, ``BmmBackward0``, ...);
    minitorch_hooks multiplies the aligned operands and sums, so its graph shows
    ``MulBackward0`` and ``SumBackward1``. Values and gradients are the same (the other
    tests); only the nodes a graph walk meets differ, and with them the strides of the
    result and of the gradients (PyTorch's ``ii->i`` is a strided view of the diagonal,
    ours a copy)."""
    def scenario(torch):
        a = torch.ones(2, 3, requires_grad=True)
        b = torch.ones(3, 4, requires_grad=True)
        return graph(torch.einsum("ij,jk->ik", a, b).grad_fn)

    theirs, _ = pytorch_outcome(scenario)
    ours, _ = outcome(scenario, minitorch_hooks)
    assert "BmmBackward0" in str(theirs)
    assert ours[0] == "SumBackward1" and "MulBackward0" in str(ours)
