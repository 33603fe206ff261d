"""The arithmetic of the generator's kernels, which draws nothing itself: the order a
tensor's memory is filled in, the Box-Muller transforms (float32 with the Cephes polynomials
of ``avx_mathfun.h`` and fused multiply-adds), and the bounds rules of ``random_``. It is
apart from ``_generator.py`` so that the ``Generator`` there reads as PyTorch's engine, its
state and its draws.
See ``ATen/native/cpu/DistributionKernels.cpp`` and ``ATen/native/DistributionTemplates.h``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ._fma import fma32, fma64

# Names PyTorch uses in its messages: C++ type names for bounds errors, ScalarType names for
# "not implemented for" errors.
_CPP_TYPE_NAMES = {
    "float16": "c10::Half", "float32": "float", "float64": "double", "bool": "bool",
    "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
    "int64": "long int", "uint16": "unsigned short", "uint32": "unsigned int",
    "uint64": "unsigned long",
}
_SCALAR_TYPE_NAMES = {
    "float16": "Half", "float32": "Float", "float64": "Double", "bool": "Bool", "uint8": "Byte",
    "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long", "uint16": "UInt16",
    "uint32": "UInt32", "uint64": "UInt64",
}
_FLOAT_TYPES = (np.float16, np.float32, np.float64)


def _not_implemented(kernel: str, dtype: np.dtype) -> NotImplementedError:
    return NotImplementedError(
        f'"{kernel}" not implemented for \'{_SCALAR_TYPE_NAMES.get(dtype.name, dtype.name)}\''
    )


def _in_storage_order(array: np.ndarray) -> np.ndarray:
    """A view of ``array`` whose row-major order is the order PyTorch fills its memory in.

    PyTorch's element-wise kernels walk a tensor with a TensorIterator, which sorts the
    dimensions by stride: the dimension with the smallest stride moves fastest. So a transposed
    or permuted tensor is filled in the order of its storage, not of its indices, and the same
    random numbers land in the same memory slots as in the untransposed tensor. (NumPy also has
    negative strides, which PyTorch does not; we flip those axes so memory is still walked
    upwards.)
    """
    view = array
    for axis in range(view.ndim):
        if view.strides[axis] < 0:
            view = np.flip(view, axis)
    order = sorted(range(view.ndim), key=lambda axis: -view.strides[axis])
    return view.transpose(order)


# Kernels produce their values this many elements at a time, so that NumPy's temporaries stay
# in the CPU cache and are reused, instead of streaming fresh memory for every operation.
_CHUNK = 2**15


def _fill_in_storage_order(array: np.ndarray, values_for: Callable[[int], np.ndarray]) -> None:
    """Fill ``array`` with ``values_for(count)``, called for consecutive chunks in storage order.

    Each call draws the random numbers for the next ``count`` elements, so chunking does not
    change which number lands where.
    """
    view = _in_storage_order(array)
    flat = view.reshape(-1) if view.flags.c_contiguous else np.empty(view.size, array.dtype)
    for start in range(0, flat.size, _CHUNK):
        flat[start:start + _CHUNK] = values_for(min(_CHUNK, flat.size - start))
    if not view.flags.c_contiguous:
        view[...] = flat.reshape(view.shape)


def _cast(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``static_cast<scalar_t>``: C++ converts to ``c10::Half`` through float, so we do too."""
    if dtype == np.float16:
        values = values.astype(np.float32)
    return values.astype(dtype)


def _libm(function: Callable[[float], float], values: np.ndarray) -> np.ndarray:
    """Apply a ``math`` function element by element.

    ``math.log`` and friends call the C library, exactly as PyTorch's kernels do. NumPy's
    vectorised ``np.log``/``np.sin`` use their own SIMD code, which is not always correctly
    rounded and differs from glibc in the last bit for a few percent of float64 inputs.
    """
    flat = map(function, values.ravel().tolist())
    return np.fromiter(flat, dtype=np.float64, count=values.size).reshape(values.shape)


