"""Tensors print exactly as PyTorch 2.13 prints them: ``repr`` and ``str`` compared as text.

Every test builds the same NumPy array into a ``minitorch_hooks`` tensor and a real torch
tensor and asserts that both print the same string, over a grid of values (tiny, huge,
mixed magnitudes, integer-valued, nan/inf, the thresholds where PyTorch switches to
scientific notation), shapes (0-d to 3-d, empty, rows that wrap, tensors large enough to be
summarised), dtypes and print options. Without PyTorch, its recorded strings are compared
(``harness.pytorch_answer``); the property test, which draws new arrays each run, needs a
live PyTorch.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator

import numpy as np
import pytest
from harness import assert_same_outcome, pytorch_answer, real_torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from recording import live

import minitorch_hooks as mt
from minitorch_hooks import _tensor_str

# The live PyTorch, whose print options follow ours; None in the recorded mode.
torch = importlib.import_module("torch") if live() else None

FLOAT_DTYPES = ["float32", "float64", "float16"]
INT_DTYPES = ["int64", "int32", "uint8"]


@pytest.fixture(autouse=True)
def _default_printoptions() -> Iterator[None]:
    """Every test starts from, and leaves behind, the default options in both libraries."""
    _set_printoptions(profile="default")
    yield
    _set_printoptions(profile="default")


def _set_printoptions(**options: object) -> None:
    mt.set_printoptions(**options)
    if torch is not None:
        torch.set_printoptions(**options)


def _printoptions(**options: object) -> contextlib.ExitStack:
    """Both libraries' ``printoptions`` context (ours alone in the recorded mode)."""
    stack = contextlib.ExitStack()
    stack.enter_context(mt.printoptions(**options))
    if torch is not None:
        stack.enter_context(torch._tensor_str.printoptions(**options))
    return stack


def _tensor(torch: object, values: object, dtype: str, requires_grad: bool = False) -> object:
    """The values, first cast with NumPy to ``dtype``, as a tensor of ``torch``."""
    with np.errstate(over="ignore", invalid="ignore"):  # e.g. 1e9 is inf in float16
        values = np.asarray(values).astype(dtype)
    return torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=requires_grad)


def assert_prints_like_torch(values: object, dtype: str, requires_grad: bool = False) -> None:
    def printed(torch):
        tensor = _tensor(torch, values, dtype, requires_grad)
        return repr(tensor), str(tensor) == repr(tensor)  # (the second text, once)

    assert_same_outcome(printed)


def assert_same_printoptions() -> None:
    assert mt.get_printoptions() == pytorch_answer(
        lambda torch: torch._tensor_str.get_printoptions())


# Values that exercise each rule of PyTorch's float formatter.  The "at_" cases sit exactly on
# a threshold of the scientific-notation rule (max/min > 1000, max > 1e8, min < 1e-4).
VALUES = {
    "fractions": [0.1234, 0.5, 0.98765],
    "tiny": [1e-8, 2.5e-8, 3e-9],
    "huge": [1e10, 3.5e10, 7e12],
    "negative": [-1.5, -0.25, -1000.125],
    "mixed_magnitudes": [1e-8, 1.0, 1e10],
    "integer_valued": [116.0, 2.0, -7.0, 0.0],
    "integer_valued_huge": [1e9, 2e8, -3e10],
    "nan_inf": [np.nan, np.inf, -np.inf, 1.5],
    "only_nan_inf": [np.nan, -np.inf, np.inf],
    "integer_valued_with_nan": [1.0, np.nan, 100.0],
    "zeros": [0.0, 0.0, 0.0],
    "negative_zero": [-0.0, 0.0, 2.5],
    "pi_e": [3.14159265, 2.71828183, -1.41421356],
    "long_fixed": [123456.789, -98765.4321, 1.5],
    "at_ratio_1000": [1.0, 1000.0],
    "over_ratio_1000": [1.0, 1000.5],
    "at_ratio_1000_fractional": [0.25, 250.0],
    "at_max_1e8": [1e8, 5e7],
    "over_max_1e8": [1.5e8, 1e8 + 16],
    "at_min_1e-4": [1e-4, 0.05],
    "under_min_1e-4": [9.99e-5, 0.05],
    "rounding_up": [0.99995, 9.99995, 0.00015],
    "float16_limits": [65504.0, -65504.0, 6.1e-5],
}


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", VALUES)
def test_float_values(name: str, dtype: str) -> None:
    values = np.array(VALUES[name])
    assert_prints_like_torch(values, dtype)
    assert_prints_like_torch(values[0], dtype)  # the same rules decide a 0-d tensor
    assert_prints_like_torch(np.stack([values, values[::-1]]), dtype)


