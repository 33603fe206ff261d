"""Convolutions, padding and pooling: ``F.conv2d``, ``F.pad``, ``F.max_pool2d/3d``,
``F.avg_pool2d/3d``, ``F.adaptive_avg_pool2d/3d``, the functions behind a CNN's
image layers: a concept of their own (windows sliding over an image), apart from the
element-wise functions and losses of ``functional.py``. Import them from
``minitorch_hooks.nn.functional`` (``F``), which re-exports every one.
See <https://docs.pytorch.org/docs/2.13/nn.functional.html>
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from .. import _dtype
from .._ops import conv as _conv
from .._ops import padding as _padding
from .._ops import pooling as _pooling
from .._ops import resampling as _resampling
from .._ops.reduction import mean
from .._ops.shape import squeeze, unsqueeze
from .._tensor import Tensor

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


def _check_geometry(stride: list[int], padding: list[int], dilation: list[int],
                    groups: int) -> None:
    """The checks every convolution, plain or transposed, makes first, in PyTorch's order."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")


def _check_conv(input: Tensor, weight: Tensor, bias: Tensor | None, stride: list[int],
                padding: list[int], dilation: list[int], groups: int) -> None:
    _check_geometry(stride, padding, dilation, groups)
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

_COUNT_WORDS = {2: "two", 3: "three"}


def _spatial_param(value: Any, name: str, function: str, nd: int) -> tuple[int, ...]:
    """An int, or a tuple of one or ``nd`` ints, as ``nd`` ints; PyTorch's words when not
    (``avg_pool3d``'s say "must be", the others' "must either be"; "omitted" is the
    stride's default)."""
    values = (value,) * nd if isinstance(value, int) else tuple(value)
    if len(values) not in (1, nd):
        either = "" if function == "avg_pool3d" else "either "
        what = "omitted, a single int" if name == "stride" else "a single int"
        must = "must be either" if name == "dilation" else f"must {either}be"
        raise RuntimeError(f"{function}: {name} {must} {what}, or a tuple of "
                           f"{_COUNT_WORDS[nd]} ints")
    return values * nd if len(values) == 1 else values


def _pool_params(kernel_size: Any, stride: Any, padding: Any, dilation: Any, function: str,
                 nd: int) -> tuple:
    """The arguments of a pooling as ``nd`` ints each; ``stride`` defaults to the kernel
    (``stride_given`` is what the node keeps: ``()`` when it was left out)."""
    kernel = _spatial_param(kernel_size, "kernel_size", function, nd)
    stride_given = (() if stride is None or stride == [] else
                    _spatial_param(stride, "stride", function, nd))
    padding = _spatial_param(padding, "padding", function, nd)
    dilation = _spatial_param(dilation, "dilation", function, nd)
    return kernel, stride_given or kernel, padding, dilation, stride_given


def _check_padding(kernel: Sequence[int], stride: Sequence[int], padding: Sequence[int],
                   dilation: Sequence[int]) -> None:
    """PyTorch's ``pooling_output_shape`` checks, axis by axis: a stride, a padding of at
    most half the (dilated) kernel, so that no window lies in the padding alone."""
    for k, s, p, d in zip(kernel, stride, padding, dilation):
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > int((d * (k - 1) + 1) / 2):  # C's division, towards zero
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")


def _pool_args(input: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
               function: str) -> tuple:
    """The checks ``max_pool2d`` and ``avg_pool2d`` share; ``stride`` defaults to the
    kernel."""
    if input.dtype is _dtype.bool:  # (avg_pool2d also refuses other integers, but later)
        raise NotImplementedError(f'"{function}" not implemented for \'Bool\'')
    kernel, stride, padding, dilation, stride_given = _pool_params(
        kernel_size, stride, padding, dilation, function, 2)
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
    _check_padding(kernel, stride, padding, dilation)
    if function == "max_pool2d" and any(p > k // 2 for k, p in zip(kernel, padding)):
        # A second check, on the kernel without its dilation: so that no window is all
        # padding (its maximum would be minus infinity, at no position).
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but "
                           f"got padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, "
                           f"kH = {kernel[0]}")
    return kernel, stride, padding, dilation, stride_given


