"""Weight normalisation and spectral normalisation the legacy way (forward pre-hooks and
state-dict hooks), and ``torch._weight_norm`` / ``torch.norm_except_dim``, against real
PyTorch.

Tolerances: one forward and backward of float32 values through a norm, a division and a
small matrix product: a few roundings per element, well within ``rtol=1e-5``. The random
vectors ``weight_u``/``weight_v`` are drawn exactly as PyTorch draws them, then normalised
(a sum of squares, whose order of addition may differ in the last bit): ``rtol=1e-6``.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import values


def _linear(torch, seed=0, shape=(3, 4)):
    out_features, in_features = shape
    layer = torch.nn.Linear(in_features, out_features)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor(values(shape, seed=seed)))
        layer.bias.copy_(torch.tensor(values((out_features,), seed=seed + 1)))
    return layer


def _hook_names(module):
    return [type(hook).__name__ for hook in module._forward_pre_hooks.values()]


# -- torch._weight_norm and torch.norm_except_dim ------------------------------------------------

@pytest.mark.parametrize("shape, g_shape, dim", [
    ((3, 4), (3, 1), 0), ((3, 4), (1, 4), 1), ((2, 3, 4), (1, 3, 1), 1),
    ((2, 3, 4), (), -1), ((2, 3, 4), (2, 1, 1), 0), ((2, 3, 4), (1, 1, 4), 2), ((5,), (5,), 0),
], ids=["first", "last", "middle", "whole", "first 3d", "last 3d", "vector"])
def test_weight_norm_function_values_gradients_and_nodes(shape, g_shape, dim):
    """One node where PyTorch's fused kernel runs (the first or last dimension), the
    composite ``v * (g / norm_except_dim(v))`` elsewhere; what the node saves."""
    def scenario(torch):
        v = torch.tensor(values(shape, seed=1), requires_grad=True)
        g = torch.tensor(values(g_shape, seed=2), requires_grad=True)
        w = torch._weight_norm(v, g, dim)
        w.backward(torch.tensor(values(shape, seed=3)))
        node = w.grad_fn
        saved = [name for name in ("_saved_dim", "_saved_v", "_saved_g", "_saved_result1")
                 if hasattr(node, name)]
        return (w, v.grad, g.grad, node.name(), [n.name() for n, _ in node.next_functions],
                [getattr(node, name) for name in saved], w.is_contiguous())

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_norm_except_dim_shapes_and_graph(dim):
    def scenario(torch):
        v = torch.tensor(values((2, 3, 4), seed=4), requires_grad=True)
        norms = torch.norm_except_dim(v, 2, dim)
        names, node = [], norms.grad_fn
        while node is not None and node.name() != "torch::autograd::AccumulateGrad":
            names.append(node.name())
            node = node.next_functions[0][0]
        norms.sum().backward()
        return norms, names, v.grad, torch.norm_except_dim(v).shape

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_norm_except_dim_out_of_range():
    def scenario(torch):
        return torch.norm_except_dim(torch.ones(2, 3, 4), 2, 5)

    assert_same_outcome(scenario)


# -- nn.utils.weight_norm ------------------------------------------------------------------------

@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_reparametrises_with_a_forward_pre_hook(dim):
    """``weight`` leaves the parameters; ``weight_g`` and ``weight_v`` join them, last;
    ``weight`` is recomputed by the pre-hook, and the gradients reach g and v."""
    def scenario(torch):
        layer = _linear(torch)
        returned = torch.nn.utils.weight_norm(layer, dim=dim)
        before = layer.weight
        out = layer(torch.tensor(values((2, 4), seed=5)))
        out.sum().backward()
        return (returned is layer, [(n, tuple(p.shape)) for n, p in layer.named_parameters()],
                layer.weight_g, layer.weight_v, before, layer.weight is before,
                type(layer.weight).__name__, layer.weight.grad_fn.name(), _hook_names(layer),
                out, layer.weight_g.grad, layer.weight_v.grad, list(layer.state_dict()),
                "weight" in layer._parameters)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_weight_norm_runs_after_earlier_pre_hooks_and_before_later_ones():
    """The pre-hook is registered like any other: hooks added before it see the weight of
    the last forward, hooks added after it see the new one."""
    def scenario(torch):
        layer = _linear(torch)
        seen = []
        layer.register_forward_pre_hook(lambda m, args: seen.append(("before", m.weight)))
        torch.nn.utils.weight_norm(layer)
        layer.register_forward_pre_hook(lambda m, args: seen.append(("after", m.weight)))
        with torch.no_grad():
            layer.weight_g.mul_(2)
        layer(torch.ones(1, 4))
        return seen, _hook_names(layer)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_remove_weight_norm_makes_the_weight_a_parameter_again():
    def scenario(torch):
        layer = _linear(torch)
        torch.nn.utils.weight_norm(layer)
        with torch.no_grad():
            layer.weight_g.mul_(0.5)
        returned = torch.nn.utils.remove_weight_norm(layer)
        return (returned is layer, [(n, p) for n, p in layer.named_parameters()],
                _hook_names(layer), type(layer.weight).__name__, layer.weight.requires_grad)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_weight_norm_errors():
    def twice(torch):
        layer = torch.nn.utils.weight_norm(_linear(torch))
        return torch.nn.utils.weight_norm(layer)

    def remove_missing(torch):
        return torch.nn.utils.remove_weight_norm(_linear(torch), "bias")

    def missing_name(torch):
        return torch.nn.utils.weight_norm(_linear(torch), "kernel")

    def lazy(torch):
        return torch.nn.utils.weight_norm(torch.nn.LazyLinear(3))

    for scenario in (twice, remove_missing, missing_name, lazy):
        assert_same_outcome(scenario)


def test_weight_norm_state_dict_round_trip_and_deepcopy():
    def scenario(torch):
        layer = torch.nn.utils.weight_norm(_linear(torch))
        other = torch.nn.utils.weight_norm(_linear(torch, seed=9))
        result = other.load_state_dict(layer.state_dict())
        x = torch.tensor(values((2, 4), seed=6))
        copied = copy.deepcopy(layer)
        return (str(result), other(x), layer(x), copied(x), _hook_names(copied),
                sorted(copied.state_dict()))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


# -- nn.utils.spectral_norm ----------------------------------------------------------------------

def test_spectral_norm_draws_u_and_v_and_registers_its_hooks():
    def scenario(torch):
        torch.manual_seed(7)
        layer = torch.nn.Linear(5, 4)
        torch.nn.utils.spectral_norm(layer)
        sd = layer.state_dict()
        return (layer.weight_u, layer.weight_v, list(sd), dict(sd._metadata),
                [n for n, _ in layer.named_parameters()], [n for n, _ in layer.named_buffers()],
                _hook_names(layer), [type(h).__name__ for h in layer._state_dict_hooks.values()],
                [type(h).__name__ for h in layer._load_state_dict_pre_hooks.values()],
                type(layer.weight).__name__, torch.rand(2))

    assert_same_outcome(scenario, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("iterations", [1, 3])
def test_spectral_norm_power_iteration_in_training_not_in_eval(iterations):
    """Training forwards update ``weight_u`` and ``weight_v`` in place (their versions go
    up); an evaluation forward does not; the weight's graph ends in the division."""
    def scenario(torch):
        torch.manual_seed(8)
        layer = torch.nn.Linear(5, 4)
        torch.nn.utils.spectral_norm(layer, n_power_iterations=iterations)
        u = layer.weight_u
        x = torch.tensor(values((3, 5), seed=7))
        trace = []
        for training in (True, True, False):
            layer.train(training)
            out = layer(x)
            out.sum().backward()
            trace.append((out, layer.weight_u is u, u._version, layer.weight_v._version,
                          layer.weight.grad_fn.name(), layer.weight_orig.grad.clone()))
        return trace

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_spectral_norm_on_a_convolution_and_another_dim():
    def scenario(torch):
        torch.manual_seed(9)
        conv = torch.nn.utils.spectral_norm(torch.nn.Conv2d(2, 3, 3))
        layer = torch.nn.utils.spectral_norm(torch.nn.Linear(4, 6), dim=1, eps=1e-6)
        x = torch.tensor(values((1, 2, 4, 4), seed=8))
        return (conv.weight_u.shape, conv.weight_v.shape, conv(x), layer.weight_u.shape,
                layer.weight_v.shape, layer(torch.ones(2, 4)))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_remove_spectral_norm_removes_its_three_hooks():
    def scenario(torch):
        torch.manual_seed(10)
        layer = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2))
        layer(torch.ones(1, 3))
        torch.nn.utils.remove_spectral_norm(layer)
        return ([(n, p) for n, p in layer.named_parameters()], list(layer.state_dict()),
                _hook_names(layer), len(layer._state_dict_hooks),
                len(layer._load_state_dict_pre_hooks))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_spectral_norm_errors():
    def twice(torch):
        return torch.nn.utils.spectral_norm(torch.nn.utils.spectral_norm(torch.nn.Linear(2, 2)))

    def no_iterations(torch):
        return torch.nn.utils.spectral_norm(torch.nn.Linear(2, 2), n_power_iterations=0)

    def remove_missing(torch):
        return torch.nn.utils.remove_spectral_norm(torch.nn.Linear(2, 2))

    def none_parameter(torch):
        return torch.nn.utils.spectral_norm(torch.nn.Linear(2, 2, bias=False), "bias")

    for scenario in (twice, no_iterations, remove_missing, none_parameter):
        assert_same_outcome(scenario)