SHAPES = [
    (),
    (1,),
    (7,),
    (2, 3),
    (2, 3, 4),
    (2, 1, 2, 3),
    (3, 1),
    (13,),  # wraps at 80 columns in scientific notation
    (40,),
    (5, 30),
    (1000,),  # not summarised: the threshold is "more than 1000 elements"
    (1001,),
    (2000,),
    (30, 40),
    (3, 400),
    (400, 3),
    (11, 10, 10),
]
SCALES = {"unit": 1.0, "tiny": 1e-6, "huge": 1e9, "spread": None}


def _float_values(shape: tuple[int, ...], scale: float | None, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(shape)
    if scale is None:  # magnitudes spread over many decades, forcing scientific notation
        return values * 10.0 ** rng.integers(-6, 7, shape)
    return values * scale


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_float_shapes(shape: tuple[int, ...], scale: str, dtype: str) -> None:
    assert_prints_like_torch(_float_values(shape, SCALES[scale], seed=len(shape)), dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_integer_valued_float_shapes(shape: tuple[int, ...]) -> None:
    values = np.random.default_rng(0).integers(-500, 500, shape).astype(np.float64)
    assert_prints_like_torch(values, "float32")


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_integer_shapes(shape: tuple[int, ...], dtype: str) -> None:
    high = 256 if dtype == "uint8" else 10**6
    low = 0 if dtype == "uint8" else -high
    assert_prints_like_torch(np.random.default_rng(1).integers(low, high, shape), dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_bool_shapes(shape: tuple[int, ...]) -> None:
    assert_prints_like_torch(np.random.default_rng(2).random(shape) > 0.5, "bool")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0)], ids=str)
def test_empty(shape: tuple[int, ...], dtype: str) -> None:
    """Empty tensors show their size unless 1-d, and their dtype unless float32."""
    assert_prints_like_torch(np.zeros(shape), dtype)


def test_empty_example() -> None:
    assert repr(mt.tensor(np.zeros((0, 3)), dtype=mt.float32)) == "tensor([], size=(0, 3))"


@pytest.mark.parametrize(
    "values",
    [[0, -7, 123], [2**31 - 1, -(2**31)], [0, 0], [5]],
    ids=["mixed", "int32_limits", "zeros", "single"],
)
@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_integer_values(values: list[int], dtype: str) -> None:
    assert_prints_like_torch(np.array(values), dtype)
    assert_prints_like_torch(np.array(values[0]), dtype)


def test_int64_extremes() -> None:
    assert_prints_like_torch(np.array([2**63 - 1, -(2**63), 0]), "int64")


# --- print options -------------------------------------------------------------------------

