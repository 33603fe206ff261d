"""Batch, layer and group normalisation: ``(x - mean) / sqrt(var + eps) * weight + bias``.

The three differ only in which elements share a mean and a variance:

* batch norm: one pair per channel (dimension 1), over the batch and every position;
* layer norm: one pair per sample, over the last dimensions (``normalized_shape``);
* group norm: one pair per sample and group of channels.

So each views the input in a *statistics shape* whose *statistics axes* are the elements of
one group, and they share one forward and one backward formula. PyTorch computes each in one
kernel with a node of its own (``NativeBatchNormBackward0``, ...); we record the same nodes.

The backward formula recomputes the mean and variance from the saved input instead of
saving them: written with operators and ``_formula`` helpers, it is then differentiable in
the input too, which is what double backward through a normalisation layer needs.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.batch_norm.html>
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record


def _normalized(x: Any, stats_shape: tuple[int, ...], axes: tuple[int, ...],
                eps: float) -> tuple[Any, Any]:
    """``x`` in the statistics shape, centred and scaled to unit variance (biased variance,
    as normalisation uses), and the reciprocal of its standard deviation."""
    grouped = x.reshape(stats_shape)
    centred = grouped - formula.mean(grouped, axes)
    rstd = (formula.mean(centred * centred, axes) + eps) ** -0.5
    return centred * rstd, rstd


class _NormBackward(Node):
    """``stats_shape`` and ``axes``: where the statistics are taken; ``param_shape``: the
    weight's shape broadcast against the input; ``param_axes``: the input's dimensions
    summed for the weight's and the bias's gradients; ``affine_shape``: their own shape.

    It saves what PyTorch's node saves, in its order (saved-tensor hooks see the same
    tensors): among them the mean and ``1 / std`` of each group, ``result1`` and
    ``result2``, extra outputs of PyTorch's kernel. The formula recomputes them from the
    input instead, so that it stays differentiable in the input.
    """

    __slots__ = ("stats_shape", "axes", "param_shape", "param_axes", "affine_shape", "eps")

    def backward(self, grad):
        saved = dict(zip(self.saved_names, self.saved_arrays()))
        x, weight = saved["input"], saved["weight"]
        xhat, rstd = _normalized(x, self.stats_shape, self.axes, self.eps)
        return self._grads(x, weight, grad, xhat, rstd, batch_statistics=True)

    def _grads(self, x: Any, weight: Any, grad: Any, xhat: Any, rstd: Any,
               batch_statistics: bool) -> tuple:
        """Gradients of input, weight and bias. With statistics of the batch, the mean and
        variance depend on every element of a group: two mean terms correct for that."""
        scaled = grad if weight is None else grad * weight.reshape(self.param_shape)
        scaled = scaled.reshape(self.stats_shape)
        if batch_statistics:
            scaled = (scaled - formula.mean(scaled, self.axes)
                      - xhat * formula.mean(scaled * xhat, self.axes))
        shape = formula.array(x).shape
        grad_weight = formula.sum(grad * xhat.reshape(shape), self.param_axes)
        return ((scaled * rstd).reshape(shape), grad_weight.reshape(self.affine_shape),
                formula.sum(grad, self.param_axes).reshape(self.affine_shape))


class NativeBatchNormBackward0(_NormBackward):
    """Also in evaluation mode, where the running statistics are constants: the input's
    gradient is then just ``grad * weight / sqrt(running_var + eps)``."""

    __slots__ = ("training",)
    saved_names = ("input", "weight", "running_mean", "running_var", "result1", "result2")
    saved_attributes = ("eps", "training")

    def backward(self, grad):
        if self.training:
            return super().backward(grad)
        x, weight, running_mean, running_var, *_ = self.saved_arrays()
        rstd = (running_var.reshape(self.param_shape) + self.eps) ** -0.5
        xhat = (x - running_mean.reshape(self.param_shape)) * rstd
        return self._grads(x, weight, grad, xhat, rstd, batch_statistics=False)


class NativeLayerNormBackward0(_NormBackward):
    __slots__ = ()
    saved_names = ("bias", "input", "weight", "result1", "result2")

    @property
    def _saved_normalized_shape(self) -> tuple[int, ...]:
        return self.affine_shape


class NativeGroupNormBackward0(_NormBackward):
    __slots__ = ("N", "C", "HxW", "group")
    saved_names = ("input", "weight", "result1", "result2")
    saved_attributes = ("N", "C", "HxW", "group", "eps")


def _check_same_dtype(input: Tensor, *others: Tensor | None) -> None:
    """PyTorch's kernels allow one mix, a reduced-precision input with float32 parameters;
    so for a float32 input its message names the parameters' expected type."""
    if any(t is not None and t.dtype != input.dtype for t in others):
        if input._data.dtype == np.float32:
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of "
                               "Float")
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def _check_floating(input: Tensor, kernel: str) -> None:
    """The kernels exist for floating-point types only."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype.scalar_name}'")


def _affine(values: np.ndarray, weight: Tensor | None, bias: Tensor | None,
            param_shape: tuple[int, ...]) -> np.ndarray:
    if weight is not None:
        values = values * weight._data.reshape(param_shape)
    if bias is not None:
        values = values + bias._data.reshape(param_shape)
    return values


def _record_norm(node_type: type[_NormBackward], input: Tensor, weight: Tensor | None,
                 bias: Tensor | None, out: np.ndarray, saved: tuple, **attributes: Any) -> Tensor:
    # PyTorch's kernels write a contiguous result, whatever the input's layout.
    return record(np.ascontiguousarray(out, dtype=input._data.dtype), node_type,
                  (input, weight, bias), saved=saved, **attributes)


def _statistics(x: np.ndarray, stats_shape: tuple[int, ...], axes: tuple[int, ...],
                eps: float, shape: tuple[int, ...]) -> tuple[np.ndarray, Tensor, Tensor]:
    """The normalised values, and each group's mean and ``1 / std`` as tensors of
    ``shape``, as PyTorch's kernels return them."""
    xhat, rstd = _normalized(x, stats_shape, axes, eps)
    mean = x.reshape(stats_shape).mean(axis=axes)
    return xhat, wrap(mean.reshape(shape)), wrap(rstd.reshape(shape))


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None, bias: Tensor | None, training: bool, momentum: float,
               eps: float) -> Tensor:
    """Normalise each channel; in training with the batch's statistics, and the running
    ones (when given) move ``momentum`` of the way towards them, with the *unbiased*
    variance (the estimate of the population's); otherwise with the running statistics."""
    channels = input.size(1)
    _check_floating(input, "batch_norm")
    for name, tensor in (("running_mean", running_mean), ("running_var", running_var),
                         ("weight", weight), ("bias", bias)):
        if tensor is not None and tensor.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {tensor.numel()}")
    _check_same_dtype(input, weight, bias, running_mean, running_var)
    if input.numel() == 0:  # nothing to normalise: PyTorch's shortcut, with its graph
        out = input.clone()
        out = out if weight is None else out * weight[0]
        return out if bias is None else out + bias[0]
    x = input._data
    axes = (0, *range(2, x.ndim))
    param_shape = (1, channels) + (1,) * (x.ndim - 2)
    geometry = dict(stats_shape=x.shape, axes=axes, param_shape=param_shape, param_axes=axes,
                    affine_shape=(channels,), eps=eps, training=training)
    if not training:
        if running_mean is None or running_var is None:
            raise RuntimeError("running_mean must be defined in evaluation mode")
        rstd = 1 / np.sqrt(running_var._data.reshape(param_shape) + eps)
        xhat = (x - running_mean._data.reshape(param_shape)) * rstd
        nothing = wrap(np.empty(0, dtype=x.dtype))  # no batch statistics
        return _record_norm(NativeBatchNormBackward0, input, weight, bias,
                            _affine(xhat, weight, bias, param_shape),
                            (input, weight, running_mean, running_var, nothing, nothing),
                            **geometry)
    xhat, mean, rstd = _statistics(x, x.shape, axes, eps, (channels,))
    if running_mean is not None and running_var is not None:
        count = x.size // channels
        unbiased = x.var(axis=axes) * (count / (count - 1)) if count > 1 else np.nan
        for buffer, batch_value in ((running_mean, mean._data), (running_var, unbiased)):
            buffer._data[...] = (1 - momentum) * buffer._data + momentum * batch_value
    return _record_norm(NativeBatchNormBackward0, input, weight, bias,
                        _affine(xhat, weight, bias, param_shape),
                        (input, weight, running_mean, running_var, mean, rstd), **geometry)


