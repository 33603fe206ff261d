"""The fused multiply-add emulation against exact rational arithmetic.

``fractions.Fraction`` computes ``a*b + c`` exactly; rounding that once to the target format is
the definition of a correct fma. Random triples exercise ordinary cases, cancellation-heavy ones
(``c`` close to ``-a*b``, where only the product's rounding error survives) exercise the
error-free transformations, and hand-made ones hit exact ties and the double-rounding trap.
Set ``MINITORCH_EXHAUSTIVE=1`` to check the randn shortcut on all 2**24 inputs (about 10 s).
"""

from __future__ import annotations

import os
from fractions import Fraction

import numpy as np
import pytest

from minitorch_hooks import _generator_math
from minitorch_hooks._fma import fma32, fma64


def round_to_float32(value: Fraction) -> np.float32:
    """The float32 nearest to ``value``, ties to even (no double rounding)."""
    candidate = np.float32(float(value))
    neighbours = [np.nextafter(candidate, np.float32(-np.inf)), candidate,
                  np.nextafter(candidate, np.float32(np.inf))]
    return min(neighbours, key=lambda f: (abs(Fraction(float(f)) - value),
                                          int(np.array(f).view(np.uint32)) & 1))


def exact32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return np.array([round_to_float32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                     for x, y, z in zip(a, b, c)], dtype=np.float32)


def exact64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    # float(Fraction) divides two integers, which Python rounds correctly.
    return np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)])


def random_floats(rng: np.random.Generator, count: int, dtype: type, exponents: int) -> np.ndarray:
    signs = rng.choice([-1.0, 1.0], count)
    return (signs * rng.random(count) * 2.0 ** rng.integers(-exponents, exponents, count)).astype(
        dtype)


def near_halfway32(rng: np.random.Generator, count: int) -> tuple[np.ndarray, ...]:
    """Triples whose exact result lies a hair beside a float32 halfway point.

    ``(2**k - 1) * (2**k + 1) = 4**k - 1`` sits just below a power of two and ``641 * 6700417
    = 2**32 + 1`` just above; scaled to half a unit in the last place of ``c``, the float64
    sum rounds onto the halfway point itself, where rounding again would go wrong.
    """
    k = rng.integers(15, 24, count)
    above = rng.random(count) < 0.5
    a = np.where(above, 641.0, 2.0**k - 1)
    b = np.where(above, 6700417.0, 2.0**k + 1)
    c_exponent = rng.integers(-30, 30, count)
    c = (1 + rng.integers(0, 2**23, count) * 2.0**-23) * 2.0**c_exponent
    product_exponent = np.where(above, 32, 2 * k)
    a *= rng.choice([-1.0, 1.0], count) * 2.0 ** (c_exponent - 24 - product_exponent)
    return a.astype(np.float32), b.astype(np.float32), (rng.choice([-1.0, 1.0], count) * c)


def triples(kind: str, dtype: type, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    count, exponents = 2000, (20 if dtype == np.float32 else 200)
    if kind == "near-halfway":
        a, b, c = near_halfway32(rng, count)
        return a, b, c.astype(dtype)
    a, b = (random_floats(rng, count, dtype, exponents) for _ in range(2))
    if kind == "random":
        c = random_floats(rng, count, dtype, 2 * exponents)
    elif kind == "tiny":  # results below float32's smallest normal number, 2**-126
        a, b = a * dtype(2.0**-60), b * dtype(2.0**-60)
        c = random_floats(rng, count, dtype, 10) * dtype(2.0**-135)
    else:  # cancellation: c is the rounded product, negated and nudged by a few ulps
        c = -(a * b)
        for _ in range(3):
            c = np.where(rng.random(count) < 0.5, np.nextafter(c, np.inf * c), c)
    return a, b, c.astype(dtype)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["random", "cancellation", "tiny", "near-halfway"])
def test_fma32_is_correctly_rounded(kind: str, seed: int) -> None:
    a, b, c = triples(kind, np.float32, seed)
    result = fma32(a, b, c)
    assert result.dtype == np.float32
    assert result.tobytes() == exact32(a, b, c).tobytes()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["random", "cancellation"])
def test_fma64_is_correctly_rounded(kind: str, seed: int) -> None:
    a, b, c = triples(kind, np.float64, seed)
    assert fma64(a, b, c).tobytes() == exact64(a, b, c).tobytes()


def test_fma32_avoids_double_rounding() -> None:
    """641 * 6700417 = 2**32 + 1, so a*b + 1 = 1 + 2**-24 + 2**-56: rounding that to float64
    gives exactly the float32 midpoint 1 + 2**-24, which then rounds to even (1.0). The fused
    result must see the 2**-56 and round up."""
    a, b, c = np.float32(641 * 2.0**-28), np.float32(6700417 * 2.0**-28), np.float32(1)
    naive = np.float32(np.float64(a) * np.float64(b) + np.float64(c))
    assert naive == 1.0
    assert fma32(a, b, c) == np.float32(1 + 2.0**-23) == exact32([a], [b], [c])[0]


def test_fma32_ties_round_to_even() -> None:
    a, b = np.float32([1 + 2.0**-23, 1.0]), np.float32([1.0, 1 + 2.0**-22])
    c = np.float32([2.0**-24, 2.0**-24])  # exact sums halfway between two float32s
    assert fma32(a, b, c).tolist() == [1 + 2.0**-22, 1 + 2.0**-22]


def test_fma64_avoids_the_unfused_rounding() -> None:
    a = 1 + 2.0**-30
    b = 1 - 2.0**-30
    assert a * b - 1 == 0.0  # the product rounds to 1
    assert fma64(a, b, -1.0) == -(2.0**-60)


def test_fma_broadcasts_and_keeps_zero_signs() -> None:
    assert fma32(np.float32([2, 3]), np.float32(0.5), np.float32(1)).tolist() == [2.0, 2.5]
    assert np.signbit(fma64(-0.0, 1.0, -0.0))
    assert not np.signbit(fma64(-0.0, 1.0, 0.0))


def kernel_inputs() -> np.ndarray:
    """The float32 uniforms k / 2**24 that feed randn's Box-Muller: a sample, or all of them."""
    if os.environ.get("MINITORCH_EXHAUSTIVE") == "1":
        k = np.arange(2**24)
    else:
        k = np.concatenate([np.arange(4096), 2**24 - 1 - np.arange(4096),
                            np.random.default_rng(0).integers(0, 2**24, 2**17)])
    return k.astype(np.float32) * np.float32(2.0**-24)


def test_randn_shortcut_equals_exact_fma() -> None:
    """randn's Cephes log and sincos round float64 sums to float32 instead of calling the exact
    ``fma32``; that is only valid because it gives the same bits on every possible input."""
    for chunk in np.array_split(kernel_inputs(), 64):
        u = np.float32(1) - chunk
        assert (_generator_math._cephes_log(u).tobytes()
                == _generator_math._cephes_log(u, fma=fma32).tobytes())
        theta = _generator_math._TWO_PI_F32 * chunk
        fast = _generator_math._cephes_sincos(theta)
        exact = _generator_math._cephes_sincos(theta, fma=fma32)
        assert fast[0].tobytes() == exact[0].tobytes()
        assert fast[1].tobytes() == exact[1].tobytes()