# -- float32 Box-Muller: the AVX2 kernel ``NormalFill16<float>`` and ``avx_mathfun.h`` --------
#
# Every constant is a float32, as in the C header. Constants used in float32 arithmetic are
# ``np.float32``; those feeding the float64 fma emulation are Python floats holding the same
# float32 value (``_f32``), so that NumPy keeps that arithmetic in float64.


def _f32(value: float) -> float:
    return float(np.float32(value))


_SQRT_HALF = np.float32(0.707106781186547524)
_LOG_POLYNOMIAL = [_f32(p) for p in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1,
                                     -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
                                     2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)]
_LOG_Q1 = np.float32(-2.12194440e-4)
_LOG_Q2 = np.float32(0.693359375)  # 355/512: e * Q2 is exact, Q1 carries the rest of log(2)
_FOUR_OVER_PI = np.float32(1.27323954473516)
# pi/4 split in three parts (Cody-Waite): y * DP1 and y * DP2 are exact for y <= 8.
_MINUS_DP1 = np.float32(-0.78515625)
_MINUS_DP2 = np.float32(-2.4187564849853515625e-4)
_MINUS_DP3 = _f32(-3.77489497744594108e-8)
_COS_POLYNOMIAL = [_f32(c) for c in (2.443315711809948e-5, -1.388731625493765e-3,
                                     4.166664568298827e-2)]
_SIN_POLYNOMIAL = [_f32(s) for s in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]
_TWO_PI_F32 = np.float32(2 * math.pi)

Fma = Callable[[Any, Any, Any], np.ndarray]


def _fma32_via_float64(a: Any, b: Any, c: Any) -> np.ndarray:
    """``a*b + c`` for float32 values, computed in float64 and rounded to float32.

    The product of two float32 values is exact in float64, so this differs from a true fused
    multiply-add only if the float64 sum is inexact and falls exactly halfway between two
    float32 numbers (see ``_fma.fma32``). For the Cephes polynomials below that never happens:
    this was checked against the exact ``fma32`` for all 2**24 possible inputs of each function
    (``tests/test_fma.py`` repeats the check on a sample, or on all inputs with
    ``MINITORCH_EXHAUSTIVE=1``). Skipping ``fma32``'s halfway test halves the cost of the 16
    fused steps that dominate ``randn``.
    """
    total = np.array(a, dtype=np.float64)
    total *= b
    total += c
    return total.astype(np.float32)


def _cephes_log(u: np.ndarray, fma: Fma = _fma32_via_float64) -> np.ndarray:
    """``log256_ps`` of ``avx_mathfun.h`` for float32 ``u`` in [2**-24, 1].

    Cephes writes ``u = m * 2**e`` with ``m`` in [sqrt(1/2), sqrt(2)) and evaluates
    ``log(m) = x - x**2/2 + x**3 * P(x)`` with ``x = m - 1`` and a degree-8 polynomial ``P``,
    then adds ``e * log(2)`` in two parts. GCC fused the polynomial's multiply-adds (and the
    ``y*z + e*Q1`` step) into fma instructions, so those steps take ``fma``. (The C code first
    clamps ``u`` to the smallest normal float; our inputs are at least 2**-24, so we skip that.)
    """
    m, exponent = np.frexp(u)  # u = m * 2**exponent with m in [0.5, 1): Cephes' bit fiddling
    small = m < _SQRT_HALF  # then use 2m in [1, sqrt(2)) and one less in the exponent
    exponent -= small
    e = exponent.astype(np.float32)
    x = m - np.float32(1)
    x += m * small  # exact: m is a multiple of 2**-24
    x64 = x.astype(np.float64)
    z = x * x
    y = fma(x64, _LOG_POLYNOMIAL[0], _LOG_POLYNOMIAL[1])
    for coefficient in _LOG_POLYNOMIAL[2:]:
        y = fma(y, x64, coefficient)
    y *= x
    y = fma(y, z.astype(np.float64), (e * _LOG_Q1).astype(np.float64))
    z *= np.float32(0.5)  # the C code's fma(-z, 0.5, y): z/2 is exact, so one rounding
    y -= z
    x += y
    e *= _LOG_Q2
    x += e  # fma(e, Q2, x): e * Q2 is exact, so this rounds once too
    return x


