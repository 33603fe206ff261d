"""``nn.RNN``, ``nn.LSTM`` and ``nn.GRU`` on a ``PackedSequence``, against real PyTorch: the
packed output and the final hidden states (in the caller's order when the batch was sorted
by ``enforce_sorted=False``), ``h_0`` permuted into the sorted order, the gradients back to
the padded input through ``pack_padded_sequence`` and ``pad_packed_sequence``, the nodes
autograd records (the CPU kernel's ``narrow`` and ``cat``, and oneDNN's node for a float32
LSTM whose steps all have the same batch size), the module's hooks, the hooks on its
parameters' gradients, and the errors of a wrong input or ``h_0``.

Tolerances: as in ``test_nn_rnn.py``. A value goes through at most four time steps of two
layers, each a product of at most 8 terms, a bias and a ``tanh``/``sigmoid``: some tens of
float32 roundings (2**-24, about 6e-8, each), which ``rtol=1e-5`` covers ten times over;
``atol=1e-6`` for values near zero, where gradients cancel. Hooks, their order, shapes,
indices, node names and errors are compared exactly.
"""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import node_counts, values

LAYERS = {
    "rnn": lambda nn, batch_first: nn.RNN(3, 4, batch_first=batch_first),
    "rnn_relu_2_layers_bidirectional": lambda nn, batch_first: nn.RNN(
        3, 4, 2, "relu", batch_first=batch_first, bidirectional=True),
    "gru": lambda nn, batch_first: nn.GRU(3, 4, batch_first=batch_first),
    "gru_2_layers_bidirectional_no_bias": lambda nn, batch_first: nn.GRU(
        3, 4, 2, bias=False, batch_first=batch_first, bidirectional=True),
    "lstm": lambda nn, batch_first: nn.LSTM(3, 4, batch_first=batch_first),
    "lstm_2_layers_bidirectional": lambda nn, batch_first: nn.LSTM(
        3, 4, 2, batch_first=batch_first, bidirectional=True),
    "lstm_projections_bidirectional": lambda nn, batch_first: nn.LSTM(
        3, 4, proj_size=2, batch_first=batch_first, bidirectional=True),
}

# Lengths of a batch of three: sorted longest first (for enforce_sorted=True), or not.
LENGTHS = {"sorted": [4, 3, 2], "unsorted": [2, 4, 3]}


def _described(packed):
    return (type(packed).__name__, packed._fields, packed.data, packed.batch_sizes,
            packed.sorted_indices, packed.unsorted_indices)


def _initial_state(torch, layer, seed, dtype="float32", requires_grad=True):
    """``h_0`` (and ``c_0``) for a batch of three, every row different."""
    directions = 2 if layer.bidirectional else 1
    h_features = layer.proj_size if getattr(layer, "proj_size", 0) else layer.hidden_size
    h0 = torch.tensor(values((layer.num_layers * directions, 3, h_features), seed=seed,
                             dtype=dtype), requires_grad=requires_grad)
    if isinstance(layer, torch.nn.LSTM):
        return h0, (h0, torch.tensor(values((layer.num_layers * directions, 3,
                                             layer.hidden_size), seed=seed + 1, dtype=dtype)))
    return h0, h0


def _padded(torch, batch_first, seed, dtype="float32", features=3):
    shape = (3, 4, features) if batch_first else (4, 3, features)
    return torch.tensor(values(shape, seed=seed, dtype=dtype), requires_grad=True)


@pytest.mark.parametrize("make", LAYERS.values(), ids=LAYERS.keys())
@pytest.mark.parametrize("order", LENGTHS.keys())
@pytest.mark.parametrize("batch_first", [False, True])
def test_packed_output_hidden_state_and_gradients(make, order, batch_first):
    """The packed output, ``h_n`` (``c_n``) in the caller's order, the output padded again
    (to ``total_length`` steps, with a ``padding_value``), and every gradient: to the padded
    input, to ``h_0`` and to the parameters."""
    def scenario(torch):
        torch.manual_seed(1)
        layer = make(torch.nn, batch_first)
        x = _padded(torch, batch_first, seed=2)
        h0, hx = _initial_state(torch, layer, seed=3)
        packed = torch.nn.utils.rnn.pack_padded_sequence(
            x, torch.tensor(LENGTHS[order]), batch_first=batch_first,
            enforce_sorted=order == "sorted")
        output, hidden = layer(packed, hx)
        padded, lengths = torch.nn.utils.rnn.pad_packed_sequence(
            output, batch_first=batch_first, padding_value=-2.5, total_length=6)
        finals = hidden if isinstance(hidden, tuple) else (hidden,)
        weights = torch.linspace(-1.0, 1.0, padded.numel()).reshape(padded.shape)
        ((padded * weights).sum() + sum((h * (i + 2)).sum() for i, h in enumerate(finals))
         ).backward()
        return (_described(output), finals, padded, lengths, x.grad, h0.grad,
                [p.grad for p in layer.parameters()], output.data.stride(),
                [h.stride() for h in finals])

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
def test_a_missing_initial_state_is_zeros(name):
    """Without ``h_0`` the zeros have the first step's batch size; ``h_n`` still comes back
    in the caller's order."""
    def scenario(torch):
        torch.manual_seed(4)
        layer = getattr(torch.nn, name)(3, 4, num_layers=2)
        packed = torch.nn.utils.rnn.pack_sequence(
            [torch.tensor(values((length, 3), seed=length)) for length in (1, 3, 2)],
            enforce_sorted=False)
        output, hidden = layer(packed)
        finals = hidden if isinstance(hidden, tuple) else (hidden,)
        return _described(output), finals, torch.nn.utils.rnn.unpack_sequence(output)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


