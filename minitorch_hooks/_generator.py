"""PyTorch's CPU random number generator (``torch.Generator``), bit for bit, in NumPy.

A seeded PyTorch script prints the same random digits here as in PyTorch 2.13 on an x86-64 CPU
with AVX2 (which includes AVX512 CPUs: PyTorch builds its random kernels only for AVX2 and for
a "DEFAULT" variant without it, and AVX512 falls back to AVX2). Getting every bit right needs
four things, each explained where it happens: here, or in ``_generator_math.py`` (3 and 4):

1. The engine: the 32-bit Mersenne Twister (MT19937), seeded from the low 32 bits of the seed.
   NumPy's ``np.random.MT19937`` is the same engine, so we let it produce the raw 32-bit words.
2. The transforms from raw words to numbers, reproduced operation by operation from PyTorch's
   kernels, including the order in which the elements of a tensor are filled.
3. Fused multiply-adds: the AVX2 build computes ``a*b + c`` with one rounding. NumPy has no
   fma, so ``_fma.py`` emulates it exactly.
4. Float32 ``randn`` evaluates ``log`` and ``sin``/``cos`` with the Cephes polynomials of
   ``avx_mathfun.h``, not with the C library, so we evaluate the same polynomials. float64
   normals use the C library's ``log``/``log1p``/``sin``/``cos``, which Python's ``math``
   module calls too (NumPy's vectorised versions differ in the last bit for a few percent).

On an x86 CPU without AVX2, PyTorch's own last bits differ (no fused multiply-adds, and the C
library's ``logf``/``sincosf``), and on ARM or Windows they probably do too; this module does
not model those builds.
See <https://docs.pytorch.org/docs/2.13/generated/torch.Generator.html> and
<https://docs.pytorch.org/docs/2.13/notes/randomness.html>.
"""

from __future__ import annotations

import functools
import math
import os
from typing import Any

import numpy as np

from ._generator_math import (
    _CHUNK,
    _CPP_TYPE_NAMES,
    _FLOAT_TYPES,
    _SCALAR_TYPE_NAMES,
    _box_muller_blocks_f32,
    _box_muller_blocks_f64,
    _cast,
    _check_from_to_in_range,
    _fill_in_storage_order,
    _fused_affine_,
    _libm,
    _not_implemented,
    _update_from,
    _update_to,
)

# The kernels' arithmetic, which needs no state, is in ``_generator_math.py``.
from .utils.hooks import type_name

__all__ = ["Generator"]

# ``torch.Generator()`` starts from this seed (``c10::default_rng_seed_val``).
_DEFAULT_SEED = 67280421310721

# MT19937 has 624 words of state; see ``ATen/core/MT19937RNGEngine.h``.
_MT_WORDS = 624

# ``get_state()`` returns PyTorch's ``CPUGeneratorImplState`` struct as raw little-endian bytes.
# Its first part is the legacy ``THGenerator`` layout, kept so that old checkpoints still load:
# the engine's 32-bit words are stored as 64-bit integers, and three Box-Muller fields of which
# only the cached normal ``normal_y`` is still used.
_STATE_LAYOUT = np.dtype(
    {
        "names": ["seed", "left", "seeded", "next", "words", "normal_y", "normal_is_valid",
                  "float_normal", "float_normal_is_valid"],
        "formats": ["<u8", "<i4", "<i4", "<u8", ("<u8", _MT_WORDS), "<f8", "<i4", "<f4", "u1"],
        "offsets": [0, 8, 12, 16, 24, 5024, 5040, 5048, 5052],
        "itemsize": 5056,
    }
)

