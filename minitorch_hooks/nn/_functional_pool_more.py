"""``F.max_pool1d``, ``F.avg_pool1d``, ``F.adaptive_avg_pool1d``, ``F.adaptive_max_pool1d``,
``F.adaptive_max_pool2d/3d`` and ``F.max_unpool1d/2d/3d``.

PyTorch computes each 1-d pool as the 2-d one on the input with a dimension of size 1
inserted before the last (``unsqueeze(-2)``, a window of height 1), then removes it
(``squeeze(-2)``): the same nodes are recorded here. Import them from
``minitorch_hooks.nn.functional``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_pool1d.html>
"""

from __future__ import annotations

from typing import Any

from .. import _dtype
from .._ops import pooling as _pooling
from .._ops.shape import squeeze, unsqueeze
from .._tensor import Tensor
from ._functional_conv import adaptive_output_size, check_adaptive_input

__all__ = ["adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_max_pool2d",
           "adaptive_max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d",
           "avg_pool1d", "max_pool1d", "max_pool1d_with_indices"]


def _single(value: Any) -> int:
    return value[0] if isinstance(value, (tuple, list)) else value


def _check_rank(input: Tensor, name: str) -> None:
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for "
                           f"{name})")


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = True) -> tuple[Tensor, Tensor]:
    from .functional import max_pool2d_with_indices  # (functional imports this module)
    if input.dim() not in (2, 3):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")
    kernel = _single(kernel_size)
    step = kernel if stride is None or stride == [] or stride == () else _single(stride)
    out, indices = max_pool2d_with_indices(unsqueeze(input, -2), (1, kernel), (1, step),
                                           (0, _single(padding)), (1, _single(dilation)),
                                           ceil_mode)
    return squeeze(out, -2), squeeze(indices, -2)


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """The maximum of each window of ``(N, C, L)`` (or ``(C, L)``) inputs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_pool1d.html>
    """
    out, indices = max_pool1d_with_indices(input, kernel_size, stride, padding, dilation,
                                           ceil_mode)
    return (out, indices) if return_indices else out


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """The mean of each window of ``(N, C, L)`` (or ``(C, L)``) inputs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.avg_pool1d.html>
    """
    from .functional import avg_pool2d  # (functional imports this module)
    _check_rank(input, "avg_pool1d")
    kernel = _single(kernel_size)
    step = kernel if stride is None or stride == [] or stride == () else _single(stride)
    out = avg_pool2d(unsqueeze(input, -2), (1, kernel), (1, step), (0, _single(padding)),
                     ceil_mode, count_include_pad)
    return squeeze(out, -2)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """Average pooling to ``output_size`` positions.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.adaptive_avg_pool1d.html>
    """
    from .functional import adaptive_avg_pool2d  # (functional imports this module)
    _check_rank(input, "adaptive_avg_pool1d")
    return squeeze(adaptive_avg_pool2d(unsqueeze(input, -2), (1, _single(output_size))), -2)


def _adaptive_max_pool(input: Tensor, output_size: Any, nd: int) -> tuple[Tensor, Tensor]:
    """``adaptive_max_pool2d`` or ``3d``, with PyTorch's checks in its order: the input,
    then the output size, then the dtype (by the kernel)."""
    function = f"adaptive_max_pool{nd}d"
    output_size = adaptive_output_size(input, output_size)
    check_adaptive_input(input, function, nd, input.dim() - 1)
    out = [output_size] * nd if isinstance(output_size, int) else list(output_size)
    if len(out) != nd:
        raise RuntimeError(f"{function}(): internal error: output_size.size() must be {nd}")
    if min(out) < 0:
        shape = [*input.shape[:-nd], *out]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                           f"{shape}")
    if not input.is_floating_point():
        kernel = function if nd == 2 else f"{function}_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    node = (_pooling.AdaptiveMaxPool2DBackward0 if nd == 2 else
            _pooling.AdaptiveMaxPool3DBackward0)
    return _pooling.adaptive_max_pool(input, out, node)


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Max pooling to ``output_size`` (``None`` keeps that dimension); ``return_indices``
    also returns each maximum's flat position in its plane.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.adaptive_max_pool2d.html>
    """
    out, indices = _adaptive_max_pool(input, output_size, 2)
    return (out, indices) if return_indices else out


def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Max pooling of ``(N, C, D, H, W)`` volumes to ``output_size`` (``None`` keeps that
    dimension); ``return_indices`` also returns each maximum's flat position in its volume.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.adaptive_max_pool3d.html>
    """
    out, indices = _adaptive_max_pool(input, output_size, 3)
    return (out, indices) if return_indices else out