GRAPHS = {
    "rnn_bidirectional": lambda nn: nn.RNN(3, 4, bidirectional=True),
    "gru_2_layers": lambda nn: nn.GRU(3, 4, 2),
    "lstm_bidirectional": lambda nn: nn.LSTM(3, 4, bidirectional=True),
}


@pytest.mark.parametrize("make", GRAPHS.values(), ids=GRAPHS.keys())
@pytest.mark.parametrize("lengths", [[4, 3, 1], [4, 4, 4]], ids=["ragged", "uniform"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_graph_is_the_cpu_kernels(make, lengths, dtype):
    """ATen's packed layers: one input projection over all rows, each step ``narrow``-ed
    out of it, the hidden state cut (forwards) or grown (backwards) as sequences end and
    start, the steps joined with ``cat``. A float32 LSTM whose steps all have the same batch
    size is reshaped to a padded batch and runs on oneDNN instead."""
    def scenario(torch):
        torch.manual_seed(5)
        layer = make(torch.nn).to(getattr(torch, dtype))
        x = _padded(torch, False, seed=6, dtype=dtype)
        output, hidden = layer(torch.nn.utils.rnn.pack_padded_sequence(x, lengths))
        finals = hidden if isinstance(hidden, tuple) else (hidden,)
        return (node_counts(output.data), [node_counts(h) for h in finals],
                output.data.grad_fn.name())

    assert_same_outcome(scenario)


@pytest.mark.parametrize("batch_first", [False, True])
def test_a_float32_lstm_with_steps_of_one_batch_size_runs_on_onednn(batch_first):
    """Equal lengths: the packed ``data`` is reshaped to ``(T, B, features)``, run by
    oneDNN's node, and the output reshaped back; the values and gradients are the
    cells'."""
    def scenario(torch):
        torch.manual_seed(12)
        layer = torch.nn.LSTM(3, 4, 2, batch_first=batch_first, bidirectional=True)
        x = _padded(torch, batch_first, seed=13)
        h0, hx = _initial_state(torch, layer, seed=14)
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, [4, 4, 4], batch_first=batch_first,
                                                         enforce_sorted=False)
        output, (h_n, c_n) = layer(packed, hx)
        (output.data.pow(2).sum() + h_n.sum() + (c_n * 2).sum()).backward()
        return (_described(output), h_n, c_n, x.grad, h0.grad,
                [p.grad for p in layer.parameters()], output.data.grad_fn.name())

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_dropout_between_layers_draws_like_pytorch():
    def scenario(torch):
        torch.manual_seed(7)
        layer = torch.nn.GRU(3, 4, num_layers=3, dropout=0.5)
        packed = torch.nn.utils.rnn.pack_padded_sequence(_padded(torch, False, seed=8),
                                                         [4, 2, 1])
        trained = layer(packed)[0].data
        layer.eval()
        return trained, layer(packed)[0].data, torch.rand(2)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def _describe(value):
    """What a hook received: tensors by shape and node, tuples (and PackedSequences) by
    their type and items."""
    if value is None:
        return None
    if hasattr(value, "grad_fn"):
        return ("tensor", tuple(value.shape), value.grad_fn.name() if value.grad_fn else None)
    if isinstance(value, tuple):
        return (type(value).__name__, [_describe(item) for item in value])
    return type(value).__name__


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
def test_module_hooks_and_parameter_gradient_hooks(name):
    """Forward hooks get the ``PackedSequence`` in ``args`` and ``(PackedSequence, h_n)``
    (``(PackedSequence, (h_n, c_n))``) as ``output``; a forward hook's replacement is what
    the call returns. The full backward hooks see no gradient for the input (a
    ``PackedSequence`` is not a tensor, so PyTorch warns that they fire on the outputs'
    gradients), and the hooks on the parameters' gradients fire in PyTorch's order."""
    def scenario(torch):
        torch.manual_seed(9)
        layer = getattr(torch.nn, name)(3, 4, bidirectional=True)
        seen = []

        def forward_hook(module, args, output):
            seen.append(("forward", _describe(args), _describe(output)))
            packed = output[0]
            return (type(packed)(packed.data * 2, *packed[1:]), output[1])

        layer.register_forward_pre_hook(
            lambda module, args: seen.append(("pre", _describe(args))))
        layer.register_forward_hook(forward_hook)
        layer.register_full_backward_pre_hook(
            lambda module, grad_output: seen.append(("backward_pre", _describe(grad_output))))
        layer.register_full_backward_hook(lambda module, grad_input, grad_output: seen.append(
            ("backward", _describe(grad_input), _describe(grad_output))))
        for parameter_name, parameter in layer.named_parameters():
            parameter.register_hook(lambda grad, n=parameter_name: seen.append(
                ("grad", n, tuple(grad.shape))))
        layer.weight_ih_l0_reverse.register_post_accumulate_grad_hook(
            lambda parameter: seen.append(("accumulated", tuple(parameter.grad.shape))))
        x = _padded(torch, True, seed=10)
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, [2, 4, 3], batch_first=True,
                                                         enforce_sorted=False)
        output, hidden = layer(packed)
        padded, _ = torch.nn.utils.rnn.pad_packed_sequence(output, batch_first=True)
        h_n = hidden[0] if isinstance(hidden, tuple) else hidden
        (padded.sum() + h_n.sum()).backward()
        return seen, _described(output), x.grad

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def _packed(torch, lengths=(4, 3, 2), features=3, dtype="float32", enforce_sorted=True):
    x = torch.tensor(values((4, 3, features), seed=11, dtype=dtype))
    return torch.nn.utils.rnn.pack_padded_sequence(x, torch.tensor(list(lengths)),
                                                   enforce_sorted=enforce_sorted)


