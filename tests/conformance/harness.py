"""Run one scenario on minitorch_hooks and on real PyTorch, and compare what happened.

A scenario is a function of a torch-like namespace: ``def scenario(torch): ...``. It
returns whatever it wants compared (tensors, numbers, lists of hook events, strings) and
may raise. :func:`assert_same_outcome` runs it on both libraries and compares the results
structurally: tensors by dtype, shape and values (float32 tolerance), exceptions by type
and message, warnings by category and message.

Without PyTorch installed, PyTorch's side is read from its recording instead
(``recording.py``): the same scenario, the same comparison.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import re
import warnings
from typing import Any

import numpy as np
import pytest
import recording

import minitorch_hooks
from minitorch_hooks.cli.pytorch import MISSING as REASON


def real_torch() -> Any:
    """The real ``torch`` module, or a visible skip when it is not installed (or when the
    recorded mode is forced with ``MTH_CONFORMANCE=recorded``)."""
    if not recording.live():
        pytest.skip(REASON)
    return pytest.importorskip("torch", reason=REASON)


class TensorValue:
    """A tensor from either library, as a NumPy copy with its dtype name and shape."""

    def __init__(self, tensor: Any) -> None:
        self.dtype = str(tensor.dtype)
        self.shape = tuple(tensor.shape)
        self.array = np.array(tensor.detach().numpy(), copy=True)

    @classmethod
    def of(cls, dtype: str, array: np.ndarray) -> TensorValue:
        """A tensor's value as recorded: its dtype name and its values."""
        value = cls.__new__(cls)
        value.dtype, value.shape, value.array = dtype, tuple(array.shape), array
        return value

    def __repr__(self) -> str:
        return f"TensorValue({self.dtype}, {self.shape}, {self.array.tolist()})"


class Raised:
    """What a scenario raised: its type name and message."""

    def __init__(self, error: BaseException) -> None:
        self.type = type(error).__name__
        self.message = str(error)

    @classmethod
    def of(cls, type_name: str, message: str) -> Raised:
        """An error as recorded: its type name and message."""
        raised = cls.__new__(cls)
        raised.type, raised.message = type_name, message
        return raised

    def __repr__(self) -> str:
        return f"Raised({self.type}: {self.message})"


