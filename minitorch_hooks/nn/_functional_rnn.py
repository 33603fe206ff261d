"""The recurrent computations behind ``nn.RNN``, ``nn.GRU``, ``nn.LSTM`` and their cells.

PyTorch computes them in C++ (``torch._VF.rnn_tanh``, ``gru``, ``lstm``, ``lstm_cell``...,
in ATen's ``RNN.cpp``) out of ordinary operations, so on the CPU their graph is made of
ordinary nodes: this file performs the same operations in the same order, and records the
same graph.

A *cell* is one time step: from the step's input and the previous hidden state, the next
hidden state. With ``W_ih``, ``W_hh`` the input and hidden weights (their rows stacked per
gate) and ``b_ih``, ``b_hh`` the biases:

* RNN: ``h' = tanh(W_hh h + b_hh + W_ih x + b_ih)`` (or ``relu``);
* LSTM: four gates from ``W_hh h + b_hh + W_ih x + b_ih``, cut in four with
  ``unsafe_chunk``: input ``i``, forget ``f``, cell ``g``, output ``o`` (sigmoid, sigmoid,
  tanh, sigmoid, each applied in place); ``c' = f * c + i * g`` and ``h' = o * tanh(c')``;
* GRU: input and hidden pre-activations each cut in three (reset, update, new):
  ``r = sigmoid(hr + ir)``, ``z = sigmoid(hz + iz)``, ``n = tanh(in + r * hn)``,
  ``h' = (h - n) * z + n``.

A *layer* runs a cell over the time steps: on the CPU PyTorch first applies the input
weights to the whole sequence at once (one ``linear``), ``unbind``s it into steps, runs the
cells on the hidden weights only, and ``stack``s the step outputs. A bidirectional layer
also runs the reversed sequence with its own weights and concatenates the two outputs on
the last dimension. Layers are stacked, with dropout between them in training; the final
hidden states of every layer (and direction) are stacked into ``h_n`` (and ``c_n``).
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.LSTM.html>
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import _dtype
from .._creation import zeros
from .._ops.mkldnn_rnn import mkldnn_rnn_layer
from .._ops.shape import cat, stack
from .._ops.unsafe_split import unsafe_chunk
from .._tensor import Tensor
from . import functional as F

Hidden = Any  # a tensor h, or for the LSTM a pair (h, c)
Cell = Callable[[Tensor, Hidden, Sequence[Tensor | None], bool], Hidden]


def _linear_ih(input: Tensor, params: Sequence[Tensor | None]) -> Tensor:
    return F.linear(input, params[0], params[2])


def _linear_hh(hidden: Tensor, params: Sequence[Tensor | None]) -> Tensor:
    return F.linear(hidden, params[1], params[3])


def _simple_cell(nonlinearity: Callable[[Tensor], Tensor]) -> Cell:
    def cell(input: Tensor, hidden: Tensor, params: Sequence[Tensor | None],
             pre_computed: bool) -> Tensor:
        pre_activation = _linear_hh(hidden, params)
        return nonlinearity(pre_activation.add_(
            input if pre_computed else _linear_ih(input, params)))

    return cell


tanh_cell = _simple_cell(lambda x: x.tanh())
relu_cell = _simple_cell(lambda x: x.relu())


def lstm_cell_step(input: Tensor, hidden: tuple[Tensor, Tensor],
                   params: Sequence[Tensor | None], pre_computed: bool) -> tuple[Tensor, Tensor]:
    hx, cx = hidden
    gates = _linear_hh(hx, params).add_(input if pre_computed else _linear_ih(input, params))
    ingate, forgetgate, cellgate, outgate = unsafe_chunk(gates, 4, 1)
    ingate.sigmoid_()
    forgetgate.sigmoid_()
    cellgate.tanh_()
    outgate.sigmoid_()
    cy = (forgetgate * cx).add_(ingate * cellgate)
    hy = outgate * cy.tanh()
    return hy, cy


def gru_cell_step(input: Tensor, hidden: Tensor, params: Sequence[Tensor | None],
                  pre_computed: bool) -> Tensor:
    igates = unsafe_chunk(input if pre_computed else _linear_ih(input, params), 3, 1)
    hgates = unsafe_chunk(_linear_hh(hidden, params), 3, 1)
    reset_gate = hgates[0].add_(igates[0]).sigmoid_()
    input_gate = hgates[1].add_(igates[1]).sigmoid_()
    new_gate = igates[2].add(hgates[2].mul_(reset_gate)).tanh_()
    return (hidden - new_gate).mul_(input_gate).add_(new_gate)


def _output_of(hidden: Hidden) -> Tensor:
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _run_steps(cell: Cell, steps: Sequence[Tensor], hidden: Hidden,
               params: Sequence[Tensor | None]) -> tuple[list[Tensor], Hidden]:
    outputs = []
    for step in steps:
        hidden = cell(step, hidden, params, True)
        outputs.append(_output_of(hidden))
    return outputs, hidden


def _layer(cell: Cell, input: Tensor, hidden: Hidden,
           params: Sequence[Tensor | None]) -> tuple[Tensor, Hidden]:
    outputs, hidden = _run_steps(cell, _linear_ih(input, params).unbind(0), hidden, params)
    if not outputs:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    return stack(outputs, 0), hidden


def _bidirectional_layer(cell: Cell, input: Tensor, hidden: tuple[Hidden, Hidden],
                         params: tuple[Sequence[Tensor | None], Sequence[Tensor | None]]
                         ) -> tuple[Tensor, tuple[Hidden, Hidden]]:
    forward_outputs, forward_hidden = _run_steps(
        cell, _linear_ih(input, params[0]).unbind(0), hidden[0], params[0])
    if not forward_outputs:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    forward_output = stack(forward_outputs, 0)
    steps = list(_linear_ih(input, params[1]).unbind(0))[::-1]
    reverse_outputs, reverse_hidden = _run_steps(cell, steps, hidden[1], params[1])
    reverse_output = stack(reverse_outputs[::-1], 0)
    return (cat([forward_output, reverse_output], forward_output.dim() - 1),
            (forward_hidden, reverse_hidden))


def _gather_params(flat_weights: Sequence[Tensor], has_biases: bool
                   ) -> list[tuple[Tensor | None, ...]]:
    """``(w_ih, w_hh, b_ih, b_hh)`` for each layer and direction (biases None without)."""
    if has_biases:
        return [tuple(flat_weights[i:i + 4]) for i in range(0, len(flat_weights), 4)]
    return [(flat_weights[i], flat_weights[i + 1], None, None)
            for i in range(0, len(flat_weights), 2)]


def _stacked_layers(cell: Cell, input: Tensor, hiddens: list[Hidden],
                    flat_weights: Sequence[Tensor], has_biases: bool, num_layers: int,
                    dropout: float, train: bool, bidirectional: bool
                    ) -> tuple[Tensor, list[Hidden]]:
    params = _gather_params(flat_weights, has_biases)
    if bidirectional:
        params = [(params[i], params[i + 1]) for i in range(0, len(params), 2)]
        hiddens = [(hiddens[i], hiddens[i + 1]) for i in range(0, len(hiddens), 2)]
    final_hiddens: list[Hidden] = []
    layer_input = input
    for layer in range(num_layers):
        if bidirectional:
            layer_input, (forward, reverse) = _bidirectional_layer(
                cell, layer_input, hiddens[layer], params[layer])
            final_hiddens += [forward, reverse]
        else:
            layer_input, final = _layer(cell, layer_input, hiddens[layer], params[layer])
            final_hiddens.append(final)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, training=True)
    return layer_input, final_hiddens


def one_hidden_rnn(cell: Cell, input: Tensor, hx: Tensor, flat_weights: Sequence[Tensor],
                   has_biases: bool, num_layers: int, dropout: float, train: bool,
                   bidirectional: bool, batch_first: bool) -> tuple[Tensor, Tensor]:
    """``_VF.rnn_tanh``, ``rnn_relu`` and ``gru``: the output and the stacked ``h_n``.

    With ``batch_first`` PyTorch transposes the output back in place (``transpose_``,
    recorded as ``TransposeBackward1``); here it is an ordinary transpose
    (``TransposeBackward0``), the one difference in the graph.
    """
    if batch_first:
        input = input.transpose(0, 1)
    output, finals = _stacked_layers(cell, input, list(hx.unbind(0)), flat_weights,
                                     has_biases, num_layers, dropout, train, bidirectional)
    if batch_first:
        output = output.transpose(0, 1)
    return output, stack(finals, 0)


def lstm(input: Tensor, hx: Sequence[Tensor], flat_weights: Sequence[Tensor],
         has_biases: bool, num_layers: int, dropout: float, train: bool,
         bidirectional: bool, batch_first: bool) -> tuple[Tensor, Tensor, Tensor]:
    """``_VF.lstm``: the output, ``h_n`` and ``c_n``. A float32 LSTM takes PyTorch's oneDNN
    road (one node per layer and direction, ``_ops/mkldnn_rnn.py``); other dtypes the
    composite one, made of the cells' operations."""
    if input.dtype is _dtype.float32 and input.numel() != 0:
        return _mkldnn_lstm(input, hx, flat_weights, has_biases, num_layers, dropout, train,
                            bidirectional, batch_first)
    if batch_first:
        input = input.transpose(0, 1)
    hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    output, finals = _stacked_layers(lstm_cell_step, input, hiddens, flat_weights, has_biases,
                                     num_layers, dropout, train, bidirectional)
    if batch_first:
        output = output.transpose(0, 1)
    return (output, stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0))


