"""``F.binary_cross_entropy_with_logits`` against real PyTorch: values (large logits too),
dtypes, the node and what it saves, gradients for the input and the target, ``weight``,
``pos_weight``, every reduction and the deprecated ``size_average``/``reduce``, errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, saved, values

LOGITS = np.array([[0.5, -1.0, 3.0], [2.0, 30.0, -40.0]], dtype=np.float32)
TARGETS = np.array([[1.0, 0.0, 0.5], [0.3, 1.0, 0.0]], dtype=np.float32)

KWARGS = {
    "mean": {},
    "sum": {"reduction": "sum"},
    "none": {"reduction": "none"},
    "weight": {"weight": "w"},
    "pos_weight": {"pos_weight": "p"},
    "both, none": {"weight": "w", "pos_weight": "p", "reduction": "none"},
    "size_average=False": {"size_average": False},
    "reduce=False": {"reduce": False},
}


def _arguments(torch, kwargs):
    given = dict(kwargs)
    if "weight" in given:
        given["weight"] = torch.tensor([1.0, 2.0, 0.5])
    if "pos_weight" in given:
        given["pos_weight"] = torch.tensor([3.0, 0.5, 1.0])
    return given


@pytest.mark.parametrize("case", list(KWARGS))
def test_binary_cross_entropy_with_logits(case):
    def scenario(torch):
        kwargs = _arguments(torch, KWARGS[case])
        op = lambda torch, x, t: torch.nn.functional.binary_cross_entropy_with_logits(  # noqa: E731
            x, t, **kwargs)
        result = run(torch, op, LOGITS, TARGETS)
        node = op(torch, leaf(torch, LOGITS), leaf(torch, TARGETS)).grad_fn
        return result, saved(node)

    assert_same_outcome(scenario)


def test_dtypes_and_a_model():
    def scenario(torch):
        F = torch.nn.functional  # noqa: N806 - PyTorch's usual name
        x = leaf(torch, LOGITS)
        mixed = F.binary_cross_entropy_with_logits(x, torch.tensor(TARGETS, dtype=torch.float64))
        torch.manual_seed(0)
        model = torch.nn.Linear(3, 1)
        seen = []
        model.register_full_backward_hook(lambda m, gi, go: seen.append(go[0].clone()))
        loss = F.binary_cross_entropy_with_logits(model(torch.tensor(values((4, 3)))).squeeze(1),
                                                  torch.tensor([1.0, 0.0, 1.0, 1.0]))
        loss.backward()
        return mixed, graph(mixed.grad_fn), loss, seen, model.weight.grad

    assert_same_outcome(scenario)


def test_second_derivatives():
    def scenario(torch):
        x = leaf(torch, LOGITS.astype(np.float64))
        t = leaf(torch, TARGETS.astype(np.float64))
        p = torch.tensor([3.0, 0.5, 1.0], dtype=torch.float64)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(x * x, t, pos_weight=p)
        grads = torch.autograd.grad(loss, (x, t), create_graph=True)
        return grads, torch.autograd.grad(sum(g.sum() for g in grads), (x, t))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda functional, x, t: functional.binary_cross_entropy_with_logits(
        x, t[0]), id="shapes"),
    pytest.param(lambda functional, x, t: functional.binary_cross_entropy_with_logits(
        x, t, reduction="avg"), id="reduction"),
    pytest.param(lambda functional, x, t: functional.binary_cross_entropy_with_logits(
        x, t.long()), id="integer target"),
    pytest.param(lambda functional, x, t: functional.binary_cross_entropy_with_logits(
        x.long(), t), id="integer input"),
    pytest.param(lambda functional, x, t: functional.binary_cross_entropy_with_logits(
        x, t, weight=t[0].requires_grad_()), id="weight requires grad"),
    pytest.param(lambda functional, x, t: functional.binary_cross_entropy_with_logits(
        x, t, pos_weight=t[0].requires_grad_()), id="pos_weight requires grad"),
])
def test_errors(call):
    def scenario(torch):
        return call(torch.nn.functional, torch.tensor(LOGITS), torch.tensor(TARGETS))

    assert_same_outcome(scenario)
