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
  tanh, sigmoid, each applied in place); ``c' = f * c + i * g`` and ``h' = o * tanh(c')``,
  then, with ``proj_size``, projected to fewer features: ``h' = h' W_hr^T``;
* GRU: input and hidden pre-activations each cut in three (reset, update, new):
  ``r = sigmoid(hr + ir)``, ``z = sigmoid(hz + iz)``, ``n = tanh(in + r * hn)``,
  ``h' = (h - n) * z + n``.

A *layer* runs a cell over the time steps: on the CPU PyTorch first applies the input
weights to the whole sequence at once (one ``linear``), cuts it into steps, runs the cells
on the hidden weights only, and joins the step outputs. A padded sequence ``(T, B, *)`` is
cut with ``unbind`` and joined with ``stack``. A packed one (``nn.utils.rnn.PackedSequence``)
is a flat ``data`` of rows, ``batch_sizes[t]`` rows for step ``t``: it is cut with
``narrow`` and joined with ``cat``, and as the shortest sequences end the hidden state
loses their rows (kept as their final state). One loop, :func:`_run_steps`, does both. A
bidirectional layer also runs the sequence backwards with its own weights and concatenates
the two outputs on the last dimension. Layers are stacked, with dropout between them in
training; the final hidden states of every layer (and direction) are stacked into ``h_n``
(and ``c_n``).
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.LSTM.html>
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from .. import _dtype
from .._creation import zeros
from .._ops.linalg import matmul
from .._ops.mkldnn_rnn import mkldnn_rnn_layer
from .._ops.shape import cat, stack
from .._ops.unsafe_split import unsafe_chunk
from .._tensor import Tensor
from .._warnings import warn_once
from . import functional as F

Hidden = Any  # a tensor h, or for the LSTM a pair (h, c)


class CellParams(NamedTuple):
    """One layer's (and direction's) weights, as ATen's ``CellParams``; ``w_hr`` only for
    an LSTM with ``proj_size``."""
    w_ih: Tensor
    w_hh: Tensor
    b_ih: Tensor | None
    b_hh: Tensor | None
    w_hr: Tensor | None = None


Cell = Callable[[Tensor, Hidden, CellParams, bool], Hidden]


def _linear_ih(input: Tensor, params: CellParams) -> Tensor:
    return F.linear(input, params.w_ih, params.b_ih)


def _linear_hh(hidden: Tensor, params: CellParams) -> Tensor:
    return F.linear(hidden, params.w_hh, params.b_hh)


def _simple_cell(nonlinearity: Callable[[Tensor], Tensor]) -> Cell:
    def cell(input: Tensor, hidden: Tensor, params: CellParams, pre_computed: bool) -> Tensor:
        pre_activation = _linear_hh(hidden, params)
        return nonlinearity(pre_activation.add_(
            input if pre_computed else _linear_ih(input, params)))

    return cell


tanh_cell = _simple_cell(lambda x: x.tanh())
relu_cell = _simple_cell(lambda x: x.relu())


def lstm_cell_step(input: Tensor, hidden: tuple[Tensor, Tensor], params: CellParams,
                   pre_computed: bool) -> tuple[Tensor, Tensor]:
    hx, cx = hidden
    gates = _linear_hh(hx, params).add_(input if pre_computed else _linear_ih(input, params))
    ingate, forgetgate, cellgate, outgate = unsafe_chunk(gates, 4, 1)
    ingate.sigmoid_()
    forgetgate.sigmoid_()
    cellgate.tanh_()
    outgate.sigmoid_()
    cy = (forgetgate * cx).add_(ingate * cellgate)
    hy = outgate * cy.tanh()
    if params.w_hr is not None:  # the projection: matmul, not linear (no bias)
        hy = matmul(hy, params.w_hr.t())
    return hy, cy


def gru_cell_step(input: Tensor, hidden: Tensor, params: CellParams,
                  pre_computed: bool) -> Tensor:
    igates = unsafe_chunk(input if pre_computed else _linear_ih(input, params), 3, 1)
    hgates = unsafe_chunk(_linear_hh(hidden, params), 3, 1)
    reset_gate = hgates[0].add_(igates[0]).sigmoid_()
    input_gate = hgates[1].add_(igates[1]).sigmoid_()
    new_gate = igates[2].add(hgates[2].mul_(reset_gate)).tanh_()
    return (hidden - new_gate).mul_(input_gate).add_(new_gate)


# -- the hidden state: a tensor, or the LSTM's pair (h, c) --------------------------------

def _output_of(hidden: Hidden) -> Tensor:
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _hidden_rows(hidden: Hidden, start: int, end: int) -> Hidden:
    """Rows ``start:end`` (sequences of the batch) of a hidden state, by ``narrow``."""
    if isinstance(hidden, tuple):
        return tuple(_hidden_rows(part, start, end) for part in hidden)
    return hidden.narrow(0, start, end - start)


def _hidden_concat(hiddens: Sequence[Hidden]) -> Hidden:
    if isinstance(hiddens[0], tuple):
        return tuple(cat([hidden[i] for hidden in hiddens], 0) for i in range(2))
    return cat(list(hiddens), 0)


# -- one layer in one direction -------------------------------------------------------------

def _run_steps(cell: Cell, step_inputs: Iterable[Tensor], hidden: Hidden, params: CellParams,
               initial: Hidden) -> tuple[list[Tensor], Hidden, list[Hidden]]:
    """The time-step loop: each step's output, the last hidden state, and the final states
    of the sequences that ended on the way, in the order they ended.

    A step's input has one row per sequence still running. In a padded batch that is every
    sequence at every step. In a packed one, going forwards in time, a step can have fewer
    rows than the step before: the sequences in the last rows have ended (they are sorted
    longest first), so their rows of the hidden state are set aside as their final state
    and it goes on without them. Going backwards in time a step can have more: sequences
    start (at their last element), and their rows of the ``initial`` state join the hidden
    state. As in ATen, the sizes compared are the steps' (a hidden state of another batch
    size fails in the cell, not here).
    """
    outputs: list[Tensor] = []
    ended: list[Hidden] = []
    previous = None  # the previous step's batch size
    for step in step_inputs:
        running = step.size(0)
        if previous is not None and running < previous:
            ended.append(_hidden_rows(hidden, running, previous))
            hidden = _hidden_rows(hidden, 0, running)
        elif previous is not None and running > previous:
            hidden = _hidden_concat([hidden, _hidden_rows(initial, previous, running)])
        previous = running
        hidden = cell(step, hidden, params, True)
        outputs.append(_output_of(hidden))
    return outputs, hidden, ended


def _layer(cell: Cell, input: Tensor, batch_sizes: list[int] | None, hidden: Hidden,
           params: CellParams, reverse: bool) -> tuple[Tensor, Hidden]:
    """One layer in one direction: its output and final hidden state (ATen's
    ``FullLayer`` for a padded input, ``PackedLayer`` and ``ReversedPackedLayer`` for the
    ``data`` of a packed one)."""
    projected = _linear_ih(input, params)
    if batch_sizes is None:
        steps = projected.unbind(0)
        outputs, final, _ = _run_steps(cell, steps[::-1] if reverse else steps, hidden,
                                       params, hidden)
        if not outputs:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        return stack(outputs[::-1] if reverse else outputs, 0), final
    starts = [sum(batch_sizes[:t]) for t in range(len(batch_sizes))]
    times = range(len(batch_sizes) - 1, -1, -1) if reverse else range(len(batch_sizes))
    # Each step is narrowed out as the loop reaches it, as in ATen (which, going backwards,
    # grows the hidden state just before the narrow rather than after: same nodes).
    steps = (projected.narrow(0, starts[t], batch_sizes[t]) for t in times)
    if reverse:  # starts with the sequences that run to the last step
        outputs, final, _ = _run_steps(cell, steps, _hidden_rows(hidden, 0, batch_sizes[-1]),
                                       params, hidden)
        return cat(outputs[::-1], 0), final
    outputs, last, ended = _run_steps(cell, steps, hidden, params, hidden)
    # Rows in the batch's order: the longest sequences (still running at the end) first.
    return cat(outputs, 0), _hidden_concat([last, *ended[::-1]])


def _bidirectional_layer(cell: Cell, input: Tensor, batch_sizes: list[int] | None,
                         hidden: tuple[Hidden, Hidden],
                         params: tuple[CellParams, CellParams]
                         ) -> tuple[Tensor, tuple[Hidden, Hidden]]:
    forward_output, forward_hidden = _layer(cell, input, batch_sizes, hidden[0], params[0],
                                            reverse=False)
    reverse_output, reverse_hidden = _layer(cell, input, batch_sizes, hidden[1], params[1],
                                            reverse=True)
    return (cat([forward_output, reverse_output], forward_output.dim() - 1),
            (forward_hidden, reverse_hidden))


# -- the layers stacked ---------------------------------------------------------------------

def _gather_params(flat_weights: Sequence[Tensor], has_biases: bool,
                   has_projections: bool = False) -> list[CellParams]:
    """The weights of each layer and direction, from the module's flat list."""
    per_layer = 2 + 2 * has_biases + has_projections
    if len(flat_weights) % per_layer:
        raise RuntimeError("got an incorrect number of RNN parameters")
    params = []
    for i in range(0, len(flat_weights), per_layer):
        w_ih, w_hh, *rest = flat_weights[i:i + per_layer]
        b_ih, b_hh = (rest[0], rest[1]) if has_biases else (None, None)
        params.append(CellParams(w_ih, w_hh, b_ih, b_hh, rest[-1] if has_projections else None))
    return params


def _pairs(values: list[Any]) -> list[tuple[Any, Any]]:
    if len(values) % 2:
        raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


def _stacked_layers(cell: Cell, input: Tensor, batch_sizes: list[int] | None,
                    hiddens: list[Hidden], params: list[CellParams], num_layers: int,
                    dropout: float, train: bool, bidirectional: bool
                    ) -> tuple[Tensor, list[Hidden]]:
    if bidirectional:
        hiddens, params = _pairs(hiddens), _pairs(params)
    if len(hiddens) != num_layers:
        raise RuntimeError("Expected more hidden states in stacked_rnn")
    if len(params) != num_layers:
        raise RuntimeError("Expected more weights in stacked_rnn")
    final_hiddens: list[Hidden] = []
    layer_input = input
    for layer in range(num_layers):
        if bidirectional:
            layer_input, (forward, reverse) = _bidirectional_layer(
                cell, layer_input, batch_sizes, hiddens[layer], params[layer])
            final_hiddens += [forward, reverse]
        else:
            layer_input, final = _layer(cell, layer_input, batch_sizes, hiddens[layer],
                                        params[layer], reverse=False)
            final_hiddens.append(final)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, training=True)
    return layer_input, final_hiddens


