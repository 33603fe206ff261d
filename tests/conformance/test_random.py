"""The random number generator against real PyTorch, bit for bit.

Each case seeds PyTorch and our ``Generator`` alike, draws with both, and requires identical
bytes (dtype, shape and every bit), then draws ``rand(3)`` once more from both: if that matches
too, both consumed the same number of 32-bit words. Our kernels are called on plain NumPy
arrays, so these tests do not depend on the Tensor class, except the ``get_rng_state`` ones.

PyTorch's side is a function (``lambda: torch.rand(s)``), called only when PyTorch is
installed; without it, :func:`torch_bits` reads its recorded answer, a digest of the bytes.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from harness import Raised, assert_same_outcome, bits, outcome, pytorch_answer, real_torch
from recording import live

import minitorch_hooks
from minitorch_hooks import random as mini_random
from minitorch_hooks._generator import Generator


class _DtypeName(str):
    """A dtype's name, standing for the dtype in the recorded mode: it reads as the dtype
    does (``torch.float16``), so a test case's recording key is the same in both modes."""

    def __repr__(self) -> str:
        return str(self)


# The live PyTorch; in the recorded mode, only the names of its dtypes (the torch sides,
# which use the rest, are then never called).
torch = importlib.import_module("torch") if live() else types.SimpleNamespace(**{
    name: _DtypeName(f"torch.{name}") for name in ("float16", "float32", "float64", "int64",
                                                   "bool", "uint8")})

SEEDS = [0, 1, 42, 2**40, 2**32 - 1, 123456789]
SHAPES = [(1,), (3,), (15,), (16,), (17,), (33,), (3, 10), (100, 7), (1000,)]

NUMPY_DTYPES = {torch.float16: np.float16, torch.float32: np.float32,
                torch.float64: np.float64, torch.int64: np.int64, torch.bool: np.bool_,
                torch.uint8: np.uint8}


def torch_bits(theirs: Callable[[], Any]) -> list:
    """:func:`bits` of what PyTorch's side returns (a tensor or an array)."""
    def question(_torch: Any) -> list:
        value = theirs()
        return bits(value.numpy() if hasattr(value, "numpy") else np.asarray(value))
    return pytorch_answer(question)


def on_torch(action: Callable[[], Any]) -> None:
    """A step of PyTorch's side that returns nothing to compare: run only when live."""
    if live():
        action()


def assert_same_bits(ours: np.ndarray, theirs: Callable[[], Any],
                     shape: tuple | None = None) -> None:
    expected = torch_bits(theirs)
    where = f"shape {shape}: " if shape else ""
    assert bits(ours) == expected, f"{where}ours {bits(ours)}\ntorch {expected}"


def ours_rand3(generator: Generator) -> np.ndarray:
    out = np.empty(3, dtype=np.float32)
    generator._uniform_(out, 0.0, 1.0)
    return out


def assert_next_draw_matches(generator: Generator, torch_generator: Any = None) -> None:
    """Same number of words consumed so far: the next ``rand(3)`` agrees too."""
    assert_same_bits(ours_rand3(generator), lambda: torch.rand(3, generator=torch_generator))


def seeded(seed: int) -> Generator:
    on_torch(lambda: torch.manual_seed(seed))
    return Generator().manual_seed(seed)


def fill(kernel: str, dtype: Any, *args: Any) -> Callable[[Generator, tuple], np.ndarray]:
    """Our side of a case: an empty NumPy array of ``dtype`` filled by ``kernel``."""
    def run(generator: Generator, shape: tuple) -> np.ndarray:
        out = np.empty(shape, dtype=NUMPY_DTYPES[dtype])
        getattr(generator, kernel)(out, *args)
        return out
    return run


