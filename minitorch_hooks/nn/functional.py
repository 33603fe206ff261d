"""The functions behind the layers: ``F.linear``, ``F.relu``, ``F.dropout``, the losses.

A layer (``nn.Linear``) holds parameters and calls one of these; the computation itself is
made of ordinary recorded operations, chosen as PyTorch chooses them, so a layer's output
has PyTorch's ``grad_fn`` (``AddmmBackward0`` for ``nn.Linear`` on a batch). Hooks on the
graph therefore see the same nodes in both libraries.
See <https://docs.pytorch.org/docs/2.13/nn.functional.html>
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _dtype, _missing
from .._creation import zeros
from .._ops import activation as _activation
from .._ops import im2col as _im2col
from .._ops import inplace as _inplace
from .._ops import loss as _loss
from .._ops import normalization as _norm
from .._ops import pixel_shuffle as _pixel_shuffle
from .._ops import sparse as _sparse
from .._ops._arguments import checked
from .._ops.linalg import addmm, matmul
from .._ops.pointwise import _broadcast_check, abs, add, sigmoid, sub, tanh
from .._ops.reduction import mean, sum
from .._ops.shape import expand, reshape, t, view
from .._tensor import Tensor, _c_name, wrap
from ..autograd.grad_mode import no_grad
from ._functional_conv import (
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    avg_pool2d,
    avg_pool3d,
    conv1d,
    conv2d,
    max_pool2d,
    max_pool2d_with_indices,
    max_pool3d,
    max_pool3d_with_indices,
    pad,
)

# Convolutions, padding, pooling and resizing live in _functional_conv.py and the other
# _functional_* files beside this one; they are re-exported here, so ``F.conv2d`` and the
# rest are where PyTorch has them.
from ._functional_conv_transpose import (
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
)
from ._functional_dropout import dropout1d, dropout2d, dropout3d
from ._functional_hard import hardswish, hardtanh, hardtanh_, relu6
from ._functional_instance_norm import instance_norm
from ._functional_interpolate import interpolate
from ._functional_losses import binary_cross_entropy, huber_loss, kl_div, smooth_l1_loss
from ._functional_pool_more import (
    adaptive_avg_pool1d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
    avg_pool1d,
    max_pool1d,
    max_pool1d_with_indices,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from ._functional_threshold import elu, elu_, softplus, threshold, threshold_
from ._functional_vectors import cosine_similarity, normalize, one_hot, pairwise_distance

__all__ = ["adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool3d", "avg_pool2d",
           "avg_pool3d", "max_pool3d", "max_pool3d_with_indices", "max_unpool1d", "max_unpool2d",
           "max_unpool3d", "batch_norm",
           "binary_cross_entropy_with_logits",
           "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "cross_entropy",
           "dropout1d", "dropout2d", "dropout3d", "fold", "hardswish", "hardtanh", "hardtanh_",
           "relu6", "binary_cross_entropy", "huber_loss", "kl_div", "smooth_l1_loss",
           "instance_norm", "adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_max_pool2d",
           "avg_pool1d", "max_pool1d", "max_pool1d_with_indices", "unfold",
           "elu", "elu_", "softplus", "threshold", "threshold_", "cosine_similarity",
           "normalize", "one_hot", "pairwise_distance",
           "dropout", "embedding", "gelu", "group_norm", "interpolate", "l1_loss", "layer_norm",
           "leaky_relu", "leaky_relu_", "linear", "prelu", "log_softmax", "max_pool2d",
           "max_pool2d_with_indices", "mse_loss", "nll_loss", "pad", "pixel_shuffle",
           "pixel_unshuffle", "relu", "relu_",
           "scaled_dot_product_attention", "sigmoid", "silu", "softmax", "softmin", "tanh"]

gelu = _activation.gelu
pixel_shuffle, pixel_unshuffle = _pixel_shuffle.pixel_shuffle, _pixel_shuffle.pixel_unshuffle


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, recorded as PyTorch records it.

    * A batch of vectors (2-D) with a bias is one ``addmm``: bias and product in one node,
      ``AddmmBackward0`` with next functions (bias, input, ``TBackward0``).
    * Any other contiguous input with a bias is folded into such a batch and unfolded
      afterwards: ``ViewBackward0`` around the ``AddmmBackward0``.
    * Without a bias it is ``matmul`` (``MmBackward0`` for a batch); a non-contiguous input
      with a bias is ``matmul`` and then an ``add`` (PyTorch adds in place, into the fresh
      product; either way the node is ``AddBackward0``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.linear.html>
    """
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if bias is None:
        return matmul(input, t(weight))
    if input.dim() == 2:
        return addmm(bias, input, t(weight))
    if input.is_contiguous():
        *batch, features = input.shape
        rows = int(np.prod(batch))  # not -1: that fails for an empty batch
        output = addmm(bias, reshape(input, rows, features), t(weight))
        return view(output, *batch, output.shape[1])
    return add(matmul(input, t(weight)), bias)


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(input, 0)``; with ``inplace`` the input itself is overwritten."""
    return input.relu_() if inplace else input.relu()


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * sigmoid(x)``; with ``inplace`` the input itself is overwritten.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.silu.html>
    """
    return _inplace.silu_(input) if inplace else _activation.silu(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x`` where positive, ``negative_slope * x`` elsewhere; with ``inplace`` the input
    itself is overwritten (and the node saves the result instead of the input).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.leaky_relu.html>
    """
    if inplace:
        return _inplace.leaky_relu_(input, negative_slope)
    return _activation.leaky_relu(input, negative_slope)


leaky_relu_ = _inplace.leaky_relu_


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``x`` where positive, ``weight * x`` elsewhere: ``leaky_relu`` with a learnt slope,
    one for all channels (``weight`` of one element) or one per channel (dimension 1).

    As PyTorch does, ``weight`` is first reshaped to broadcast over dimension 1 (a
    ``ViewBackward0`` between the weight and ``PreluKernelBackward0``) unless it already
    has the input's number of dimensions; a 0-d or 1-d input has one channel.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.prelu.html>
    """
    if input.dtype is not weight.dtype:
        raise RuntimeError("prelu: Type promoting not supported. Got "
                           f"{input.dtype.scalar_name} and {weight.dtype.scalar_name}")
    ndim = input.dim()
    if weight.numel() != 1:
        if ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.size(1) if ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError("Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if weight.dim() > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")
    if ndim != weight.dim():
        weight = reshape(weight, [weight.numel() if d == 1 else 1 for d in range(ndim)])
    return _activation.prelu_kernel(input, weight)


def relu_(input: Tensor) -> Tensor:
    """``relu(input, inplace=True)``: the input itself, overwritten."""
    return input.relu_()


def _get_softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """Old PyTorch guessed the dimension; it still does, with a deprecation warning."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: _dtype.dtype | None = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``: scores to probabilities."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype)


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: _dtype.dtype | None = None) -> Tensor:
    """``softmax(-x)``: the smallest scores get the largest probabilities. Recorded as
    PyTorch records it, ``SoftmaxBackward0`` after ``NegBackward0``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.softmin.html>
    """
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: _dtype.dtype | None = None) -> Tensor:
    """``log(softmax(x))``, computed without the ``exp`` that could overflow."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``, so
    that the expected value is unchanged; outside training it returns ``input`` itself.

    The noise is drawn as PyTorch draws it on the CPU: ``bernoulli_(1 - p)`` on a tensor
    laid out like the input, divided by ``1 - p``, then multiplied in (``MulBackward0``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.dropout.html>
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        noise = zeros((), dtype=input.dtype)
    else:
        # ``torch.empty_like`` keeps the input's strides, and the generator fills memory in
        # storage order: a transposed input gets the same draws in the same memory slots.
        noise = wrap(np.empty_like(input._data))
        noise.bernoulli_(1 - p)
        noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


# -- normalisation and embeddings ---------------------------------------------------------

def _verify_batch_size(size: Any) -> None:
    """Statistics of one value per channel would be that value, with zero variance."""
    if int(np.prod([size[0], *size[2:]])) == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input "
                         f"size {size}")


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel (dimension 1) over the batch and positions; ``running_mean``
    and ``running_var`` are updated in place in training, used in evaluation.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.batch_norm.html>
    """
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    return _norm.batch_norm(input, running_mean, running_var, weight, bias, training,
                            momentum, eps)


def layer_norm(input: Tensor, normalized_shape: Sequence[int], weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise each sample over its last dimensions, those of ``normalized_shape``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.layer_norm.html>
    """
    if not isinstance(normalized_shape, Sequence):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple "
                        f"of ints, not {type(normalized_shape).__name__}")
    return _norm.layer_norm(input, tuple(normalized_shape), weight, bias, eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise each sample's channels in ``num_groups`` groups.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.group_norm.html>
    """
    if input.dim() < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups,
                        *input.size()[2:]])
    return _norm.group_norm(input, num_groups, weight, bias, eps)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of ``weight`` that ``input`` (integer indices) picks; the row at
    ``padding_idx`` gets no gradient. With ``max_norm`` the picked rows longer than that are
    first shortened in place, in the table itself.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.embedding.html>
    """
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    if sparse:
        raise NotImplementedError("minitorch_hooks has no sparse tensors: embedding's "
                                  "sparse=True is left out")
    if max_norm is not None:
        with no_grad():  # the table itself changes: no step of the graph
            _sparse.embedding_renorm_(weight, input.contiguous(), max_norm, norm_type)
    return _sparse.embedding(weight, input, padding_idx, scale_grad_by_freq)


# -- losses -----------------------------------------------------------------------------

def _check_reduction(reduction: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _broadcast_pair(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """``torch.broadcast_tensors`` for two: PyTorch warns first, as a mismatch is usually
    a mistake (a ``(N,)`` target for an ``(N, 1)`` output gives an ``(N, N)`` loss)."""
    if target.size() != input.size():  # ``size()``, target first: PyTorch's AttributeError
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                      f"size ({input.shape}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=3)
    try:
        shape = np.broadcast_shapes(input._data.shape, target._data.shape)
    except ValueError:
        _broadcast_check(input._data, target._data)
        raise
    # A tensor that already has the full shape is used as it is, not through ``expand``.
    return tuple(x if x._data.shape == shape else expand(x, shape) for x in (input, target))


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Tensor:
    """The sliding blocks of an image as columns (``im2col``), ``(N, C * kh * kw, L)``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.unfold.html>
    """
    return _im2col.unfold(input, kernel_size, dilation, padding, stride)


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1,
         padding: Any = 0, stride: Any = 1) -> Tensor:
    """Columns back into an image (``col2im``), overlapping elements added up.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.fold.html>
    """
    return _im2col.fold(input, output_size, kernel_size, dilation, padding, stride)


def _legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    """The ``reduction`` that the deprecated ``size_average`` and ``reduce`` arguments ask
    for, with PyTorch's warning (``torch.nn._reduction.legacy_get_string``)."""
    reduction = "none" if reduce is False else ("sum" if size_average is False else "mean")
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    return reduction


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None,
                                     size_average: bool | None = None,
                                     reduce: bool | None = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross-entropy of logits: ``sigmoid`` and the loss in one numerically stable
    step (no ``log(0)`` for large logits). ``weight`` scales each element's loss,
    ``pos_weight`` the positive term of each class (broadcast along the last dimension).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.binary_cross_entropy_with_logits.html>
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    return _loss.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def mse_loss(input: Tensor, target: Tensor, *, reduction: str = "mean") -> Tensor:
    """The squared error ``(input - target) ** 2``, averaged or summed.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.mse_loss.html>
    """
    input, target = _broadcast_pair(input, target)
    _check_reduction(reduction)
    return _loss.mse_loss(input, target, reduction)


def l1_loss(input: Tensor, target: Tensor, *, reduction: str = "mean") -> Tensor:
    """The absolute error ``|input - target|``, averaged or summed. No node of its own:
    PyTorch records ``SubBackward0``, ``AbsBackward0`` and ``MeanBackward0``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.l1_loss.html>
    """
    input, target = _broadcast_pair(input, target)
    _check_reduction(reduction)
    losses = abs(sub(input, target))
    if reduction == "none":
        return losses
    return mean(losses) if reduction == "mean" else sum(losses)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, *,
             ignore_index: int = -100, reduction: str = "mean") -> Tensor:
    """The negative log likelihood of the target classes, given log-probabilities
    ``(N, C)`` (or ``(C,)`` for one sample) and class indices ``(N,)`` (or a number).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.nll_loss.html>
    """
    _check_reduction(reduction)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() == 1:
        if target.dim() == 1 and target.numel() != 1:
            raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                             f"{target.size(0)}")
    else:
        target_batch = target.size(0) if target.dim() else 0
        if input.size(0) != target_batch:
            raise ValueError(f"Expected input batch_size ({input.size(0)}) to match target "
                             f"batch_size ({target_batch}).")
    if input.dim() > 2:
        raise NotImplementedError("minitorch_hooks implements nll_loss for (N, C) and (C,) "
                                  "inputs only")
    return _loss.nll_loss(input, target, weight, reduction, ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, *,
                  ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """``nll_loss(log_softmax(input))``: raw scores in, one loss per sample out.

    PyTorch records exactly these two steps (``NllLossBackward0`` after
    ``LogSoftmaxBackward0``); the classes are dimension 1, or 0 for a single sample.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.cross_entropy.html>
    """
    _check_reduction(reduction)
    if input.shape == target.shape:  # PyTorch reads a same-shape target as probabilities
        if not target.is_floating_point():
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {target.dtype.scalar_name}")
        raise NotImplementedError("minitorch_hooks implements cross_entropy for class "
                                  "indices only, not for class probabilities")
    if label_smoothing != 0.0:
        raise NotImplementedError("minitorch_hooks does not implement label_smoothing")
    class_dim = 0 if input.dim() == 1 else 1
    return nll_loss(log_softmax(input, class_dim), target, weight,
                    ignore_index=ignore_index, reduction=reduction)


# The functions that PyTorch's parser checks before any Python runs (``_ops/_arguments.py``),
# under the names its errors give; the others fail where PyTorch's Python code fails.
linear, relu, dropout = checked(linear), checked(relu), checked(dropout)
prelu = checked(prelu)
nll_loss = checked(nll_loss, "nll_loss_nd")
cross_entropy = checked(cross_entropy, "cross_entropy_loss")


def _check_attention_inputs(query: Tensor, key: Tensor, value: Tensor,
                            attn_mask: Tensor | None, dropout_p: float, is_causal: bool) -> None:
    """The checks PyTorch makes before choosing an attention kernel, with its messages."""
    if attn_mask is not None and is_causal:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                           "set when is_causal=True")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} "
            "instead.")
    if dropout_p > 1.0:  # a negative p means no dropout: PyTorch never checks it
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {_c_name(query.dtype)} key.dtype: {_c_name(key.dtype)} "
                           f"and value.dtype: {_c_name(value.dtype)} instead.")
    if attn_mask is not None and attn_mask.dtype not in (_dtype.bool, _dtype.float32,
                                                         query.dtype):
        raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {_c_name(attn_mask.dtype)} and  "
                           f"query.dtype: {_c_name(query.dtype)} instead.")


