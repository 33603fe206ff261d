"""Second derivatives of every differentiable op, against real PyTorch.

Each row of ``OPS`` runs an op on float64 leaves, takes the gradients with
``create_graph=True`` for an upstream gradient that itself requires grad, and then the
gradients of a weighted sum of those gradients: with respect to the leaves (second
derivatives) and to the upstream gradient (the formula is linear in it). Gradients that
one library returns as None and the other as zeros compare as zeros: which of the two a
formula gives depends on how it is written, not on the mathematics.

The last test makes the table complete by construction: every node class of the library
must appear in the graphs the table builds (forward or double-backward), or be listed in
``NOT_IN_TABLE`` with a reason. A new op whose formula is not double-differentiable fails
here until it has a row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import upstream, values

import minitorch_hooks
from minitorch_hooks.autograd.graph import Node


def positive(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return values(shape, seed, low=0.3, high=2.0, dtype=np.float64)


def signed(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return values(shape, seed, dtype=np.float64)


def _orthogonal_map(torch: Any, x: Any, name: str) -> Any:
    """``orthogonal``'s map of ``x`` alone (no trivialization): the Cayley map solves a
    linear system, the Householder map multiplies reflections."""
    parametrizations = torch.nn.utils.parametrizations
    orthogonal_map = getattr(parametrizations._OrthMaps, name)
    return parametrizations._Orthogonal(x, orthogonal_map, use_trivialization=False)(x)


def _written_into_a_view(torch: Any, x: Any) -> Any:
    y = x * 1
    y[1:].mul_(x[1:])
    return y


def _view_after_base_changed(torch: Any, x: Any) -> Any:
    y = x * 1
    view = y[0]
    y.mul_(x)
    return view * x[0]


def _index_put(torch: Any, x: Any, v: Any) -> Any:
    y = x * x
    y[torch.tensor([0, 2])] = v * v
    return y


def _moments_combined(moments: Any, weight: Any) -> Any:
    """Both outputs of var_mean or std_mean in one result, so both send gradients."""
    spread, mean = moments
    return (spread + mean * 2) * weight


def _masked_fill_with_tensor(torch: Any, x: Any) -> Any:
    return (x * x).masked_fill(x > 0, (x[0] * x[1]).sum())


def _fill_with_tensor(torch: Any, x: Any, v: Any) -> Any:
    y = x * x
    y.fill_(v * v)
    return y * x


def _copy(torch: Any, x: Any, v: Any) -> Any:
    y = x * x
    y.copy_(v * v)
    return y * x


def _lstm_float32(torch: Any, x: Any) -> Any:
    """A float32 LSTM, which PyTorch records as one oneDNN node per layer."""
    torch.manual_seed(0)
    output, (h_n, c_n) = torch.nn.LSTM(2, 3)(x.float())
    return (output.sum(0) + h_n[0] * c_n[0]).double()


def _zero(torch: Any, x: Any) -> Any:
    y = x * x
    y.zero_()
    return y + x * x


Op = Callable[..., Any]
S23, S3, S34 = (2, 3), (3,), (3, 4)

# (id, op, input arrays). Ops act on leaves made from the arrays; most multiply by an
# input somewhere, so that the second derivative is not trivially zero.
OPS: list[tuple[str, Op, tuple[np.ndarray, ...]]] = [
    ("add", lambda torch, x, y: (x + y) * x, (signed(S23), signed(S3, 1))),
    ("add alpha", lambda torch, x, y: x.add(y * y, alpha=2), (signed(S23), signed(S3, 1))),
    ("sub alpha", lambda torch, x, y: x.sub(y * x, alpha=3), (signed(S23), signed(S3, 1))),
    ("rsub", lambda torch, x: (1 - x) * x, (signed(S3),)),
    ("mul", lambda torch, x, y: x * y * x, (signed(S23), signed(S3, 1))),
    ("mul number", lambda torch, x: x * 2.5, (signed(S3),)),
    ("div", lambda torch, x, y: x / y, (signed(S23), positive(S3, 1))),
    ("reciprocal", lambda torch, x: x.reciprocal(), (positive(S3),)),
    ("number / x", lambda torch, x: 3 / x, (positive(S3),)),
    ("x ** 3", lambda torch, x: x ** 3, (signed(S23),)),
    ("x ** 0", lambda torch, x: x ** 0 * x, (signed(S3),)),
    ("x ** -1.5", lambda torch, x: x ** -1.5, (positive(S3),)),
    ("x ** y", lambda torch, x, y: x ** y, (positive(S23), signed(S3, 1))),
    ("2 ** x", lambda torch, x: 2 ** x, (signed(S3),)),
    ("neg", lambda torch, x: -x * x, (signed(S3),)),
    ("exp", lambda torch, x: x.exp(), (signed(S23),)),
    ("log", lambda torch, x: x.log(), (positive(S23),)),
    ("sqrt", lambda torch, x: x.sqrt(), (positive(S23),)),
    ("abs", lambda torch, x: x.abs() * x, (signed(S23),)),
    ("sign", lambda torch, x: x.sign() * x * x, (signed(S23),)),
    ("trace", lambda torch, x: x.trace() * x, (signed(S23),)),
    ("sin", lambda torch, x: x.sin() * x, (signed(S23),)),
    ("cos", lambda torch, x: x.cos() * x, (signed(S23),)),
    ("tan", lambda torch, x: x.tan(), (signed(S23),)),
    ("asin", lambda torch, x: (x * 0.5).asin(), (signed(S23),)),
    ("acos", lambda torch, x: (x * 0.5).acos(), (signed(S23),)),
    ("atan", lambda torch, x: x.atan() * x, (signed(S23),)),
    ("sinh", lambda torch, x: x.sinh() * x, (signed(S23),)),
    ("cosh", lambda torch, x: x.cosh() * x, (signed(S23),)),
    ("rsqrt", lambda torch, x: x.rsqrt(), (positive(S23),)),
    ("erf", lambda torch, x: torch.erf(x) * x, (signed(S23),)),
    ("x % y", lambda torch, x, y: (x * 3) % y * x, (positive(S23), positive(S3, 1))),
    ("x % 0.7", lambda torch, x: (x * 3) % 0.7 * x, (positive(S23),)),
    ("fmod", lambda torch, x, y: torch.fmod(x * 3, y) * x, (signed(S23), positive(S3, 1))),
    ("fmod number", lambda torch, x: torch.fmod(x * 3, 0.7) * x, (signed(S23),)),
    ("gelu", lambda torch, x: torch.nn.functional.gelu(x), (signed(S23),)),
    ("gelu tanh", lambda torch, x: torch.nn.functional.gelu(x, approximate="tanh"),
     (signed(S23),)),
    ("silu", lambda torch, x: torch.nn.functional.silu(x), (signed(S23),)),
    ("leaky_relu", lambda torch, x: torch.nn.functional.leaky_relu(x, 0.1) * x, (signed(S23),)),
    ("leaky_relu_", lambda torch, x: torch.nn.functional.leaky_relu_(x * 1, 0.1) * x,
     (signed(S23),)),
    ("var_mean", lambda torch, x: _moments_combined(torch.var_mean(x, dim=1), x[:, 0]),
     (signed(S23),)),
    ("std_mean", lambda torch, x: _moments_combined(torch.std_mean(x, dim=0), x[0]),
     (signed(S23),)),
    ("relu", lambda torch, x: x.relu() * x, (signed(S23),)),
    ("tanh", lambda torch, x: x.tanh(), (signed(S23),)),
    ("sigmoid", lambda torch, x: x.sigmoid(), (signed(S23),)),
    ("clamp", lambda torch, x: x.clamp(-1.0, 1.0) * x, (signed(S23),)),
    ("clamp min", lambda torch, x: x.clamp(min=0.0) * x, (signed(S23),)),
    ("where", lambda torch, x, y: torch.where(x > 0, x * x, y * x), (signed(S23), signed(S3, 1))),
    ("maximum", lambda torch, x, y: torch.maximum(x, y) * x, (signed(S23), signed(S23, 1))),
    ("sum", lambda torch, x: x.sum() * x, (signed(S23),)),
    ("sum dim", lambda torch, x: x.sum(1) ** 2, (signed(S34),)),
    ("sum keepdim", lambda torch, x: x.sum(0, keepdim=True) * x, (signed(S34),)),
    ("mean", lambda torch, x: x.mean() * x, (signed(S23),)),
    ("mean dim", lambda torch, x: x.mean(1) ** 2, (signed(S34),)),
    ("max", lambda torch, x: x.max() * x, (signed(S23),)),
    ("min", lambda torch, x: x.min() * x, (signed(S23),)),
    ("max dim", lambda torch, x: x.max(1)[0] ** 2, (signed(S34),)),
    ("min dim keepdim", lambda torch, x: x.min(0, keepdim=True)[0] * x, (signed(S34),)),
    ("norm", lambda torch, x: x.norm(), (signed(S23),)),
    ("norm dim", lambda torch, x: x.norm(dim=1), (signed(S34),)),
    ("var", lambda torch, x: x.var(), (signed(S23),)),
    ("var dim", lambda torch, x: x.var(1), (signed(S34),)),
    ("std", lambda torch, x: x.std(), (signed(S23),)),
    ("std dim", lambda torch, x: x.std(0, keepdim=True), (signed(S34),)),
    ("view", lambda torch, x: x.view(6) ** 2, (signed(S23),)),
    ("reshape of a transpose", lambda torch, x: x.t().reshape(6) ** 2, (signed(S23),)),
    ("reshape alias", lambda torch, x: (x * 1)[:, ::2].reshape(3, 2) ** 2, (signed((3, 4)),)),
    ("permute", lambda torch, x: x.permute(1, 0) ** 2, (signed(S23),)),
    ("transpose", lambda torch, x: x.transpose(0, 1) ** 2, (signed(S23),)),
    ("t", lambda torch, x: x.t() ** 2, (signed(S23),)),
    ("unsqueeze", lambda torch, x: x.unsqueeze(0) ** 2, (signed(S23),)),
    ("squeeze", lambda torch, x: x.squeeze() ** 2, (signed((1, 3)),)),
    ("squeeze dim", lambda torch, x: x.squeeze(0) ** 2, (signed((1, 3)),)),
    ("vector @ matrix", lambda torch, v, x: (v @ x) ** 2, (signed(S3), signed(S34, 1))),
    ("expand", lambda torch, x: x.expand(2, 3) ** 2, (signed(S3),)),
    ("select", lambda torch, x: x[1] ** 3, (signed(S23),)),
    ("slice", lambda torch, x: x[1:] ** 3, (signed(S23),)),
    ("alias", lambda torch, x: x[...] ** 3, (signed(S23),)),
    ("index", lambda torch, x: x[[0, 0, 1]] ** 3, (signed(S23),)),
    ("mask index", lambda torch, x: x[x > 0] ** 3, (signed(S23),)),
    ("cat", lambda torch, x, y: torch.cat([x, y * y]) ** 2, (signed(S23), signed(S23, 1))),
    ("stack", lambda torch, x, y: torch.stack([x, y * x], 1) ** 2, (signed(S3), signed(S3, 1))),
    ("split", lambda torch, x: x.split(1)[1] ** 3, (signed(S23),)),
    ("split sizes", lambda torch, x: x.split([1, 2], 1)[1] ** 3, (signed(S23),)),
    ("unbind", lambda torch, x: x.unbind(1)[2] ** 3, (signed(S23),)),
    ("index put", _index_put, (signed((4,)), signed((2,), 1))),
    ("masked fill", lambda torch, x: (x * x).masked_fill(x > 0, 0.5), (signed(S23),)),
    ("masked fill tensor", _masked_fill_with_tensor, (signed(S23),)),
    ("written into a view", _written_into_a_view, (signed(S23),)),
    ("view after its base changed", _view_after_base_changed, (signed(S23),)),
    ("fill_ number", lambda torch, x: (x * x).fill_(2.0) * x, (signed(S3),)),
    ("fill_ tensor", _fill_with_tensor, (signed(S3), signed((), 1))),
    ("zero_", _zero, (signed(S3),)),
    ("copy_", _copy, (signed(S3), signed(S3, 1))),
    ("clone", lambda torch, x: x.clone() * x, (signed(S3),)),
    ("to float32", lambda torch, x: x.float() * x.float(), (signed(S3),)),
    ("mm", lambda torch, x, y: (x @ y) * (x @ y), (signed(S23), signed(S34, 1))),
    ("mv", lambda torch, x, v: (x @ v) ** 2, (signed(S34), signed((4,), 1))),
    ("dot", lambda torch, x, y: (x @ y) * x, (signed(S3), signed(S3, 1))),
    ("bmm", lambda torch, x, y: (x @ y) ** 2, (signed((2, 2, 3)), signed((2, 3, 2), 1))),
    ("addmm", lambda torch, c, x, y: torch.addmm(c, x, y) ** 2,
     (signed((4,)), signed(S23, 1), signed(S34, 2))),
    ("softmax", lambda torch, x: x.softmax(1), (signed(S34),)),
    ("log_softmax", lambda torch, x: x.log_softmax(0), (signed(S34),)),
    ("mse_loss", lambda torch, x, y: torch.nn.functional.mse_loss(x * x, y),
     (signed(S23), signed(S23, 1))),
    ("mse_loss sum", lambda torch, x, y: torch.nn.functional.mse_loss(x, y * x, reduction="sum"),
     (signed(S23), signed(S23, 1))),
    ("cross_entropy", lambda torch, x: torch.nn.functional.cross_entropy(
        x, torch.tensor([0, 3, 1])), (signed(S34),)),
    ("nll_loss weighted", lambda torch, x: torch.nn.functional.nll_loss(
        x * x, torch.tensor([0, 3, 1]), weight=torch.tensor([1.0, 2.0, 0.5, 1.5],
                                                            dtype=torch.float64)),
     (signed(S34),)),
    ("nll_loss none", lambda torch, x: torch.nn.functional.nll_loss(
        x * x, torch.tensor([0, 3, 1]), reduction="none"), (signed(S34),)),
    ("batch_norm", lambda torch, x, w, b: torch.nn.functional.batch_norm(
        x, None, None, w, b, training=True), (signed((4, 3)), positive(S3, 1), signed(S3, 2))),
    ("batch_norm (N, C, L) with buffers", lambda torch, x, w: torch.nn.functional.batch_norm(
        x * x, torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64), w,
        training=True), (signed((2, 3, 2)), positive(S3, 1))),
    ("batch_norm eval", lambda torch, x, w, b: torch.nn.functional.batch_norm(
        x * x, torch.tensor([0.5, -1.0, 0.0], dtype=torch.float64),
        torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64), w * w, b),
     (signed((4, 3)), positive(S3, 1), signed(S3, 2))),
    ("layer_norm", lambda torch, x, w, b: torch.nn.functional.layer_norm(x, (4,), w, b),
     (signed(S34), positive((4,), 1), signed((4,), 2))),
    ("layer_norm no affine", lambda torch, x: torch.nn.functional.layer_norm(x, (3, 4)),
     (signed((2, 3, 4)),)),
    ("group_norm", lambda torch, x, w, b: torch.nn.functional.group_norm(x, 2, w, b),
     (signed((2, 4, 3)), positive((4,), 1), signed((4,), 2))),
    ("embedding", lambda torch, w: torch.nn.functional.embedding(
        torch.tensor([[0, 2], [2, 3]]), w, padding_idx=3) ** 2, (signed((4, 2)),)),
    ("conv2d", lambda torch, x, w, b: torch.nn.functional.conv2d(
        x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2) ** 2,
     (signed((2, 4, 5, 6)), signed((4, 2, 2, 3), 1), signed((4,), 2))),
    ("conv2d same, unbatched", lambda torch, x, w: torch.nn.functional.conv2d(
        x * x, w, padding="same"), (signed((2, 4, 5)), signed((3, 2, 3, 2), 1))),
    ("conv1d", lambda torch, x, w: torch.nn.functional.conv1d(x, w, stride=2) ** 2,
     (signed((2, 3, 7)), signed((2, 3, 3), 1))),
    ("pad constant", lambda torch, x: torch.nn.functional.pad(x, (1, -1, 2, 0)) ** 3,
     (signed(S34),)),
    ("pad reflect 1d", lambda torch, x: torch.nn.functional.pad(x, (2, 1), mode="reflect") ** 3,
     (signed(S34),)),
    ("pad reflect 2d", lambda torch, x: torch.nn.functional.pad(
        x, (1, 2, 1, 0), mode="reflect") ** 3, (signed((1, 3, 4)),)),
    ("pad replicate 1d", lambda torch, x: torch.nn.functional.pad(
        x, (2, 1), mode="replicate") ** 3, (signed(S34),)),
    ("pad replicate 2d", lambda torch, x: torch.nn.functional.pad(
        x, (0, 2, 1, 1), mode="replicate") ** 3, (signed((1, 3, 4)),)),
    ("max_pool2d", lambda torch, x: torch.nn.functional.max_pool2d(
        x, 2, 1, padding=1, ceil_mode=True) ** 3, (signed((1, 2, 4, 5)),)),
    ("avg_pool2d", lambda torch, x: torch.nn.functional.avg_pool2d(
        x * x, 3, 2, padding=1, count_include_pad=False), (signed((1, 2, 5, 6)),)),
    ("adaptive_avg_pool2d", lambda torch, x: torch.nn.functional.adaptive_avg_pool2d(
        x, (2, 3)) ** 3, (signed((1, 2, 5, 4)),)),
    ("interpolate nearest", lambda torch, x: torch.nn.functional.interpolate(
        x, scale_factor=1.5) ** 3, (signed((1, 2, 3, 4)),)),
    ("interpolate bilinear", lambda torch, x: torch.nn.functional.interpolate(
        x * x, size=(5, 3), mode="bilinear"), (signed((1, 2, 3, 4)),)),
    ("interpolate bilinear align_corners", lambda torch, x: torch.nn.functional.interpolate(
        x, size=(4, 6), mode="bilinear", align_corners=True) ** 3, (signed((1, 2, 3, 4)),)),
    ("unsqueeze_", lambda torch, x: (x * x).unsqueeze_(-1) * x.unsqueeze(-1), (signed(S23),)),
    ("squeeze_", lambda torch, x: (x * x).squeeze_() ** 2, (signed((1, 3)),)),
    ("squeeze_ dim", lambda torch, x: (x * x).squeeze_(0) * x[0], (signed((1, 3)),)),
    ("t_", lambda torch, x: (x * x).t_() * x.t(), (signed(S23),)),
    ("transpose_", lambda torch, x: (x * 1).transpose_(0, 1) ** 3, (signed(S23),)),
    ("log1p", lambda torch, x: x.log1p() * x, (positive(S23),)),
    ("expm1", lambda torch, x: torch.expm1(x) * x, (signed(S23),)),
    ("prod", lambda torch, x: x.prod() * x, (signed(S23),)),
    ("prod with a zero", lambda torch, x: (x * torch.tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]],
                                                             dtype=torch.float64)).prod(),
     (signed(S23),)),
    ("prod dim", lambda torch, x: x.prod(1) ** 2, (signed(S34),)),
    ("prod dim with zeros", lambda torch, x: (x * torch.tensor([1.0, 0.0, 1.0, 0.0],
                                                               dtype=torch.float64)).prod(
        0, keepdim=True) * x, (signed(S34),)),
    ("cumsum", lambda torch, x: x.cumsum(1) ** 2, (signed(S34),)),
    ("cumprod", lambda torch, x: x.cumprod(-1) * x, (signed(S34),)),
    ("cumprod with zeros", lambda torch, x: (x * torch.tensor([1.0, 0.0, 1.0, 1.0],
                                                              dtype=torch.float64)).cumprod(1),
     (signed(S34),)),
    ("flip", lambda torch, x: x.flip(0, 1) * x, (signed(S23),)),
    ("amax", lambda torch, x: x.amax(1) ** 2, (signed(S34),)),
    ("amin ties", lambda torch, x: (x * 0 + torch.tensor([1.0, 1.0, 2.0], dtype=torch.float64)
                                    ).amin() * x, (signed(S23),)),
    ("vdot", lambda torch, x, y: torch.vdot(x, y * y) * x, (signed(S3), signed(S3, 1))),
    ("_weight_norm dim 0", lambda torch, v, g: torch._weight_norm(v * v, g, 0),
     (signed(S34), positive((3, 1), 1))),
    ("_weight_norm last dim", lambda torch, v, g: torch._weight_norm(v, g * g, 1),
     (signed(S34), signed((1, 4), 1))),
    ("_weight_norm middle dim", lambda torch, v, g: torch._weight_norm(v, g, 1),
     (signed((2, 3, 4)), positive((1, 3, 1), 1))),
    ("norm_except_dim whole", lambda torch, x: torch.norm_except_dim(x, 2, -1) * x,
     (signed(S34),)),
    ("norm_except_dim 0", lambda torch, x: torch.norm_except_dim(x * x, 2, 0),
     (signed((2, 3, 4)),)),
    ("unsafe_chunk", lambda torch, x: (x * x).unsafe_chunk(3, 1)[0].sigmoid_() * x[:, :1],
     (signed((2, 5)),)),
    ("pack_padded_sequence", lambda torch, x: torch.nn.utils.rnn.pack_padded_sequence(
        x, [3, 1]).data ** 3, (signed((3, 2, 2)),)),
    ("pack_padded_sequence batch_first", lambda torch, x: torch.nn.utils.rnn.
     pack_padded_sequence(x, [3, 1], batch_first=True).data ** 3, (signed((2, 3)),)),
    ("triu", lambda torch, x: x.triu(1) * x, (signed(S34),)),
    ("tril", lambda torch, x: torch.tril(x * x, -1), (signed(S34),)),
    ("diag of a vector", lambda torch, x: torch.diag(x, 1) ** 2, (signed(S3),)),
    ("diag of a matrix", lambda torch, x: x.diag(-1) * x[1:, 0], (signed((4, 3)),)),
    ("nan_to_num", lambda torch, x: (x.log() * x).nan_to_num(), (signed(S23),)),
    ("torch.bmm", lambda torch, a, b: torch.bmm(a, b) * a[:, :, :1],
     (signed((2, 3, 4)), signed((2, 4, 5), 1))),
    ("baddbmm", lambda torch, c, a, b: torch.baddbmm(c, a * a, b, beta=0.5, alpha=2.0) ** 2,
     (signed((5,)), signed((2, 3, 4), 1), signed((2, 4, 5), 2))),
    ("vstack", lambda torch, x, y: torch.vstack([x, y * x]) ** 2, (signed(S3), signed(S3, 1))),
    ("gather", lambda torch, x: x.gather(1, torch.tensor([[0, 0, 2], [3, 1, 1], [2, 2, 2]]))
     ** 3, (signed(S34),)),
    ("scatter", lambda torch, x, s: (x * x).scatter(1, torch.tensor([[0, 2], [3, 1], [1, 0]]),
                                                    s * s), (signed(S34), signed((3, 2), 1))),
    ("scatter value", lambda torch, x: (x * x).scatter(0, torch.tensor([[1, 0, 2, 1]]), 0.5),
     (signed(S34),)),
    ("scatter_add", lambda torch, x, s: torch.scatter_add(
        x * x, 1, torch.tensor([[0, 0], [3, 1], [1, 1]]), s * x[:, :2]),
     (signed(S34), signed((3, 2), 1))),
    ("index_select", lambda torch, x: x.index_select(1, torch.tensor([3, 0, 3])) ** 3,
     (signed(S34),)),
    ("masked_select", lambda torch, x: x.masked_select(x > 0) ** 3, (signed(S34),)),
    ("masked_scatter", lambda torch, x, s: (x * x).masked_scatter(
        torch.tensor([True, False, True, True]), s * s), (signed(S34), signed((10,), 1))),
    ("sort", lambda torch, x: x.sort(1).values * x, (signed(S34),)),
    ("sort stable", lambda torch, x: x.sort(dim=0, stable=True).values ** 3, (signed(S34),)),
    ("topk", lambda torch, x: x.topk(2).values ** 3, (signed(S34),)),
    ("binary_cross_entropy_with_logits", lambda torch, x, t: torch.nn.functional
     .binary_cross_entropy_with_logits(x * x, t, weight=t[0].detach() * 2, reduction="sum"),
     (signed(S23), positive(S23, 1))),
    ("unfold", lambda torch, x: torch.nn.functional.unfold(x, 2, padding=1) ** 3,
     (signed((1, 2, 3, 4)),)),
    ("fold", lambda torch, x: torch.nn.functional.fold(x * x, (3, 4), 2, stride=1) * 2,
     (signed((1, 8, 6)),)),
    ("hardtanh", lambda torch, x: torch.nn.functional.hardtanh(x * 2, -1.5, 2.5) * x,
     (signed(S23),)),
    ("hardswish", lambda torch, x: torch.nn.functional.hardswish(x * 2) * x, (signed(S23),)),
    ("smooth_l1_loss", lambda torch, x, y: torch.nn.functional.smooth_l1_loss(
        x * x, y, reduction="none", beta=0.7), (signed(S23), signed(S23, 1))),
    ("huber_loss", lambda torch, x, y: torch.nn.functional.huber_loss(
        x * x, y, delta=0.8), (signed(S23), signed(S23, 1))),
    ("binary_cross_entropy", lambda torch, x: torch.nn.functional.binary_cross_entropy(
        x * 0.5, torch.tensor([[0.2, 0.9, 0.5], [1.0, 0.0, 0.3]], dtype=x.dtype)),
     (positive(S23),)),
    ("xlogy", lambda torch, x, y: torch.xlogy(x * x, y), (signed(S23), positive(S23, 1))),
    ("instance_norm", lambda torch, x, w: torch.nn.functional.instance_norm(
        x, weight=w, bias=w * 2) ** 2, (signed((2, 3, 4)), positive((3,), 1))),
    ("adaptive_max_pool2d", lambda torch, x: torch.nn.functional.adaptive_max_pool2d(
        x, (2, 3)) ** 3, (signed((1, 2, 5, 4)),)),
    ("max_pool3d", lambda torch, x: torch.nn.functional.max_pool3d(
        x, 2, 1, padding=1, ceil_mode=True) ** 3, (signed((1, 2, 3, 4, 3)),)),
    ("avg_pool3d", lambda torch, x: torch.nn.functional.avg_pool3d(
        x * x, 3, 2, padding=1, count_include_pad=False), (signed((1, 2, 4, 5, 3)),)),
    ("adaptive_avg_pool3d", lambda torch, x: torch.nn.functional.adaptive_avg_pool3d(
        x, (2, 3, 2)) ** 3, (signed((1, 2, 3, 5, 4)),)),
    ("adaptive_max_pool3d", lambda torch, x: torch.nn.functional.adaptive_max_pool3d(
        x, (2, 3, 2)) ** 3, (signed((1, 2, 3, 5, 4)),)),
    ("prelu", lambda torch, x, w: torch.nn.functional.prelu(x, w) ** 2,
     (signed((2, 3, 4)), positive((3,), 1))),
    ("pixel_shuffle", lambda torch, x: torch.nn.functional.pixel_shuffle(x, 2) ** 3,
     (signed((1, 8, 2, 3)),)),
    ("pixel_unshuffle", lambda torch, x: torch.nn.functional.pixel_unshuffle(x, 2) ** 3,
     (signed((1, 2, 4, 6)),)),
    ("floor", lambda torch, x: x.floor() * x, (signed(S23),)),
    ("ceil", lambda torch, x: x.ceil() * x, (signed(S23),)),
    ("round", lambda torch, x: x.round() * x, (signed(S23),)),
    ("round decimals", lambda torch, x: x.round(decimals=1) * x, (signed(S23),)),
    ("trunc", lambda torch, x: x.trunc() * x, (signed(S23),)),
    ("frac", lambda torch, x: x.frac() * x, (signed(S23),)),
    ("log2", lambda torch, x: x.log2() * x, (positive(S23),)),
    ("log10", lambda torch, x: torch.log10(x) * x, (positive(S23),)),
    ("repeat", lambda torch, x: x.repeat(2, 1, 2) ** 3, (signed(S23),)),
    ("roll", lambda torch, x: x.roll((1, -1), (0, 1)) * x, (signed(S23),)),
    ("roll flattened", lambda torch, x: x.roll(2) ** 3, (signed(S23),)),
    ("diagonal", lambda torch, x: x.diagonal(1) ** 3, (signed(S34),)),
    ("logsumexp", lambda torch, x: x.logsumexp(1) * x[:, 0], (signed(S34),)),
    ("lstm float32 (oneDNN node)", _lstm_float32, (signed((3, 2, 2)),)),
    ("matrix_exp", lambda torch, x: torch.matrix_exp(x) ** 2, (signed((2, 3, 3)),)),
    ("orthogonal cayley (solve)", lambda torch, x: _orthogonal_map(torch, x, "cayley") ** 3,
     (signed((4, 3)),)),
    ("orthogonal householder", lambda torch, x: _orthogonal_map(
        torch, x, "householder") ** 3, (signed((5, 3)),)),
    ("max_unpool2d", lambda torch, x: torch.nn.functional.max_unpool2d(
        *torch.nn.functional.max_pool2d(x, 2, return_indices=True), 2) ** 3,
     (signed((1, 2, 4, 4)),)),
    ("max_unpool3d", lambda torch, x: torch.nn.functional.max_unpool3d(
        *torch.nn.functional.max_pool3d(x, 2, return_indices=True), 2) ** 3,
     (signed((1, 1, 2, 4, 4)),)),
    ("clamp_min", lambda torch, x: x.clamp_min(-0.2) ** 3, (signed(S34),)),
    ("clamp_max tensor", lambda torch, x, m: torch.clamp_max(x * x, m * m) * x,
     (signed(S34), signed((4,), 1))),
    ("clamp_max", lambda torch, x: torch.clamp_max(x, 0.3) ** 3, (signed(S34),)),
    ("clamp_min tensor", lambda torch, x, m: (x * x).clamp_min(m) * x,
     (signed(S34), signed((4,), 1))),
    ("minimum", lambda torch, x, y: torch.minimum(x * x, y) * y, (signed(S34), signed(S34, 1))),
    ("threshold", lambda torch, x: torch.nn.functional.threshold(x, 0.1, 2.0) ** 3,
     (signed(S34),)),
    ("threshold_", lambda torch, x: torch.nn.functional.threshold(x * x, 0.3, -1.0, True) * x,
     (signed(S34),)),
    ("elu", lambda torch, x: torch.nn.functional.elu(x, 0.5) ** 2, (signed(S34),)),
    ("elu_", lambda torch, x: torch.nn.functional.elu_(x * 2) * x, (signed(S34),)),
    ("softplus", lambda torch, x: torch.nn.functional.softplus(x, 2, 1) * x, (signed(S34),)),
    ("lerp", lambda torch, x, y: torch.lerp(x * x, y, 0.3) ** 2, (signed(S34), signed(S34, 1))),
    ("lerp tensor weight", lambda torch, x, y, w: torch.lerp(x, y * x, w * w),
     (signed(S34), signed(S34, 1), positive((4,), 2))),
    ("addcmul", lambda torch, x, a, b: torch.addcmul(x, a * a, b, value=0.5) ** 2,
     (signed(S3), signed(S3, 1), signed(S3, 2))),
    ("addcdiv", lambda torch, x, a, b: torch.addcdiv(x * x, a, b, value=-2) * a,
     (signed(S3), signed(S3, 1), positive(S3, 2))),
    ("cdist", lambda torch, a, b: torch.cdist(a * a, b, p=3.0) ** 2,
     (signed(S34), signed((2, 4), 1))),
    ("cdist by product", lambda torch, a, b: torch.cdist(
        a, b * b, compute_mode="use_mm_for_euclid_dist") ** 2, (signed(S34), signed((2, 4), 1))),
    ("div floor", lambda torch, x: torch.div(x * x, 0.3, rounding_mode="floor") * x,
     (signed(S34),)),
    ("index_add", lambda torch, x, s: (x * x).index_add(1, torch.tensor([0, 2, 0]), s * s,
                                                        alpha=2) * x,
     (signed(S34), signed((3, 3), 1))),
    ("median", lambda torch, x: x.median() * x, (signed(S34),)),
    ("median dim", lambda torch, x: x.median(1).values ** 3, (signed(S34),)),
    ("nanmedian", lambda torch, x: (x * x).nanmedian() * x, (signed(S34),)),
    ("nanmedian dim", lambda torch, x: x.nanmedian(0, keepdim=True).values * x, (signed(S34),)),
    ("squeeze dims", lambda torch, x: (x * x).reshape(1, 3, 1, 4).squeeze((0, 2)) * x,
     (signed(S34),)),
    ("interpolate linear", lambda torch, x: torch.nn.functional.interpolate(
        x, scale_factor=1.7, mode="linear") ** 3, (signed((1, 2, 4)),)),
    ("interpolate bicubic", lambda torch, x: torch.nn.functional.interpolate(
        x * x, size=(5, 3), mode="bicubic"), (signed((1, 2, 3, 4)),)),
    ("interpolate trilinear", lambda torch, x: torch.nn.functional.interpolate(
        x, size=(3, 2, 4), mode="trilinear", align_corners=True) ** 3,
     (signed((1, 1, 2, 3, 2)),)),
    ("interpolate nearest 1d", lambda torch, x: torch.nn.functional.interpolate(
        x, scale_factor=1.5) ** 3, (signed((1, 2, 4)),)),
    ("interpolate nearest 3d", lambda torch, x: torch.nn.functional.interpolate(
        x, size=(3, 2, 4)) ** 3, (signed((1, 1, 2, 3, 2)),)),
    ("interpolate nearest-exact 1d", lambda torch, x: torch.nn.functional.interpolate(
        x, scale_factor=1.5, mode="nearest-exact") ** 3, (signed((1, 2, 4)),)),
    ("interpolate nearest-exact 2d", lambda torch, x: torch.nn.functional.interpolate(
        x, size=(5, 3), mode="nearest-exact") ** 3, (signed((1, 2, 3, 4)),)),
    ("interpolate nearest-exact 3d", lambda torch, x: torch.nn.functional.interpolate(
        x, size=(3, 2, 4), mode="nearest-exact") ** 3, (signed((1, 1, 2, 3, 2)),)),
    ("interpolate bilinear antialias", lambda torch, x: torch.nn.functional.interpolate(
        x, size=(2, 3), mode="bilinear", antialias=True) ** 3, (signed((1, 2, 5, 4)),)),
    ("interpolate bicubic antialias", lambda torch, x: torch.nn.functional.interpolate(
        x * x, size=(3, 2), mode="bicubic", antialias=True), (signed((1, 1, 5, 4)),)),
    ("interpolate lanczos", lambda torch, x: torch.nn.functional.interpolate(
        x, size=(2, 3), mode="lanczos", antialias=True) ** 3, (signed((1, 1, 5, 4)),)),
    ("svdvals", lambda torch, x: torch.linalg.svdvals(x) ** 3, (signed((3, 4)),)),
    ("svd", lambda torch, x: torch.linalg.svd(x, full_matrices=False).U ** 2 * 3
     + torch.linalg.svd(x, full_matrices=False).Vh[:, :3].pow(2), (signed((3, 4)),)),
    ("matrix_norm nuc", lambda torch, x: torch.linalg.matrix_norm(x, "nuc") * x,
     (signed((4, 3)),)),
    ("kthvalue", lambda torch, x: (x * x).kthvalue(2, 1).values ** 3, (signed(S34),)),
    ("nansum", lambda torch, x: (x * x).nansum(1, keepdim=True) * x, (signed(S34),)),
    ("pairwise_distance", lambda torch, a, b: torch.nn.functional.pairwise_distance(
        a * a, b, p=3) ** 2, (signed(S34), signed(S34, 1))),
    ("normal", lambda torch, m, s: (torch.manual_seed(0), torch.normal(m * m, s * s)
                                    + torch.normal(m, 2.0) + torch.normal(1.0, s * s))[1] * m,
     (signed(S34), signed(S34, 1))),
]

# Node classes the table need not reach, and why.
NOT_IN_TABLE = {
    "NoDerivative": "the base class of the nodes whose derivative PyTorch does not implement",
    "Unique2Backward0": "unique: PyTorch's node has no derivative, it raises by design",
    "UniqueDimBackward0": "unique(dim): PyTorch's node has no derivative, it raises by design",
    "AccumulateGrad": "a leaf's node: it has no formula, it adds into .grad",
    "BackwardCFunction": "custom Functions: their backward is the user's (test_create_graph)",
    "Error": "once_differentiable's node raises by design (test_create_graph)",
    "NotImplemented": "// and number % tensor: PyTorch's own node refuses backward",
}


def second_derivatives(torch: Any, op: Op, arrays: tuple[np.ndarray, ...]) -> tuple:
    """The first gradients (as ``create_graph`` computes them) and the gradients of their
    weighted sum with respect to the leaves and the upstream gradient."""
    leaves = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = op(torch, *leaves)
    grad_output = upstream(torch, out).requires_grad_()
    grads = torch.autograd.grad(out, leaves, grad_output, create_graph=True, allow_unused=True)
    total = sum((g * upstream(torch, g)).sum() for g in grads if g is not None)
    seconds = torch.autograd.grad(total, [*leaves, grad_output], allow_unused=True)
    return grads, [torch.zeros_like(t) if s is None else s
                   for s, t in zip(seconds, [*leaves, grad_output])]


@pytest.mark.parametrize(("op", "arrays"), [pytest.param(op, arrays, id=name)
                                            for name, op, arrays in OPS])
def test_second_derivatives_match_pytorch(op, arrays):
    assert_same_outcome(lambda torch: second_derivatives(torch, op, arrays))


def _node_types(roots: Any) -> set[type]:
    seen, stack = set(), [r for r in roots if r is not None]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(child for child, _ in node.next_functions if child is not None)
    return {type(node) for node in seen}


def _all_node_classes() -> set[type]:
    found, stack = set(), [Node]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            # (A node class says it is in ``builtins``, as PyTorch's do; its code is in
            # ``_source_module``.)
            if sub._source_module.startswith("minitorch_hooks") and not \
                    sub.__name__.startswith("_"):
                found.add(sub)
            stack.append(sub)
    return found


def test_every_node_class_is_in_the_table():
    torch = minitorch_hooks
    reached: set[type] = set()
    for _, op, arrays in OPS:
        leaves = [torch.tensor(a, requires_grad=True) for a in arrays]
        out = op(torch, *leaves)
        grad_output = upstream(torch, out).requires_grad_()
        grads = torch.autograd.grad(out, leaves, grad_output, create_graph=True,
                                    allow_unused=True)
        reached |= _node_types([out.grad_fn] + [g.grad_fn for g in grads if g is not None])
    missing = sorted(cls.__name__ for cls in _all_node_classes() - reached
                     if cls.__name__ not in NOT_IN_TABLE)
    assert not missing, f"node classes with no row in the second-derivative table: {missing}"


@pytest.mark.parametrize(("op", "arrays"), [pytest.param(op, arrays, id=name)
                                            for name, op, arrays in OPS[::7]])
def test_gradgradcheck_agrees_on_a_sample_of_the_table(op, arrays):
    """``gradgradcheck`` against finite differences, on both libraries."""
    def scenario(torch):
        leaves = tuple(torch.tensor(a, requires_grad=True) for a in arrays)
        try:
            return torch.autograd.gradgradcheck(lambda *xs: op(torch, *xs), leaves)
        except RuntimeError as error:
            if type(error).__name__ != "GradcheckError":
                raise
            # A failure prints the two Jacobians, whose last digits depend on the CPU's
            # arithmetic: the verdict and its first line are what both must agree on.
            return f"GradcheckError: {str(error).splitlines()[0]}"

    assert_same_outcome(scenario)