SAMPLES = {
    "fractions_1d": (np.linspace(-2.0, 3.0, 17), "float32"),
    "sci_2d": (_float_values((4, 9), None, seed=3), "float64"),
    "integer_valued_3d": (np.arange(-30.0, 30.0).reshape(3, 4, 5), "float32"),
    "long_1d": (np.linspace(0.0, 1.0, 2000), "float32"),
    "wide_2d": (np.arange(1200.0).reshape(3, 400) / 7, "float64"),
    "int_2d": (np.arange(1200).reshape(30, 40) * 37, "int64"),
    "int32_3d": (np.arange(60).reshape(3, 4, 5), "int32"),
    "bool_2d": (np.arange(40).reshape(4, 10) % 3 == 0, "bool"),
    "scalar": (np.array(3.14159265), "float32"),
    "tiny_huge": (np.array([1e-8, 1.0, 1e10, np.nan]), "float32"),
    "zeros": (np.zeros((2, 3)), "float32"),
}
OPTIONS = [
    {"precision": 0},
    {"precision": 2},
    {"precision": 8},
    {"threshold": 0},
    {"threshold": 5},
    {"threshold": 10_000},
    {"threshold": 12.5},
    {"edgeitems": 0},
    {"edgeitems": 1},
    {"edgeitems": 5},
    {"linewidth": 10},
    {"linewidth": 40},
    {"linewidth": 120},
    {"sci_mode": True},
    {"sci_mode": False},
    {"profile": "default"},
    {"profile": "short"},
    {"profile": "full"},
    {"profile": "short", "precision": 5, "sci_mode": True},
    {"threshold": 10, "edgeitems": 2, "linewidth": 50, "precision": 3},
]


@pytest.mark.parametrize("sample", SAMPLES)
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_printoptions(options: dict[str, object], sample: str) -> None:
    _set_printoptions(**options)
    assert_same_printoptions()
    values, dtype = SAMPLES[sample]
    assert_prints_like_torch(values, dtype)
    assert_prints_like_torch(values, dtype, requires_grad=dtype.startswith("float"))


def test_get_printoptions_defaults() -> None:
    assert mt.get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }


def test_each_call_resets_sci_mode() -> None:
    """As in PyTorch, a call that leaves out ``sci_mode`` turns it back to automatic."""
    _set_printoptions(sci_mode=True)
    _set_printoptions(precision=3)
    assert_same_printoptions()
    assert mt.get_printoptions()["sci_mode"] is None


def test_unknown_profile_is_ignored() -> None:
    _set_printoptions(precision=6)
    _set_printoptions(profile="no such profile")
    assert_same_printoptions()


def test_printoptions_context_manager_restores() -> None:
    _set_printoptions(precision=6, linewidth=60)
    before = mt.get_printoptions()
    values = np.linspace(0.0, 1.0, 30)
    options = {"profile": "short", "sci_mode": True}
    with _printoptions(**options):
        assert_same_printoptions()
        assert_prints_like_torch(values, "float32")
    assert mt.get_printoptions() == before
    assert_prints_like_torch(values, "float32")


def test_printoptions_restores_after_an_error() -> None:
    with pytest.raises(ZeroDivisionError), mt.printoptions(precision=1):
        raise ZeroDivisionError
    assert mt.get_printoptions()["precision"] == 4


# --- suffixes: dtype, requires_grad, grad_fn ----------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("length", range(1, 25))
def test_requires_grad_suffix_wraps(length: int, dtype: str) -> None:
    """Suffixes that do not fit on the last line go on their own line, under the values."""
    values = np.linspace(-1.0, 1.0, length)
    assert_prints_like_torch(values, dtype, requires_grad=True)
    _set_printoptions(linewidth=40)
    assert_prints_like_torch(values, dtype, requires_grad=True)


@pytest.mark.parametrize("shape", [(), (3,), (2, 2), (0,), (0, 2)], ids=str)
def test_requires_grad_suffix(shape: tuple[int, ...]) -> None:
    assert_prints_like_torch(np.ones(shape), "float32", requires_grad=True)
    assert_prints_like_torch(np.ones(shape), "float64", requires_grad=True)