# (torch side, our side); each torch side draws from the global generator.
KERNEL_CASES = [
    pytest.param(lambda s: torch.rand(s), fill("_uniform_", torch.float32, 0.0, 1.0),
                 id="rand-float32"),
    pytest.param(lambda s: torch.rand(s, dtype=torch.float64),
                 fill("_uniform_", torch.float64, 0.0, 1.0), id="rand-float64"),
    pytest.param(lambda s: torch.rand(s, dtype=torch.float16),
                 fill("_uniform_", torch.float16, 0.0, 1.0), id="rand-float16"),
    *[pytest.param(lambda s, lo=lo, hi=hi, dt=dt: torch.empty(s, dtype=dt).uniform_(lo, hi),
                   fill("_uniform_", dt, lo, hi), id=f"uniform_({lo},{hi})-{dt}")
      for lo, hi in [(-1.7, 2.3), (-0.25, 0.25), (10, 10.5), (-1e6, 3.0)]
      for dt in (torch.float32, torch.float64)],
    # A range one float32 wide: most values round onto ``to`` and are replaced by ``from``.
    pytest.param(lambda s: torch.empty(s).uniform_(1.0, 1.0000001),
                 fill("_uniform_", torch.float32, 1.0, 1.0000001), id="uniform_-clamped"),
    pytest.param(lambda s: torch.randn(s), fill("_normal_", torch.float32, 0.0, 1.0),
                 id="randn-float32"),
    pytest.param(lambda s: torch.randn(s, dtype=torch.float64),
                 fill("_normal_", torch.float64, 0.0, 1.0), id="randn-float64"),
    pytest.param(lambda s: torch.randn(s, dtype=torch.float16),
                 fill("_normal_", torch.float16, 0.0, 1.0), id="randn-float16"),
    *[pytest.param(lambda s, dt=dt: torch.empty(s, dtype=dt).normal_(0.3, 2.5),
                   fill("_normal_", dt, 0.3, 2.5), id=f"normal_(0.3,2.5)-{dt}")
      for dt in (torch.float16, torch.float32, torch.float64)],
    *[pytest.param(lambda s, lo=lo, hi=hi, dt=dt: torch.randint(lo, hi, s, dtype=dt),
                   fill("_random_", dt, lo, hi), id=f"randint({lo},{hi})-{dt}")
      for lo, hi, dt in [(0, 10, torch.int64), (-3, 2**28 - 3, torch.int64),
                         (0, 2**28, torch.int64), (-(2**40), 2**40, torch.int64),
                         (-(2**62), 2**62, torch.int64), (0, 1000, torch.float32),
                         (-5, 5, torch.float64), (0, 2, torch.bool), (0, 256, torch.uint8)]],
    *[pytest.param(lambda s, p=p: torch.empty(s).bernoulli_(p),
                   fill("_bernoulli_", torch.float32, p), id=f"bernoulli_({p})")
      for p in (0.0, 0.1, 0.5, 0.9, 1.0)],
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("theirs", "ours"), KERNEL_CASES)
def test_kernel_matches_torch(theirs: Callable, ours: Callable, seed: int) -> None:
    for shape in SHAPES:  # in one test: 9 x 6 x 35 separate tests would mostly time pytest
        generator = seeded(seed)
        assert_same_bits(ours(generator, shape), lambda shape=shape: theirs(shape), shape)
        assert_next_draw_matches(generator)


@pytest.mark.parametrize(("mean", "std"), [(0.0, 1.0), (0.3, 2.5)])
@pytest.mark.parametrize("seed", [34, 133])
def test_a_million_normals_match_torch(seed: int, mean: float, std: float) -> None:
    """The size the benchmark times: every chunk of the fill path is compared.

    With these seeds one draw that feeds a logarithm has its low 24 bits all zero: its radius
    ``sqrt(-2 log 1)`` is exactly 0, the product with a negative cosine or sine is -0.0, and
    PyTorch's final fma turns that into +0.0 when the mean is 0. With a std of 2.5 (few bits)
    a fifth of the final fmas land exactly halfway between two float32s, where ``fma32``
    checks for double rounding.
    """
    generator = seeded(seed)
    ours = fill("_normal_", torch.float32, mean, std)(generator, (1_000_000,))
    assert_same_bits(ours, lambda: torch.empty(1_000_000).normal_(mean, std))
    assert_next_draw_matches(generator)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 15, 16, 17, 33, 100, 1000])
