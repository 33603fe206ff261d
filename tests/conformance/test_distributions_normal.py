"""``torch.normal`` and ``torch.distributions.Normal`` against real PyTorch: the numbers drawn
for a seed (each of ``torch.normal``'s four signatures, small and large outputs, which take
PyTorch's two sampling paths), its zero gradients (``NormalBackward1/2/3``), dtypes and
errors; then ``Normal``: parameters broadcast (numbers become tensors), ``sample`` without a
graph and ``rsample`` with one, ``log_prob``, ``cdf`` and ``entropy`` with their graphs and
gradients, ``expand``, printing, and the errors of argument validation."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import caught, graph, leaf, values


def _normal_class(torch):
    return importlib.import_module(torch.__name__ + ".distributions.normal").Normal


def _saved(node):
    return node.name(), {n: getattr(node, n) for n in sorted(dir(node)) if n.startswith("_saved_")}


DRAWS = {
    "tensor, tensor": lambda torch, m, s: torch.normal(m, s),
    "tensor, number": lambda torch, m, s: torch.normal(m, 2.5),
    "tensor": lambda torch, m, s: torch.normal(m),
    "number, tensor": lambda torch, m, s: torch.normal(1.5, s),
    "broadcast": lambda torch, m, s: torch.normal(m[:, :1], s[:1]),
    "generator": lambda torch, m, s: torch.normal(m, s, generator=torch.Generator().manual_seed(7)),
}


@pytest.mark.parametrize("shape", [(2, 3), (4, 9)])
@pytest.mark.parametrize("op", list(DRAWS))
def test_normal_draws_and_zero_gradients(op, shape):
    def scenario(torch):
        torch.manual_seed(0)
        m = leaf(torch, values(shape, seed=1))
        s = leaf(torch, np.abs(values(shape, seed=2)) + 0.1)
        out = DRAWS[op](torch, m, s)
        shown = _saved(out.grad_fn)
        out.sum().backward()
        return out, shown, graph(out.grad_fn), m.grad, s.grad, torch.rand(2)

    assert_same_outcome(scenario)


def test_normal_of_two_numbers_and_dtypes():
    def scenario(torch):
        torch.manual_seed(3)
        return (torch.normal(2.0, 3.0, (20,)), torch.normal(0.0, 1.0, size=(2, 2),
                                                             dtype=torch.float64),
                torch.normal(0.0, 1.0, (3,), requires_grad=True),
                torch.normal(torch.zeros(2, dtype=torch.float64), torch.ones(2)),
                torch.normal(torch.zeros(2), torch.ones(2, dtype=torch.float64)),
                torch.normal(torch.tensor(0.0), torch.tensor(1.0)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.normal(torch.zeros(3), torch.tensor([1.0, -1.0, 1.0])),
                 id="a negative std"),
    pytest.param(lambda torch: torch.normal(torch.zeros(3), -1.0), id="a negative number std"),
    pytest.param(lambda torch: torch.normal(torch.zeros(3), -0.5), id="std -0.5"),
    pytest.param(lambda torch: torch.normal(0.0, -1.0, (2,)), id="two numbers, negative std"),
    pytest.param(lambda torch: torch.normal(torch.zeros(2), torch.ones(3)), id="shapes"),
    pytest.param(lambda torch: torch.normal(torch.zeros(2, dtype=torch.int64), torch.ones(2)),
                 id="integer mean"),
    pytest.param(lambda torch: torch.normal(1.0, torch.ones(2, dtype=torch.int64)),
                 id="integer std"),
    pytest.param(lambda torch: torch.normal(0.0, 1.0), id="two numbers without a size"),
])
def test_normal_errors(call):
    assert_same_outcome(lambda torch: caught(lambda: call(torch)))


def test_a_distribution_of_numbers():
    def scenario(torch):
        torch.manual_seed(0)
        d = _normal_class(torch)(0, 1.5)
        return (repr(d), d.batch_shape, d.event_shape, d.loc, d.scale, d.mean, d.mode, d.stddev,
                d.variance, d.sample(), d.sample((2, 3)), d.rsample((2,)),
                d.log_prob(torch.tensor([0.5, -3.0])), d.cdf(torch.tensor(1.0)), d.entropy(),
                repr(d.support), repr(d.arg_constraints["scale"]), d.has_rsample)

    assert_same_outcome(scenario)


def test_a_batch_with_gradients():
    def scenario(torch):
        torch.manual_seed(1)
        loc = leaf(torch, np.array([0.0, 1.0], dtype=np.float32))
        scale = leaf(torch, np.array([1.0, 2.0], dtype=np.float32))
        d = _normal_class(torch)(loc, scale)
        drawn = d.sample((3,))
        reparameterised = d.rsample((3,))
        value = torch.tensor([[0.5, -1.0], [2.0, 3.0]])
        log_p, cdf, entropy = d.log_prob(value), d.cdf(value), d.entropy()
        (reparameterised.sum() + log_p.sum() + cdf.sum() + entropy.sum()).backward()
        return (repr(d), drawn, drawn.requires_grad, reparameterised,
                graph(reparameterised.grad_fn), graph(log_p.grad_fn), graph(cdf.grad_fn),
                graph(entropy.grad_fn), loc.grad, scale.grad)

    assert_same_outcome(scenario)


def test_broadcasting_expand_and_float64():
    def scenario(torch):
        torch.manual_seed(2)
        normal = _normal_class(torch)
        wide = normal(torch.zeros(2, 1), torch.ones(3))
        expanded = normal(torch.zeros(2), 1.0).expand((3, 2))
        double = normal(torch.tensor(0.0, dtype=torch.float64), 2)
        return (wide.batch_shape, wide.loc, wide.scale, wide.sample((2,)).shape,
                expanded.batch_shape, expanded.sample(), double.entropy(), double.scale.dtype,
                normal(torch.zeros(2), 1.0).perplexity())

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda normal, torch: normal(0.0, -1.0), id="negative scale"),
    pytest.param(lambda normal, torch: normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])),
                 id="zero scale"),
    pytest.param(lambda normal, torch: normal(torch.tensor(float("nan")), 1.0), id="nan loc"),
    pytest.param(lambda normal, torch: normal(0.0, -1.0, validate_args=False).scale,
                 id="not validated"),
    pytest.param(lambda normal, torch: normal([0.0], 1.0), id="a list"),
    pytest.param(lambda normal, torch: normal(0.0, 1.0).log_prob(torch.tensor(float("nan"))),
                 id="log_prob of nan"),
])
def test_validation_errors(call):
    assert_same_outcome(lambda torch: caught(lambda: call(_normal_class(torch), torch)))
