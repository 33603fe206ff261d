"""``pixel_shuffle`` and ``pixel_unshuffle``: channels traded for resolution, and back.

``pixel_shuffle(x, r)`` turns ``(*, C * r * r, H, W)`` into ``(*, C, H * r, W * r)``: each
group of ``r * r`` channels becomes the ``r x r`` block of pixels around one position
(the "sub-pixel convolution" of super-resolution models). ``pixel_unshuffle`` is its
inverse. Both are a reshape, a permutation of the axes and a reshape; PyTorch's CPU kernel
writes the permuted result into a fresh contiguous tensor (even for ``r = 1``), so the
output is never a view of the input. Each one's gradient is the other applied to the
gradient, which is how second derivatives work too.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.PixelShuffle.html>
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from numbers import Integral
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ..utils.hooks import type_name
from ._arguments import not_a_tensor
from ._record import record


def _shuffled(x: Any, r: int) -> Any:
    """``(*, C * r * r, H, W)`` to ``(*, C, H * r, W * r)``, for an array or a tensor."""
    *batch, channels, height, width = x.shape
    blocks = x.reshape(*batch, channels // (r * r), r, r, height, width)
    n = len(batch)
    order = (*range(n), n, n + 3, n + 1, n + 4, n + 2)  # (C, H, r, W, r)
    return formula.permute(blocks, order).reshape(*batch, channels // (r * r), height * r,
                                                  width * r)


def _unshuffled(x: Any, r: int) -> Any:
    """``(*, C, H * r, W * r)`` to ``(*, C * r * r, H, W)``, for an array or a tensor."""
    *batch, channels, height, width = x.shape
    blocks = x.reshape(*batch, channels, height // r, r, width // r, r)
    n = len(batch)
    order = (*range(n), n, n + 2, n + 4, n + 1, n + 3)  # (C, r, r, H, W)
    return formula.permute(blocks, order).reshape(*batch, channels * r * r, height // r,
                                                  width // r)


class PixelShuffleBackward0(Node):
    __slots__ = ("upscale_factor",)
    saved_attributes = ("upscale_factor",)

    def backward(self, grad):
        return _unshuffled(grad, self.upscale_factor)


class PixelUnshuffleBackward0(Node):
    __slots__ = ("downscale_factor",)
    saved_attributes = ("downscale_factor",)

    def backward(self, grad):
        return _shuffled(grad, self.downscale_factor)


def _parsed(operation: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``operation`` behind PyTorch's argument parser: a tensor ``input`` and an int factor
    (not a bool), checked before anything runs; a factor given by keyword has no position
    in the message."""
    name, signature = operation.__name__, inspect.signature(operation)
    factor_name = list(signature.parameters)[1]

    @functools.wraps(operation)
    def parse(*args: Any, **kwargs: Any) -> Tensor:
        given = signature.bind(*args, **kwargs).arguments
        if not isinstance(given["input"], Tensor):
            raise not_a_tensor(name, "input", 1 if args else None, given["input"])
        factor = given[factor_name]
        if not isinstance(factor, Integral) or isinstance(factor, bool):
            where = " (position 2)" if len(args) > 1 else ""
            raise TypeError(f"{name}(): argument '{factor_name}'{where} must be int, not "
                            f"{type_name(factor)}")
        return operation(*args, **kwargs)

    return parse


def _check(function: str, input: Tensor, factor: int, name: str) -> None:
    """PyTorch's shape checks, after its parser's."""
    if input.dim() < 3:
        raise RuntimeError(f"{function} expects input to have at least 3 dimensions, but got "
                           f"input with {input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{function} expects a positive {name}, but got {factor}")


@_parsed
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """``(*, C * r * r, H, W)`` to ``(*, C, H * r, W * r)``, ``r = upscale_factor``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.pixel_shuffle.html>
    """
    _check("pixel_shuffle", input, upscale_factor, "upscale_factor")
    r = int(upscale_factor)
    channels = input.shape[-3]
    if channels % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be "
                           "divisible by the square of upscale_factor, but "
                           f"input.size(-3)={channels} is not divisible by {r * r}")
    return record(np.ascontiguousarray(_shuffled(input._data, r)), PixelShuffleBackward0,
                  (input,), upscale_factor=r)


@_parsed
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """``(*, C, H * r, W * r)`` to ``(*, C * r * r, H, W)``, ``r = downscale_factor``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.pixel_unshuffle.html>
    """
    _check("pixel_unshuffle", input, downscale_factor, "downscale_factor")
    r = int(downscale_factor)
    for side, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % r:
            raise RuntimeError(f"pixel_unshuffle expects {side} to be divisible by "
                               f"downscale_factor, but input.size({dim})={input.shape[dim]} "
                               f"is not divisible by {r}")
    return record(np.ascontiguousarray(_unshuffled(input._data, r)), PixelUnshuffleBackward0,
                  (input,), downscale_factor=r)