@pytest.mark.parametrize("seed", SEEDS)
def test_randperm(seed: int, n: int) -> None:
    generator = seeded(seed)
    assert_same_bits(generator._randperm(n), lambda: torch.randperm(n))
    assert_next_draw_matches(generator)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_bernoulli_of_probability_tensor(seed: int, dtype: Any) -> None:
    for shape in SHAPES:
        # The same probabilities on both sides, made here (not asked of PyTorch: recording
        # them would store every value, where the draws need only a digest).
        probabilities = np.linspace(0, 1, int(np.prod(shape))).astype(NUMPY_DTYPES[dtype])
        probabilities = probabilities.reshape(shape)
        generator = seeded(seed)
        ours = generator._bernoulli_tensor(probabilities)
        assert_same_bits(ours, lambda p=probabilities: torch.bernoulli(torch.from_numpy(p)),
                         shape)
        assert_next_draw_matches(generator)


@pytest.mark.parametrize("seed", SEEDS)
def test_box_muller_cache_carries_over(seed: int) -> None:
    """The scalar path caches its second sample for the next call, in any dtype, and keeps it
    across fill-path and uniform calls; it is scaled by the mean and std of the call using it."""
    generator = seeded(seed)
    steps = [
        (lambda: torch.randn(3), fill("_normal_", torch.float32, 0.0, 1.0), (3,)),
        (lambda: torch.randn(1), fill("_normal_", torch.float32, 0.0, 1.0), (1,)),
        (lambda: torch.randn(5, dtype=torch.float64), fill("_normal_", torch.float64, 0, 1), (5,)),
        (lambda: torch.randn(40), fill("_normal_", torch.float32, 0.0, 1.0), (40,)),
        (lambda: torch.rand(7), fill("_uniform_", torch.float32, 0.0, 1.0), (7,)),
        (lambda: torch.empty(2).normal_(-1.5, 0.25), fill("_normal_", torch.float32, -1.5, 0.25),
         (2,)),
        (lambda: torch.randn(3, dtype=torch.float16), fill("_normal_", torch.float16, 0, 1),
         (3,)),
    ]
    for theirs, ours, shape in steps:
        assert_same_bits(ours(generator, shape), theirs)
    assert_next_draw_matches(generator)


def test_manual_seed_clears_the_cache() -> None:
    generator = seeded(5)
    fill("_normal_", torch.float32, 0.0, 1.0)(generator, (1,))
    on_torch(lambda: torch.randn(1))
    generator.manual_seed(5)
    on_torch(lambda: torch.manual_seed(5))
    assert_same_bits(fill("_normal_", torch.float32, 0.0, 1.0)(generator, (1,)),
                     lambda: torch.randn(1))


@pytest.mark.parametrize("seed", SEEDS)
def test_non_contiguous_tensors_fill_in_storage_order(seed: int) -> None:
    """Transposed and permuted tensors are filled in memory order; a non-contiguous tensor
    takes the scalar normal path even when it is large."""
    generator = seeded(seed)
    ours = np.empty((10, 20), dtype=np.float32).T
    generator._normal_(ours, 0.0, 1.0)
    assert_same_bits(ours, lambda: torch.empty(10, 20).t().normal_())

    ours = np.empty((4, 5, 6), dtype=np.float32).transpose(2, 0, 1)
    generator._uniform_(ours, -1, 1)
    assert_same_bits(ours, lambda: torch.empty(4, 5, 6).permute(2, 0, 1).uniform_(-1, 1))

    ours = np.empty((2, 4, 5, 3), dtype=np.float32).transpose(0, 3, 1, 2)
    generator._random_(ours, 0, 100)
    assert_same_bits(ours, lambda: torch.empty(2, 3, 4, 5).to(
        memory_format=torch.channels_last).random_(0, 100))
    assert_next_draw_matches(generator)


def test_zero_dim_and_empty_arrays() -> None:
    generator = seeded(3)
    ours = np.empty((), dtype=np.float32)
    generator._normal_(ours, 0.0, 1.0)
    assert_same_bits(ours, lambda: torch.randn(()))
    for kernel, args in [("_uniform_", (0, 1)), ("_normal_", (0, 1)), ("_random_", (0, 5)),
                         ("_bernoulli_", (0.5,))]:
        getattr(generator, kernel)(np.empty((0, 3), dtype=np.float32), *args)
    on_torch(lambda: torch.empty(0, 3).uniform_(0, 1))
    assert_next_draw_matches(generator)