def _check_pooled(input: Tensor, out: list[int]) -> None:
    if min(out) < 1:
        nd = len(out)
        sizes = "x".join(map(str, input.shape[-nd - 1:]))
        pooled = "x".join(map(str, [input.shape[-nd - 1], *out]))
        raise RuntimeError(f"Given input size: ({sizes}). Calculated output size: "
                           f"({pooled}). Output size is too small")


def _pool3d_args(input: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
                 ceil_mode: bool, function: str) -> tuple:
    """The checks of ``max_pool3d`` and ``avg_pool3d``, in PyTorch's order (its
    ``pool3d_shape_check``): the arguments, the rank, each axis's padding, then the
    signs, the sizes and the output's size. The dtype is checked last, by the kernel."""
    kernel, stride, padding, dilation, stride_given = _pool_params(
        kernel_size, stride, padding, dilation, function, 3)
    if input.dim() not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    _check_padding(kernel, stride, padding, dilation)
    for name, letter, values in (("kernel size", "k", kernel), ("stride", "d", stride),
                                 ("dilation", "dilation", dilation)):
        if min(values) <= 0:
            got = " ".join(f"{letter}{axis}: {v}" for axis, v in zip("THW", values))
            raise RuntimeError(f"{name} should be greater than zero, but got {got}")
    if 0 in input.shape[-4:]:
        where = ("avg_pool3d()" if function == "avg_pool3d" else
                 "max_pool3d_with_indices_out_cpu_template()")
        raise RuntimeError(f"{where}: Expected input's non-batch dimensions to have positive "
                           f"length, but input has a shape of {list(input.shape)} and "
                           "non-batch dimension 0 has length zero!")
    size = input.shape[-3:]
    if function == "avg_pool3d" and any(i < k for i, k in zip(size, kernel)):
        raise RuntimeError(f"input image (T: {size[0]} H: {size[1]} W: {size[2]}) smaller "
                           f"than kernel size (kT: {kernel[0]} kH: {kernel[1]} kW: "
                           f"{kernel[2]})")
    if any(p > k / 2 for k, p in zip(kernel, padding)):
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but "
                           f"got kT: {kernel[0]} kW: {kernel[2]} kH: {kernel[1]} padT: "
                           f"{padding[0]} padW: {padding[2]} padH: {padding[1]}")
    _check_pooled(input, [_pooling.pooled_size(*a, ceil_mode) for a in zip(
        size, kernel, stride, padding, dilation)])
    return kernel, stride, padding, dilation, stride_given


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
    return _pooling.max_pool_with_indices(input, kernel, stride, padding, dilation,
                                          ceil_mode, stride_given,
                                          _pooling.MaxPool2DWithIndicesBackward0)


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


def max_pool3d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = True) -> tuple[Tensor, Tensor]:
    """``max_pool2d_with_indices`` over volumes: each maximum's flat position is in its
    ``(D, H, W)`` volume.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_pool3d.html>
    """
    kernel, stride, padding, dilation, stride_given = _pool3d_args(
        input, kernel_size, stride, padding, dilation, ceil_mode, "max_pool3d")
    if input.dtype is _dtype.bool:
        raise NotImplementedError('"max_pool3d" not implemented for \'Bool\'')
    return _pooling.max_pool_with_indices(input, kernel, stride, padding, dilation,
                                          ceil_mode, stride_given,
                                          _pooling.MaxPool3DWithIndicesBackward0)


def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Any:
    """The maximum of each ``kernel_size`` window of ``(N, C, D, H, W)`` (or ``(C, D, H,
    W)``) inputs; ``return_indices`` also returns where each maximum is.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_pool3d.html>
    """
    out, indices = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation,
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
    return _pooling.avg_pool(input, kernel, stride, padding, ceil_mode, count_include_pad,
                             divisor_override, stride_given, _pooling.AvgPool2DBackward0)


