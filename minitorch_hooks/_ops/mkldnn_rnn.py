"""``mkldnn_rnn_layer``: one LSTM layer in one direction, as one node.

For float32 inputs on the CPU PyTorch runs ``nn.LSTM`` through oneDNN: each layer and
direction is a single call, recorded as one ``MkldnnRnnLayerBackward0`` node with seven
inputs (the layer's input, ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``, and the
layer's ``h_0`` and ``c_0``) and three outputs (every step's ``h``, the last ``h``, the last
``c``). A hook on the node sees three gradients; a walk over the graph sees one node per
layer where the cells of other dtypes leave dozens.

The forward is the LSTM cell of ``nn/_functional_rnn.py`` over the steps (in reverse
order for the backward direction). The backward runs the steps again to recover the
gates, then goes back through time: it is written with ``_formula`` helpers, so under
``create_graph`` it records a differentiable graph, as PyTorch's differentiable backward
for this node does.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.LSTM.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record


def _sigmoid(x: Any) -> Any:
    return 1 / (1 + formula.exp(-x))


def _steps(x: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any, h: Any, c: Any,
           reverse: bool) -> tuple[list, Any, Any, list]:
    """Run the cell over the steps: each step's ``h`` (in time order), the last ``h`` and
    ``c``, and what the backward needs of each step (in the order they ran)."""
    length = formula.array(x).shape[0]
    order = range(length - 1, -1, -1) if reverse else range(length)
    outputs: list = [None] * length
    tape = []
    w_ih_t, w_hh_t = formula.t(w_ih), formula.t(w_hh)
    for step in order:
        gates = x[step] @ w_ih_t + b_ih + h @ w_hh_t + b_hh
        i, f, g, o = formula.split(gates, [formula.array(gates).shape[1] // 4] * 4, 1)
        i, f, g, o = _sigmoid(i), _sigmoid(f), formula.tanh(g), _sigmoid(o)
        c_next = f * c + i * g
        tanh_c = formula.tanh(c_next)
        h_next = o * tanh_c
        tape.append((step, h, c, i, f, g, o, tanh_c))
        outputs[step] = h_next
        h, c = h_next, c_next
    return outputs, h, c, tape


class MkldnnRnnLayerBackward0(Node):
    __slots__ = ("reverse", "mode", "hidden_size", "num_layers", "has_biases",
                 "bidirectional", "batch_first", "train")
    saved_names = ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_")
    saved_attributes = ("reverse", "mode", "hidden_size", "num_layers", "has_biases",
                        "bidirectional", "batch_first", "train")
    num_outputs = 3

    def backward(self, grad_output, grad_hy, grad_cy):
        x, w_ih, w_hh, b_ih, b_hh, hx, cx = self.saved_arrays()
        if not self.has_biases:  # the zeros PyTorch passes in their place are not added
            b_ih = b_hh = 0
        _, _, _, tape = _steps(x, w_ih, w_hh, b_ih, b_hh, hx, cx, self.reverse)
        dh_next = formula.zeros_like(hx) if grad_hy is None else grad_hy
        dc_next = formula.zeros_like(cx) if grad_cy is None else grad_cy
        dx: list = [None] * len(tape)
        dw_ih, dw_hh, dbias = 0, 0, 0
        for step, h_prev, c_prev, i, f, g, o, tanh_c in reversed(tape):
            dh = dh_next if grad_output is None else grad_output[step] + dh_next
            dc = dc_next + dh * o * (1 - tanh_c * tanh_c)
            dgates = formula.concatenate([dc * g * i * (1 - i), dc * c_prev * f * (1 - f),
                                          dc * i * (1 - g * g), dh * tanh_c * o * (1 - o)], 1)
            dx[step] = formula.expand_dims(dgates @ w_ih, 0)
            dw_ih = dw_ih + formula.t(dgates) @ x[step]
            dw_hh = dw_hh + formula.t(dgates) @ h_prev
            dbias = dbias + formula.sum(dgates, 0)
            dh_next, dc_next = dgates @ w_hh, dc * f
        if not self.has_biases:
            dbias = None
        return (formula.concatenate(dx, 0), dw_ih, dw_hh, dbias, dbias, dh_next, dc_next)


def mkldnn_rnn_layer(input: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor,
                     hx: Tensor, cx: Tensor, reverse: bool, hidden_size: int, num_layers: int,
                     has_biases: bool, bidirectional: bool, batch_first: bool,
                     train: bool) -> tuple[Tensor, Tensor, Tensor]:
    """One layer and direction of a float32 LSTM: ``(output, h_n, c_n)``."""
    arrays = [t._data for t in (input, w_ih, w_hh, b_ih, b_hh, hx, cx)]
    if not has_biases:  # PyTorch passes zeros shaped like the weights; no bias is added
        arrays[3] = arrays[4] = 0
    outputs, h, c, _ = _steps(*arrays, reverse)
    output = record(np.stack(outputs), MkldnnRnnLayerBackward0,
                    (input, w_ih, w_hh, b_ih, b_hh, hx, cx),
                    saved=(input, w_ih, w_hh, b_ih, b_hh, hx, cx), reverse=reverse, mode=2,
                    hidden_size=hidden_size, num_layers=num_layers, has_biases=has_biases,
                    bidirectional=bidirectional, batch_first=batch_first, train=train)
    h_n, c_n = wrap(np.ascontiguousarray(h)), wrap(np.ascontiguousarray(c))
    node = output.grad_fn
    if node is not None:
        for output_nr, out in ((1, h_n), (2, c_n)):
            out.grad_fn, out._output_nr, out._requires_grad = node, output_nr, True
    return output, h_n, c_n
