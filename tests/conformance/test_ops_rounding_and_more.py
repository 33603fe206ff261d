"""Rounding (``floor``, ``ceil``, ``round``, ``trunc``, ``frac`` and in place), ``log2``
and ``log10``, ``dot``/``mv``/``outer``, ``narrow``, ``movedim``, ``abs_``,
``ndimension`` and ``get_device`` against real PyTorch: values, dtypes, graphs,
gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import leaf, run, saved, values

HALVES = np.array([[0.5, 1.5, 2.5, -0.5], [-2.5, 3.7, -1.2, 0.0]], dtype=np.float32)

ROUNDING = {
    "floor": lambda torch, x: x.floor(),
    "ceil": lambda torch, x: torch.ceil(x),
    "round": lambda torch, x: x.round(),
    "round(decimals=1)": lambda torch, x: torch.round(x * 1.37, decimals=1),
    "round(decimals=-1)": lambda torch, x: (x * 40).round(decimals=-1),
    "trunc": lambda torch, x: torch.trunc(x),
    "frac": lambda torch, x: x.frac(),
    "floor_": lambda torch, x: (x * 1).floor_(),
    "round_": lambda torch, x: (x * 1).round_(),
    "frac_": lambda torch, x: (x * 1).frac_(),
}


@pytest.mark.parametrize("op", list(ROUNDING))
def test_rounding(op):
    assert_same_outcome(lambda torch: run(torch, ROUNDING[op], HALVES))


@pytest.mark.parametrize("name", ["floor", "ceil", "round", "trunc", "frac"])
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float16", "float64"])
def test_rounding_of_each_dtype(name, dtype):
    def scenario(torch):
        x = torch.tensor([[1, 0], [3, 1]]).to(getattr(torch, dtype))
        return getattr(x, name)()

    assert_same_outcome(scenario)


def test_a_straight_through_rounding_hook():
    """Quantisation-aware training's trick: round forward, pass the gradient through."""
    def scenario(torch):
        x = leaf(torch, HALVES)
        y = x + (x.round() - x).detach()
        seen = []
        y.register_hook(lambda g: seen.append(g.clone()))
        (y * y).sum().backward()
        return y, x.grad, seen

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["log2", "log10"])
def test_log2_and_log10(name):
    def scenario(torch):
        result = run(torch, lambda torch, x: getattr(torch, name)(x), values((2, 3), low=0.2,
                                                                            high=3.0))
        x = leaf(torch, values((3,), low=0.2, high=3.0))
        in_place = (x.detach() * 1)
        getattr(in_place, name + "_")()
        return (result, saved(getattr(x, name)().grad_fn),
                getattr(torch, name)(torch.tensor([0, 1, 8, -1])), in_place)

    assert_same_outcome(scenario)


def test_dot_mv_outer():
    def scenario(torch):
        return (run(torch, lambda torch, a, b: torch.dot(a, b), values((3,), seed=1),
                    values((3,), seed=2)),
                run(torch, lambda torch, m, v: torch.mv(m, v), values((2, 3), seed=3),
                    values((3,), seed=4)),
                run(torch, lambda torch, a, b: torch.outer(a, b), values((2,), seed=5),
                    values((3,), seed=6)),
                run(torch, lambda torch, a, b: a.ger(b), values((2,), seed=5),
                    values((3,), seed=6)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.dot(torch.ones(2), torch.ones(3)), id="dot sizes"),
    pytest.param(lambda torch: torch.dot(torch.ones(2, 2), torch.ones(2)), id="dot 2-d"),
    pytest.param(lambda torch: torch.mv(torch.ones(2, 3), torch.ones(2)), id="mv sizes"),
    pytest.param(lambda torch: torch.mv(torch.ones(3), torch.ones(3)), id="mv 1-d"),
    pytest.param(lambda torch: torch.outer(torch.ones(2, 2), torch.ones(2)), id="outer 2-d"),
])
def test_product_errors(call):
    assert_same_outcome(call)


NARROW = [(0, 0, 1), (1, 1, 2), (-1, -2, 2), (1, 0, 3)]


@pytest.mark.parametrize("args", NARROW, ids=str)
def test_narrow(args):
    def scenario(torch):
        result = run(torch, lambda torch, x: x.narrow(*args), values((2, 3), seed=7))
        out = torch.narrow(leaf(torch, values((2, 3))), *args)
        return result, out._is_view(), out.stride(), out.storage_offset()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("args", [(1, 5, 1), (1, 2, 2), (1, 0, -1), (2, 0, 1)], ids=str)
def test_narrow_errors(args):
    assert_same_outcome(lambda torch: torch.ones(2, 3).narrow(*args))


@pytest.mark.parametrize("args", [(0, 2), (-1, 0), ((0, 1), (2, 0)), ((2,), (0,))], ids=str)
def test_movedim(args):
    def scenario(torch):
        result = run(torch, lambda torch, x: x.movedim(*args), values((2, 3, 4), seed=8))
        return result, torch.movedim(torch.ones(2, 3, 4), *args).stride(), \
            torch.ones(2, 3, 4).moveaxis(*args).shape

    assert_same_outcome(scenario)


def test_abs_ndimension_get_device():
    def scenario(torch):
        x = torch.tensor([-1.5, 2.0, -0.0])
        same = x.abs_() is x
        y = leaf(torch, np.array([-1.0, 2.0], dtype=np.float32)) * 1
        y.abs_()
        y.sum().backward()
        return x, same, y.grad_fn.name(), x.ndimension(), torch.ones(2, 3).ndimension(), \
            x.get_device()

    assert_same_outcome(scenario)