def test_spectral_norm_state_dict_round_trip_and_a_version_0_checkpoint():
    """A state dict of the current version loads as it is; one without metadata that has
    ``weight`` and no ``weight_v`` (PyTorch before 1.1) gets its ``weight_v`` recomputed
    by the load pre-hook. (A tall weight: the pseudo-inverse it solves with is then that of
    a matrix of full rank, whose result does not hang on rounding.)"""
    def scenario(torch):
        torch.manual_seed(11)
        layer = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 4))
        x = torch.tensor(values((2, 3), seed=9))
        layer(x)
        sd = layer.state_dict()
        fresh = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 4))
        fresh.load_state_dict(sd)
        fresh.eval()
        layer.eval()
        old = {key: value for key, value in sd.items() if key != "weight_v"}
        old["weight"] = layer.weight.detach().clone()
        older = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 4))
        result = older.load_state_dict(old)
        older.eval()
        metadata_twice = None
        try:
            layer._register_state_dict_hook(layer._state_dict_hooks[
                next(iter(layer._state_dict_hooks))])
            layer.state_dict()
        except RuntimeError as error:
            metadata_twice = str(error)
        return (fresh(x), layer(x), str(result), older.weight_v, older(x), metadata_twice)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_spectral_norm_strict_load_of_a_checkpoint_missing_keys():
    def scenario(torch):
        layer = torch.nn.utils.spectral_norm(torch.nn.Linear(2, 2))
        sd = {"bias": torch.zeros(2), "weight_orig": torch.ones(2, 2)}
        sd = dict(sd)
        return str(layer.load_state_dict(sd, strict=False)), layer.load_state_dict(sd)

    assert_same_outcome(scenario)


def test_weight_norm_gradient_matches_its_definition():
    """``w = g * v / ||v||`` per row: a cross-check of the gradients against the composite
    written out by hand, on both libraries."""
    def scenario(torch):
        v = torch.tensor(values((3, 4), seed=12), requires_grad=True)
        g = torch.tensor(np.abs(values((3, 1), seed=13)) + 0.5, requires_grad=True)
        fused = torch._weight_norm(v, g, 0)
        by_hand = v * (g / (v * v).sum(1, keepdim=True).sqrt())
        upstream = torch.tensor(values((3, 4), seed=14))
        return (torch.autograd.grad(fused, (v, g), upstream),
                torch.autograd.grad(by_hand, (v, g), upstream))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)