# Each op with the grad_fn name PyTorch gives its result.
OPS = {
    "add": lambda x: x + x,
    "sub": lambda x: x - 1,
    "mul": lambda x: x * 2,
    "div": lambda x: x / 3,
    "neg": lambda x: -x,
    "pow": lambda x: x**2,
    "exp": lambda x: x.exp(),
    "sigmoid": lambda x: x.sigmoid(),
    "tanh": lambda x: x.tanh(),
    "relu": lambda x: x.relu(),
    "sum": lambda x: x.sum(),
    "mean": lambda x: x.mean(0),
    "reshape": lambda x: x.reshape(-1),
    "transpose": lambda x: x.t(),
    "matmul": lambda x: x @ x.t(),
    "index": lambda x: x[0],
    "clone": lambda x: x.clone(),
    "detach": lambda x: x.detach(),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shape", [(2, 3), (4, 12)], ids=str)
def test_grad_fn_suffix(shape: tuple[int, ...], op: str, dtype: str) -> None:
    """``grad_fn=<...>`` follows the dtype and, if the line is full, wraps onto its own line."""
    values = (np.arange(np.prod(shape)).reshape(shape) - 5) / 4  # sums are exact
    assert_same_outcome(lambda torch: repr(OPS[op](_tensor(torch, values, dtype, True))))


def test_grad_fn_example() -> None:
    a = mt.tensor([1.0, 2.0], requires_grad=True)
    assert repr(a + mt.tensor([3.0, 4.0])) == "tensor([4., 6.], grad_fn=<AddBackward0>)"


def test_no_grad_results_have_no_suffix() -> None:
    def scenario(torch):
        tensor = _tensor(torch, np.array([1.0, 2.5]), "float32", True)
        with torch.no_grad():
            return repr(tensor * 2)

    assert assert_same_outcome(scenario) == "tensor([2., 5.])"


@pytest.mark.parametrize("reduce", [
    pytest.param(lambda x: x.max(1), id="max(1)"),
    pytest.param(lambda x: x.min(0, keepdim=True), id="min(0, keepdim)"),
    pytest.param(lambda x: x.max(dim=-1), id="max(dim=-1)"),
])
def test_max_and_min_along_a_dimension_print_as_return_types(reduce) -> None:
    def scenario(torch):
        result = reduce(_tensor(torch, np.arange(6.0).reshape(2, 3), "float32", True))
        return repr(result), str(result), type(result).__name__

    type_name = assert_same_outcome(scenario)[2]
    mine = reduce(_tensor(mt, np.arange(6.0).reshape(2, 3), "float32", True))
    assert isinstance(mine, getattr(mt.return_types, type_name))
    assert tuple(mine._fields) == ("values", "indices")
    assert (mine.values is mine[0], mine.indices is mine[1]) == (True, True)


def test_tensor_contents_replaces_only_the_values() -> None:
    expected = pytorch_answer(lambda torch: torch._tensor_str._str(
        _tensor(torch, np.ones((2, 2)), "float64", True), tensor_contents="[...custom...]"))
    ours = _tensor(mt, np.ones((2, 2)), "float64", True)
    assert _tensor_str._str(ours, tensor_contents="[...custom...]") == expected


# --- property test --------------------------------------------------------------------------

_FLOAT_ARRAYS = st.sampled_from(["float32", "float64"]).flatmap(
    lambda dtype: st.tuples(
        hnp.arrays(
            np.dtype(dtype),
            hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=9),
            elements=st.one_of(
                st.floats(width=32 if dtype == "float32" else 64),
                st.sampled_from([0.0, 1e-4, 1e8, 1000.0, 1.0, -1.0]),
            ),
        ),
        st.just(dtype),
    )
)
_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "precision": st.integers(0, 10),
        "threshold": st.integers(0, 50),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 120),
        "sci_mode": st.sampled_from([None, True, False]),
    },
)


@settings(max_examples=200, deadline=None)
@given(_FLOAT_ARRAYS, st.booleans(), _OPTIONS)
def test_random_float_arrays_print_like_torch(
    array_and_dtype: tuple[np.ndarray, str], requires_grad: bool, options: dict[str, object]
) -> None:
    """New arrays each run: only a live PyTorch can answer (skipped in the recorded mode)."""
    values, dtype = array_and_dtype
    mine = _tensor(mt, values, dtype, requires_grad)
    with _printoptions(**options):
        theirs = _tensor(real_torch(), values, dtype, requires_grad)
        assert (repr(mine), str(mine)) == (repr(theirs), str(theirs))
