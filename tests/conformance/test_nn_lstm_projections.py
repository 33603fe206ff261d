"""``nn.LSTM(proj_size=...)`` against real PyTorch: the ``weight_hr_l{k}`` parameters (their
names, shapes, order in ``named_parameters()``, ``_flat_weights_names`` and the
``state_dict``, drawn from the seed as PyTorch draws them), ``h`` of ``proj_size``
features beside ``c`` of ``hidden_size``, the outputs, gradients and graph, the warning a
float32 LSTM gives once (projections do not run on oneDNN), and the errors: a
``proj_size`` out of range, ``proj_size`` given to ``RNN`` or ``GRU``, states of the wrong
size.

Tolerances: as in ``test_nn_rnn.py`` (a few time steps of float32 products of at most 8
terms, ``tanh`` and ``sigmoid``: some tens of roundings of 2**-24, covered ten times over
by ``rtol=1e-5``; ``atol=1e-6`` near zero). Initial weights, names, shapes, nodes,
warnings and errors are compared exactly.
"""

from __future__ import annotations

import warnings

import pytest
from harness import assert_same_outcome
from ops_support import node_counts, values

LAYERS = {
    "one_layer": lambda nn: nn.LSTM(3, 4, proj_size=2),
    "two_layers_bidirectional_no_bias": lambda nn: nn.LSTM(
        3, 5, num_layers=2, bias=False, bidirectional=True, proj_size=3),
    "batch_first": lambda nn: nn.LSTM(3, 4, proj_size=1, batch_first=True),
    # RNNBase takes proj_size as its eighth positional argument; only the keyword is refused.
    "gru_positional_proj_size": lambda nn: nn.GRU(3, 4, 1, True, False, 0.0, False, 2),
}


@pytest.mark.parametrize("make", LAYERS.values(), ids=LAYERS.keys())
def test_parameters_are_named_ordered_and_drawn_as_in_pytorch(make):
    def scenario(torch):
        torch.manual_seed(0)
        layer = make(torch.nn)
        return ([(name, tuple(p.shape)) for name, p in layer.named_parameters()],
                [p.detach().clone() for p in layer.parameters()], layer._flat_weights_names,
                list(layer.state_dict()), repr(layer), layer.proj_size,
                [[tuple(w.shape) for w in weights] for weights in layer.all_weights],
                torch.rand(2))

    assert_same_outcome(scenario, rtol=0, atol=0)


def _run(torch, layer, dtype, seed, batched=True):
    """Output, ``(h_n, c_n)`` and every gradient, from a given ``(h_0, c_0)``."""
    directions = 2 if layer.bidirectional else 1
    batch = (2,) if batched else ()
    x_shape = ((2, 5) if layer.batch_first else (5, 2)) if batched else (5,)
    x = torch.tensor(values(x_shape + (3,), seed=seed, dtype=dtype), requires_grad=True)
    h0 = torch.tensor(values((layer.num_layers * directions, *batch, layer.proj_size),
                             seed=seed + 1, dtype=dtype), requires_grad=True)
    c0 = torch.tensor(values((layer.num_layers * directions, *batch, layer.hidden_size),
                             seed=seed + 2, dtype=dtype), requires_grad=True)
    output, (h_n, c_n) = layer(x, (h0, c0))
    (output.pow(2).sum() + h_n.sum() + (c_n * 3).sum()).backward()
    return (output, h_n, c_n, x.grad, h0.grad, c0.grad, [p.grad for p in layer.parameters()])


PROJECTED = {name: LAYERS[name] for name in ("one_layer", "two_layers_bidirectional_no_bias",
                                             "batch_first")}


@pytest.mark.parametrize("make", PROJECTED.values(), ids=PROJECTED.keys())
def test_outputs_states_and_gradients_in_double_precision(make):
    """Float64 takes the composite road with no warning: ``h`` (and the output) have
    ``proj_size`` features, ``c`` ``hidden_size``."""
    def scenario(torch):
        torch.manual_seed(1)
        return _run(torch, make(torch.nn).double(), "float64", seed=2)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", PROJECTED.values(), ids=PROJECTED.keys())
def test_outputs_states_and_gradients_in_single_precision(make):
    """Float32, the default. (Its warning is PyTorch's ``TORCH_WARN_ONCE``: whether this
    call gives it depends on the tests before, so the warnings are left to the next
    tests.)"""
    def scenario(torch):
        torch.manual_seed(3)
        return _run(torch, make(torch.nn), "float32", seed=4)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6, check_warnings=False)