def _cephes_sincos(theta: np.ndarray,
                   fma: Fma = _fma32_via_float64) -> tuple[np.ndarray, np.ndarray]:
    """``sincos256_ps`` of ``avx_mathfun.h`` for float32 ``theta`` in [0, 2*pi): (sin, cos).

    Cephes reduces ``theta`` by the nearest even multiple ``j`` of pi/4 (subtracting pi/4 in
    three parts, so that the reduction loses almost nothing), evaluates a sine and a cosine
    polynomial on the remainder ``x`` in [-pi/4, pi/4], and swaps and negates them according
    to the octant. Of its multiply-adds, GCC fused those marked ``fma``.
    """
    j = (theta * _FOUR_OVER_PI).astype(np.int32)  # truncation, like _mm256_cvttps_epi32
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    x = theta + y * _MINUS_DP1  # fused in C, but the product is exact, so this is the same
    x += y * _MINUS_DP2
    x = fma(y, _MINUS_DP3, x)
    x64 = x.astype(np.float64)
    z = x * x
    z64 = z.astype(np.float64)

    c = fma(fma(z64, _COS_POLYNOMIAL[0], _COS_POLYNOMIAL[1]), z64, _COS_POLYNOMIAL[2])
    c *= z
    c = fma(c, z64, z64 * -0.5)
    c += np.float32(1)

    s = fma(fma(z64, _SIN_POLYNOMIAL[0], _SIN_POLYNOMIAL[1]), z64, _SIN_POLYNOMIAL[2])
    s *= z
    s = fma(s, x64, x64)

    # Select and sign with the octant's bits, as the C code does on the float bit patterns:
    # bit 2 of j swaps the polynomials, bit 4 of j negates the sine, bit 4 of j - 2 is clear
    # when the cosine is negated. (The C code selects by adding a zeroed lane, which would turn
    # a -0.0 into +0.0; neither polynomial ever yields -0.0 here, so a plain select agrees.)
    swap = -((j >> 1) & 1)  # all ones where the polynomials swap
    s_bits, c_bits = s.view(np.int32), c.view(np.int32)
    difference = (s_bits ^ c_bits) & swap
    sin = (s_bits ^ difference) ^ ((j & 4) << 29)
    cos = (c_bits ^ difference) ^ ((~(j - 2) & 4) << 29)
    return sin.view(np.float32), cos.view(np.float32)


def _fused_affine_(values: np.ndarray, scale: float, shift: float) -> None:
    """``values = values*scale + shift``, in place, rounded once: an fma instruction.

    With a zero shift only the product is rounded, which a plain multiplication in ``values``'
    precision does already (``randn`` and ``rand`` take this path); adding the zero still
    matters, since it turns a product of -0.0 into +0.0 as the fma does.
    """
    if shift == 0:
        values *= values.dtype.type(scale)
        values += 0
    elif values.dtype == np.float32:
        values[...] = fma32(values, scale, shift)
    else:
        values[...] = fma64(values, scale, shift)


