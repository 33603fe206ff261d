"""``kthvalue`` against real PyTorch: the ``k``-th smallest value along a dimension and its
index. Ties are where it takes care: PyTorch's CPU kernel runs its own quickselect
(``quick_select_template``), so among equal values the index returned is the one that
algorithm leaves at rank ``k``, not always the first; a nan counts as larger than every
number. Then ``keepdim``, 0-d and empty tensors, the graph (``KthvalueBackward0`` and what
it saves), gradients, second order, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import caught, graph, leaf, run, saved, second_order, values

NAN = np.nan
WITH_TIES = np.array([[3.0, 1, 3, NAN, 1, 2, 1], [0, 0, -1, 5, 5, NAN, 0]], dtype=np.float32)


def many_ties(shape: tuple[int, ...], seed: int, with_nan: bool) -> np.ndarray:
    """Values drawn from only four (a nan among them), so that almost every value ties."""
    drawn = np.random.default_rng(seed).integers(0, 4, shape).astype(np.float64)
    if with_nan:
        drawn[drawn == 3] = NAN
    return drawn


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6, 7])
def test_every_rank_of_a_row_with_ties_and_nan(k):
    def scenario(torch):
        x = leaf(torch, WITH_TIES)
        result = torch.kthvalue(x, k)
        shown = saved(result.values.grad_fn)
        result.values.nan_to_num().sum().backward()
        return type(result).__name__, repr(result), graph(result.values.grad_fn), shown, x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("with_nan", [False, True])
@pytest.mark.parametrize("shape, dim", [((6, 40), 1), ((40, 6), 0), ((3, 17, 4), 1),
                                        ((2, 3, 100), -1)])
def test_the_index_among_many_ties(shape, dim, with_nan):
    """Long rows of few distinct values: the quickselect's swaps decide which equal value's
    index comes back, for every k."""
    def scenario(torch):
        x = torch.tensor(many_ties(shape, seed=shape[0], with_nan=with_nan))
        size = shape[dim]
        return [torch.kthvalue(x, k, dim) for k in sorted({1, 2, size // 3, size // 2,
                                                           size - 1, size})]

    assert_same_outcome(scenario)


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_keepdim_dims_and_the_gradient(dim, keepdim):
    assert_same_outcome(lambda torch: run(
        torch, lambda torch, x: x.kthvalue(2, dim, keepdim=keepdim).values,
        values((3, 4), seed=1)))


def test_0d_empty_integer_and_noncontiguous_inputs():
    def scenario(torch):
        scalar = leaf(torch, np.array(5.0, dtype=np.float32))
        result = torch.kthvalue(scalar, 1, keepdim=True)
        shown = saved(result.values.grad_fn)
        result.values.backward()
        return (result, shown, scalar.grad, torch.kthvalue(torch.tensor(5.0), 1, -1),
                torch.kthvalue(torch.zeros(3, 0), 2, 0),
                torch.kthvalue(torch.zeros(3, 0), 2, 0, keepdim=True),
                torch.tensor([[4, 1, 1], [0, 9, 2]]).kthvalue(2),
                torch.tensor([7, 7, 1], dtype=torch.uint8).kthvalue(3, dim=0),
                torch.tensor(values((4, 5), seed=2)).t().kthvalue(3))

    assert_same_outcome(scenario)


def test_no_grad_and_second_order():
    def scenario(torch):
        x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            quiet = x.kthvalue(2)
        return (quiet.values.requires_grad, quiet.values.grad_fn,
                second_order(torch, lambda torch, x: x.kthvalue(3, 1).values * x[:, 0],
                             values((2, 5), seed=3)))

    assert_same_outcome(scenario)


def test_a_threshold_in_a_forward_hook():
    """Keep the activations above each row's 3rd smallest, as pruning code does."""
    def scenario(torch):
        torch.manual_seed(0)
        layer = torch.nn.Linear(6, 8)

        def keep_above(module, args, out):
            return out * (out > out.kthvalue(3, dim=1, keepdim=True).values)

        layer.register_forward_hook(keep_above)
        out = layer(torch.tensor(values((2, 6), seed=4)))
        out.sum().backward()
        return out, layer.weight.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(3), 4), id="k too large"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(2, 3), 0), id="k zero"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(2, 3), -1, 0), id="k negative"),
    pytest.param(lambda torch: torch.kthvalue(torch.tensor(5.0), 2), id="k too large for 0-d"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(0), 1), id="empty dim"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(0), 5), id="empty dim before k"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(3, 0), 1), id="empty last dim"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(3, 0), 5, 0), id="k beyond dim 0"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(2, 3), 1, 2), id="dim out of range"),
    pytest.param(lambda torch: torch.kthvalue(torch.tensor(5.0), 1, 1), id="dim of a 0-d"),
    pytest.param(lambda torch: torch.kthvalue(torch.tensor([True, False]), 1), id="bool"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(3), 2.0), id="float k"),
    pytest.param(lambda torch: torch.zeros(3).kthvalue(2.0), id="float k, method"),
    pytest.param(lambda torch: torch.kthvalue(torch.zeros(3), 2, None), id="None dim"),
    pytest.param(lambda torch: torch.zeros(3).kthvalue(1, None), id="None dim, method"),
])
def test_errors(call):
    assert_same_outcome(lambda torch: caught(lambda: call(torch)))