@pytest.mark.parametrize("seed", SEEDS)
def test_explicit_generator_objects(seed: int) -> None:
    """A ``torch.Generator`` and ours give the same stream, and leave the global one alone."""
    on_torch(lambda: torch.manual_seed(99))
    theirs = torch.Generator().manual_seed(seed) if live() else None
    ours = Generator().manual_seed(seed)
    out = np.empty((17,), dtype=np.float32)
    ours._normal_(out, 0.0, 1.0)
    assert_same_bits(out, lambda: torch.randn(17, generator=theirs))
    assert_same_bits(ours._randperm(20), lambda: torch.randperm(20, generator=theirs))
    assert_next_draw_matches(ours, theirs)
    assert_next_draw_matches(Generator().manual_seed(99))


def test_fresh_generator_has_torch_default_seed() -> None:
    ours, theirs = Generator(), torch.Generator() if live() else None
    assert ours.initial_seed() == pytorch_answer(lambda _: theirs.initial_seed()) == 67280421310721
    assert ours.device == "cpu"
    assert_next_draw_matches(ours, theirs)


@pytest.mark.parametrize("seed", [0, 7, 2**32, 2**40 + 5, -1, -(2**63), 2**64 - 1])
def test_seed_values(seed: int) -> None:
    """Only the low 32 bits seed the engine; negative seeds wrap around 2**64."""
    ours = Generator().manual_seed(seed)
    theirs = torch.Generator().manual_seed(seed) if live() else None
    assert ours.initial_seed() == pytorch_answer(lambda _: theirs.initial_seed())
    assert_next_draw_matches(ours, theirs)


def test_seed_is_nondeterministic_and_reported() -> None:
    """A fresh seed each run: only a live PyTorch can answer (skipped when recorded)."""
    real_torch()
    generator = Generator()
    first, second = generator.seed(), generator.seed()
    assert first != second
    assert generator.initial_seed() == second
    # Asked of the live PyTorch directly, not through a recording: the seed is new each run.
    theirs = torch.rand(3, generator=torch.Generator().manual_seed(second)).numpy()
    assert bits(ours_rand3(generator)) == bits(theirs)


# -- state: our bytes are PyTorch's bytes, in both directions ---------------------------------

def draw(kernel: str, dtype: Any, shape: tuple, *args: Any) -> Callable[[Generator], None]:
    return lambda generator: fill(kernel, dtype, *args)(generator, shape)


# (torch side, our side) of histories that leave the engine in different positions.
STATE_HISTORIES = [
    pytest.param(lambda: None, lambda generator: None, id="freshly-seeded"),
    pytest.param(lambda: torch.rand(5), draw("_uniform_", torch.float32, (5,), 0, 1),
                 id="5-draws"),
    pytest.param(lambda: torch.rand(624), draw("_uniform_", torch.float32, (624,), 0, 1),
                 id="all-624-words-used"),
    pytest.param(lambda: torch.rand(625), draw("_uniform_", torch.float32, (625,), 0, 1),
                 id="next-624-words"),
    pytest.param(lambda: torch.randn(3, dtype=torch.float64),
                 draw("_normal_", torch.float64, (3,), 0, 1), id="cached-normal"),
]


@pytest.mark.parametrize(("theirs", "ours"), STATE_HISTORIES)
@pytest.mark.parametrize("seed", SEEDS)
def test_state_bytes_equal_torch(seed: int, theirs: Callable, ours: Callable) -> None:
    generator = seeded(seed)
    on_torch(theirs)
    ours(generator)
    assert_same_bits(generator.get_state().numpy(), lambda: torch.get_rng_state())


@pytest.mark.parametrize("seed", SEEDS)
def test_restoring_torch_state_continues_torch_stream(seed: int) -> None:
    def state(_torch: Any) -> Any:
        torch.manual_seed(seed)
        torch.randn(3, dtype=torch.float64)  # leaves a cached normal in the state
        torch.rand(100)
        return torch.get_rng_state()

    generator = Generator().set_state(minitorch_hooks.tensor(pytorch_answer(state).array))
    assert generator.initial_seed() == pytorch_answer(lambda _: torch.initial_seed())
    assert_same_bits(fill("_normal_", torch.float32, 0, 1)(generator, (5,)),
                     lambda: torch.randn(5))
    assert_next_draw_matches(generator)


