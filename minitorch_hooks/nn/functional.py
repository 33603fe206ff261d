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

from .. import _dtype
from .._creation import zeros
from .._ops import activation as _activation
from .._ops import conv as _conv
from .._ops import inplace as _inplace
from .._ops import loss as _loss
from .._ops import normalization as _norm
from .._ops import padding as _padding
from .._ops import pooling as _pooling
from .._ops import sparse as _sparse
from .._ops._arguments import checked
from .._ops.linalg import addmm, matmul
from .._ops.pointwise import _broadcast_check, abs, add, sigmoid, sub, tanh
from .._ops.reduction import mean, sum
from .._ops.shape import expand, reshape, squeeze, t, unsqueeze, view
from .._tensor import Tensor, _c_name
from ..autograd.grad_mode import no_grad

__all__ = ["adaptive_avg_pool2d", "avg_pool2d", "batch_norm", "conv1d", "conv2d", "cross_entropy",
           "dropout", "embedding", "gelu", "group_norm", "interpolate", "l1_loss", "layer_norm",
           "leaky_relu", "leaky_relu_", "linear", "log_softmax", "max_pool2d",
           "max_pool2d_with_indices", "mse_loss", "nll_loss", "pad", "relu", "relu_",
           "scaled_dot_product_attention", "sigmoid", "silu", "softmax", "softmin", "tanh"]

gelu = _activation.gelu


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
        noise = Tensor._wrap(np.empty_like(input._data))
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
nll_loss = checked(nll_loss, "nll_loss_nd")
cross_entropy = checked(cross_entropy, "cross_entropy_loss")


# -- convolutions -----------------------------------------------------------------------

def _expand_param(value: Any, name: str, nd: int) -> list[int]:
    """An int stands for the same value along every spatial dimension."""
    values = [value] * nd if isinstance(value, int) else list(value)
    if len(values) != nd:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {nd} "
                           "values to match the convolution dimensions, but got "
                           f"{name}={values}")
    return values


def _convnd(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any,
          dilation: Any, groups: int, nd: int) -> Tensor:
    """``F.conv1d`` and ``F.conv2d``: the checks, in PyTorch's order and words, then one
    ``convolution`` on a batch (an unbatched input gets a batch of one, recorded as
    ``unsqueeze`` and ``squeeze`` as in PyTorch)."""
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
                           f"conv{nd}d, but got input of size: {list(input.shape)}")
    if isinstance(padding, str) and padding not in ("same", "valid"):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    batched = input.dim() == nd + 2
    if not batched:
        input = unsqueeze(input, 0)
    kernel_dims = weight.dim() - 2
    stride = _expand_param(stride, "stride", kernel_dims)
    dilation = _expand_param(dilation, "dilation", kernel_dims)
    if padding == "valid":
        padding = [0] * kernel_dims
    elif padding == "same":
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        # The total pad is the kernel's reach; when it is odd, the extra row and column go
        # after the input (an explicit ``F.pad``, as PyTorch does).
        total = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
        padding = [t_ // 2 for t_ in total]
        extra = [t_ % 2 for t_ in total]
        if any(extra):
            _warn_once_about_same_padding()
            input = pad(input, [amount for e in extra[::-1] for amount in (0, e)])
    else:
        padding = _expand_param(padding, "padding", kernel_dims)
    _check_conv(input, weight, bias, stride, padding, dilation, groups)
    if input.dtype is _dtype.bool:
        raise NotImplementedError('"slow_conv2d_cpu" not implemented for \'Bool\'')
    out = _conv.convolution(input, weight, bias, stride, padding, dilation, False,
                            [0] * kernel_dims, groups)
    return out if batched else squeeze(out, 0)


_same_padding_warned = []


def _warn_once_about_same_padding() -> None:
    """PyTorch's warning comes from C++ (``TORCH_WARN_ONCE``): once per process."""
    if not _same_padding_warned:
        _same_padding_warned.append(True)
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may "
                      "require a zero-padded copy of the input be created", UserWarning,
                      stacklevel=4)


