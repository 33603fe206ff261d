"""``F.conv_transpose1d``, ``F.conv_transpose2d``, ``F.conv_transpose3d`` and ``F.conv3d``.

A transposed convolution is the map whose matrix is the transpose of a convolution's: it
spreads each input element over a window of the output, so with ``stride > 1`` it
upsamples (GAN generators and U-Net decoders use it). It is the same ``convolution`` node
as ``conv2d`` with ``transposed=True`` (``ConvolutionBackward0``); its weight is ``(in,
out // groups, *kernel)``, the output size ``(L - 1) * stride - 2 * padding + dilation *
(kernel - 1) + output_padding + 1``. ``conv3d`` is ``conv2d`` with one more spatial
dimension. Import them from ``minitorch_hooks.nn.functional``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv_transpose2d.html>
"""

from __future__ import annotations

from typing import Any

from .._ops import conv as _conv
from .._ops.shape import squeeze, unsqueeze
from .._tensor import Tensor
from ._functional_conv import _check_geometry, _convnd, _expand_param

__all__ = ["conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]


def _conv_transposend(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any,
                      padding: Any, output_padding: Any, groups: int, dilation: Any,
                      nd: int) -> Tensor:
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
                           f"conv_transpose{nd}d, but got input of size: {list(input.shape)}")
    batched = input.dim() == nd + 2
    if not batched:
        input = unsqueeze(input, 0)
    stride, padding, output_padding, dilation = (
        _expand_param(value, name, nd) for value, name in (
            (stride, "stride"), (padding, "padding"), (output_padding, "output_padding"),
            (dilation, "dilation")))
    _check_transposed(input, weight, bias, stride, padding, output_padding, groups, dilation)
    out = _conv.convolution(input, weight, bias, stride, padding, dilation, True,
                            output_padding, groups)
    return out if batched else squeeze(out, 0)


def _check_transposed(input: Tensor, weight: Tensor, bias: Tensor | None, stride: list[int],
                      padding: list[int], output_padding: list[int], groups: int,
                      dilation: list[int]) -> None:
    """PyTorch's checks, in its order: the generic ones (with the weight's channels read as
    ``(in, out // groups)``), then its kernel's check of ``output_padding``, which it
    reports in two dimensions also for a 1-d convolution, and in three for a 3-d one."""
    weight_size, input_size = list(weight.shape), list(input.shape)
    _check_geometry(stride, padding, dilation, groups)
    if weight_size[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                           f"{groups} at dimension 0, but got weight of size [{weight_size}] "
                           "instead")
    if input_size[1] != weight_size[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {weight_size}, expected "
                           f"input{input_size} to have {weight_size[0]} channels, but got "
                           f"{input_size[1]} channels instead")
    out_channels = weight_size[1] * groups
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(f"Given transposed=1, weight of size {weight_size}, expected bias "
                           f"to be 1-dimensional with {out_channels} elements, but got bias "
                           f"of size {list(bias.shape)} instead")
    pairs = list(zip(output_padding, stride, dilation))
    if len(pairs) == 1:  # a 1-d convolution runs as a 2-d one of height 1
        pairs = [(0, 1, 1)] + pairs
    if len(pairs) == 2 and any(op >= s and op >= d for op, s, d in pairs):
        (oph, sh, dh), (opw, sw, dw) = pairs
        raise RuntimeError("output padding must be smaller than either stride or dilation, "
                           f"but got output_padding_height: {oph} output_padding_width: "
                           f"{opw} stride_height: {sh} stride_width: {sw} dilation_height: "
                           f"{dh} dilation_width: {dw}")
    if len(pairs) == 3 and any(op >= s and op >= d for op, s, d in pairs):
        (opd, sd, dd), (oph, sh, dh), (opw, sw, dw) = pairs
        raise RuntimeError("output padding must be smaller than either stride or dilation, "
                           f"but got output_padding_depth: {opd} output_padding_height: {oph} "
                           f"output_padding_width: {opw} stride_depth: {sd} stride_height: "
                           f"{sh} stride_width: {sw} dilation_depth: {dd} dilation_height: "
                           f"{dh} dilation_width: {dw}")


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                     groups: int = 1, dilation: Any = 1) -> Tensor:
    """The transposed 1-d convolution of ``(N, C_in, L)`` (or ``(C_in, L)``) with an
    ``(C_in, C_out // groups, K)`` weight.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv_transpose1d.html>
    """
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups,
                             dilation, 1)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                     groups: int = 1, dilation: Any = 1) -> Tensor:
    """The transposed 2-d convolution of ``(N, C_in, H, W)`` (or ``(C_in, H, W)``) with an
    ``(C_in, C_out // groups, KH, KW)`` weight.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv_transpose2d.html>
    """
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups,
                             dilation, 2)


def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                     groups: int = 1, dilation: Any = 1) -> Tensor:
    """The transposed 3-d convolution of ``(N, C_in, D, H, W)`` (or ``(C_in, D, H, W)``)
    with an ``(C_in, C_out // groups, KD, KH, KW)`` weight.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv_transpose3d.html>
    """
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups,
                             dilation, 3)


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """A 3-d convolution of ``(N, C, D, H, W)`` volumes (or ``(C, D, H, W)``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.conv3d.html>
    """
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 3)