def _share_heads(x: Tensor, heads: int) -> Tensor:
    """Grouped-query attention: repeat each key or value head for the query heads it
    serves, ``(..., h, S, E)`` to ``(..., heads, S, E)`` (``repeat_interleave`` on the heads)."""
    if heads % x.size(-3) != 0:
        raise RuntimeError("Number of heads in key and value must divide the number of heads "
                           "in ")
    shape = tuple(x.shape)
    grouped = x.unsqueeze(-3).expand(*shape[:-2], heads // shape[-3], *shape[-2:])
    return grouped.reshape(*shape[:-3], heads, *shape[-2:])


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(query @ key.T * scale + mask) @ value``: each query position takes a
    weighted average of the values, weighted by how well it matches each key.

    Built from recorded ops (matmul, masked_fill, softmax, dropout), as PyTorch's reference
    "math" kernel is, so its first and second derivatives come from those ops. A boolean mask
    says which keys a query may attend to (``True`` takes part); a float mask is added to the
    scores; ``is_causal`` hides the future. A query whose keys are all masked gets zeros
    instead of the NaN a plain softmax would give, as PyTorch's ``_safe_softmax`` does.
    ``enable_gqa`` lets a few key and value heads serve many query heads.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.scaled_dot_product_attention.html>
    """
    _check_attention_inputs(query, key, value, attn_mask, dropout_p, is_causal)
    if enable_gqa:
        key, value = _share_heads(key, query.size(-3)), _share_heads(value, query.size(-3))
    if scale is None:
        scale = 1 / math.sqrt(query.shape[-1])
    scores = matmul(query, key.transpose(-2, -1)) * scale
    if is_causal:
        length, source = query.shape[-2], key.shape[-2]
        attn_mask = wrap(np.tril(np.ones((length, source), dtype=bool)))
    if attn_mask is not None and attn_mask.dtype == _dtype.bool:
        scores = scores.masked_fill(attn_mask.logical_not(), -math.inf)
    elif attn_mask is not None:
        scores = scores + attn_mask
    hidden = wrap(np.isneginf(scores._data).all(-1, keepdims=True))
    weights = softmax(scores.masked_fill(hidden, 0.0), dim=-1).masked_fill(hidden, 0.0)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    return matmul(weights, value)

__getattr__ = _missing.module_getattr(__name__, "torch.nn.functional")  # missing names say so