def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """The mean of each window of ``(N, C, D, H, W)`` (or ``(C, D, H, W)``) inputs, with
    ``avg_pool2d``'s divisor.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.avg_pool3d.html>
    """
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    kernel, stride, padding, _, stride_given = _pool3d_args(
        input, kernel_size, stride, padding, 1, ceil_mode, "avg_pool3d")
    if input.dtype not in (_dtype.float32, _dtype.float64, _dtype.int64):
        raise NotImplementedError('"avg_pool3d_out_frame" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return _pooling.avg_pool(input, kernel, stride, padding, ceil_mode, count_include_pad,
                             divisor_override, stride_given, _pooling.AvgPool3DBackward0)


def adaptive_output_size(input: Tensor, output_size: Any) -> Any:
    """``output_size`` with each ``None`` replaced by the input's size there (PyTorch's
    ``_list_with_default``, in Python before the kernel): an int stays an int."""
    if isinstance(output_size, int):
        return output_size
    if input.dim() <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return [s if s is not None else d
            for s, d in zip(output_size, input.shape[-len(output_size):])]


def check_adaptive_input(input: Tensor, function: str, nd: int, first: int) -> None:
    """An ``(N, C, *spatial)`` or ``(C, *spatial)`` input with no empty dimension from
    ``first`` on (counted from the end; the average poolings check the spatial ones only,
    the maximum poolings the channels too)."""
    ndim = input.dim()
    if ndim not in (nd + 1, nd + 2):
        got = ": " if function.startswith("adaptive_max") else " "
        raise RuntimeError(f"{function}(): Expected {nd + 1}D or {nd + 2}D tensor, but "
                           f"got{got}{list(input.shape)}")
    for dim in range(max(ndim - first, 1), ndim):
        if input.shape[dim] == 0:
            raise RuntimeError(f"{function}(): Expected input to have non-zero size for "
                               f"non-batch dimensions, but input has sizes {list(input.shape)} "
                               f"with dimension {dim} being empty")


def _adaptive_avg_pool(input: Tensor, output_size: Any, nd: int) -> Tensor:
    """``adaptive_avg_pool2d`` or ``3d``: one averaging map per spatial axis."""
    function = f"adaptive_avg_pool{nd}d"
    output_size = adaptive_output_size(input, output_size)
    out = [output_size] * nd if isinstance(output_size, int) else list(output_size)
    if len(out) != nd:
        raise RuntimeError(f"{function}: output_size must be {nd}")
    if min(out) < 0:
        received = ", ".join(map(str, out[:2])) + "".join(f",{o}" for o in out[2:])
        raise RuntimeError(f"{function}: elements of output_size must be greater than or "
                           f"equal to 0 but received {{{received}}}")
    if out == [1] * nd:  # PyTorch takes the mean then: ``MeanBackward1``
        return mean(input, tuple(range(-1, -nd - 1, -1)), keepdim=True)
    check_adaptive_input(input, function, nd, nd)
    if not input.is_floating_point():
        kernel = function if nd == 2 else f"{function}_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    maps = tuple(_resampling.adaptive_average_map(size, o)
                 for size, o in zip(input.shape[-nd:], out))
    node = (_resampling.AdaptiveAvgPool2DBackward0 if nd == 2 else
            _resampling.AdaptiveAvgPool3DBackward0)
    return _resampling.resample(input, maps, node)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Average pooling with windows chosen to give ``output_size`` (``None`` keeps that
    dimension): the layer that lets a CNN take images of any size.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.adaptive_avg_pool2d.html>
    """
    return _adaptive_avg_pool(input, output_size, 2)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """Average pooling of ``(N, C, D, H, W)`` volumes to ``output_size``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.adaptive_avg_pool3d.html>
    """
    return _adaptive_avg_pool(input, output_size, 3)
