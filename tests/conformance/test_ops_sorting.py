"""``sort``, ``argsort`` and ``topk`` against real PyTorch: values, indices and their named
tuples, gradients, and above all the order of ties, which PyTorch's C++ kernels decide
(``std::sort``, ``std::nth_element``, ``std::partial_sort``; ``std::stable_sort`` with
``stable=True``), with nan above every number; then the errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, saved, values

NAN = np.nan
WITH_TIES = np.array([[3.0, 1, 3, NAN, 1, 2, 1], [0, 0, -1, 5, 5, NAN, 0]], dtype=np.float32)


def many_ties(size: int, seed: int = 0) -> np.ndarray:
    """``size`` values drawn from only five, so that almost every value ties."""
    return np.random.default_rng(seed).integers(0, 5, size).astype(np.float32)


SORTS = {
    "sort()": lambda torch, x: x.sort(),
    "sort(descending=True)": lambda torch, x: x.sort(descending=True),
    "sort(0)": lambda torch, x: torch.sort(x, 0),
    "sort(stable=True)": lambda torch, x: x.sort(stable=True),
    "sort(stable=True, dim=0, descending=True)": lambda torch, x: torch.sort(
        x, stable=True, dim=0, descending=True),
}


@pytest.mark.parametrize("op", list(SORTS))
def test_sort_with_ties_and_nan(op):
    def scenario(torch):
        x = leaf(torch, WITH_TIES)
        result = SORTS[op](torch, x)
        values_, indices = result
        shown = saved(values_.grad_fn)
        (values_.nan_to_num() * torch.arange(values_.numel()).reshape(values_.shape)).sum() \
            .backward()
        return (type(result).__name__, repr(result), indices, graph(values_.grad_fn), shown,
                x.grad)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("stable", [False, True])
@pytest.mark.parametrize("size", [17, 40, 1000])
def test_sort_order_of_many_ties(size, stable, descending):
    """Beyond 16 elements ``std::sort`` is a quicksort: equal values come out of order."""
    def scenario(torch):
        x = torch.tensor(many_ties(size, seed=size))
        return (x.sort(descending=descending, stable=stable).indices,
                torch.argsort(x, descending=descending, stable=stable))

    assert_same_outcome(scenario)


def test_sort_of_integers_bools_and_a_0d_tensor():
    def scenario(torch):
        return (torch.tensor([3, 1, 2]).sort(), torch.tensor([True, False, True]).sort(),
                torch.tensor(5.0).sort(), torch.tensor([7, 7, 1], dtype=torch.uint8).argsort(),
                torch.tensor([[2, 1], [0, 3]], dtype=torch.int32).sort(0, descending=True))

    assert_same_outcome(scenario)


TOPK = {
    "topk(3)": lambda torch, x: x.topk(3),
    "topk(3, largest=False)": lambda torch, x: x.topk(3, largest=False),
    "topk(4, largest=False, sorted=False)": lambda torch, x: x.topk(4, largest=False,
                                                                    sorted=False),
    "topk(2, dim=0)": lambda torch, x: torch.topk(x, 2, dim=0),
    "topk(7)": lambda torch, x: x.topk(7),
    "topk(0)": lambda torch, x: x.topk(0),
    "topk(1, sorted=False)": lambda torch, x: x.topk(1, sorted=False),
}


@pytest.mark.parametrize("op", list(TOPK))
def test_topk_with_ties_and_nan(op):
    def scenario(torch):
        x = leaf(torch, WITH_TIES)
        result = TOPK[op](torch, x)
        values_, indices = result
        shown = saved(values_.grad_fn)
        (values_.nan_to_num() * 2).sum().backward()
        return type(result).__name__, values_, indices, graph(values_.grad_fn), shown, x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("k", [1, 3, 10, 15, 16, 40, 200])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("ordered", [True, False])
def test_topk_order_of_many_ties(k, largest, ordered):
    """``nth_element`` (and a sort of the first k - 1) for large k, ``partial_sort`` (a
    heap) when 64 k <= n: each leaves equal values in its own order."""
    def scenario(torch):
        x = torch.tensor(many_ties(1000, seed=k))
        result = x.topk(k, largest=largest, sorted=ordered)
        return result.values, result.indices

    assert_same_outcome(scenario)


def test_topk_of_small_tensors_and_integers():
    def scenario(torch):
        y = torch.tensor([1.0, 2, 2, 2, 3, 3])
        return (y.topk(3), y.topk(3, largest=False), y.topk(2, sorted=False),
                torch.tensor(5.0).topk(1), torch.tensor([3, 1, 2]).topk(2),
                torch.tensor([[1, 5, 5], [2, 2, 0]]).topk(2, 1, largest=False))

    assert_same_outcome(scenario)


def test_the_top_activations_of_a_layer_in_a_forward_hook():
    def scenario(torch):
        torch.manual_seed(0)
        layer = torch.nn.Linear(6, 10)
        top = []
        layer.register_forward_hook(lambda m, args, out: top.append(out.topk(3, dim=1)))
        layer(torch.tensor(values((2, 6), seed=3)))
        top[0].values.sum().backward()
        return top[0].indices, layer.weight.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.ones(2, 3).topk(4), id="k too large"),
    pytest.param(lambda torch: torch.ones(2, 3).topk(-1), id="negative k"),
    pytest.param(lambda torch: torch.ones(2, 3).sort(2), id="sort dim"),
    pytest.param(lambda torch: torch.ones(2, 3).topk(1, dim=-3), id="topk dim"),
])
def test_errors(call):
    assert_same_outcome(call)


def test_a_sorted_gradient_through_create_graph():
    def scenario(torch):
        x = leaf(torch, values((2, 5), seed=4).astype(np.float64))
        out = (x.sort(1, descending=True).values * torch.arange(5.0, dtype=torch.float64)) ** 2
        (grad,) = torch.autograd.grad(out.sum(), x, create_graph=True)
        (second,) = torch.autograd.grad(grad.sum(), x)
        return grad, second, run(torch, lambda torch, x: x.topk(2).values * x[:, :2],
                                 values((3, 4), seed=5))

    assert_same_outcome(scenario)
