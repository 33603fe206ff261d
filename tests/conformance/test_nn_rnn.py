"""``nn.RNN``, ``nn.LSTM``, ``nn.GRU`` and their cells against real PyTorch: the parameters
(names, order, seeded initial values), the outputs and gradients, what forward hooks
receive (the ``(output, h_n)`` and ``(output, (h_n, c_n))`` tuples), the graph's nodes, the
shapes for ``batch_first``, unbatched inputs, several layers, both directions, dropout
between layers, and the errors.

Tolerances: a few time steps of float32 (or float64) products of size at most 8 and of
``tanh``/``sigmoid``: each value goes through some tens of roundings, ``rtol=1e-5``, with
``atol=1e-6`` for values near zero. Initial weights are drawn bit for bit as PyTorch draws
them, and compared exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import node_counts, values

LAYERS = {
    "rnn": lambda nn: nn.RNN(3, 4),
    "rnn_relu_2_layers_bidirectional": lambda nn: nn.RNN(3, 4, 2, "relu", bidirectional=True),
    "gru": lambda nn: nn.GRU(3, 4),
    "gru_batch_first_no_bias": lambda nn: nn.GRU(3, 4, batch_first=True, bias=False),
    "lstm": lambda nn: nn.LSTM(3, 4),
    "lstm_2_layers_bidirectional_batch_first": lambda nn: nn.LSTM(
        3, 4, num_layers=2, bidirectional=True, batch_first=True),
}


@pytest.mark.parametrize("make", LAYERS.values(), ids=LAYERS.keys())
def test_parameters_are_named_and_drawn_as_in_pytorch(make):
    def scenario(torch):
        torch.manual_seed(0)
        layer = make(torch.nn)
        return ([(name, tuple(p.shape)) for name, p in layer.named_parameters()],
                [p.detach().clone() for p in layer.parameters()], repr(layer),
                [[tuple(w.shape) for w in weights] for weights in layer.all_weights],
                torch.rand(2))

    assert_same_outcome(scenario, rtol=0, atol=0)


@pytest.mark.parametrize("make", LAYERS.values(), ids=LAYERS.keys())
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_outputs_hidden_states_and_gradients(make, dtype):
    """``h_0`` given (and differentiated); every output and gradient."""
    def scenario(torch):
        torch.manual_seed(1)
        layer = make(torch.nn).to(getattr(torch, dtype))
        directions = 2 if layer.bidirectional else 1
        batch_first = layer.batch_first
        x = torch.tensor(values((2, 5, 3) if batch_first else (5, 2, 3), seed=2, dtype=dtype),
                         requires_grad=True)
        shape = (layer.num_layers * directions, 2, 4)
        h0 = torch.tensor(values(shape, seed=3, dtype=dtype), requires_grad=True)
        hx = (h0, torch.tensor(values(shape, seed=4, dtype=dtype))) \
            if isinstance(layer, torch.nn.LSTM) else h0
        output, hidden = layer(x, hx)
        finals = hidden if isinstance(hidden, tuple) else (hidden,)
        (output.pow(2).sum() + sum(h.sum() for h in finals)).backward()
        return (output, finals, x.grad, h0.grad, [p.grad for p in layer.parameters()],
                output.is_contiguous())

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", [LAYERS["rnn_relu_2_layers_bidirectional"], LAYERS["gru"]],
                         ids=["rnn_bidirectional", "gru"])
def test_the_graph_is_pytorchs_on_the_cpu(make):
    """The composite graph ATen records: one input projection, per-step ``addmm`` and
    in-place gates, ``stack``, ``cat`` for both directions. (Without ``batch_first``,
    whose final in-place transpose is an ordinary one here.)"""
    def scenario(torch):
        torch.manual_seed(5)
        layer = make(torch.nn).double()
        output, hidden = layer(torch.tensor(values((4, 2, 3), seed=6, dtype="float64"),
                                            requires_grad=True))
        return node_counts(output), node_counts(hidden), output.grad_fn.name()

    assert_same_outcome(scenario)


def test_lstm_graph_in_double_precision():
    def scenario(torch):
        torch.manual_seed(7)
        layer = torch.nn.LSTM(3, 4, num_layers=2).double()
        output, (h_n, c_n) = layer(torch.tensor(values((3, 2, 3), seed=8, dtype="float64")))
        return node_counts(output), node_counts(h_n), node_counts(c_n)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("options", [{}, {"num_layers": 2, "bidirectional": True,
                                         "batch_first": True}, {"bias": False}],
                         ids=["one_layer", "two_layers_bidirectional_batch_first", "no_bias"])
def test_a_float32_lstm_is_one_onednn_node_per_layer(options):
    """PyTorch's CPU LSTM in float32: ``MkldnnRnnLayerBackward0`` with seven inputs and
    three outputs, what it saves, the ``h_0`` it selects, and the three gradients a hook on
    the node receives."""
    def scenario(torch):
        torch.manual_seed(21)
        layer = torch.nn.LSTM(3, 4, **options)
        directions = 2 if layer.bidirectional else 1
        shape = (layer.num_layers * directions, 2, 4)
        h0 = torch.tensor(values(shape, seed=22), requires_grad=True)
        c0 = torch.tensor(values(shape, seed=23))
        x = torch.tensor(values((2, 5, 3) if layer.batch_first else (5, 2, 3), seed=24),
                         requires_grad=True)
        output, (h_n, c_n) = layer(x, (h0, c0))
        node = h_n.grad_fn.next_functions[-1][0]
        seen = []
        node.register_hook(lambda grad_inputs, grad_outputs: seen.append(
            (len(grad_inputs), [g is None for g in grad_outputs])))
        saved = (node._saved_reverse, node._saved_mode, node._saved_hidden_size,
                 node._saved_num_layers, node._saved_has_biases, node._saved_bidirectional,
                 node._saved_batch_first, node._saved_train, tuple(node._saved_weight2.shape),
                 tuple(node._saved_hx_.shape))
        (output.sum() + h_n.sum() * 2).backward()
        return (node_counts(output), node_counts(h_n), node_counts(c_n), node.name(),
                [n.name() if n else None for n, _ in node.next_functions], saved, seen,
                output, x.grad, h0.grad, [p.grad for p in layer.parameters()])

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
def test_forward_hooks_receive_the_output_tuple(name):
    """A forward hook gets ``(output, h_n)`` (``(output, (h_n, c_n))`` for the LSTM); one
    that returns a replacement of the same structure replaces it."""
    def scenario(torch):
        torch.manual_seed(9)
        layer = getattr(torch.nn, name)(3, 4)
        seen = []

        def hook(module, args, output):
            seen.append((type(output).__name__, len(output), type(output[1]).__name__,
                         tuple(output[0].shape)))
            return (output[0] * 0, output[1])

        def pre_hook(module, args):
            seen.append(("pre", len(args), tuple(args[0].shape)))

        layer.register_forward_pre_hook(pre_hook)
        layer.register_forward_hook(hook)
        output, hidden = layer(torch.tensor(values((5, 2, 3), seed=10)))
        return seen, output, type(hidden).__name__

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
def test_unbatched_input_and_zero_initial_state(name):
    def scenario(torch):
        torch.manual_seed(11)
        layer = getattr(torch.nn, name)(3, 4, num_layers=2)
        output, hidden = layer(torch.tensor(values((5, 3), seed=12)))
        finals = hidden if isinstance(hidden, tuple) else (hidden,)
        return output, finals

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_dropout_between_layers_draws_like_pytorch():
    def scenario(torch):
        torch.manual_seed(13)
        layer = torch.nn.GRU(3, 4, num_layers=3, dropout=0.5)
        x = torch.tensor(values((4, 2, 3), seed=14))
        trained = layer(x)[0]
        layer.eval()
        return trained, layer(x)[0], torch.rand(2)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("batched", [True, False])
def test_cells(name, batched):
    def scenario(torch):
        torch.manual_seed(15)
        cell = getattr(torch.nn, name)(3, 4)
        shape = (2, 3) if batched else (3,)
        x = torch.tensor(values(shape, seed=16), requires_grad=True)
        first = cell(x)
        state = first
        second = cell(x, state)
        result = second if isinstance(second, tuple) else (second,)
        sum(t.sum() for t in result).backward()
        return (first, second, x.grad, [p.grad for p in cell.parameters()],
                [(n, tuple(p.shape)) for n, p in cell.named_parameters()], repr(cell),
                node_counts(result[0]))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_rnn_cell_relu_and_no_bias():
    def scenario(torch):
        torch.manual_seed(17)
        cell = torch.nn.RNNCell(3, 4, bias=False, nonlinearity="relu")
        out = cell(torch.tensor(values((2, 3), seed=18)))
        return out, repr(cell), [n for n, _ in cell.named_parameters()], node_counts(out)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


CONSTRUCTOR_ERRORS = {
    "nonlinearity": lambda nn: nn.RNN(3, 4, nonlinearity="sigmoid"),
    "proj_size_gru": lambda nn: nn.GRU(3, 4, proj_size=2),
    "dropout_range": lambda nn: nn.LSTM(3, 4, dropout=1.5),
    "dropout_bool": lambda nn: nn.LSTM(3, 4, dropout=True),
    "hidden_size": lambda nn: nn.RNN(3, 0),
    "input_size_type": lambda nn: nn.GRU(3.0, 4),
    "num_layers": lambda nn: nn.RNN(3, 4, num_layers=0),
    "bias_type": lambda nn: nn.RNN(3, 4, bias=1),
    "batch_first_type": lambda nn: nn.RNN(3, 4, batch_first="yes"),
    "dropout_one_layer_warns": lambda nn: nn.GRU(3, 4, dropout=0.2).dropout,
}


@pytest.mark.parametrize("make", CONSTRUCTOR_ERRORS.values(), ids=CONSTRUCTOR_ERRORS.keys())
def test_constructor_errors_and_warnings(make):
    def scenario(torch):
        return make(torch.nn)

    assert_same_outcome(scenario)


FORWARD_ERRORS = {
    "rank": lambda torch, layer: layer(torch.ones(2, 3, 4, 5)),
    "input_size": lambda torch, layer: layer(torch.ones(5, 2, 6)),
    "hidden_shape": lambda torch, layer: layer(torch.ones(5, 2, 3), torch.zeros(1, 3, 4)),
    "hidden_rank": lambda torch, layer: layer(torch.ones(5, 2, 3), torch.zeros(2, 4)),
    "unbatched_hidden_rank": lambda torch, layer: layer(torch.ones(5, 3), torch.zeros(1, 2, 4)),
    "dtype": lambda torch, layer: layer(torch.ones(5, 2, 3, dtype=torch.float64)),
}


@pytest.mark.parametrize("name", ["RNN", "GRU"])
@pytest.mark.parametrize("call", FORWARD_ERRORS.values(), ids=FORWARD_ERRORS.keys())
def test_forward_errors(name, call):
    def scenario(torch):
        return call(torch, getattr(torch.nn, name)(3, 4))

    assert_same_outcome(scenario)


LSTM_ERRORS = {
    "rank": lambda torch, layer: layer(torch.ones(3)),
    "hidden_rank": lambda torch, layer: layer(torch.ones(5, 2, 3),
                                              (torch.zeros(2, 4), torch.zeros(1, 2, 4))),
    "cell_shape": lambda torch, layer: layer(torch.ones(5, 2, 3),
                                             (torch.zeros(1, 2, 4), torch.zeros(1, 2, 5))),
    "unbatched_rank": lambda torch, layer: layer(torch.ones(5, 3),
                                                 (torch.zeros(1, 2, 4), torch.zeros(2, 4))),
}


@pytest.mark.parametrize("call", LSTM_ERRORS.values(), ids=LSTM_ERRORS.keys())
def test_lstm_forward_errors(call):
    def scenario(torch):
        return call(torch, torch.nn.LSTM(3, 4))

    assert_same_outcome(scenario)


CELL_ERRORS = {
    "rank": lambda torch, cell: cell(torch.ones(2, 3, 4)),
    "input_size": lambda torch, cell: cell(torch.ones(2, 5)),
    "batch": lambda torch, cell: cell(torch.ones(2, 3), torch.zeros(3, 4)),
    "hidden_size": lambda torch, cell: cell(torch.ones(2, 3), torch.zeros(2, 5)),
}


@pytest.mark.parametrize("name", ["RNNCell", "GRUCell"])
@pytest.mark.parametrize("call", CELL_ERRORS.values(), ids=CELL_ERRORS.keys())
def test_cell_errors(name, call):
    def scenario(torch):
        return call(torch, getattr(torch.nn, name)(3, 4))

    assert_same_outcome(scenario)


def test_state_dict_round_trip_between_layers():
    def scenario(torch):
        torch.manual_seed(19)
        source = torch.nn.LSTM(3, 4, bidirectional=True)
        target = torch.nn.LSTM(3, 4, bidirectional=True)
        result = target.load_state_dict(source.state_dict())
        x = torch.tensor(values((3, 1, 3), seed=20))
        return list(source.state_dict()), str(result), np.allclose(
            source(x)[0].detach().numpy(), target(x)[0].detach().numpy())

    assert_same_outcome(scenario)