def test_unbatched_input_and_zero_initial_state():
    def scenario(torch):
        torch.manual_seed(5)
        layer = torch.nn.LSTM(3, 4, num_layers=2, proj_size=2).double()
        output, (h_n, c_n) = layer(torch.tensor(values((5, 3), seed=6, dtype="float64")))
        return output, h_n, c_n, _run(torch, layer, "float64", seed=7, batched=False)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_a_float32_lstm_with_projections_warns_that_onednn_cannot_run_it():
    """Under ``set_warn_always(True)`` the warning comes at every call."""
    def scenario(torch):
        torch.set_warn_always(True)
        try:
            layer = torch.nn.LSTM(3, 4, proj_size=2)
            x = torch.tensor(values((2, 1, 3), seed=8))
            layer(x)
            return layer(x)[1][0].shape
        finally:
            torch.set_warn_always(False)

    assert_same_outcome(scenario)


def test_the_warning_is_given_once_per_process():
    """Once a float32 LSTM with projections has run, another call does not warn."""
    def scenario(torch):
        layer = torch.nn.LSTM(3, 4, proj_size=2)
        x = torch.tensor(values((2, 1, 3), seed=9))
        layer(x)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer(x)
        return [str(w.message) for w in caught]

    assert_same_outcome(scenario, check_warnings=False)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_the_graph_projects_each_step_with_a_product(dtype):
    """Each step's ``h`` is multiplied by ``weight_hr`` transposed (``mm``, no bias); the
    float32 LSTM runs the same composite graph, not oneDNN's node."""
    def scenario(torch):
        torch.manual_seed(10)
        layer = torch.nn.LSTM(3, 4, proj_size=2, bidirectional=True).to(getattr(torch, dtype))
        x = torch.tensor(values((3, 2, 3), seed=11, dtype=dtype))
        output, (h_n, c_n) = layer(x)
        return node_counts(output), node_counts(h_n), node_counts(c_n)

    assert_same_outcome(scenario, check_warnings=False)


def test_forward_hooks_receive_the_projected_states():
    def scenario(torch):
        torch.manual_seed(12)
        layer = torch.nn.LSTM(3, 4, proj_size=2).double()
        seen = []
        layer.register_forward_hook(lambda module, args, output: seen.append(
            (tuple(output[0].shape), [tuple(state.shape) for state in output[1]])))
        layer(torch.tensor(values((5, 2, 3), seed=13, dtype="float64")))
        return seen

    assert_same_outcome(scenario)


CONSTRUCTOR_ERRORS = {
    "negative": lambda nn: nn.LSTM(3, 4, proj_size=-1),
    "equal_to_hidden_size": lambda nn: nn.LSTM(3, 4, proj_size=4),
    "larger_than_hidden_size": lambda nn: nn.LSTM(3, 4, proj_size=5),
    "rnn": lambda nn: nn.RNN(3, 4, proj_size=2),
    "rnn_zero": lambda nn: nn.RNN(3, 4, proj_size=0),
    "gru": lambda nn: nn.GRU(3, 4, proj_size=2),
    "gru_zero": lambda nn: nn.GRU(3, 4, proj_size=0),
}


@pytest.mark.parametrize("make", CONSTRUCTOR_ERRORS.values(), ids=CONSTRUCTOR_ERRORS.keys())
def test_constructor_errors(make):
    def scenario(torch):
        return make(torch.nn)

    assert_same_outcome(scenario)


FORWARD_ERRORS = {
    "h_of_hidden_size": lambda torch: (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4)),
    "c_of_proj_size": lambda torch: (torch.zeros(1, 2, 2), torch.zeros(1, 2, 2)),
    "batch": lambda torch: (torch.zeros(1, 3, 2), torch.zeros(1, 3, 4)),
}


@pytest.mark.parametrize("states", FORWARD_ERRORS.values(), ids=FORWARD_ERRORS.keys())
def test_states_of_the_wrong_size(states):
    def scenario(torch):
        layer = torch.nn.LSTM(3, 4, proj_size=2)
        return layer(torch.ones(5, 2, 3), states(torch))

    assert_same_outcome(scenario)


def test_state_dict_between_lstms_with_and_without_projections():
    """A state dict loads into an LSTM with the same projections; into one without, the
    ``weight_hr`` keys are unexpected and ``weight_hh`` has another shape."""
    def scenario(torch):
        torch.manual_seed(14)
        source = torch.nn.LSTM(3, 4, proj_size=2)
        same = torch.nn.LSTM(3, 4, proj_size=2)
        loaded = str(same.load_state_dict(source.state_dict()))
        equal = all(torch.equal(a, b) for a, b in zip(source.parameters(), same.parameters()))
        try:
            torch.nn.LSTM(3, 4).load_state_dict(source.state_dict())
        except RuntimeError as error:
            return loaded, equal, str(error)
        return loaded, equal, None

    assert_same_outcome(scenario)
