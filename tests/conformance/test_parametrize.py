"""``torch.nn.utils.parametrize`` and ``parametrizations.weight_norm`` / ``spectral_norm``
against real PyTorch: the class swapped for ``Parametrized<Name>``, the state-dict keys,
``right_inverse``, ``cached``, removal, the errors, and the load-state-dict pre-hook that
reads legacy ``weight_g``/``weight_v`` checkpoints.

Tolerances: a forward and backward through a norm or a small matrix product, a few float32
roundings per element: ``rtol=1e-5``. The spectral norm's vectors start from PyTorch's
draws and go through 15 power iterations, each a product and a normalisation: ``rtol=1e-4``.
"""

from __future__ import annotations

import copy
import importlib
import pickle
import warnings

import pytest
from harness import assert_same_outcome
from ops_support import values


def _nn_utils(torch, name):
    return importlib.import_module(f"{torch.__name__}.nn.utils.{name}")


def _symmetric(torch):
    class Symmetric(torch.nn.Module):
        def forward(self, x):
            return (x + x.transpose(0, 1)) / 2

        def right_inverse(self, a):
            return a

    return Symmetric()


def _scale(torch, factor):
    class Scale(torch.nn.Module):
        def forward(self, x):
            return x * factor

        def right_inverse(self, y):
            return y / factor

    return Scale()


def _linear(torch, seed=0, shape=(3, 4)):
    out_features, in_features = shape
    layer = torch.nn.Linear(in_features, out_features)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor(values(shape, seed=seed)))
        layer.bias.copy_(torch.tensor(values((out_features,), seed=seed + 1)))
    return layer


def test_register_parametrization_swaps_the_class_and_the_state_dict_keys():
    def scenario(torch):
        parametrize = _nn_utils(torch, "parametrize")
        layer = _linear(torch)
        weight = layer.weight
        version = weight._version
        returned = parametrize.register_parametrization(layer, "weight", _scale(torch, 2.0))
        out = layer(torch.ones(1, 4))
        out.sum().backward()
        original = layer.parametrizations.weight.original
        return (returned is layer, type(layer).__name__, type(layer).__bases__[0].__name__,
                repr(layer), list(layer.state_dict()), [n for n, _ in layer.named_parameters()],
                original is weight, weight._version - version, layer.weight, out,
                original.grad, layer.weight.grad_fn.name(), "weight" in layer._parameters,
                parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "bias"),
                parametrize.type_before_parametrizations(layer).__name__)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_assigning_the_tensor_goes_through_right_inverse():
    def scenario(torch):
        parametrize = _nn_utils(torch, "parametrize")
        layer = _linear(torch)
        parametrize.register_parametrization(layer, "weight", _scale(torch, 2.0))
        original = layer.parametrizations.weight.original
        layer.weight = torch.ones(3, 4)
        return layer.parametrizations.weight.original is original, original, layer.weight

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_two_parametrizations_chain_in_registration_order():
    def scenario(torch):
        parametrize = _nn_utils(torch, "parametrize")
        layer = _linear(torch, shape=(3, 3))
        parametrize.register_parametrization(layer, "weight", _symmetric(torch))
        parametrize.register_parametrization(layer, "weight", _scale(torch, 3.0))
        return (layer.weight, repr(layer.parametrizations), list(layer.state_dict()),
                type(layer).__name__)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_cached_computes_each_parametrized_tensor_once():
    def scenario(torch):
        parametrize = _nn_utils(torch, "parametrize")
        layer = _linear(torch)
        calls = []

        class Counted(torch.nn.Module):
            def forward(self, x):
                calls.append(1)
                return x * 1

        parametrize.register_parametrization(layer, "weight", Counted())
        before = len(calls)
        with parametrize.cached():
            first, second = layer.weight, layer.weight
            with parametrize.cached():
                third = layer.weight
        fourth = layer.weight
        return before, len(calls), first is second, first is third, fourth is first

    assert_same_outcome(scenario)


@pytest.mark.parametrize("leave_parametrized", [True, False])
def test_remove_parametrizations(leave_parametrized):
    def scenario(torch):
        parametrize = _nn_utils(torch, "parametrize")
        layer = _linear(torch)
        weight = layer.weight
        parametrize.register_parametrization(layer, "weight", _scale(torch, 2.0))
        parametrize.register_parametrization(layer, "bias", _scale(torch, -1.0))
        parametrize.remove_parametrizations(layer, "weight",
                                            leave_parametrized=leave_parametrized)
        middle = (type(layer).__name__, list(layer.state_dict()))
        parametrize.remove_parametrizations(layer, "bias")
        return (middle, type(layer).__name__, hasattr(layer, "parametrizations"),
                layer.weight is weight, [(n, p) for n, p in layer.named_parameters()],
                type(layer.weight).__name__)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


PARAMETRIZE_ERRORS = {
    "no_such_tensor": lambda torch, p, layer: p.register_parametrization(
        layer, "kernel", _scale(torch, 2.0)),
    "shape_changed": lambda torch, p, layer: p.register_parametrization(
        layer, "weight", _transpose(torch)),
    "shape_changed_unsafe": lambda torch, p, layer: tuple(p.register_parametrization(
        layer, "weight", _transpose(torch), unsafe=True).weight.shape),
    "second_changes_shape": lambda torch, p, layer: p.register_parametrization(
        p.register_parametrization(layer, "weight", _scale(torch, 2.0)), "weight",
        _transpose(torch)),
    "remove_unparametrized": lambda torch, p, layer: p.remove_parametrizations(layer, "bias"),
    "empty_list": lambda torch, p, layer: p.ParametrizationList([], layer.weight),
    "no_right_inverse_on_assignment": lambda torch, p, layer: setattr(
        p.register_parametrization(layer, "weight", _transpose(torch, square=True),
                                   unsafe=True), "weight", torch.ones(3, 4)),
}