def outcome(scenario: Any, torch: Any) -> tuple[Any, list[tuple[str, str]]]:
    """The scenario's result (or :class:`Raised`) and the warnings it emitted."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = scenario(torch)
        except Exception as error:  # noqa: BLE001 - the error is the result being compared
            result = Raised(error)
    return result, [(w.category.__name__, _ADDRESS.sub(" at 0x...", _TRIGGERED.sub(
        "", str(w.message)))) for w in caught]


# PyTorch appends where in its C++ a warning came from; that is not part of the message.
_TRIGGERED = re.compile(r" \(Triggered internally at .*\)$", re.DOTALL)
# Nor is an object's address (``<function f at 0x7f...>``), which changes from run to run.
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def normalise(value: Any) -> Any:
    """A library-independent form of a result: tensors become NumPy arrays with their
    dtype name; containers are walked."""
    if type(value).__module__.startswith(("torch", "minitorch_hooks")):
        if hasattr(value, "detach") and hasattr(value, "shape") and hasattr(value, "dtype"):
            return TensorValue(value)
        if type(value).__name__ == "Size":
            return ("size", tuple(value))
        if type(value).__name__ == "dtype":
            return ("dtype", str(value))
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(normalise(v) for v in value) if not hasattr(value, "_fields") \
            else tuple(normalise(v) for v in value)
    return value


def assert_close(mine: Any, theirs: Any, rtol: float, atol: float, path: str = "result") -> None:
    if isinstance(theirs, TensorValue):
        assert isinstance(mine, TensorValue), f"{path}: expected a tensor, got {mine!r}"
        assert mine.dtype == theirs.dtype, f"{path}: dtype {mine.dtype} != torch's {theirs.dtype}"
        assert mine.shape == theirs.shape, f"{path}: shape {mine.shape} != torch's {theirs.shape}"
        np.testing.assert_allclose(mine.array, theirs.array, rtol=rtol, atol=atol,
                                   err_msg=f"{path} (BLAS: {blas_in_use()})", equal_nan=True)
        return
    if isinstance(theirs, Raised):
        assert isinstance(mine, Raised), f"{path}: torch raised {theirs!r}, we returned {mine!r}"
        assert (mine.type, mine.message) == (theirs.type, theirs.message), (
            f"{path}: we raised {mine!r}, torch raised {theirs!r}")
        return
    if isinstance(theirs, dict):
        assert isinstance(mine, dict) and mine.keys() == theirs.keys(), (
            f"{path}: {mine!r} != torch's {theirs!r}")
        for key in theirs:
            assert_close(mine[key], theirs[key], rtol, atol, f"{path}[{key!r}]")
        return
    if isinstance(theirs, (list, tuple)):
        assert isinstance(mine, (list, tuple)) and len(mine) == len(theirs), (
            f"{path}: {mine!r} != torch's {theirs!r}")
        for i, (m, t) in enumerate(zip(mine, theirs)):
            assert_close(m, t, rtol, atol, f"{path}[{i}]")
        return
    if isinstance(theirs, float) and isinstance(mine, float):
        assert math.isclose(mine, theirs, rel_tol=rtol, abs_tol=atol) or (
            math.isnan(mine) and math.isnan(theirs)), (
            f"{path}: {mine} != torch's {theirs} (difference {mine - theirs:.3g}; rtol "
            f"{rtol:g}, atol {atol:g}; BLAS: {blas_in_use()})")
        return
    assert mine == theirs, f"{path}: {mine!r} != torch's {theirs!r}"


@functools.cache
def blas_in_use() -> str:
    """The BLAS library NumPy computes matrix products with, for a failure message: a
    float32 result that differs in its last bits may come from another kernel (see
    ``docs/explanation/last-digits.md``), not from a regression."""
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    parts = [f"{blas.get('name', '?')} {blas.get('version', '')}".strip()]
    parts += [f"{name}={os.environ[name]}" for name in ("OPENBLAS_CORETYPE",
              "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS") if name in os.environ]
    try:
        import threadpoolctl  # not a dependency; it names the kernel picked at run time
    except ImportError:
        parts.append(f"kernel chosen for this CPU, {os.cpu_count()} cores")
    else:
        parts += [f"{info.get('architecture', '?')} kernel, {info['num_threads']} threads"
                  for info in threadpoolctl.threadpool_info() if info["user_api"] == "blas"]
    return ", ".join(parts)


def within_rounding(mine: Any, theirs: Any, rtol: float, what: str, reason: str) -> None:
    """Assert that ``mine`` is ``theirs`` up to ``rtol`` of its largest magnitude (a
    normwise comparison, for values computed by float32 sums in another order). A failure
    names the worst element, both values, the difference, the tolerance, ``reason`` (why
    this tolerance) and the BLAS in use, in a few lines whatever the size."""
    mine, theirs = np.asarray(mine, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
    assert mine.shape == theirs.shape, f"{what}: shape {mine.shape}, PyTorch's {theirs.shape}"
    difference = np.abs(mine - theirs)
    scale = float(np.abs(theirs).max(initial=0.0))
    if difference.size == 0 or difference.max() <= rtol * scale:
        return
    worst = np.unravel_index(int(difference.argmax()), difference.shape)
    where = f" at {list(map(int, worst))}" if difference.ndim else ""
    raise AssertionError(
        f"{what}{where}: {mine[worst]:.9g} here, {theirs[worst]:.9g} in PyTorch\n"
        f"  difference {difference[worst]:.3g} > tolerance {rtol * scale:.3g} ({rtol:g} of "
        f"the largest magnitude, {scale:.3g}; {int((difference > rtol * scale).sum())} of "
        f"{difference.size} values outside)\n"
        f"  the tolerance: {reason}\n  BLAS: {blas_in_use()}")


def assert_same_outcome(scenario: Any, *, rtol: float = 1e-5, atol: float = 1e-6,
                        check_warnings: bool = True) -> Any:
    """Run ``scenario`` on both libraries and assert that the outcomes match.

    Returns PyTorch's result, normalised, so a test can add assertions of its own.
    """
    def ask(torch: Any) -> tuple[Any, list]:
        result, caught = outcome(scenario, torch)
        # Unchecked warnings are not recorded either: some depend on which test ran first.
        return result, caught if check_warnings else []

    theirs, their_warnings = pytorch_answer(ask, rtol=rtol, atol=atol)
    mine, my_warnings = outcome(scenario, minitorch_hooks)
    assert_close(normalise(mine), theirs, rtol, atol)
    if check_warnings:
        their_warnings = [tuple(w) for w in their_warnings]
        assert my_warnings == their_warnings, (
            f"warnings differ:\n ours:  {my_warnings}\n torch: {their_warnings}")
    return theirs


def pytorch_answer(question: Any, *, rtol: float = 1e-5, atol: float = 1e-6) -> Any:
    """``question(torch)`` answered by real PyTorch, normalised: live when PyTorch is
    installed (and then checked against its recording, with the same tolerances), else read
    from the recording. The running test's answers are recorded in the order it asks,
    under its pytest id."""
    return recording.answer(lambda: normalise(question(real_torch())),
                            lambda live, recorded: assert_close(live, recorded, rtol, atol))


def pytorch_outcome(scenario: Any) -> tuple[Any, list]:
    """:func:`outcome` on PyTorch, as :func:`pytorch_answer` gives it (normalised, tuples
    read as lists): for a deviation test, which checks each library's side on its own."""
    return pytorch_answer(lambda torch: outcome(scenario, torch))


def bits(array: np.ndarray) -> list:
    """An array as its dtype, shape, a digest of its bytes and (to show in a failure) its
    first values: what a bit-exact comparison needs, in a few dozen characters however
    large the array (a million random draws would fill megabytes of recording)."""
    array = np.ascontiguousarray(array)
    first = [str(value) for value in array.reshape(-1)[:3]]
    return [array.dtype.name, list(array.shape),
            hashlib.sha256(array.tobytes()).hexdigest()[:20], first]