def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Max pooling to ``output_size`` positions.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.adaptive_max_pool1d.html>
    """
    _check_rank(input, "adaptive_max_pool1d")
    out, indices = _adaptive_max_pool(unsqueeze(input, -2), (1, _single(output_size)), 2)
    out, indices = squeeze(out, -2), squeeze(indices, -2)
    return (out, indices) if return_indices else out


def _unpool_output_size(input: Tensor, kernel: tuple, stride: tuple, padding: tuple,
                        output_size: Any) -> list[int]:
    """The unpooled size: the one a pooling of that geometry shrank from, by default; a
    given ``output_size`` (with or without its batch and channel sizes) must be one that
    pools to the input's size."""
    nd = len(kernel)
    default = [(input.shape[-nd + d] - 1) * stride[d] + kernel[d] - 2 * padding[d]
               for d in range(nd)]
    if output_size is None:
        return default
    output_size = list(output_size)
    if len(output_size) == nd + 2:
        output_size = output_size[2:]
    if len(output_size) != nd:
        raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d in range(nd):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{tuple(output_size)}" (dim {d} must be '
                             f"between {low} and {high})")
    return output_size


def _spatial(value: Any, nd: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * nd


def _max_unpool(input: Tensor, indices: Tensor, out: list[int]) -> Tensor:
    """``max_unpool2d`` or ``3d`` to the spatial size ``out``: PyTorch's checks, in its
    order, then the op."""
    nd = len(out)
    name = f"max_unpooling{nd}d"
    if indices.dtype is not _dtype.int64:
        raise RuntimeError("elements in indices should be type int64 but got: "
                           f"{indices.dtype.scalar_name}")
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Input to {name} should be a {nd + 1}d or {nd + 2}d Tensor, but "
                           f"got a tensor with {input.dim()} dimensions.")
    if input.shape != indices.shape:
        raise RuntimeError("Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f'"max_unpool{nd}d" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    node = _pooling.MaxUnpool2DBackward0 if nd == 2 else _pooling.MaxUnpool3DBackward0
    return _pooling.max_unpool(input, indices, out, node)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """``max_unpool2d`` on the input with a last dimension of size 1 added (and removed
    after), as PyTorch computes it.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_unpool1d.html>
    """
    kernel = (_single(kernel_size),)
    step = kernel if stride is None else (_single(stride),)
    out = _unpool_output_size(input, kernel, step, (_single(padding),), output_size)
    return squeeze(_max_unpool(unsqueeze(input, -1), unsqueeze(indices, -1), [*out, 1]), -1)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """The partial inverse of ``max_pool2d``: each value written back where its maximum
    was (``indices``), zeros elsewhere.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_unpool2d.html>
    """
    kernel = _spatial(kernel_size, 2)
    step = kernel if stride is None else _spatial(stride, 2)
    out = _unpool_output_size(input, kernel, step, _spatial(padding, 2), output_size)
    return _max_unpool(input, indices, out)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """The partial inverse of ``max_pool3d``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.max_unpool3d.html>
    """
    kernel = _spatial(kernel_size, 3)
    step = kernel if stride is None else _spatial(stride, 3)
    out = _unpool_output_size(input, kernel, step, _spatial(padding, 3), output_size)
    return _max_unpool(input, indices, out)
