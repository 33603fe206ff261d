"""``GELU``, ``SiLU``, ``LeakyReLU`` and ``Softmin``, as layers and as functions, against
real PyTorch: values, ``grad_fn`` and what it saves, gradients, in-place forms, reprs,
errors, and hooks on the layers (including a hook that fails, and what it leaves)."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, saved, values

FUNCTIONS = [
    pytest.param(lambda torch, x: torch.nn.functional.gelu(x), id="gelu"),
    pytest.param(lambda torch, x: torch.nn.functional.gelu(x, approximate="tanh"),
                 id="gelu tanh"),
    pytest.param(lambda torch, x: torch.nn.functional.silu(x), id="silu"),
    pytest.param(lambda torch, x: torch.nn.functional.leaky_relu(x), id="leaky_relu"),
    pytest.param(lambda torch, x: torch.nn.functional.leaky_relu(x, 0.2), id="leaky_relu 0.2"),
    pytest.param(lambda torch, x: torch.nn.functional.softmin(x, dim=-1), id="softmin"),
    pytest.param(lambda torch, x: torch.nn.functional.softmin(x, 0, dtype=torch.float64),
                 id="softmin float64"),
    pytest.param(lambda torch, x: torch.nn.functional.silu(x * 1, inplace=True),
                 id="silu inplace"),
    pytest.param(lambda torch, x: torch.nn.functional.leaky_relu(x * 1, 0.3, inplace=True),
                 id="leaky_relu inplace"),
    pytest.param(lambda torch, x: torch.nn.functional.leaky_relu_(x * 1), id="leaky_relu_"),
    pytest.param(lambda torch, x: torch.nn.GELU()(x), id="GELU"),
    pytest.param(lambda torch, x: torch.nn.GELU("tanh")(x), id="GELU tanh"),
    pytest.param(lambda torch, x: torch.nn.SiLU()(x), id="SiLU"),
    pytest.param(lambda torch, x: torch.nn.SiLU(inplace=True)(x * 1), id="SiLU inplace"),
    pytest.param(lambda torch, x: torch.nn.LeakyReLU()(x), id="LeakyReLU"),
    pytest.param(lambda torch, x: torch.nn.LeakyReLU(0.1, True)(x * 1), id="LeakyReLU inplace"),
    pytest.param(lambda torch, x: torch.nn.Softmin(dim=1)(x), id="Softmin"),
]


@pytest.mark.parametrize("shape", [(5,), (2, 3)], ids=str)
@pytest.mark.parametrize("op", FUNCTIONS)
def test_activation_values_graph_saved_tensors_and_gradient(op, shape):
    def scenario(torch):
        result = run(torch, op, values(shape, seed=12, low=-4, high=4))
        x = leaf(torch, values(shape, seed=13))
        return result, saved(op(torch, x).grad_fn), repr(op(torch, x))

    assert_same_outcome(scenario)


def test_activation_layer_reprs():
    def scenario(torch):
        nn = torch.nn
        return [repr(m) for m in (nn.GELU(), nn.GELU(approximate="tanh"), nn.SiLU(),
                                  nn.SiLU(inplace=True), nn.LeakyReLU(),
                                  nn.LeakyReLU(0.2, inplace=True), nn.LeakyReLU(1),
                                  nn.Softmin(), nn.Softmin(dim=1),
                                  nn.Sequential(nn.Linear(2, 2), nn.GELU(), nn.Softmin(1)))]

    assert_same_outcome(scenario)


@pytest.mark.parametrize("bad", [
    pytest.param(lambda torch: torch.nn.functional.gelu(torch.ones(2), approximate="erf"),
                 id="gelu approximate"),
    pytest.param(lambda torch: torch.nn.GELU("fast")(torch.ones(2)), id="GELU approximate"),
    pytest.param(lambda torch: torch.nn.functional.gelu(torch.tensor([1, 2])), id="gelu int"),
    pytest.param(lambda torch: torch.nn.functional.silu(torch.tensor([1, 2])), id="silu int"),
    pytest.param(lambda torch: torch.nn.functional.leaky_relu(torch.tensor([1, 2])),
                 id="leaky_relu int"),
    pytest.param(lambda torch: torch.nn.functional.silu(
        torch.ones(2, requires_grad=True), inplace=True), id="silu_ of a leaf"),
    pytest.param(lambda torch: torch.nn.functional.softmin(torch.ones(2, 3)),
                 id="softmin without dim warns"),
    pytest.param(lambda torch: torch.nn.Softmin()(torch.ones(3)),
                 id="Softmin without dim warns"),
])
def test_activation_refusals_and_warnings(bad):
    assert_same_outcome(bad)


@pytest.mark.parametrize("make", [
    pytest.param(lambda nn: nn.GELU(), id="GELU"),
    pytest.param(lambda nn: nn.SiLU(), id="SiLU"),
    pytest.param(lambda nn: nn.LeakyReLU(0.2), id="LeakyReLU"),
    pytest.param(lambda nn: nn.Softmin(dim=0), id="Softmin"),
])
def test_hooks_on_activation_layers_fire_with_torch_arguments(make):
    def scenario(torch):
        layer = make(torch.nn)
        events = []
        layer.register_forward_pre_hook(lambda m, args: events.append(("pre", args)))
        layer.register_forward_hook(lambda m, args, out: events.append(("fwd", out)))
        layer.register_full_backward_pre_hook(lambda m, g: events.append(("bwd pre", g)))
        layer.register_full_backward_hook(
            lambda m, gi, go: events.append(("bwd", gi, go)))
        x = leaf(torch, values((4,), seed=14))
        out = layer(x)
        (out * torch.tensor([1.0, -2.0, 3.0, 0.5])).sum().backward()
        return events, graph(out.grad_fn), x.grad

    assert_same_outcome(scenario)


def test_a_failing_forward_hook_on_an_activation_layer_leaves_it_usable():
    def scenario(torch):
        layer = torch.nn.LeakyReLU(0.5)
        calls = []

        def fail(module, args, out):
            calls.append("hook")
            raise ValueError("refused")

        handle = layer.register_forward_hook(fail)
        x = torch.tensor([-1.0, 2.0], requires_grad=True)
        try:
            layer(x)
        except ValueError as error:
            calls.append(str(error))
        handle.remove()
        out = layer(x)
        out.sum().backward()
        return calls, out, x.grad, dict(layer._forward_hooks)

    assert_same_outcome(scenario)


def test_a_failing_backward_hook_on_an_in_place_silu_stops_backward():
    def scenario(torch):
        layer = torch.nn.SiLU(inplace=True)

        def fail(module, grad_input, grad_output):
            raise RuntimeError("stop")

        layer.register_full_backward_hook(fail)
        x = torch.tensor([-1.0, 2.0], requires_grad=True)
        out = layer(x * 1)
        try:
            out.sum().backward()
        except RuntimeError as error:
            return str(error), x.grad, graph(out.grad_fn)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("bad", [
    pytest.param(lambda torch: torch.sin(1.0), id="sin of a float"),
    pytest.param(lambda torch: torch.rsqrt([1.0]), id="rsqrt of a list"),
    pytest.param(lambda torch: torch.nn.functional.gelu(1.0), id="gelu of a float"),
    pytest.param(lambda torch: torch.nn.functional.silu(1.0), id="silu of a float"),
    pytest.param(lambda torch: torch.nn.functional.leaky_relu(1.0), id="leaky_relu of a float"),
    pytest.param(lambda torch: torch.nn.functional.gelu(torch.ones(1), "tanh"),
                 id="gelu approximate positionally"),
])
def test_a_non_tensor_or_a_positional_approximate_is_a_type_error(bad):
    assert_same_outcome(bad)
