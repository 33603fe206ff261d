"""``gather``, ``scatter``/``scatter_``, ``scatter_add``/``scatter_add_``, ``index_select``,
``masked_select`` and ``masked_scatter``/``masked_scatter_`` against real PyTorch: values,
graphs and saved attributes, gradients (repeated indices add up, overwritten positions pass
nothing), broadcast masks, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, saved, values

INDEX = {
    "dim=1": (1, [[0, 2], [1, 1]]),
    "dim=0": (0, [[1, 0, 1]]),
    "dim=-1 repeats": (-1, [[2, 2, 2, 0], [0, 1, 2, 1]]),
    "dim=0 taller": (0, [[0, 1], [1, 0], [1, 1]]),
}


@pytest.mark.parametrize("case", list(INDEX))
def test_gather(case):
    dim, index = INDEX[case]

    def scenario(torch):
        i = torch.tensor(index)
        result = run(torch, lambda torch, x: torch.gather(x, dim, i), values((2, 3), seed=1))
        out = leaf(torch, values((2, 3))).gather(dim, i)
        return result, saved(out.grad_fn), out.is_contiguous()

    assert_same_outcome(scenario)


def test_gather_picks_the_score_of_each_label():
    def scenario(torch):
        scores = leaf(torch, values((4, 3), seed=2))
        labels = torch.tensor([2, 0, 0, 1])
        picked = scores.log_softmax(1).gather(1, labels[:, None]).squeeze(1)
        (-picked.mean()).backward()
        return picked, scores.grad, graph(picked.grad_fn)

    assert_same_outcome(scenario)


SCATTER = {
    "scatter src": lambda torch, x, s, i, d: x.scatter(d, i, s),
    "scatter value": lambda torch, x, s, i, d: torch.scatter(x, d, i, value=2.5),
    "scatter number": lambda torch, x, s, i, d: x.scatter(d, i, -1.0),
    "scatter_add": lambda torch, x, s, i, d: torch.scatter_add(x, d, i, s),
    "scatter_ src": lambda torch, x, s, i, d: (x * 1).scatter_(d, i, s),
    "scatter_add_": lambda torch, x, s, i, d: (x * 1).scatter_add_(d, i, s),
}


@pytest.mark.parametrize("case", ["dim=1", "dim=0", "dim=-1 repeats"])
@pytest.mark.parametrize("op", list(SCATTER))
def test_scatter(op, case):
    dim, index = INDEX[case]

    def scenario(torch):
        i = torch.tensor(index)
        src_shape = tuple(np.array(index).shape)
        result = run(torch, lambda torch, x, s: SCATTER[op](torch, x, s, i, dim),
                     values((2, 3), seed=3), values(src_shape, seed=4))
        out = SCATTER[op](torch, leaf(torch, values((2, 3))), leaf(torch, values(src_shape)),
                          i, dim)
        return result, saved(out.grad_fn)

    assert_same_outcome(scenario)


def test_scatter_into_integers_and_a_larger_source():
    def scenario(torch):
        i = torch.tensor([[0, 2], [1, 1]])
        into_ints = torch.zeros(3, dtype=torch.long).scatter(0, torch.tensor([1]), 2.7)
        x, src = leaf(torch, values((2, 3))), leaf(torch, values((2, 4)))
        out = x.scatter_add(1, i, src)
        try:
            out.sum().backward()
        except RuntimeError as error:
            refused = str(error)
        return into_ints, out, refused

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch, x: torch.gather(x, 1, torch.tensor([[5]])), id="gather bound"),
    pytest.param(lambda torch, x: torch.gather(x, 1, torch.tensor([[-1]])),
                 id="gather negative"),
    pytest.param(lambda torch, x: torch.gather(x, 2, torch.tensor([[0]])), id="gather dim"),
    pytest.param(lambda torch, x: torch.gather(x, 0, torch.tensor([0, 1])), id="gather rank"),
    pytest.param(lambda torch, x: torch.gather(x, 0, torch.tensor([[0.0]])),
                 id="gather float index"),
    pytest.param(lambda torch, x: torch.gather(x, 0, torch.zeros(3, 4, dtype=torch.long)),
                 id="gather too wide"),
    pytest.param(lambda torch, x: x.scatter(1, torch.tensor([[0]]), x.double()),
                 id="scatter dtype"),
    pytest.param(lambda torch, x: x.scatter(1, torch.tensor([[3]]), x), id="scatter bound"),
    pytest.param(lambda torch, x: x.scatter(1, torch.tensor([[0, 1]]), x[:, :1]),
                 id="scatter src too small"),
    pytest.param(lambda torch, x: x.scatter(1, torch.tensor([[0]]), torch.tensor(1.0)),
                 id="scatter 0-d src"),
    pytest.param(lambda torch, x: x.scatter(1, torch.tensor([[0.0]]), x), id="scatter float"),
    pytest.param(lambda torch, x: x.index_select(1, torch.tensor([[2]])), id="index 2-d"),
    pytest.param(lambda torch, x: x.index_select(1, torch.tensor([3])), id="index bound"),
    pytest.param(lambda torch, x: x.index_select(1, torch.tensor([1.0])), id="index float"),
    pytest.param(lambda torch, x: x.masked_select(torch.tensor([1, 0, 1])), id="mask long"),
    pytest.param(lambda torch, x: x.masked_select(torch.ones(4, dtype=torch.bool)),
                 id="mask shape"),
    pytest.param(lambda torch, x: x.masked_scatter(torch.ones(3, dtype=torch.bool),
                                                   torch.ones(1)), id="source too small"),
    pytest.param(lambda torch, x: x.masked_scatter(torch.ones(3, dtype=torch.long), x),
                 id="masked_scatter long mask"),
    pytest.param(lambda torch, x: x.masked_scatter(torch.ones(3, dtype=torch.bool), x.double()),
                 id="masked_scatter dtype"),
])
def test_errors(call):
    assert_same_outcome(lambda torch: call(torch, torch.ones(2, 3)))


@pytest.mark.parametrize("index", [[2, 0, 2], [1], []])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_select(dim, index):
    def scenario(torch):
        i = torch.tensor(index, dtype=torch.long)
        if dim == 0 and index and max(index) > 1:
            i = i % 2
        result = run(torch, lambda torch, x: torch.index_select(x, dim, i), values((2, 3), seed=5))
        out = leaf(torch, values((2, 3))).index_select(dim, i)
        return result, saved(out.grad_fn), leaf(torch, values((2, 3))).index_select(
            dim, i.int()).shape

    assert_same_outcome(scenario)


MASKS = {
    "same shape": [[True, False, True], [False, False, True]],
    "a row, broadcast": [True, False, True],
    "a column, broadcast": [[True], [False]],
    "none": [False, False, False],
    "bigger than the input": [[[True, False, True]], [[False, True, True]]],
}


@pytest.mark.parametrize("mask", list(MASKS))
def test_masked_select(mask):
    def scenario(torch):
        m = torch.tensor(MASKS[mask])
        result = run(torch, lambda torch, x: torch.masked_select(x, m), values((2, 3), seed=6))
        out = leaf(torch, values((2, 3))).masked_select(m)
        return result, sorted(saved(out.grad_fn)[1])

    assert_same_outcome(scenario)


@pytest.mark.parametrize("source_shape", [(2, 3), (7,), (4,)])
@pytest.mark.parametrize("mask", ["same shape", "a row, broadcast", "a column, broadcast",
                                  "none"])
def test_masked_scatter(mask, source_shape):
    def scenario(torch):
        m = torch.tensor(MASKS[mask])
        result = run(torch, lambda torch, x, s: x.masked_scatter(m, s), values((2, 3), seed=7),
                     values(source_shape, seed=8))
        out = torch.masked_scatter(leaf(torch, values((2, 3))), m, leaf(torch, values(
            source_shape)))
        in_place = torch.zeros(2, 3)
        same = in_place.masked_scatter_(m, torch.tensor(values(source_shape))) is in_place
        return result, saved(out.grad_fn), in_place, same

    assert_same_outcome(scenario)


def test_a_gradient_mask_hook_with_masked_scatter():
    """Gradient masking: a tensor hook writes zeros where a mask says, with masked_scatter."""
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=9))
        keep = torch.tensor([[True, False, True], [True, True, False]])
        x.register_hook(lambda g: g.masked_scatter(~keep, torch.zeros(6)))
        (x * x).sum().backward()
        return x.grad

    assert_same_outcome(scenario)
