"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU``, and the one-step ``RNNCell``,
``LSTMCell``, ``GRUCell``.

A layer's ``forward`` returns a tuple, and so its forward hooks receive one: ``(output,
h_n)`` for ``RNN`` and ``GRU``, ``(output, (h_n, c_n))`` for ``LSTM``, where ``output``
holds the last layer's hidden state at every step and ``h_n`` (``c_n``) every layer's at
the last step. A hook that wants the sequence takes ``output[0]``; one that replaces the
output must return the same structure. ``LSTMCell`` returns ``(h, c)``, the other cells a
tensor.

The parameters are named ``weight_ih_l{k}``, ``weight_hh_l{k}``, ``bias_ih_l{k}``,
``bias_hh_l{k}`` for layer ``k`` (with ``_reverse`` for the backward direction), and
``weight_hr_l{k}`` for an LSTM's projection (``proj_size``), registered in that order, and
drawn in that order from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))`` as in PyTorch, so
a seeded model starts from the same weights. Inputs are ``(seq, batch, features)``, or
``(batch, seq, features)`` with ``batch_first``, or unbatched ``(seq, features)``, or a
``PackedSequence`` (``nn.utils.rnn.pack_padded_sequence``): then the output is a
``PackedSequence`` too, and the hooks see both, ``(PackedSequence, h_n)``. A packed batch
sorted by ``enforce_sorted=False`` runs in its sorted order; the given ``h_0`` is permuted
into that order (``permute_hidden``) and ``h_n`` back into the caller's.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.RNN.html>
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

from ... import _dtype
from ..._creation import empty, zeros
from ..._tensor import Tensor
from .. import _functional_rnn as rnn
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class RNNBase(Module):
    """What the three recurrent layers share: their parameters, checks and ``extra_repr``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.RNNBase.html>
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1
                or isinstance(dropout, bool)):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=3)
        self._check_sizes(input_size, hidden_size, num_layers, proj_size, bias, batch_first)
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        # With projections the hidden state h has proj_size features (c keeps hidden_size).
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = (input_size if layer == 0
                                    else real_hidden_size * num_directions)
                suffix = "_reverse" if direction == 1 else ""
                shapes = [("weight_ih_l{}{}", (gate_size, layer_input_size)),
                          ("weight_hh_l{}{}", (gate_size, real_hidden_size))]
                if bias:
                    shapes += [("bias_ih_l{}{}", (gate_size,)), ("bias_hh_l{}{}", (gate_size,))]
                if proj_size > 0:
                    shapes += [("weight_hr_l{}{}", (proj_size, hidden_size))]
                names = []
                for pattern, shape in shapes:
                    name = pattern.format(layer, suffix)
                    setattr(self, name, Parameter(empty(shape, device=device, dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @staticmethod
    def _check_sizes(input_size: Any, hidden_size: Any, num_layers: int, proj_size: int,
                     bias: Any, batch_first: Any) -> None:
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: "
                            f"{type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: "
                            f"{type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: "
                            f"{type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")

    @property
    def _flat_weights(self) -> list[Tensor]:
        """The parameters in the order ``_VF`` takes them, read afresh (PyTorch keeps the
        list up to date as attributes are assigned)."""
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def flatten_parameters(self) -> None:
        """Lays the weights out in one block for cuDNN; on the CPU PyTorch does nothing."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input: Tensor, batch_sizes: Tensor | None) -> None:
        if input.dtype != self._flat_weights[0].dtype:
            weight_dtype = self._flat_weights[0].dtype
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight_dtype}). Convert input: input.to({weight_dtype}), or "
                             f"convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got "
                               f"{input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def _mini_batch(self, input: Tensor, batch_sizes: Tensor | None) -> int:
        """The batch size: of the first step of a packed input (its longest)."""
        if batch_sizes is not None:
            return int(batch_sizes[0])
        return input.size(0) if self.batch_first else input.size(1)

    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Tensor | None
                                 ) -> tuple[int, int, int]:
        num_directions = 2 if self.bidirectional else 1
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, self._mini_batch(input, batch_sizes),
                real_hidden_size)

    def check_hidden_size(self, hx: Tensor, expected_hidden_size: tuple[int, int, int],
                          msg: str = "Expected hidden size {}, got {}") -> None:
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Tensor,
                           batch_sizes: Tensor | None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx: Tensor, permutation: Tensor | None) -> Tensor:
        """The hidden state's batch (dimension 1) in the order ``permutation`` gives: a
        packed batch runs sorted longest first, while ``h_0`` and ``h_n`` are in the
        caller's order."""
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _batched(self, input: Tensor, hx: Tensor | None, name: str
                 ) -> tuple[Tensor, Tensor, bool]:
        """RNN and GRU: an unbatched input (and hidden state) gets a batch of one, and a
        missing hidden state is zeros."""
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D "
                             + ("tensor instead" if name == "RNN" else "instead"))
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx should also be 2-D but "
                                       f"got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got "
                               f"{hx.dim()}-D tensor")
        if hx is None:
            hx = self._zero_hidden(input, self._mini_batch(input, None))
        return input, hx, is_batched

    def _zero_hidden(self, input: Tensor, max_batch_size: int) -> Tensor:
        num_directions = 2 if self.bidirectional else 1
        return zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                     dtype=input.dtype)

    def _one_hidden_forward(self, cell: rnn.Cell, input: Tensor | PackedSequence,
                            hx: Tensor | None, name: str
                            ) -> tuple[Tensor | PackedSequence, Tensor]:
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            hx = (self._zero_hidden(data, int(batch_sizes[0])) if hx is None
                  else self.permute_hidden(hx, sorted_indices))
            self.check_forward_args(data, hx, batch_sizes)
            output, hidden = rnn.one_hidden_rnn(cell, data, hx, self._flat_weights, self.bias,
                                                self.num_layers, self.dropout, self.training,
                                                self.bidirectional, batch_sizes=batch_sizes)
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        input, hx, is_batched = self._batched(input, hx, name)
        self.check_forward_args(input, hx, None)
        output, hidden = rnn.one_hidden_rnn(cell, input, hx, self._flat_weights, self.bias,
                                            self.num_layers, self.dropout, self.training,
                                            self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(0 if self.batch_first else 1)
            hidden = hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """An Elman RNN: ``h_t = tanh(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh)``, or ``relu``.
    ``nonlinearity`` is the fourth positional argument, as in PyTorch.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.RNN.html>
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' "
                             "or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor | PackedSequence, hx: Tensor | None = None
                ) -> tuple[Tensor | PackedSequence, Tensor]:
        cell = rnn.tanh_cell if self.mode == "RNN_TANH" else rnn.relu_cell
        return self._one_hidden_forward(cell, input, hx, "RNN")


class GRU(RNNBase):
    """A gated recurrent unit layer (see ``_functional_rnn.py`` for its gates).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.GRU.html>
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor | PackedSequence, hx: Tensor | None = None
                ) -> tuple[Tensor | PackedSequence, Tensor]:
        return self._one_hidden_forward(rnn.gru_cell_step, input, hx, "GRU")