def _mkldnn_lstm(input: Tensor, hx: Sequence[Tensor], flat_weights: Sequence[Tensor],
                 has_biases: bool, num_layers: int, dropout: float, train: bool,
                 bidirectional: bool, batch_first: bool) -> tuple[Tensor, Tensor, Tensor]:
    """ATen's ``mkldnn_rnn``: the input made time-major and contiguous, one
    ``mkldnn_rnn_layer`` per layer and direction (its ``h_0``, ``c_0`` selected from
    ``hx``), the directions concatenated, dropout between layers, the final states
    stacked."""
    if batch_first:
        input = input.transpose(0, 1)
    layer_input = input.contiguous()
    h0, c0 = hx[0].contiguous(), hx[1].contiguous()
    hidden_size = h0.size(2)
    directions = 2 if bidirectional else 1
    params = _gather_params(flat_weights, has_biases)
    hy: list[Tensor] = []
    cy: list[Tensor] = []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            w_ih, w_hh, b_ih, b_hh = params[index]
            if not has_biases:
                b_ih, b_hh = zeros(w_ih.shape), zeros(w_hh.shape)
            output, h, c = mkldnn_rnn_layer(layer_input, w_ih, w_hh, b_ih, b_hh, h0[index],
                                            c0[index], direction > 0, hidden_size,
                                            num_layers, has_biases, bidirectional,
                                            batch_first, train)
            outputs.append(output)
            hy.append(h)
            cy.append(c)
        layer_input = outputs[0] if directions == 1 else cat(outputs, -1)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, training=True)
    output = layer_input.transpose(0, 1) if batch_first else layer_input
    return output, stack(hy, 0), stack(cy, 0)


def check_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, gate_count: int,
               hidden_label: int = 0) -> None:
    """ATen's checks on a cell's arguments, with its messages."""
    hidden_size = w_hh.size(1)
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                           f"{w_ih.size(1)}")
    if input.size(0) != hx.size(0):
        raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden"
                           f"{hidden_label} batch size {hx.size(0)}")
    if hx.size(1) != hidden_size:
        raise RuntimeError(f"hidden{hidden_label} has inconsistent hidden_size: got "
                           f"{hx.size(1)}, expected {hidden_size}")
    for name, weight in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if weight.size(0) != gate_count * hidden_size:
            raise RuntimeError(f"{name} first dim must be {gate_count} * hidden_size = "
                               f"{gate_count * hidden_size}, but got {weight.size(0)}")
