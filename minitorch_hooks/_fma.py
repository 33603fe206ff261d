"""Exact fused multiply-add, ``fma(a, b, c) = a*b + c`` rounded once, on NumPy arrays.

NumPy has no fma ufunc, yet PyTorch's CPU kernels use fused multiply-adds: the AVX2 build of
``uniform_`` computes ``x * (to - from) + from`` as one fused instruction (GCC contracts it), and
the Box-Muller kernels call ``std::fma`` / ``_mm256_fmadd_ps`` explicitly. A fused result can
differ in the last bit from "multiply, round, add, round", so reproducing PyTorch's random numbers
bit for bit needs a correctly rounded fma. This module builds one from ordinary float64
operations with two classic *error-free transformations*:

* TwoSum (Knuth): for doubles ``a`` and ``b``, ``s = a + b`` rounded, plus the exact error
  ``e`` so that ``a + b == s + e`` holds exactly.
* TwoProduct (Dekker/Veltkamp): ``p = a * b`` rounded, plus the exact error of the product.

and the *round-to-odd* trick (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums:
proved algorithms using rounding to odd", IEEE Trans. Computers, 2008): a sum rounded "to odd"
in a format with at least two more bits than the target can be rounded again to the target
without the double-rounding error.

Both functions are exact for finite inputs whose results neither overflow nor underflow into
the subnormal range of float64 (float32 results may be subnormal). See
<https://docs.pytorch.org/docs/2.13/notes/numerical_accuracy.html> for why PyTorch results can
depend on such instruction-level details.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

# Veltkamp's splitting constant 2**27 + 1: multiplying by it and cancelling splits a double's
# 53-bit significand into two halves of at most 26 bits, whose products are exact.
_SPLITTER = float(2**27 + 1)

# float64 bit fields for spotting sums that rounding twice might get wrong (see fma32).
_BELOW_FLOAT32_BITS = np.uint64(2**29 - 1)  # the 29 significand bits float32 does not have
_HALF_FLOAT32_ULP = np.uint64(2**28)
_EXPONENT_BITS = np.uint64(0x7FF << 52)
_FLOAT32_SMALLEST_NORMAL_EXPONENT = np.uint64((1023 - 126) << 52)  # 2**-126


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(s, e)`` with ``s = fl(a + b)`` and ``a + b == s + e`` exactly (Knuth's TwoSum)."""
    s = a + b
    b_virtual = s - a  # the part of b that made it into s ...
    a_virtual = s - b_virtual  # ... and the part of a
    return s, (a - a_virtual) + (b - b_virtual)  # what each operand lost, summed exactly


def _round_to_odd(s: np.ndarray, error: np.ndarray) -> np.ndarray:
    """Turn ``s = fl(x)`` (round to nearest) into the round-to-odd value of ``x = s + error``.

    Round to odd keeps ``s`` when it is exact, and otherwise picks whichever of the two doubles
    around ``x`` has an odd last significand bit. If ``s`` is already odd it is that neighbour;
    if it is even, the odd neighbour is one unit in the last place further towards ``x``, that is
    away from zero when ``error`` has the sign of ``s`` and towards zero otherwise. The result
    is never halfway between two numbers of a shorter format, which is why the second rounding
    is safe.
    """
    bits = s.view(np.int64).copy()  # for finite doubles, +-1 on the bits is a step of one ulp
    inexact_and_even = (error != 0) & ((bits & 1) == 0) & np.isfinite(error)
    away_from_zero = (error > 0) == (s > 0)
    bits += np.where(inexact_and_even, np.where(away_from_zero, 1, -1), 0)
    return bits.view(np.float64)


def fma32(a: ArrayLike, b: ArrayLike, c: ArrayLike) -> np.ndarray:
    """Correctly rounded float32 ``a*b + c`` (one rounding), like C's ``fmaf``.

    The inputs are float32 values (anything NumPy converts to float32). Their product has at
    most 48 significant bits, so it is exact in float64; the sum with ``c`` is then rounded to
    float64, and that to float32. Rounding twice goes wrong only when the float64 sum is inexact
    and lands *exactly* halfway between two float32 numbers: any other float64 lies strictly on
    the same side of every such halfway point as the exact sum, so the second rounding agrees.
    (Below float32's smallest normal number the halfway points sit elsewhere, so those sums are
    suspect too.) Suspect elements are rare unless the inputs have few bits; for them we compute
    the float64 sum's exact error, and the inexact ones are redone: the sum rounded *to odd* is
    never a float32 halfway point, and since 53 >= 24 + 2 its rounding to float32 is correct.
    """
    a64, b64, c64 = (np.asarray(v, dtype=np.float32).astype(np.float64) for v in (a, b, c))
    product = a64 * b64  # exact
    total = product + c64
    result = np.asarray(total.astype(np.float32))
    bits = np.asarray(total).view(np.uint64)
    # Halfway between two float32s: bit 28 set and bits 0-27 clear (float64 has 29 more bits).
    halfway = (bits & _BELOW_FLOAT32_BITS) == _HALF_FLOAT32_ULP
    suspect = halfway | ((bits & _EXPONENT_BITS) < _FLOAT32_SMALLEST_NORMAL_EXPONENT)
    if suspect.any():
        total, error = _two_sum(product, c64)
        redo = suspect & (error != 0)
        result[redo] = _round_to_odd(total[redo], error[redo]).astype(np.float32)
    return result


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Veltkamp's split: ``a == high + low`` exactly, each half with at most 26 bits."""
    scaled = a * _SPLITTER
    high = scaled - (scaled - a)
    return high, a - high


def fma64(a: ArrayLike, b: ArrayLike, c: ArrayLike) -> np.ndarray:
    """Correctly rounded float64 ``a*b + c`` (one rounding), like C's ``fma``.

    Boldo and Melquiond's algorithm:

    1. Split the product exactly: ``a*b == u_high + u_low`` (Dekker's TwoProduct).
    2. Add the large part to ``c`` exactly: ``c + u_high == t_high + t_low`` (TwoSum).
    3. The remaining small parts ``t_low + u_low`` are added with rounding *to odd*.
    4. The final ``t_high + v`` is rounded to nearest, and that single visible rounding is the
       correctly rounded fma.
    """
    a64, b64, c64 = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    u_high = a64 * b64
    a_high, a_low = _split(a64)
    b_high, b_low = _split(b64)
    # Dekker: the four partial products of the halves are exact, and so is this accumulation.
    u_low = ((a_high * b_high - u_high) + a_high * b_low + a_low * b_high) + a_low * b_low
    t_high, t_low = _two_sum(c64, u_high)
    v, v_error = _two_sum(t_low, u_low)
    result = t_high + _round_to_odd(v, v_error)
    # An exact zero takes its sign from IEEE's rules (-0.0 only for -0.0 + -0.0), which the
    # error terms above do not follow; when the result is zero, a*b is exact and equals -c,
    # so the plain expression has the right sign.
    return np.where(result == 0, u_high + c64, result)