@pytest.mark.parametrize("seed", SEEDS)
def test_torch_restored_from_our_state_continues_our_stream(seed: int) -> None:
    generator = Generator().manual_seed(seed)
    fill("_normal_", torch.float32, 0, 1)(generator, (3,))
    state = generator.get_state().numpy()
    on_torch(lambda: torch.set_rng_state(torch.from_numpy(state)))
    assert_same_bits(fill("_normal_", torch.float32, 0, 1)(generator, (5,)),
                     lambda: torch.randn(5))
    assert_next_draw_matches(generator)


def test_global_rng_state_round_trip() -> None:
    mini_random.manual_seed(11)
    state = minitorch_hooks.get_rng_state()
    assert state.dtype == minitorch_hooks.uint8
    assert tuple(state.shape) == (5056,)
    first = ours_rand3(mini_random.default_generator)
    minitorch_hooks.set_rng_state(state)
    assert bits(ours_rand3(mini_random.default_generator)) == bits(first)
    on_torch(lambda: torch.manual_seed(11))
    assert_same_bits(first, lambda: torch.rand(3))


def test_global_functions_mirror_torch() -> None:
    assert minitorch_hooks.manual_seed(1.5) is mini_random.default_generator
    assert minitorch_hooks.initial_seed() == 1
    seed = minitorch_hooks.seed()
    assert minitorch_hooks.initial_seed() == seed


# -- errors: same type and message as PyTorch -------------------------------------------------

def raises_like_torch(theirs: Callable[[], Any], ours: Callable[[], Any]) -> None:
    expected = pytorch_answer(lambda _: outcome(lambda _: theirs(), None)[0])
    assert isinstance(expected, Raised), f"PyTorch did not raise: {expected!r}"
    with pytest.raises(Exception) as actual:
        ours()
    assert type(actual.value).__name__ == expected.type
    assert str(actual.value) == expected.message.split("\n")[0]


def with_array(dtype: Any, kernel: str, *args: Any) -> Callable[[], None]:
    return lambda: getattr(Generator(), kernel)(np.empty(3, NUMPY_DTYPES[dtype]), *args)


