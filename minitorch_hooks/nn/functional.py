"""The functions behind the layers: ``F.linear``, ``F.relu``, ``F.dropout``, the losses.

A layer (``nn.Linear``) holds parameters and calls one of these; the computation itself is
made of ordinary recorded operations, chosen as PyTorch chooses them, so a layer's output
has PyTorch's ``grad_fn`` (``AddmmBackward0`` for ``nn.Linear`` on a batch). Hooks on the
graph therefore see the same nodes in both libraries.
See https://pytorch.org/docs/stable/nn.functional.html
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import zeros
from .._ops import conv as _conv
from .._ops import loss as _loss
from .._ops import padding as _padding
from .._ops.linalg import addmm, matmul
from .._ops.pointwise import _broadcast_check, abs, add, sigmoid, sub, tanh
from .._ops.reduction import mean, sum
from .._ops.shape import expand, reshape, squeeze, t, unsqueeze, view
from .._tensor import Tensor

__all__ = ["conv1d", "conv2d", "cross_entropy", "dropout", "l1_loss", "linear", "log_softmax",
           "mse_loss", "nll_loss", "pad", "relu", "sigmoid", "softmax", "tanh"]


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, recorded as PyTorch records it.

    * A batch of vectors (2-D) with a bias is one ``addmm``: bias and product in one node,
      ``AddmmBackward0`` with next functions (bias, input, ``TBackward0``).
    * Any other contiguous input with a bias is folded into such a batch and unfolded
      afterwards: ``ViewBackward0`` around the ``AddmmBackward0``.
    * Without a bias it is ``matmul`` (``MmBackward0`` for a batch); a non-contiguous input
      with a bias is ``matmul`` and then an ``add`` (PyTorch adds in place, into the fresh
      product; either way the node is ``AddBackward0``).
    See https://pytorch.org/docs/stable/generated/torch.nn.functional.linear.html
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
    See https://pytorch.org/docs/stable/generated/torch.nn.functional.dropout.html
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


# -- losses -----------------------------------------------------------------------------

def _check_reduction(reduction: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _broadcast_pair(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """``torch.broadcast_tensors`` for two: PyTorch warns first, as a mismatch is usually
    a mistake (a ``(N,)`` target for an ``(N, 1)`` output gives an ``(N, N)`` loss)."""
    if target.shape != input.shape:
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
    See https://pytorch.org/docs/stable/generated/torch.nn.functional.mse_loss.html
    """
    input, target = _broadcast_pair(input, target)
    _check_reduction(reduction)
    return _loss.mse_loss(input, target, reduction)


def l1_loss(input: Tensor, target: Tensor, *, reduction: str = "mean") -> Tensor:
    """The absolute error ``|input - target|``, averaged or summed. No node of its own:
    PyTorch records ``SubBackward0``, ``AbsBackward0`` and ``MeanBackward0``.
    See https://pytorch.org/docs/stable/generated/torch.nn.functional.l1_loss.html
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
    See https://pytorch.org/docs/stable/generated/torch.nn.functional.nll_loss.html
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
    See https://pytorch.org/docs/stable/generated/torch.nn.functional.cross_entropy.html
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
    See https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv1d.html
    """
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """A 2-D convolution of ``(N, C, H, W)`` (or ``(C, H, W)``) with ``(O, C / groups, KH,
    KW)`` kernels; see :func:`conv1d` for the arguments.
    See https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv2d.html
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
    See https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.pad.html
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
