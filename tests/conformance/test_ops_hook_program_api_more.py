"""More of the tensor functions that published hook programs call, against real PyTorch:
``broadcast_to``, ``meshgrid``, ``tensor_split``, ``repeat_interleave``, ``index_add``,
``div(rounding_mode=...)``, ``squeeze`` of a tuple of dims, ``median``/``nanmedian``,
``quantile``/``nanquantile``, ``unique``, ``bincount`` and ``cdist``.

Compared as the op tables compare (values, dtype, strides and contiguity, graph,
gradients), then second derivatives where PyTorch has them, ties, NaN, equal points, inf
upstream gradients and the errors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import caught, layout, leaf, run, second_order, values

NAN, INF = math.nan, math.inf
TIES = np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, 5.0, 2.0], [2.0, 2.0, 2.0, -1.0]],
                dtype=np.float32)
DATA = {"random": values((3, 4), seed=31), "ties": TIES}




def first(result):
    """The first tensor of a tuple-returning op (values of ``median(dim)``, ...)."""
    return result[0] if isinstance(result, tuple) else result


ONE_INPUT = {
    "broadcast_to((2, 3, 4))": lambda torch, x: torch.broadcast_to(x, (2, 3, 4)),
    "x.broadcast_to((1, 3, 4))": lambda torch, x: x.broadcast_to((1, 3, 4)),
    "tensor_split(3, 1)[1]": lambda torch, x: x.tensor_split(3, 1)[1],
    "tensor_split([1, 7], 1)[1]": lambda torch, x: torch.tensor_split(x, [1, 7], dim=1)[1],
    "tensor_split(2)[0]": lambda torch, x: x.tensor_split(2)[0],
    "repeat_interleave(2)": lambda torch, x: x.repeat_interleave(2),
    "repeat_interleave(3, dim=0)": lambda torch, x: torch.repeat_interleave(x, 3, dim=0),
    "repeat_interleave(counts, dim=1)": lambda torch, x: x.repeat_interleave(
        torch.tensor([0, 2, 1, 3]), dim=1),
    "index_add(1, ..., alpha=2)": lambda torch, x: x.index_add(
        1, torch.tensor([0, 2]), x[:, :2] * 3, alpha=2),
    "index_add(0) repeats": lambda torch, x: torch.index_add(
        x, 0, torch.tensor([1, 1]), x[:2].exp()),
    "div trunc": lambda torch, x: torch.div(x * 3, 2, rounding_mode="trunc"),
    "div floor by a tensor": lambda torch, x: x.div(x.flip(0) + 3, rounding_mode="floor"),
    "squeeze((0, 2))": lambda torch, x: x.reshape(1, 3, 1, 4).squeeze((0, 2)),
    "squeeze((1, -1))": lambda torch, x: x.reshape(3, 1, 4, 1).squeeze((1, -1)),
    "median()": lambda torch, x: x.median(),
    "median(1)": lambda torch, x: x.median(1).values,
    "median(0, keepdim)": lambda torch, x: torch.median(x, 0, True).values,
    "nanmedian()": lambda torch, x: x.nanmedian(),
    "nanmedian(1)": lambda torch, x: x.nanmedian(dim=1).values,
    "quantile(0.3)": lambda torch, x: x.quantile(0.3),
    "quantile(q vector, dim=1)": lambda torch, x: torch.quantile(
        x, torch.tensor([0.25, 0.5, 1.0]), dim=1),
    "quantile(0.5, 0, keepdim)": lambda torch, x: x.quantile(0.5, 0, keepdim=True),
    "quantile(0.4, 1, lower)": lambda torch, x: x.quantile(0.4, 1, interpolation="lower"),
    "quantile(0.4, 1, higher)": lambda torch, x: x.quantile(0.4, 1, interpolation="higher"),
    "quantile(0.4, 1, nearest)": lambda torch, x: x.quantile(0.4, 1, interpolation="nearest"),
    "quantile(0.4, 1, midpoint)": lambda torch, x: x.quantile(0.4, 1,
                                                              interpolation="midpoint"),
    "nanquantile(q vector)": lambda torch, x: x.nanquantile(torch.tensor([0.1, 0.9])),
    "cdist": lambda torch, x: torch.cdist(x, x[:2] * 2),
    "cdist p=1": lambda torch, x: torch.cdist(x, x.flip(0), p=1),
    "cdist p=inf": lambda torch, x: torch.cdist(x, x[1:] + 1, p=math.inf),
    "cdist p=3": lambda torch, x: torch.cdist(x, x[:1] - 1, p=3),
    "cdist p=0.5": lambda torch, x: torch.cdist(x, x[:2] * 2, p=0.5),
    "cdist p=0": lambda torch, x: torch.cdist(x, x[:2] * 2, p=0),
    "cdist by product": lambda torch, x: torch.cdist(
        x, x[:2] * 2 + 1, compute_mode="use_mm_for_euclid_dist"),
    "cdist batched": lambda torch, x: torch.cdist(x.reshape(2, 3, 2), x.reshape(2, 3, 2) * 2),
}


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("op", list(ONE_INPUT))
def test_values_gradients_and_layout(op, data):
    assert_same_outcome(lambda torch: run(torch, ONE_INPUT[op], DATA[data]))


# cdist has no second derivative in PyTorch (test_cdist_has_no_second_derivative).
SECOND = [name for name in ONE_INPUT if not name.startswith("cdist")]


@pytest.mark.parametrize("op", SECOND)
def test_second_derivatives(op):
    assert_same_outcome(lambda torch: second_order(torch, ONE_INPUT[op], DATA["random"]))


def test_cdist_has_no_second_derivative():
    def scenario(torch):
        a = leaf(torch, values((3, 2), seed=1).astype(np.float64))
        grads = torch.autograd.grad(torch.cdist(a, a * 2).sum(), a, create_graph=True)
        return grads[0].grad_fn.name(), caught(lambda: grads[0].sum().backward())

    assert_same_outcome(scenario)


def test_meshgrid():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=2))
        y = leaf(torch, values((2,), seed=3))
        z = leaf(torch, np.float32(1.5))
        results = []
        for grids in (torch.meshgrid(x, y, indexing="ij"), torch.meshgrid([x, y], indexing="xy"),
                      torch.meshgrid(x, y, z, indexing="xy"), torch.meshgrid(x, indexing="xy"),
                      torch.meshgrid((y, x, y), indexing="ij")):
            total = sum((g * (i + 1)).sum() for i, g in enumerate(grids))
            results.append(([(g, layout(g)) for g in grids],
                            torch.autograd.grad(total, (x, y, z), allow_unused=True)))
        return results

    assert_same_outcome(scenario)


def test_meshgrid_without_indexing_warns():
    assert_same_outcome(lambda torch: torch.meshgrid(torch.arange(2), torch.arange(3)))


def test_medians_with_nan_and_ties():
    def scenario(torch):
        results = []
        for data in ([1.0, NAN, 3.0, 2.0], [NAN, NAN], [2.0, 1.0, 2.0, 1.0], [5.0], [1.0, 2.0]):
            x = torch.tensor(data, requires_grad=True)
            for op in (lambda x: x.median(), lambda x: x.nanmedian(),
                       lambda x: x.median(0).values, lambda x: x.nanmedian(0).values):
                out = op(x)
                results.append((out, torch.autograd.grad(out, x, torch.tensor(INF))))
            results.append((x.median(0).indices, x.nanmedian(0).indices))
        ints = torch.tensor([[1, 4, 2], [3, 3, 0]])
        results.append((ints.median(), ints.median(1), ints.nanmedian(0)))
        results.append((torch.tensor([]).median(), torch.tensor([]).nanmedian()))
        return results

    assert_same_outcome(scenario)


def test_quantiles_with_nan():
    def scenario(torch):
        x = torch.tensor([[1.0, NAN, 3.0, 2.0], [4.0, 0.0, 1.0, 8.0]], requires_grad=True)
        outs = [x.quantile(0.5), x.nanquantile(0.5), x.quantile(0.25, dim=1),
                x.nanquantile(torch.tensor([0.0, 0.3, 1.0]), dim=1, keepdim=True),
                torch.tensor([NAN, NAN]).nanquantile(0.5)]
        return outs, [torch.autograd.grad(out.sum(), x, allow_unused=True)
                      for out in outs[:4]]

    assert_same_outcome(scenario)


def test_unique():
    def scenario(torch):
        ints = torch.tensor([[3, 1, 2], [1, 3, 3]])
        rows = torch.tensor([[1, 2], [1, 2], [0, 5]])
        floats = torch.tensor([2.0, NAN, 1.0, NAN, 2.0], requires_grad=True)
        out = floats.unique()
        results = [torch.unique(ints), ints.unique(sorted=False),
                   torch.unique(ints, return_inverse=True),
                   torch.unique(ints, return_counts=True),
                   ints.unique(return_inverse=True, return_counts=True),
                   torch.unique(rows, dim=0, return_inverse=True, return_counts=True),
                   torch.unique(rows, dim=1, return_inverse=True, return_counts=True),
                   ints.unique(dim=-1), layout(ints.unique(dim=-1)), out, out.grad_fn.name(),
                   caught(lambda: out.sum().backward()),
                   torch.unique(torch.tensor([True, False, True])),
                   torch.unique(torch.tensor(3)),
                   torch.unique(torch.tensor([], dtype=torch.long), return_inverse=True,
                                return_counts=True)]
        return results

    assert_same_outcome(scenario)


def test_bincount():
    def scenario(torch):
        weights = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
        out = torch.bincount(torch.tensor([0, 1, 1]), weights)
        return [torch.bincount(torch.tensor([0, 1, 1, 3])), out, out.grad_fn.name(),
                caught(lambda: out.sum().backward()),
                torch.bincount(torch.tensor([0, 1]), minlength=4),
                torch.bincount(torch.tensor([], dtype=torch.long)),
                torch.bincount(torch.tensor([1, 1]), torch.tensor([1, 2])),
                torch.bincount(torch.tensor([1, 1]), torch.tensor([1.0, 2.0]).double()),
                torch.bincount(torch.tensor([1, 1], dtype=torch.uint8)),
                torch.tensor([2, 0, 2]).bincount()]

    assert_same_outcome(scenario)


def test_cdist_at_equal_points_and_with_inf_upstream():
    def scenario(torch):
        a = torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 1.0]], requires_grad=True)
        b = torch.tensor([[0.0, 0.0], [1.0, 2.0]], requires_grad=True)
        results = []
        for p in (2.0, 1.0, 0.0, INF, 3.0, 0.5, 1.5):
            out = torch.cdist(a, b, p=p)
            grad = torch.full_like(out, INF)
            results.append((out, torch.autograd.grad(out, (a, b), torch.ones_like(out)),
                            torch.autograd.grad(torch.cdist(a, b, p=p), (a, b), grad)))
        return results

    assert_same_outcome(scenario)


def test_div_rounding_of_integers_and_signs():
    def scenario(torch):
        a = torch.tensor([-7, 7, -8, 8, 0])
        b = torch.tensor([2, -2, 3, -3, 5])
        x = torch.tensor([-7.5, 7.5, -0.5, 0.5, 3.0], requires_grad=True)
        out = torch.div(x, 2, rounding_mode="floor")
        return (torch.div(a, b, rounding_mode="trunc"), torch.div(a, b, rounding_mode="floor"),
                a.div(2, rounding_mode="trunc"), a.div(2.5, rounding_mode="floor"),
                torch.div(x, 0.0, rounding_mode="trunc"), torch.div(x, 0.0, rounding_mode="floor"),
                out, out.grad_fn._saved_rounding_mode, out.grad_fn._saved_other,
                torch.autograd.grad(out, x, torch.full_like(out, INF)),
                a.divide(b, rounding_mode="floor"))

    assert_same_outcome(scenario)


ERRORS = {
    "broadcast_to smaller": lambda torch: torch.broadcast_to(torch.ones(2, 3), (3,)),
    "broadcast_to mismatch": lambda torch: torch.ones(2, 3).broadcast_to((2, 4)),
    "meshgrid bad indexing": lambda torch: torch.meshgrid(torch.ones(2), indexing="ab"),
    "meshgrid dtypes": lambda torch: torch.meshgrid(torch.ones(2), torch.ones(2).double(),
                                                    indexing="ij"),
    "meshgrid nothing": lambda torch: torch.meshgrid(indexing="ij"),
    "tensor_split 0": lambda torch: torch.ones(2, 3).tensor_split(0),
    "tensor_split dim": lambda torch: torch.ones(2, 3).tensor_split(2, 3),
    "tensor_split 2-d indices": lambda torch: torch.ones(2, 3).tensor_split(
        torch.tensor([[1]]), 1),
    "tensor_split float indices": lambda torch: torch.ones(2, 3).tensor_split(
        torch.tensor([1.0]), 1),
    "repeat_interleave negative": lambda torch: torch.ones(3).repeat_interleave(-1),
    "repeat_interleave counts size": lambda torch: torch.ones(3).repeat_interleave(
        torch.tensor([1, 2])),
    "index_add out of bounds": lambda torch: torch.ones(3, 2).index_add(
        0, torch.tensor([0, 3]), torch.ones(2, 2)),
    "index_add float index": lambda torch: torch.ones(3, 2).index_add(
        0, torch.tensor([0.0]), torch.ones(1, 2)),
    "index_add count": lambda torch: torch.ones(3, 2).index_add(
        0, torch.tensor([0]), torch.ones(2, 2)),
    "index_add 2-d index": lambda torch: torch.ones(3, 2).index_add(
        0, torch.tensor([[0]]), torch.ones(1, 2)),
    "index_add dtypes": lambda torch: torch.ones(3, 2).index_add(
        0, torch.tensor([0]), torch.ones(1, 2).double()),
    "div bad rounding_mode": lambda torch: torch.div(torch.ones(2), 2, rounding_mode="round"),
    "div integers by zero": lambda torch: torch.div(torch.tensor([1]), 0, rounding_mode="floor"),
    "squeeze repeated dims": lambda torch: torch.ones(1, 2).squeeze((0, 0)),
    "squeeze dim out of range": lambda torch: torch.ones(1, 2).squeeze((0, 2)),
    "median of nothing along 0": lambda torch: torch.ones(0, 2).median(0),
    "quantile of integers": lambda torch: torch.quantile(torch.arange(3), 0.5),
    "quantile q > 1": lambda torch: torch.quantile(torch.ones(3), 1.5),
    "quantile q dtype": lambda torch: torch.quantile(torch.ones(3), torch.tensor(
        [0.5], dtype=torch.float64)),
    "quantile interpolation": lambda torch: torch.quantile(torch.ones(3), 0.5,
                                                           interpolation="abc"),
    "quantile of nothing": lambda torch: torch.quantile(torch.ones(0), 0.5),
    "quantile 2-d q": lambda torch: torch.quantile(torch.ones(3), torch.ones(2, 2) * 0.5),
    "bincount negative": lambda torch: torch.bincount(torch.tensor([-1])),
    "bincount floats": lambda torch: torch.bincount(torch.tensor([1.0])),
    "bincount bools": lambda torch: torch.bincount(torch.tensor([True])),
    "bincount 2-d": lambda torch: torch.bincount(torch.tensor([[1]])),
    "bincount minlength": lambda torch: torch.bincount(torch.tensor([1]), minlength=-1),
    "bincount weights": lambda torch: torch.bincount(torch.tensor([1, 2]), torch.tensor([1.0])),
    "cdist columns": lambda torch: torch.cdist(torch.ones(3, 2), torch.ones(2, 1)),
    "cdist negative p": lambda torch: torch.cdist(torch.ones(3, 2), torch.ones(2, 2), p=-1),
    "cdist 1-d": lambda torch: torch.cdist(torch.ones(2), torch.ones(2, 2)),
    "cdist integers": lambda torch: torch.cdist(torch.ones(2, 2).long(), torch.ones(2, 2).long()),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_errors(call):
    assert_same_outcome(lambda torch: caught(lambda: call(torch)))


def test_an_activation_statistics_hook():
    """The activation-statistics pattern: a forward hook records each layer's median,
    quartiles and the counts of its rounded outputs; a second one compares the batch's
    rows by distance."""
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 3))
        stats = []

        def describe(module, args, out):
            flat = out.detach().flatten()
            stats.append((flat.median(), flat.quantile(torch.tensor([0.25, 0.75])),
                          torch.unique(torch.div(flat, 0.5, rounding_mode="floor"),
                                       return_counts=True),
                          torch.cdist(out.detach(), out.detach()[:1])))

        for layer in model:
            layer.register_forward_hook(describe)
        model(torch.tensor(values((5, 4), seed=32)))
        return stats

    assert_same_outcome(scenario)


def test_int8_and_int16():
    """The 8- and 16-bit integer types (quantised activations are int8): creation,
    wrapping, promotion, reductions, printing and the legacy types."""
    def scenario(torch):
        a = torch.tensor([100, -100, 3], dtype=torch.int8)
        return [a, repr(a), a + a, a * 2, a + torch.tensor([1, 2, 3], dtype=torch.uint8),
                a * 1.5, a.sum(), a.float(), torch.ones(2).to(torch.int8), a.type(),
                torch.CharTensor([1, 2]), torch.ShortTensor([[1], [2]]),
                a.to(torch.int16) * 1000, torch.tensor([1.5, -2.7]).to(torch.int8),
                torch.arange(3, dtype=torch.int8), torch.zeros(2, dtype=torch.short),
                repr(torch.int8), repr(torch.short), torch.int8.is_floating_point, a.max(),
                a.abs(), -a, a // 3, a.prod(), isinstance(a, torch.CharTensor),
                a.new_ones(2), torch.tensor([1, 2], dtype=torch.int8).cumsum(0),
                torch.from_numpy(np.array([1, 2], dtype=np.int8)),
                caught(lambda: a.mean()), caught(lambda: a.requires_grad_()),
                caught(lambda: torch.tensor([300], dtype=torch.int8))]

    assert_same_outcome(scenario)