def _box_muller_blocks_f32(uniforms: np.ndarray, mean: float, std: float,
                           out: np.ndarray) -> None:
    """The AVX2 ``NormalFill16<float>``: 16 uniforms in, 16 normals out, per row.

    Element ``j < 8`` of a row pairs with element ``j + 8``: the first gives the radius
    ``sqrt(-2 log(1 - u))`` (``1 - u`` lies in (0, 1], so the log is finite) and the second the
    angle ``2 pi u``; ``j`` receives ``radius * cos`` and ``j + 8`` receives ``radius * sin``.
    For a half precision ``out`` the kernel computes in float and rounds only the results.
    """
    mean, std = float(np.float32(mean)), float(np.float32(std))  # the kernel works in float
    normals = out if out.dtype == np.float32 else np.empty(out.shape, np.float32)
    radius = _cephes_log(np.float32(1) - uniforms[:, :8])
    radius *= np.float32(-2)
    np.sqrt(radius, out=radius)
    sin, cos = _cephes_sincos(_TWO_PI_F32 * uniforms[:, 8:])
    np.multiply(radius, cos, out=normals[:, :8])
    np.multiply(radius, sin, out=normals[:, 8:])
    _fused_affine_(normals, std, mean)
    if normals is not out:
        out[...] = normals


def _box_muller_blocks_f64(uniforms: np.ndarray, mean: float, std: float,
                           out: np.ndarray) -> None:
    """The generic ``NormalFill16<double>``, with the C library's ``log``, ``cos`` and ``sin``."""
    radius = np.sqrt(-2.0 * _libm(math.log, 1.0 - uniforms[:, :8]))
    theta = 2.0 * math.pi * uniforms[:, 8:]
    np.multiply(radius, _libm(math.cos, theta), out=out[:, :8])
    np.multiply(radius, _libm(math.sin, theta), out=out[:, 8:])
    _fused_affine_(out, std, mean)


# -- the bounds rules of ``random_`` (``ATen/native/DistributionTemplates.h``) ------------------


def _to_float_dtype(value: int, dtype: np.dtype) -> int:
    """``static_cast<int64_t>(static_cast<scalar_t>(value))``: ``value`` rounded to ``dtype``.

    A value too large for half precision becomes infinity, which x86 converts back to the
    "integer indefinite" -2**63, so PyTorch's bound adjustment then leaves the bound alone.
    """
    with np.errstate(over="ignore"):
        rounded = float(_cast(np.array(value, dtype=np.int64), dtype))
    return int(rounded) if math.isfinite(rounded) else -(2**63)


def _update_from(low: int, dtype: np.dtype, digits: int) -> int:
    """Move ``low`` up to the first value whose next integer survives the cast to ``dtype``."""
    rounded = _to_float_dtype(low + 1, dtype)
    if rounded < low:
        low = rounded + (1 << (abs(low + 1).bit_length() - 1 - digits + 1))
    return low


def _update_to(high: int, dtype: np.dtype, digits: int) -> int:
    """Move ``high`` down so that ``high - 1`` does not round up to ``high`` or beyond."""
    rounded = _to_float_dtype(high - 1, dtype)
    if rounded >= high:
        high = rounded - (1 << (abs(high - 1).bit_length() - 1 - digits + 1))
    return high


def _check_from_to_in_range(low: int, high_inclusive: int, dtype: np.dtype) -> None:
    """PyTorch's ``check_from_to_in_range``: both bounds must fit the dtype."""
    if dtype.type in _FLOAT_TYPES:
        info = np.finfo(dtype)
        lowest, highest = float(info.min), float(info.max)
    elif dtype == np.uint64:
        lowest, highest = 0, 2**63 - 1
    elif dtype == np.bool_:
        lowest, highest = 0, 1
    else:
        info = np.iinfo(dtype)
        lowest, highest = int(info.min), int(info.max)
    type_name = _CPP_TYPE_NAMES[dtype.name]
    for name, value in (("from", low), ("to - 1", high_inclusive)):
        if not lowest <= value <= highest:
            raise RuntimeError(f"{name} is out of bounds for {type_name}")
    if dtype.type in _FLOAT_TYPES:
        digits = np.finfo(dtype).nmant + 1
        for name, value in (("from", low), ("to - 1", high_inclusive)):
            if not -(2**digits) <= value <= 2**digits:
                warnings.warn(
                    f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {type_name} can support discrete uniform distribution only "
                    "within this range. This warning will become an error in version 1.7 "
                    "release, please fix the code in advance",
                    UserWarning,
                    stacklevel=3,
                )