def _check_conv(input: Tensor, weight: Tensor, bias: Tensor | None, stride: list[int],
                padding: list[int], dilation: list[int], groups: int) -> None:
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    weight_size, input_size = list(weight.shape), list(input.shape)
    if weight_size[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                           f"{groups} at dimension 0, but got weight of size [{weight_size}] "
                           "instead")
    if input_size[1] != weight_size[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {weight_size}, expected "
                           f"input{input_size} to have {weight_size[1] * groups} channels, "
                           f"but got {input_size[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight_size[0]):
        raise RuntimeError(f"Given weight of size {weight_size}, expected bias to be "
                           f"1-dimensional with {weight_size[0]} elements, but got bias of "
                           f"size {list(bias.shape)} instead")
    padded = [size + 2 * p for size, p in zip(input_size[2:], padding)]
    reach = [d * (k - 1) + 1 for d, k in zip(dilation, weight_size[2:])]
    if any(r > size for r, size in zip(reach, padded)):
        raise RuntimeError("Calculated padded input size per channel: ("
                           f"{' x '.join(map(str, padded))}). Kernel size: ("
                           f"{' x '.join(map(str, reach))}). Kernel size can't be greater "
                           "than actual input size")
    if input.dtype != weight.dtype:
        # PyTorch's message depends on the kernel it picked: oneDNN's for a float32
        # batch of two or more, its own otherwise.
        if input.dtype is _dtype.float32 and input_size[0] > 1:
            raise RuntimeError(f"Input type ({input.dtype.legacy_name}) and weight type "
                               f"({weight.dtype.legacy_name}) should be the same or input "
                               "should be a MKLDNN tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{weight.dtype.scalar_name}")
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({input.dtype.scalar_name.lower()}) and bias type "
                           f"({bias.dtype.scalar_name.lower()}) should be the same")


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """A 1-D convolution of ``(N, C, L)`` (or ``(C, L)``) with ``(O, C / groups, K)``
    kernels; ``padding`` is a number, a tuple, ``'valid'`` (none) or ``'same'`` (an output
    as long as the input).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv1d.html>
    """
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """A 2-D convolution of ``(N, C, H, W)`` (or ``(C, H, W)``) with ``(O, C / groups, KH,
    KW)`` kernels; see :func:`conv1d` for the arguments.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv2d.html>
    """
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 2)


_NON_CONSTANT_PADS = """Supported combinations for non-constant padding:
  - 2D or 3D input: padding size = 2 (pads last dimension)
  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)
  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"""