def layer_norm(input: Tensor, normalized_shape: tuple[int, ...], weight: Tensor | None,
               bias: Tensor | None, eps: float) -> Tensor:
    """Normalise each sample over its last ``len(normalized_shape)`` dimensions."""
    x = input._data
    count = len(normalized_shape)
    if tuple(x.shape[x.ndim - count:]) != tuple(normalized_shape) or x.ndim < count:
        expected = ", ".join(str(s) for s in normalized_shape)
        raise RuntimeError(f"Given normalized_shape=[{expected}], expected input with shape "
                           f"[*, {expected}], but got input of size{list(x.shape)}")
    _check_same_dtype(input, weight, bias)
    _check_floating(input, "LayerNormKernelImpl")
    axes = tuple(range(x.ndim - count, x.ndim))
    xhat, mean, rstd = _statistics(x, x.shape, axes, eps, x.shape[:x.ndim - count] + (1,) * count)
    return _record_norm(NativeLayerNormBackward0, input, weight, bias,
                        _affine(xhat, weight, bias, normalized_shape),
                        (bias, input, weight, mean, rstd), stats_shape=x.shape, axes=axes,
                        param_shape=normalized_shape, param_axes=tuple(range(x.ndim - count)),
                        affine_shape=normalized_shape, eps=eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None, bias: Tensor | None,
               eps: float) -> Tensor:
    """Normalise each sample's groups of ``channels / num_groups`` channels."""
    x = input._data
    channels = x.shape[1]
    if channels % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(x.shape)} and "
                           f"num_groups={num_groups}")
    _check_same_dtype(input, weight, bias)
    _check_floating(input, "GroupNormKernelImpl")
    stats_shape = (x.shape[0], num_groups, channels // num_groups * math.prod(x.shape[2:]))
    param_shape = (1, channels) + (1,) * (x.ndim - 2)
    xhat, mean, rstd = _statistics(x, stats_shape, (2,), eps, stats_shape[:2])
    return _record_norm(NativeGroupNormBackward0, input, weight, bias,
                        _affine(xhat.reshape(x.shape), weight, bias, param_shape),
                        (input, weight, mean, rstd), stats_shape=stats_shape, axes=(2,),
                        param_shape=param_shape, param_axes=(0, *range(2, x.ndim)),
                        affine_shape=(channels,), eps=eps, N=x.shape[0], C=channels,
                        HxW=math.prod(x.shape[2:]), group=num_groups)