def _transpose(torch, square=False):
    class Transpose(torch.nn.Module):
        def forward(self, x):
            return x[:, :3] if square else x.transpose(0, 1)

    return Transpose()


@pytest.mark.parametrize("make", PARAMETRIZE_ERRORS.values(), ids=PARAMETRIZE_ERRORS.keys())
def test_parametrize_errors(make):
    def scenario(torch):
        return make(torch, _nn_utils(torch, "parametrize"), _linear(torch))

    assert_same_outcome(scenario)


def test_a_parametrized_module_refuses_pickling_but_deepcopies():
    def scenario(torch):
        parametrize = _nn_utils(torch, "parametrize")
        layer = _linear(torch)
        parametrize.register_parametrization(layer, "weight", _scale(torch, 2.0))
        copied = copy.deepcopy(layer)
        try:
            pickle.dumps(layer)
            refused = None
        except RuntimeError as error:
            refused = str(error)
        return (refused, type(copied).__name__, copied.weight,
                copied.parametrizations.weight.original is layer.parametrizations.weight.original)

    assert_same_outcome(scenario)


# -- parametrizations.weight_norm ---------------------------------------------------------------

@pytest.mark.parametrize("dim", [0, 1, None])
def test_parametrized_weight_norm_keys_values_and_gradients(dim):
    def scenario(torch):
        parametrizations = _nn_utils(torch, "parametrizations")
        layer = _linear(torch)
        returned = parametrizations.weight_norm(layer, dim=dim)
        out = layer(torch.tensor(values((2, 4), seed=5)))
        out.sum().backward()
        listed = layer.parametrizations.weight
        return (returned is layer, list(layer.state_dict()), listed.original0,
                listed.original1, out, listed.original0.grad, listed.original1.grad,
                layer.weight.grad_fn.name(), len(layer._load_state_dict_pre_hooks),
                type(layer).__name__)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_a_legacy_weight_norm_checkpoint_loads_into_the_parametrized_one():
    """The load-state-dict pre-hook renames ``weight_g``/``weight_v``; a new checkpoint
    loads as it is."""
    def scenario(torch):
        parametrizations = _nn_utils(torch, "parametrizations")
        legacy = _linear(torch, seed=3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            torch.nn.utils.weight_norm(legacy)
        legacy_sd = legacy.state_dict()
        layer = parametrizations.weight_norm(_linear(torch))
        result = layer.load_state_dict(legacy_sd)
        x = torch.tensor(values((2, 4), seed=6))
        other = parametrizations.weight_norm(_linear(torch, seed=7))
        second = other.load_state_dict(layer.state_dict())
        return (list(legacy_sd), str(result), layer(x), legacy(x), str(second), other(x),
                sorted(legacy_sd))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_remove_parametrized_weight_norm_leaves_the_weight():
    def scenario(torch):
        parametrizations = _nn_utils(torch, "parametrizations")
        parametrize = _nn_utils(torch, "parametrize")
        layer = parametrizations.weight_norm(_linear(torch))
        with torch.no_grad():
            layer.parametrizations.weight.original0.mul_(2)
        parametrize.remove_parametrizations(layer, "weight")
        return ([(n, p) for n, p in layer.named_parameters()], type(layer).__name__,
                len(layer._load_state_dict_pre_hooks))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_remove_weight_norm_with_leave_parametrized_false_is_refused():
    def scenario(torch):
        parametrizations = _nn_utils(torch, "parametrizations")
        parametrize = _nn_utils(torch, "parametrize")
        layer = parametrizations.weight_norm(_linear(torch))
        return parametrize.remove_parametrizations(layer, "weight", leave_parametrized=False)

    assert_same_outcome(scenario)


# -- parametrizations.spectral_norm -------------------------------------------------------------

def test_parametrized_spectral_norm_draws_iterates_and_divides():
    def scenario(torch):
        parametrizations = _nn_utils(torch, "parametrizations")
        torch.manual_seed(12)
        layer = parametrizations.spectral_norm(torch.nn.Linear(5, 4))
        norm = layer.parametrizations.weight[0]
        u = norm._u
        x = torch.tensor(values((3, 5), seed=13))
        trace = [(list(layer.state_dict()), norm._u, norm._v, u._version)]
        for training in (True, False):
            layer.train(training)
            out = layer(x)
            out.sum().backward()
            trace.append((out, norm._u is u, u._version, layer.weight.grad_fn.name(),
                          layer.parametrizations.weight.original.grad.clone()))
        return trace, torch.rand(2)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_parametrized_spectral_norm_errors_and_vector_weight():
    def missing(torch):
        return _nn_utils(torch, "parametrizations").spectral_norm(torch.nn.Linear(2, 2), "w")

    def bad_dim(torch):
        return _nn_utils(torch, "parametrizations").spectral_norm(torch.nn.Linear(2, 2),
                                                                   dim=2)

    def no_iterations(torch):
        return _nn_utils(torch, "parametrizations").spectral_norm(
            torch.nn.Linear(2, 2), n_power_iterations=0)

    def vector(torch):
        layer = _nn_utils(torch, "parametrizations").spectral_norm(_linear(torch), "bias")
        return layer.bias, list(layer.state_dict())

    for scenario in (missing, bad_dim, no_iterations, vector):
        assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)