def pad(input: Tensor, pad: Sequence[int], mode: str = "constant",
        value: float | None = None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dimensions; ``pad`` gives (before, after) amounts
    starting from the last dimension. ``mode`` is ``'constant'`` (``value``, default 0),
    ``'reflect'`` or ``'replicate'``; ``'circular'`` is not implemented.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.pad.html>
    """
    pad = list(pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {input.dim()}")
    if mode == "constant":
        return _padding.constant_pad_nd(input, pad, 0.0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    nd = len(pad) // 2
    if not (nd + 1 <= input.dim() <= nd + 2) or nd > 3:
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for "
                                  f"{input.dim()}D input tensor.\n{_NON_CONSTANT_PADS}")
    if mode == "circular" or nd == 3:
        raise NotImplementedError(f"minitorch_hooks does not implement {mode} padding of "
                                  f"{nd} dimensions")
    return _padding.gather_pad(input, pad, mode)


# -- pooling and resizing -----------------------------------------------------------------

def _pair_param(value: Any, name: str, function: str) -> tuple[int, int]:
    values = (value, value) if isinstance(value, int) else tuple(value)
    if len(values) not in (1, 2):
        raise RuntimeError(f"{function}: {name} must either be a single int, or a tuple of "
                           "two ints")
    return values * 2 if len(values) == 1 else values


def _pool_args(input: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
               function: str) -> tuple:
    """The checks ``max_pool2d`` and ``avg_pool2d`` share; ``stride`` defaults to the
    kernel. Returns the input as a batch, and whether it was one."""
    if input.dtype is _dtype.bool:  # (avg_pool2d also refuses other integers, but later)
        raise NotImplementedError(f'"{function}" not implemented for \'Bool\'')
    kernel = _pair_param(kernel_size, "kernel_size", function)
    stride_given = () if stride is None or stride == [] else _pair_param(stride, "stride",
                                                                          function)
    stride = stride_given or kernel
    padding = _pair_param(padding, "pad", function)
    dilation = _pair_param(dilation, "dilation", function)
    if 0 in kernel or 0 in stride:
        raise RuntimeError("stride should not be zero" if 0 in stride else
                           "kernel size should be greater than zero")
    if min(dilation) <= 0:
        raise RuntimeError("dilation should be greater than zero, but got dilationH: "
                           f"{dilation[0]} dilationW: {dilation[1]}")
    if input.dim() < 3 and function == "avg_pool2d":  # it reads the size of dimension -3
        raise IndexError("Dimension out of range (expected to be in range of "
                         f"[{-input.dim()}, {input.dim() - 1}], but got -3)")
    if input.dim() not in (3, 4) and function == "max_pool2d":
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if input.dim() not in (3, 4) or 0 in input.shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(input.shape)}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    if function == "max_pool2d" and any(p > k // 2 for k, p in zip(kernel, padding)):
        # A second check, on the kernel without its dilation: so that no window is all
        # padding (its maximum would be minus infinity, at no position).
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but "
                           f"got padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, "
                           f"kH = {kernel[0]}")
    return kernel, stride, padding, dilation, stride_given


def _check_pooled(input: Tensor, out: list[int]) -> None:
    if min(out) < 1:
        sizes = "x".join(map(str, input.shape[-3:]))
        raise RuntimeError(f"Given input size: ({sizes}). Calculated output size: "
                           f"({input.shape[-3]}x{out[0]}x{out[1]}). Output size is too small")


def max_pool2d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = True) -> tuple[Tensor, Tensor]:
    """The maximum of each window and its flat position in the input's plane: the
    positions are what ``nn.MaxUnpool2d`` and hook code that traces a maximum need.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_pool2d.html>
    """
    kernel, stride, padding, dilation, stride_given = _pool_args(
        input, kernel_size, stride, padding, dilation, "max_pool2d")
    _check_pooled(input, [_pooling.pooled_size(*a, ceil_mode) for a in zip(
        input.shape[-2:], kernel, stride, padding, dilation)])
    return _pooling.max_pool2d_with_indices(input, kernel, stride, padding, dilation,
                                            ceil_mode, stride_given)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Any:
    """The maximum of each ``kernel_size`` window (padding counts as minus infinity);
    ``return_indices`` also returns where each maximum is.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_pool2d.html>
    """
    out, indices = max_pool2d_with_indices(input, kernel_size, stride, padding, dilation,
                                           ceil_mode)
    return (out, indices) if return_indices else out


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """The mean of each window; ``count_include_pad`` divides by the window's size
    including the zero padding it covers, else by the input elements it covers.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.avg_pool2d.html>
    """
    kernel, stride, padding, _, stride_given = _pool_args(input, kernel_size, stride,
                                                          padding, 1, "avg_pool2d")
    if not input.is_floating_point() and input.dtype is not _dtype.int64:
        raise NotImplementedError(f'"avg_pool2d" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _check_pooled(input, [_pooling.pooled_size(*a, 1, ceil_mode) for a in zip(
        input.shape[-2:], kernel, stride, padding)])
    return _pooling.avg_pool2d(input, kernel, stride, padding, ceil_mode, count_include_pad,
                               divisor_override, stride_given)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Average pooling with windows chosen to give ``output_size`` (``None`` keeps that
    dimension): the layer that lets a CNN take images of any size.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.adaptive_avg_pool2d.html>
    """
    if input.dim() not in (3, 4):
        raise RuntimeError("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{list(input.shape)}")
    sizes = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    out = [input.shape[-2 + i] if s is None else s for i, s in enumerate(sizes)]
    if min(out) < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater "
                           f"than or equal to 0 but received {{{out[0]}, {out[1]}}}")
    if not input.is_floating_point():
        raise NotImplementedError('"adaptive_avg_pool2d" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    if out == [1, 1]:  # PyTorch takes the mean then: ``MeanBackward1``
        return mean(input, (-1, -2), keepdim=True)
    rows, cols = (_pooling.adaptive_average_matrix(size, o)
                  for size, o in zip(input.shape[-2:], out))
    return _pooling.separable(input, rows, cols, _pooling.AdaptiveAvgPool2DBackward0)


_INTERPOLATE_MODES = ("nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                      "nearest-exact")


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial dimensions of ``(N, C, H, W)`` images to ``size``, or by
    ``scale_factor``, copying the nearest pixel (``'nearest'``) or mixing the four around
    (``'bilinear'``). Other modes, 1-D and 3-D inputs are not implemented.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.interpolate.html>
    """
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None:
        out = [size] * len(spatial) if isinstance(size, int) else list(size)
        if len(out) != len(spatial):
            raise ValueError("Input and output must have the same number of spatial "
                             f"dimensions, but got input with spatial dimensions of {spatial} "
                             f"and output size of {size}. Please provide input tensor in "
                             "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, "
                             "...,oK) format.")
        scales = [None] * len(spatial)
    else:
        scales = ([float(scale_factor)] * len(spatial) if isinstance(scale_factor, (int, float))
                  else [float(s) for s in scale_factor])
        if len(scales) != len(spatial):
            raise ValueError("Input and scale_factor must have the same number of spatial "
                             f"dimensions, but got input with spatial dimensions of {spatial} "
                             f"and scale_factor of shape {scale_factor}. Please provide input "
                             "tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
                             "(s1, s2, ...,sK) format.")
        out = [math.floor(length * s) for length, s in zip(spatial, scales)]
        if recompute_scale_factor:
            scales = [None] * len(spatial)
    if mode == "nearest" and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating "
                         "modes: linear | bilinear | bicubic | trilinear")
    if mode not in ("nearest", "bilinear", "linear", "bicubic", "trilinear", "area",
                    "nearest-exact") or input.dim() not in (3, 4, 5):
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {input.dim()}D) for the modes: {_INTERPOLATE_MODES} "
                                  f"(got {mode})")
    if mode == "bilinear" and input.dim() != 4:
        raise NotImplementedError(f"Got {input.dim()}D input, but bilinear mode needs 4D input")
    if mode not in ("nearest", "bilinear") or input.dim() != 4 or antialias:
        raise NotImplementedError(f"minitorch_hooks implements interpolate for 4D inputs and "
                                  f"the modes 'nearest' and 'bilinear' only (got {mode}, "
                                  f"{input.dim()}D)")
    if min(spatial) < 1 or min(out) < 1:
        raise RuntimeError("Input and output sizes should be greater than 0, but got input "
                           f"(H: {spatial[0]}, W: {spatial[1]}) output (H: {out[0]}, W: "
                           f"{out[1]})")
    if not input.is_floating_point() and (input.dtype is not _dtype.uint8 or mode != "nearest"):
        if input.dtype is not _dtype.uint8:
            raise NotImplementedError(f'"upsample_{mode}2d_channels_last" not implemented '
                                      f"for '{input.dtype.scalar_name}'")
        raise NotImplementedError("minitorch_hooks does not implement bilinear resizing of "
                                  "uint8 images")
    attributes = {"output_size": tuple(out), "scales_h": scales[0], "scales_w": scales[1],
                  "self_sym_sizes": tuple(input.shape)}
    if mode == "nearest":
        rows, cols = (_pooling.nearest_matrix(length, o, s)
                      for length, o, s in zip(spatial, out, scales))
        return _pooling.separable(input, rows, cols, _pooling.UpsampleNearest2DBackward0,
                                  **attributes)
    align = bool(align_corners)
    rows, cols = (_pooling.bilinear_matrix(length, o, align, s)
                  for length, o, s in zip(spatial, out, scales))
    return _pooling.separable(input, rows, cols, _pooling.UpsampleBilinear2DBackward0,
                              align_corners=align, **attributes)


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
        attn_mask = Tensor._wrap(np.tril(np.ones((length, source), dtype=bool)))
    if attn_mask is not None and attn_mask.dtype == _dtype.bool:
        scores = scores.masked_fill(attn_mask.logical_not(), -math.inf)
    elif attn_mask is not None:
        scores = scores + attn_mask
    hidden = Tensor._wrap(np.isneginf(scores._data).all(-1, keepdims=True))
    weights = softmax(scores.masked_fill(hidden, 0.0), dim=-1).masked_fill(hidden, 0.0)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    return matmul(weights, value)