def _zeros(torch, name, *shape):
    return (torch.zeros(*shape), torch.zeros(*shape)) if name == "LSTM" else torch.zeros(*shape)


ERRORS = {
    "hidden_batch_smaller_than_the_permutation": lambda torch, name, layer: layer(
        _packed(torch, (2, 4, 3), enforce_sorted=False), _zeros(torch, name, 1, 2, 4)),
    "hidden_batch_larger_than_the_permutation_is_cut": lambda torch, name, layer: layer(
        _packed(torch, (2, 4, 3), enforce_sorted=False), _zeros(torch, name, 1, 5, 4))[1],
    "hidden_batch_too_small": lambda torch, name, layer: layer(
        _packed(torch), _zeros(torch, name, 1, 2, 4)),
    "hidden_batch_too_large": lambda torch, name, layer: layer(
        _packed(torch), _zeros(torch, name, 1, 4, 4)),
    "hidden_size": lambda torch, name, layer: layer(_packed(torch),
                                                    _zeros(torch, name, 1, 3, 5)),
    "input_size": lambda torch, name, layer: layer(_packed(torch, features=5)),
    "input_dtype": lambda torch, name, layer: layer(_packed(torch, dtype="float64")),
}


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_errors_of_a_packed_input(name, call):
    """RNN and GRU check a packed input and ``h_0`` in Python (after permuting ``h_0``: a
    larger batch is cut to the permutation's length and passes); LSTM checks nothing there,
    so its errors come from the computation (the product, the in-place add of the step's
    gates). (The lengths are ragged: a float32 LSTM with uniform ones would run on oneDNN,
    which PyTorch does not guard against a wrong ``h_0``.)"""
    def scenario(torch):
        return call(torch, name, getattr(torch.nn, name)(3, 4))

    assert_same_outcome(scenario)


LSTM_ERRORS = {
    "more_layers_of_hidden_state": lambda torch, layer: layer(
        _packed(torch), (torch.zeros(2, 3, 4), torch.zeros(2, 3, 4))),
    "cell_state_of_another_size": lambda torch, layer: layer(
        _packed(torch), (torch.zeros(1, 3, 4), torch.zeros(1, 3, 5))),
    "cell_state_batch": lambda torch, layer: layer(
        _packed(torch), (torch.zeros(1, 3, 4), torch.zeros(1, 2, 4))),
    "two_dimensional_state": lambda torch, layer: layer(
        _packed(torch), (torch.zeros(3, 4), torch.zeros(3, 4))),
    "input_with_three_dimensions": lambda torch, layer: layer(
        torch.nn.utils.rnn.pack_padded_sequence(torch.ones(4, 3, 3, 1), [4, 3, 2])),
}


@pytest.mark.parametrize("call", LSTM_ERRORS.values(), ids=LSTM_ERRORS.keys())
def test_lstm_errors_come_from_the_kernel(call):
    def scenario(torch):
        return call(torch, torch.nn.LSTM(3, 4))

    assert_same_outcome(scenario)


def test_a_bidirectional_lstm_needs_an_even_number_of_states():
    def scenario(torch):
        layer = torch.nn.LSTM(3, 4, bidirectional=True)
        return layer(_packed(torch), (torch.zeros(3, 3, 4), torch.zeros(3, 3, 4)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["RNN", "GRU"])
def test_a_packed_input_must_be_two_dimensional(name):
    def scenario(torch):
        layer = getattr(torch.nn, name)(3, 4)
        return layer(torch.nn.utils.rnn.pack_padded_sequence(torch.ones(4, 3, 3, 1),
                                                             [4, 3, 2]))

    assert_same_outcome(scenario)
