"""``F.interpolate``: resizing the spatial axes of a batch of signals (3-d input), images
(4-d) or volumes (5-d), by copying the nearest input or interpolating between neighbours.

``interpolate`` is PyTorch's Python function that checks its arguments, turns ``size`` or
``scale_factor`` into an output size, and calls one ``upsample_*`` function per mode and
number of dimensions (``upsample_linear1d``, ``upsample_bicubic2d``, ...); each of them is
a separable map applied along every spatial axis (``_ops/resampling.py``). This module
follows the same steps, in the same order, so the same argument errors come first.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.interpolate.html>
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .. import _dtype
from .._ops import resampling as _resampling
from .._tensor import Tensor
from ._functional_conv import adaptive_avg_pool2d, adaptive_avg_pool3d
from ._functional_pool_more import adaptive_avg_pool1d

MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
INTERPOLATING = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5,
                 "lanczos": 4}  # their inputs' dimensions

NODES = {
    ("nearest", 1): _resampling.UpsampleNearest1DBackward0,
    ("nearest", 2): _resampling.UpsampleNearest2DBackward0,
    ("nearest", 3): _resampling.UpsampleNearest3DBackward0,
    ("nearest-exact", 1): _resampling.UpsampleNearestExact1DBackward0,
    ("nearest-exact", 2): _resampling.UpsampleNearestExact2DBackward0,
    ("nearest-exact", 3): _resampling.UpsampleNearestExact3DBackward0,
    ("linear", 1): _resampling.UpsampleLinear1DBackward0,
    ("bilinear", 2): _resampling.UpsampleBilinear2DBackward0,
    ("bicubic", 2): _resampling.UpsampleBicubic2DBackward0,
    ("trilinear", 3): _resampling.UpsampleTrilinear3DBackward0,
}
AA_NODES = {"bilinear": _resampling.UpsampleBilinear2DAaBackward0,
            "bicubic": _resampling.UpsampleBicubic2DAaBackward0,
            "lanczos": _resampling.UpsampleLanczos2DAaBackward0}
AXIS_NAMES = {1: "W", 2: "HW", 3: "DHW"}


def _output_size(input: Tensor, size: Any, scale_factor: Any,
                 recompute_scale_factor: bool | None,
                 mode: str) -> tuple[list[int], list[float | None]]:
    """The output's spatial size and the scale factors the kernel is given (``None`` when
    the size was given, or when ``recompute_scale_factor`` asks the kernel to derive the
    ratio from the sizes)."""
    nd, spatial = input.dim() - 2, list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != nd:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {spatial} and output size of "
                    f"{size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.")
            if not all(isinstance(s, numbers.Integral) for s in size):
                raise TypeError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                    "Tuple[int, int, int], but got size with types "
                    f"{[type(s) for s in size]}")
            return [int(s) for s in size], [None] * nd
        return [size] * nd, [None] * nd
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != nd:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but "
                f"got input with spatial dimensions of {spatial} and scale_factor of shape "
                f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                "format and scale_factor in (s1, s2, ...,sK) format.")
        scales = [float(s) for s in scale_factor]
    else:
        scales = [float(scale_factor)] * nd
    # int() truncates, as the C++ cast of ``size * scale`` does (a negative product too).
    out = [int(length * s) for length, s in zip(spatial, scales)]
    if recompute_scale_factor or mode == "area":  # 'area' always takes a size
        return out, [None] * nd
    return out, scales


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial axes of ``input`` to ``size``, or by ``scale_factor``: copying the
    nearest input (``'nearest'``, ``'nearest-exact'``), averaging (``'area'``), or mixing
    the 2 (``'linear'``, ``'bilinear'``, ``'trilinear'``, one axis each) or 4
    (``'bicubic'``) neighbours along each axis. ``align_corners`` (interpolating modes
    only, default False) says whether the corners' centres or their edges line up;
    ``antialias=True`` (``'bilinear'`` and ``'bicubic'`` on images, and ``'lanczos'``,
    which requires it) widens the filter when shrinking, so that every input counts.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.interpolate.html>
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    out, scales = _output_size(input, size, scale_factor, recompute_scale_factor, mode)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    dim = input.dim()
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and dim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    if mode == "area" and dim in (3, 4, 5):
        pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[dim - 3]
        return pool(input, out)
    if mode == "lanczos" and dim == 4:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    if (mode in ("nearest", "nearest-exact") and dim in (3, 4, 5)
            or INTERPOLATING.get(mode) == dim):
        return _upsample(input, out, scales, mode, align_corners, antialias)
    if mode in ("linear", "bilinear", "trilinear") and dim in (3, 4, 5):
        raise NotImplementedError(f"Got {dim}D input, but {mode} mode needs "
                                  f"{INTERPOLATING[mode]}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got "
                              f"{dim}D) for the modes: {MODES} (got {mode})")


def _upsample(input: Tensor, out: list[int], scales: list[float | None], mode: str,
              align_corners: bool | None, antialias: bool = False) -> Tensor:
    """PyTorch's ``upsample_<mode><n>d`` (or ``_upsample_<mode>2d_aa``): its checks (the
    sizes, an empty plane, the dtype), then one map per spatial axis."""
    nd, spatial = len(out), list(input.shape[2:])
    if min(spatial) < 1 or min(out) < 1:
        names = AXIS_NAMES[nd]
        sizes_in = ", ".join(f"{n}: {s}" for n, s in zip(names, spatial))
        sizes_out = ", ".join(f"{n}: {s}" for n, s in zip(names, out))
        joint = " and " if nd == 1 else " "
        raise RuntimeError("Input and output sizes should be greater than 0, but got input "
                           f"({sizes_in}){joint}output ({sizes_out})")
    if input.numel() == 0 and input.shape[1] == 0:
        raise RuntimeError(f"Non-empty {nd + 2}D data tensor expected but got a tensor with "
                           f"sizes {list(input.shape)}")
    _check_dtype(input, mode, nd, antialias)
    compute = np.float64 if input.dtype is _dtype.float64 else np.float32  # PyTorch's opmath
    gradient_maps = None
    if mode in ("nearest", "nearest-exact"):
        legacy, exact = mode == "nearest", mode == "nearest-exact"
        maps = tuple(_resampling.nearest_map(length, o, s, exact, copy_unchanged=legacy
                                             and nd == 2)
                     for length, o, s in zip(spatial, out, scales))
        if legacy and nd != 2:
            gradient_maps = tuple(_resampling.nearest_map(length, o, s, copy_unchanged=True)
                                  for length, o, s in zip(spatial, out, scales))
    elif antialias:
        # PyTorch's forward copies an axis whose size is unchanged; its backward still
        # spreads the gradient there by the filter's weights.
        gradient_maps = tuple(
            _resampling.antialias_map(length, o, bool(align_corners), s, mode, compute)
            for length, o, s in zip(spatial, out, scales))
        maps = tuple(_resampling.nearest_map(length, o, s, copy_unchanged=True)
                     if o == length else axis_map
                     for length, o, s, axis_map in zip(spatial, out, scales, gradient_maps))
    else:
        axis_map = _resampling.cubic_map if mode == "bicubic" else _resampling.linear_map
        maps = tuple(axis_map(length, o, bool(align_corners), s, compute)
                     for length, o, s in zip(spatial, out, scales))
    if mode == "bicubic" and out == spatial and not antialias:
        # PyTorch's bicubic backward copies the gradient when no axis changes size, though
        # its forward still mixes each input's neighbours in, with weights 0.
        gradient_maps = tuple(_resampling.nearest_map(length, length, None)
                              for length in spatial)
    attributes = dict(zip(_resampling.SCALE_NAMES[nd], scales))
    if mode in INTERPOLATING:
        attributes["align_corners"] = bool(align_corners)
    node = AA_NODES[mode] if antialias else NODES[mode, nd]
    return _resampling.resample(input, maps, node, gradient_maps,
                                output_size=tuple(out), self_sym_sizes=tuple(input.shape),
                                **attributes)


def _check_dtype(input: Tensor, mode: str, nd: int, antialias: bool) -> None:
    """Floating point resizes in every mode (float32 and float64 only when antialiased),
    uint8 images by their nearest pixels (PyTorch also resizes uint8 images bilinearly and
    bicubically, with a rounding of its own that this package does not implement); any
    other dtype is refused by the kernel's name."""
    if input.dtype is _dtype.uint8 and nd == 2 and not mode.startswith("nearest"):
        raise NotImplementedError(f"minitorch_hooks does not implement {mode} resizing of "
                                  "uint8 images")
    if antialias and input.dtype not in (_dtype.float32, _dtype.float64):
        raise NotImplementedError('"compute_index_ranges_weights" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    if input.is_floating_point() or input.dtype is _dtype.uint8 and mode.startswith("nearest"):
        return
    if nd == 2 and mode != "bicubic":
        kernel = "upsample_bilinear2d" if mode == "bilinear" else "upsample_nearest2d"
        kernel += "_channels_last"
    else:
        kind = {"bicubic": "cubic", "linear": "linear", "trilinear": "linear"}.get(mode,
                                                                                 "nearest")
        kernel = f"compute_indices_weights_{kind}"
    raise NotImplementedError(f'"{kernel}" not implemented for '
                              f"'{input.dtype.scalar_name}'")