def _sizes(batch_sizes: Tensor | None) -> list[int] | None:
    return None if batch_sizes is None else batch_sizes.tolist()


def one_hidden_rnn(cell: Cell, input: Tensor, hx: Tensor, flat_weights: Sequence[Tensor],
                   has_biases: bool, num_layers: int, dropout: float, train: bool,
                   bidirectional: bool, batch_first: bool = False,
                   batch_sizes: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """``_VF.rnn_tanh``, ``rnn_relu`` and ``gru``: the output and the stacked ``h_n``.

    With ``batch_sizes`` the input is a ``PackedSequence``'s ``data``, and so is the
    output. With ``batch_first`` PyTorch transposes the output back in place
    (``transpose_``, recorded as ``TransposeBackward1``); here it is an ordinary transpose
    (``TransposeBackward0``), the one difference in the graph.
    """
    if batch_first and batch_sizes is None:
        input = input.transpose(0, 1)
    output, finals = _stacked_layers(cell, input, _sizes(batch_sizes), list(hx.unbind(0)),
                                     _gather_params(flat_weights, has_biases), num_layers,
                                     dropout, train, bidirectional)
    if batch_first and batch_sizes is None:
        output = output.transpose(0, 1)
    return output, stack(finals, 0)


def _use_mkldnn(input: Tensor) -> bool:
    """Whether PyTorch's CPU LSTM takes the oneDNN road: float32 and not empty."""
    return input.dtype is _dtype.float32 and input.numel() != 0


def lstm(input: Tensor, hx: Sequence[Tensor], flat_weights: Sequence[Tensor],
         has_biases: bool, num_layers: int, dropout: float, train: bool,
         bidirectional: bool, batch_first: bool = False,
         batch_sizes: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """``_VF.lstm``: the output, ``h_n`` and ``c_n`` (with ``batch_sizes``, for the
    ``data`` of a ``PackedSequence``). An LSTM has projections when ``h`` and ``c`` differ
    in size. A float32 LSTM without them takes PyTorch's oneDNN road (one node per layer
    and direction, ``_ops/mkldnn_rnn.py``), and so does a packed one whose steps all have
    the same batch size (its ``data`` is then reshaped to a padded batch and back); the
    rest takes the composite road, made of the cells' operations."""
    has_projections = hx[0].size(2) != hx[1].size(2)
    if batch_sizes is not None:
        sizes = batch_sizes.tolist()
        if not has_projections and _use_mkldnn(input) and len(set(sizes)) == 1:
            padded = input.reshape(len(sizes), sizes[0], input.size(-1))
            output, h_n, c_n = lstm(padded, hx, flat_weights, has_biases, num_layers, dropout,
                                    train, bidirectional)
            return output.reshape(len(sizes) * sizes[0], output.size(-1)), h_n, c_n
    elif _use_mkldnn(input):
        if not has_projections:
            return _mkldnn_lstm(input, hx, flat_weights, has_biases, num_layers, dropout,
                                train, bidirectional, batch_first)
        warn_once("LSTM with projections is not supported with oneDNN. Using default "
                  "implementation.")
    if batch_first and batch_sizes is None:
        input = input.transpose(0, 1)
    params = _gather_params(flat_weights, has_biases, has_projections)
    hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    output, finals = _stacked_layers(lstm_cell_step, input, _sizes(batch_sizes), hiddens,
                                     params, num_layers, dropout, train, bidirectional)
    if batch_first and batch_sizes is None:
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
            w_ih, w_hh, b_ih, b_hh, _ = params[index]
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