class LSTM(RNNBase):
    """A long short-term memory layer: a cell state ``c`` beside the hidden state ``h``.
    With ``proj_size > 0``, ``h`` is projected to ``proj_size`` features at every step (by
    ``weight_hr_l{k}``), so ``h_n`` and the output have ``proj_size`` features where ``c_n``
    keeps ``hidden_size``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.LSTM.html>
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes: Tensor | None
                               ) -> tuple[int, int, int]:
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, self._mini_batch(input, batch_sizes),
                self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden: tuple[Tensor, Tensor],
                           batch_sizes: Tensor | None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx: tuple[Tensor, Tensor], permutation: Tensor | None
                       ) -> tuple[Tensor, Tensor]:
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def _zero_states(self, input: Tensor, max_batch_size: int) -> tuple[Tensor, Tensor]:
        num_directions = 2 if self.bidirectional else 1
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        h_zeros = zeros(self.num_layers * num_directions, max_batch_size, real_hidden_size,
                        dtype=input.dtype)
        c_zeros = zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                        dtype=input.dtype)
        return h_zeros, c_zeros

    def forward(self, input: Tensor | PackedSequence,
                hx: tuple[Tensor, Tensor] | None = None
                ) -> tuple[Tensor | PackedSequence, tuple[Tensor, Tensor]]:
        if isinstance(input, PackedSequence):
            # PyTorch checks nothing here: a wrong hx fails inside the computation.
            data, batch_sizes, sorted_indices, unsorted_indices = input
            hx = (self._zero_states(data, int(batch_sizes[0])) if hx is None
                  else self.permute_hidden(hx, sorted_indices))
            output, h_n, c_n = rnn.lstm(data, hx, self._flat_weights, self.bias,
                                        self.num_layers, self.dropout, self.training,
                                        self.bidirectional, batch_sizes=batch_sizes)
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden((h_n, c_n), unsorted_indices))
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        if hx is None:
            hx = self._zero_states(input, self._mini_batch(input, None))
        elif is_batched:
            if hx[0].dim() != 3 or hx[1].dim() != 3:
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
        else:
            if hx[0].dim() != 2 or hx[1].dim() != 2:
                raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but "
                                   f"got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        output, h_n, c_n = rnn.lstm(input, hx, self._flat_weights, self.bias, self.num_layers,
                                    self.dropout, self.training, self.bidirectional,
                                    self.batch_first)
        if not is_batched:
            output = output.squeeze(batch_dim)
            h_n, c_n = h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


class RNNCellBase(Module):
    """The cells' parameters: ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device: Any = None, dtype: _dtype.dtype | None = None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), device=device,
                                         dtype=dtype))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size),
                                         device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _params(self) -> rnn.CellParams:
        return rnn.CellParams(self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

    def _batched(self, input: Tensor, hx: Tensor | None, name: str
                 ) -> tuple[Tensor, Tensor, bool]:
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched


class RNNCell(RNNCellBase):
    """One step of ``RNN``: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or ``relu``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.RNNCell.html>
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device,
                         dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, is_batched = self._batched(input, hx, "RNNCell")
        if self.nonlinearity == "tanh":
            cell = rnn.tanh_cell
        elif self.nonlinearity == "relu":
            cell = rnn.relu_cell
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        rnn.check_cell(input, hx, self.weight_ih, self.weight_hh, 1)
        out = cell(input, hx, self._params(), False)
        return out if is_batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of ``LSTM``: returns ``(h', c')``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.LSTMCell.html>
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: _dtype.dtype | None = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device,
                         dtype=dtype)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
                ) -> tuple[Tensor, Tensor]:
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got "
                                     f"{value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hidden = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (hidden, hidden)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        rnn.check_cell(input, hx[0], self.weight_ih, self.weight_hh, 4, 0)
        rnn.check_cell(input, hx[1], self.weight_ih, self.weight_hh, 4, 1)
        h, c = rnn.lstm_cell_step(input, tuple(hx), self._params(), False)
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One step of ``GRU``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.GRUCell.html>
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: _dtype.dtype | None = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device,
                         dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, is_batched = self._batched(input, hx, "GRUCell")
        rnn.check_cell(input, hx, self.weight_ih, self.weight_hh, 3)
        out = rnn.gru_cell_step(input, hx, self._params(), False)
        return out if is_batched else out.squeeze(0)