ERROR_CASES = [
    pytest.param(lambda: torch.empty(3).uniform_(2, 1),
                 with_array(torch.float32, "_uniform_", 2, 1), id="uniform-from>to"),
    pytest.param(lambda: torch.empty(3).uniform_(2.5, 1.25),
                 with_array(torch.float32, "_uniform_", 2.5, 1.25), id="uniform-from>to-float"),
    pytest.param(lambda: torch.empty(3).uniform_(-1e39, 0),
                 with_array(torch.float32, "_uniform_", -1e39, 0), id="uniform-from-bounds"),
    pytest.param(lambda: torch.empty(3, dtype=torch.float16).uniform_(0, 7e4),
                 with_array(torch.float16, "_uniform_", 0, 7e4), id="uniform-to-bounds-half"),
    pytest.param(lambda: torch.empty(3).uniform_(float("nan"), 1),
                 with_array(torch.float32, "_uniform_", float("nan"), 1), id="uniform-nan"),
    pytest.param(lambda: torch.empty(3).uniform_(-3e38, 3e38),
                 with_array(torch.float32, "_uniform_", -3e38, 3e38), id="uniform-overflow"),
    pytest.param(lambda: torch.empty(3, dtype=torch.int64).uniform_(0, 1),
                 with_array(torch.int64, "_uniform_", 0, 1), id="uniform-int"),
    pytest.param(lambda: torch.empty(3).normal_(0, -1),
                 with_array(torch.float32, "_normal_", 0, -1), id="normal-negative-std"),
    pytest.param(lambda: torch.empty(3, dtype=torch.int64).normal_(),
                 with_array(torch.int64, "_normal_", 0, 1), id="normal-int"),
    pytest.param(lambda: torch.empty(3).random_(5, 5), with_array(torch.float32, "_random_", 5, 5),
                 id="randint-empty-range"),
    pytest.param(lambda: torch.randint(0, 2**63, (3,)),
                 with_array(torch.int64, "_random_", 0, 2**63), id="randint-overflow"),
    pytest.param(lambda: torch.empty(3, dtype=torch.uint8).random_(0, 300),
                 with_array(torch.uint8, "_random_", 0, 300), id="randint-uint8-bounds"),
    pytest.param(lambda: torch.empty(3, dtype=torch.bool).random_(-1, 1),
                 with_array(torch.bool, "_random_", -1, 1), id="randint-bool-bounds"),
    pytest.param(lambda: torch.empty(3, dtype=torch.float16).random_(0, 2**20),
                 with_array(torch.float16, "_random_", 0, 2**20), id="randint-half-bounds"),
    pytest.param(lambda: torch.empty(3).bernoulli_(1.5),
                 with_array(torch.float32, "_bernoulli_", 1.5), id="bernoulli-p"),
    pytest.param(lambda: torch.bernoulli(torch.tensor([0.5, 1.5])),
                 lambda: Generator()._bernoulli_tensor(np.array([0.5, 1.5], np.float32)),
                 id="bernoulli-tensor-p"),
    pytest.param(lambda: torch.bernoulli(torch.tensor([1])),
                 lambda: Generator()._bernoulli_tensor(np.array([1])), id="bernoulli-int"),
    pytest.param(lambda: torch.randperm(-1), lambda: Generator()._randperm(-1), id="randperm"),
    pytest.param(lambda: torch.Generator().manual_seed(1.5), lambda: Generator().manual_seed(1.5),
                 id="seed-float"),
    pytest.param(lambda: torch.Generator().manual_seed(True), lambda: Generator().manual_seed(True),
                 id="seed-bool"),
    pytest.param(lambda: torch.manual_seed(2**64), lambda: mini_random.manual_seed(2**64),
                 id="seed-overflow"),
    pytest.param(lambda: torch.set_rng_state([1, 2]), lambda: mini_random.set_rng_state([1, 2]),
                 id="state-list"),
    pytest.param(lambda: torch.set_rng_state(torch.zeros(5056)),
                 lambda: mini_random.set_rng_state(minitorch_hooks.zeros(5056)), id="state-float"),
    pytest.param(lambda: torch.set_rng_state(torch.zeros(10, dtype=torch.uint8)),
                 lambda: mini_random.set_rng_state(minitorch_hooks.zeros(
                     10, dtype=minitorch_hooks.uint8)),
                 id="state-size"),
    pytest.param(lambda: torch.set_rng_state(torch.zeros(5056, dtype=torch.uint8)),
                 lambda: mini_random.set_rng_state(minitorch_hooks.zeros(
                     5056, dtype=minitorch_hooks.uint8)),
                 id="state-invalid"),
]


@pytest.mark.parametrize(("theirs", "ours"), ERROR_CASES)
def test_errors_match_torch(theirs: Callable, ours: Callable) -> None:
    state = torch.get_rng_state() if live() else None
    try:
        raises_like_torch(theirs, ours)
    finally:
        on_torch(lambda: torch.set_rng_state(state))


def test_randint_warns_like_torch() -> None:
    theirs = pytorch_answer(lambda _: outcome(lambda _: torch.empty(3).random_(0, 2**30),
                                              None)[1])
    with pytest.warns(UserWarning) as ours:
        Generator()._random_(np.empty(3, np.float32), 0, 2**30)
    assert [["UserWarning", str(ours[0].message)]] == theirs


def test_failed_bernoulli_tensor_consumes_draws_like_torch() -> None:
    generator = seeded(8)
    theirs = pytorch_answer(lambda _: outcome(
        lambda _: torch.bernoulli(torch.tensor([0.1, 0.2, 0.3, 2.0])), None)[0])
    assert isinstance(theirs, Raised) and theirs.type == "RuntimeError"
    with pytest.raises(RuntimeError):
        generator._bernoulli_tensor(np.array([0.1, 0.2, 0.3, 2.0], np.float32))
    assert_next_draw_matches(generator)


@pytest.mark.parametrize("make", ["rand_like", "randn_like", "zeros_like", "ones_like"])
def test_like_functions_keep_the_input_layout_so_random_fills_follow_memory_order(make):
    def scenario(torch):
        torch.manual_seed(0)
        source = torch.ones(4, 5).t()
        result = getattr(torch, make)(source)
        return result, result.is_contiguous(), torch.rand(3)

    assert_same_outcome(scenario, rtol=0, atol=0)