@functools.lru_cache(maxsize=8)
def _seeded_state(seed: int) -> np.ndarray:
    """The 624 words of state MT19937's classic ``init_genrand`` makes of a 32-bit seed.

    Remembered for the last few seeds: programs and tests seed with the same few numbers
    again and again, and this loop is most of the time seeding takes. (The engine copies
    the words into its own state, so the remembered array is never changed.)"""
    words = [seed]
    for i in range(1, _MT_WORDS):
        previous = words[-1]
        words.append((1812433253 * (previous ^ (previous >> 30)) + i) & 0xFFFFFFFF)
    state = np.array(words, dtype=np.uint32)
    state.flags.writeable = False
    return state


class Generator:
    """A CPU random number generator that draws exactly the numbers ``torch.Generator`` draws.

    The public methods mirror ``torch.Generator``. The private ``_uniform_``, ``_normal_``,
    ``_random_``, ``_randperm``, ``_bernoulli_``, ``_bernoulli_tensor`` and ``_exponential_`` are
    the NumPy kernels behind ``torch.rand``, ``randn``, ``randint``, ``randperm``, ``bernoulli``,
    dropout and ``multinomial``; each fills an array in storage order, and consumes exactly as
    many 32-bit draws as PyTorch, so a later draw matches too.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Generator.html>
    """

    __module__ = "minitorch_hooks._C"  # PyTorch's is ``torch._C.Generator``, a C++ class

    def __init__(self, device: Any = "cpu") -> None:
        if str(device) != "cpu":
            raise RuntimeError(
                f"minitorch_hooks has only CPU generators, but got device={device!r}"
            )
        self.device = "cpu"
        self._engine = np.random.MT19937()
        # NumPy's legacy interface on the same engine, for ``randint``'s masked draws (below).
        self._legacy = np.random.RandomState(self._engine)
        self.manual_seed(_DEFAULT_SEED)

    # -- seeding and state (public API) -------------------------------------------------------

    def manual_seed(self, seed: int) -> Generator:
        """Seed the generator and return it, like ``torch.Generator.manual_seed``.

        PyTorch accepts any integer in [-2**63, 2**64) and maps negative seeds to ``seed +
        2**64``. The engine is seeded with the low 32 bits only (MT19937's classic
        ``init_genrand``), so ``manual_seed(2**32)`` and ``manual_seed(0)`` give the same
        numbers, while ``initial_seed()`` still reports the full value.
        """
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -(2**63) <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed % 2**64
        # pos=624 means "all words used": the engine twists the state before its first output,
        # exactly as PyTorch's engine does after seeding.
        self._set_engine(_seeded_state(self._seed & 0xFFFFFFFF), 624, counters=(1, 0))
        # Box-Muller produces normals in pairs and caches the second one; reseeding drops it.
        self._next_double_normal: float | None = None
        self._next_float_normal: float | None = None
        return self

    def initial_seed(self) -> int:
        """The seed last given to ``manual_seed`` (or picked by ``seed``), as an unsigned int."""
        return self._seed

    def seed(self) -> int:
        """Reseed from the operating system's entropy (like PyTorch's /dev/urandom read)."""
        seed = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(seed)
        return seed

    def get_state(self) -> Any:
        """The state as PyTorch's 5056-byte ``ByteTensor``, restorable here or in PyTorch."""
        from . import _dtype, tensor  # imported here: the tensor module imports this one

        state = np.zeros((), dtype=_STATE_LAYOUT)
        engine = self._engine.state["state"]
        if self._counters is not None:
            left, next_word = self._counters
        else:
            left, next_word = 625 - engine["pos"], engine["pos"]
        state["seed"] = self._seed
        state["left"] = left
        state["seeded"] = 1
        state["next"] = next_word
        state["words"] = engine["key"]
        if self._next_double_normal is not None:
            state["normal_y"] = self._next_double_normal
            state["normal_is_valid"] = 1
        if self._next_float_normal is not None:
            state["float_normal"] = self._next_float_normal
            state["float_normal_is_valid"] = 1
        return tensor(np.frombuffer(state.tobytes(), dtype=np.uint8).copy(), dtype=_dtype.uint8)

    def set_state(self, new_state: Any) -> Generator:
        """Restore a state from ``get_state`` (ours or PyTorch's) and return the generator."""
        if not hasattr(new_state, "numpy"):
            raise TypeError(f"expected a torch.ByteTensor, but got {type_name(new_state)}")
        data = np.asarray(new_state.numpy())
        if data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if data.size != _STATE_LAYOUT.itemsize:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_LAYOUT.itemsize} but found "
                f"the input RNG state size to be {data.size}"
            )
        state = np.frombuffer(data.tobytes(), dtype=_STATE_LAYOUT)[0]
        left, next_word = int(state["left"]), int(state["next"]) & 0xFFFFFFFF
        if not (state["seeded"] and 0 < left <= _MT_WORDS and next_word <= _MT_WORDS):
            raise RuntimeError("Invalid mt19937 state")
        # PyTorch's engine regenerates its words when ``left`` reaches zero and reads word
        # ``next`` otherwise; NumPy's has a single position. The two agree for every state
        # PyTorch itself produces: left == 1 (regenerate now) or left == 625 - next.
        if left != 1 and left + next_word != 625:
            raise RuntimeError(
                f"unsupported mt19937 state: left={left} and next={next_word} do not satisfy "
                "left == 1 or left + next == 625, which every state PyTorch produces does"
            )
        words = (state["words"] & 0xFFFFFFFF).astype(np.uint32)
        self._set_engine(words, 624 if left == 1 else next_word, counters=(left, next_word))
        self._seed = int(state["seed"])
        self._next_double_normal = float(state["normal_y"]) if state["normal_is_valid"] else None
        self._next_float_normal = (
            float(state["float_normal"]) if state["float_normal_is_valid"] else None)
        return self

    def _set_engine(self, words: np.ndarray, position: int, counters: tuple[int, int]) -> None:
        self._engine.state = {
            "bit_generator": "MT19937", "state": {"key": words, "pos": position},
        }
        # PyTorch's (left, next) counters, reported by get_state until the next draw. After a
        # draw they follow from NumPy's position; right after seeding PyTorch says (1, 0)
        # where NumPy's position cannot tell "fresh" from "all 624 words used".
        self._counters: tuple[int, int] | None = counters

    # -- raw draws ----------------------------------------------------------------------------

    def _random(self, count: int) -> np.ndarray:
        """``count`` 32-bit outputs of the engine (PyTorch's ``random()``), as uint64."""
        if count:
            self._counters = None
        return self._engine.random_raw(count)

    def _random64(self, count: int) -> np.ndarray:
        """``random64()``: two 32-bit outputs per number, the first one the high half."""
        pairs = self._random(2 * count).reshape(count, 2)
        return (pairs[:, 0] << 32) | pairs[:, 1]

    def _low_bits(self, count: int, bits: int) -> np.ndarray:
        """The low ``bits`` bits of each of ``count`` draws, as uint32.

        NumPy's legacy ``randint`` draws a range whose size is a power of two by masking one
        32-bit output per value (a mask never rejects), so this is exactly ``draw & mask``,
        made in one pass instead of drawing into uint64 and masking afterwards.
        """
        if count:
            self._counters = None
        return self._legacy.randint(0, 2**bits, size=count, dtype=np.uint32)

    def _uniform_float(self, count: int) -> np.ndarray:
        """PyTorch's float uniform in [0, 1): the low 24 bits of one draw, times 2**-24."""
        low_bits = self._low_bits(count, 24)
        # Through int32 because NumPy converts signed integers to float faster; exact either way.
        uniforms = low_bits.view(np.int32).astype(np.float32)
        uniforms *= np.float32(2.0**-24)
        return uniforms

    def _uniform_double(self, count: int) -> np.ndarray:
        """PyTorch's double uniform in [0, 1): the low 53 bits of a ``random64()``, times 2**-53."""
        return (self._random64(count) & (2**53 - 1)).astype(np.float64) * 2.0**-53

    def _uniform(self, count: int, dtype: np.dtype) -> np.ndarray:
        """Uniforms in the precision PyTorch computes ``dtype`` in (float for half)."""
        return self._uniform_double(count) if dtype == np.float64 else self._uniform_float(count)

    # -- kernels for the tensor library -------------------------------------------------------

    def _uniform_(self, array: np.ndarray, low: float, high: float) -> None:
        """``Tensor.uniform_(low, high)``: fill ``array`` with uniforms in [low, high).

        The value is ``x * (high - low) + low`` for a uniform ``x`` in [0, 1), computed in
        float for float32 and float16 and in double for float64, with the multiply-add fused
        (GCC contracts it in the AVX2 build). Rounding can land on ``high`` itself; PyTorch then
        returns ``low`` instead, so the range stays half-open.
        """
        dtype = array.dtype
        if dtype.type not in _FLOAT_TYPES:
            raise _not_implemented("check_uniform_bounds", dtype)
        info = np.finfo(dtype)
        lowest, highest = float(info.min), float(info.max)
        for name, value in (("from", low), ("to", high)):
            if not lowest <= value <= highest:
                raise RuntimeError(f"{name} is out of bounds for {_CPP_TYPE_NAMES[dtype.name]}")
        if not low <= high:
            raise RuntimeError(
                f"uniform_ expects to return a [from, to) range, but found from={low:g} > "
                f"to={high:g}"
            )
        if not high - low <= highest:
            raise RuntimeError(
                f"uniform_ expects to-from <= std::numeric_limits<"
                f"{_SCALAR_TYPE_NAMES[dtype.name]}>::max(), but found to={high:g} and "
                f"from={low:g} which result in to-from to exceed the limit"
            )
        if array.size == 0:
            return
        if dtype == np.float64:
            scale, shift = high - low, low
            high_value, low_value = np.float64(high), np.float64(low)
        else:
            low32, high32 = np.float32(low), np.float32(high)
            scale, shift = float(high32 - low32), float(low32)
            # PyTorch converts the double bounds to half through float, hence the two casts.
            high_value, low_value = dtype.type(high32), dtype.type(low32)

        def values_for(count: int) -> np.ndarray:
            values = self._uniform(count, dtype)
            _fused_affine_(values, scale, shift)
            values = values.astype(dtype, copy=False)
            values[values == high_value] = low_value
            return values

        _fill_in_storage_order(array, values_for)

    def _normal_(self, array: np.ndarray, mean: float, std: float) -> None:
        """``Tensor.normal_(mean, std)``: fill ``array`` with normal samples (Box-Muller).

        PyTorch picks one of two algorithms. A contiguous tensor of at least 16 elements uses
        the vectorised "fill" path, 16 elements at a time; anything else (a small or a
        non-contiguous tensor) uses the scalar path, one element at a time in double, which
        shares a cached second Box-Muller sample with later calls.
        """
        if not std >= 0.0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        if array.size == 0:
            return
        dtype = array.dtype
        if dtype.type not in _FLOAT_TYPES:
            raise _not_implemented("normal_kernel_cpu", dtype)
        if array.size >= 16 and array.flags.c_contiguous:
            self._normal_fill(array.reshape(-1), mean, std)
        else:
            def values_for(count: int) -> np.ndarray:
                values = self._standard_normals(count)
                _fused_affine_(values, std, mean)
                return _cast(values, dtype)

            _fill_in_storage_order(array, values_for)

    def _normal_fill(self, out: np.ndarray, mean: float, std: float) -> None:
        """PyTorch's ``normal_fill``: Box-Muller on blocks of 16 uniforms, into the flat ``out``.

        Full blocks cover the start of the tensor. If the size is not a multiple of 16, one more
        block of 16 fresh uniforms is transformed and written over the last 16 elements, so
        they overlap the last full block. For float32 and float64 PyTorch first fills the whole
        tensor with uniforms and transforms it in place, so the ``size % 16`` uniforms after the
        last full block are drawn too, only to be overwritten; half precision works in a
        16-float scratch buffer and skips them.
        """
        dtype = out.dtype
        transform = _box_muller_blocks_f64 if dtype == np.float64 else _box_muller_blocks_f32
        full_blocks, remainder = divmod(out.size, 16)
        blocks = out[: 16 * full_blocks].reshape(full_blocks, 16)
        for start in range(0, full_blocks, _CHUNK // 16):
            chunk = blocks[start:start + _CHUNK // 16]
            transform(self._uniform(chunk.size, dtype).reshape(-1, 16), mean, std, out=chunk)
        if remainder:
            if dtype != np.float16:
                self._uniform(remainder, dtype)
            tail = self._uniform(16, dtype).reshape(1, 16)
            transform(tail, mean, std, out=out[-16:].reshape(1, 16))

    def _standard_normals(self, count: int) -> np.ndarray:
        """``count`` standard normals from PyTorch's scalar Box-Muller, as float64.

        Each pair of double uniforms ``(a, b)`` gives ``rho = sqrt(-2 log1p(-b))`` and ``theta =
        2 pi a``. The sample used now is ``rho * cos(theta)``; ``rho * sin(theta)`` is cached in
        the generator and returned by the next request, whichever call (or dtype) makes it.
        """
        samples = []
        if self._next_double_normal is not None:
            samples.append(np.array([self._next_double_normal]))
            self._next_double_normal = None
        pairs = (count - len(samples) + 1) // 2
        if pairs:
            uniforms = self._uniform_double(2 * pairs).reshape(pairs, 2)
            rho = np.sqrt(-2.0 * _libm(math.log1p, -uniforms[:, 1]))
            theta = 2.0 * math.pi * uniforms[:, 0]
            pair_samples = np.stack([rho * _libm(math.cos, theta), rho * _libm(math.sin, theta)])
            samples.append(pair_samples.T.reshape(-1))
        values = np.concatenate(samples)
        if len(values) > count:
            self._next_double_normal = float(values[-1])
        return values[:count]

    def _random_(self, array: np.ndarray, low: int, high: int) -> None:
        """``Tensor.random_(low, high)`` (behind ``randint``): integers in [low, high).

        The value is ``draw % (high - low) + low``, modulo bias included. The draw is one 32-bit
        output when the range is below 2**28 and a 64-bit ``random64()`` otherwise. For
        floating point tensors PyTorch first moves the bounds inwards to values the dtype can
        represent, so that rounding cannot produce ``high``.
        """
        low, high = int(low), int(high)
        if not (-(2**63) <= low < 2**63 and -(2**63) <= high < 2**63):
            raise ValueError("Overflow when unpacking long long")
        if not low < high:
            raise RuntimeError(
                f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )
        dtype = array.dtype
        if dtype.type in _FLOAT_TYPES:
            digits = np.finfo(dtype).nmant + 1
            low, high = _update_from(low, dtype, digits), _update_to(high, dtype, digits)
            if not low < high:
                raise RuntimeError(
                    "random_ expects 'from' casted to dtype to be less than 'to' casted to "
                    f"dtype, but got from={low} >= to={high}"
                )
        _check_from_to_in_range(low, high - 1, dtype)
        if array.size == 0:
            return
        span, offset = np.uint64(high - low), np.uint64(low % 2**64)

        def values_for(count: int) -> np.ndarray:
            draws = self._random64(count) if span >= 2**28 else self._random(count)
            # uint64 arithmetic wraps modulo 2**64 like C's; the int64 view undoes the offset.
            return _cast(((draws % span) + offset).view(np.int64), dtype)

        _fill_in_storage_order(array, values_for)

    def _random_full_range_(self, array: np.ndarray) -> None:
        """``Tensor.random_()`` without bounds: every integer the dtype holds from 0 up,
        ``draw % (max + 1)``; for floating point, the integers up to and including
        ``2**digits`` that the mantissa holds exactly; a bool takes the draw's lowest bit.
        int64 and float64 draw ``random64()``, the others one 32-bit ``random()``
        (PyTorch's ``uniform_int_distribution``)."""
        dtype = array.dtype
        if dtype == np.bool_:
            span = np.uint64(2)
        elif dtype.type in _FLOAT_TYPES:
            span = np.uint64(2 ** (np.finfo(dtype).nmant + 1) + 1)
        else:
            span = np.uint64(int(np.iinfo(dtype).max) + 1)
        wide = dtype in (np.int64, np.float64)

        def values_for(count: int) -> np.ndarray:
            draws = self._random64(count) if wide else self._random(count)
            return _cast((draws % span).view(np.int64), dtype)

        _fill_in_storage_order(array, values_for)

    def _randperm(self, n: int) -> np.ndarray:
        """``torch.randperm(n)``: a random permutation of ``0 .. n-1`` as int64.

        PyTorch runs a Fisher-Yates shuffle forwards: for ``i = 0 .. n-2`` it swaps element
        ``i`` with element ``i + random() % (n - i)``. The draws do not depend on the swaps, so
        we take them all at once; the swaps themselves are sequential.
        """
        n = int(n)
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
        if n >= (2**32 - 1) // 20:
            raise NotImplementedError(
                "randperm for n >= 214748364 uses a different algorithm in PyTorch, which "
                "minitorch_hooks does not implement"
            )
        steps = np.arange(max(n - 1, 0), dtype=np.uint64)
        partners = (self._random(steps.size) % (np.uint64(n) - steps) + steps).tolist()
        permutation = list(range(n))
        for i, j in enumerate(partners):
            permutation[i], permutation[j] = permutation[j], permutation[i]
        return np.array(permutation, dtype=np.int64)

    def _exponential_(self, array: np.ndarray) -> None:
        """Exponential samples of rate 1 (``Tensor.exponential_()``, behind ``multinomial``),
        filled in storage order.

        Each element is ``-log1p(-u)`` for one double uniform ``u`` (one ``random64()``),
        whatever the dtype: PyTorch's CPU kernel draws from ``exponential_distribution<double>``
        with the C library's ``log1p`` (``_libm``, not NumPy's), then casts the result.
        """
        dtype = array.dtype
        _fill_in_storage_order(array, lambda count: _cast(
            -_libm(math.log1p, -self._uniform_double(count)), dtype))

    def _bernoulli_(self, array: np.ndarray, p: float) -> None:
        """``Tensor.bernoulli_(p)`` with a float ``p`` (behind dropout): 1 with probability p.

        Each element compares a double uniform (one ``random64()``) with ``p``.
        """
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
        if array.size == 0:
            return
        _fill_in_storage_order(array, lambda count: self._uniform_double(count) < p)

    def _bernoulli_tensor(self, p: np.ndarray) -> np.ndarray:
        """``torch.bernoulli(p)``: a new array of 0s and 1s, 1 with probability ``p[i]``.

        The result is contiguous and filled in row-major order. A float64 ``p`` is compared
        with double uniforms, float32 and float16 with float uniforms (one draw each).
        """
        if p.dtype.type not in _FLOAT_TYPES:
            raise _not_implemented("bernoulli_tensor_cpu_p_", p.dtype)
        flat = np.ascontiguousarray(p).reshape(-1)
        invalid = np.flatnonzero(~((flat >= 0) & (flat <= 1)))
        if invalid.size:
            # PyTorch checks each p as it goes, so the draws before the bad one are consumed.
            self._uniform(int(invalid[0]), p.dtype)
            raise RuntimeError(
                "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                "message be improved?  If so, please report an enhancement request to PyTorch.)"
            )
        uniforms = self._uniform(flat.size, p.dtype)
        return (uniforms < flat).astype(p.dtype).reshape(p.shape)
