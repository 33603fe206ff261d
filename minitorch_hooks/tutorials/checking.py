"""How an exercise checks itself: named steps, each with staged help, and no pytest needed.

An exercise's ``checks.py`` collects its checks with a :class:`Checks` instance used as a
decorator::

    CHECKS = Checks()

    @CHECKS(step=1, title="the hook is registered",
            nudge="which kind of hook sees a module's output?",
            pointer="Module.register_forward_hook in PyTorch's docs",
            solution="handle = module.register_forward_hook(save)")
    def hook_is_registered(ex, torch): ...

Each check carries three levels of help, so that a learner gets to think first: a
``nudge`` (which value or rule to look at, without the code), a ``pointer`` (where to
look: the method, the argument, the page of PyTorch's docs or of the course) and the
``solution`` line, which ``check`` prints only when asked with ``--solution``.

A check receives the learner's file as a module (``ex``) and the torch-like library to
build its scenario with (``torch``: minitorch_hooks, or real PyTorch for the comparisons).
It fails by raising: :func:`expect`, :func:`expect_close`, :func:`expect_equal` and
:func:`expect_raises` raise :class:`CheckFailed` with a message meant for the learner (plain
``assert`` would vanish under ``python -O``).
:func:`run_check` turns what happened into a :class:`Result`: a pass, a failure with its
reason, or a gap not filled yet. :func:`run_exercise`, behind ``minitorch-hooks check``,
runs them all, and adds the comparisons with PyTorch: live when it is installed, else with
its answers recorded in ``pytorch_answers.json`` (see ``answers.py``).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import os
import sys
import textwrap
import traceback
import types
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from .notebooks import notebook_code

# The one line that ties an exercise file to minitorch_hooks. The comparisons with real
# PyTorch load the same file with this line replaced by ``import torch``.
TORCH_IMPORT = "import minitorch_hooks as torch"
LIVE = "live PyTorch"  # how a report names the comparison run on an installed PyTorch

# What looks at every value a check compares, when something does: the recorder of
# PyTorch's answers, or the comparison of the learner's values with those answers (both in
# ``answers.py``). It has ``close(actual, expected, what)`` and ``equal(...)`` methods.
_watcher: Any = None


class CheckFailed(AssertionError):  # noqa: N818 - a verdict on the learner's code
    """A check found something wrong; the message says what, for the learner."""


def expect(condition: object, message: str) -> None:
    """Fail with ``message`` unless ``condition`` holds."""
    if not condition:
        raise CheckFailed(message)


def expect_raises(error_type: type[BaseException], call: Callable[[], object],
                  message: str) -> BaseException:
    """Fail with ``message`` unless ``call()`` raises ``error_type``; return the error."""
    try:
        call()
    except NotImplementedError:
        raise  # a gap not filled yet, though NotImplementedError is a RuntimeError
    except error_type as error:
        return error
    raise CheckFailed(message)


def as_array(value: Any) -> np.ndarray:
    """A NumPy copy of a tensor from either library, an array, a number or a list."""
    if hasattr(value, "detach"):
        value = value.detach().numpy()
    return np.array(value, dtype=float)


_WHOLE = 8  # values with at most this many numbers are written out in full


def describe(value: Any) -> str:
    """A value as a message shows it: a small one in full (``[1.0, 2.0]``), a large one by
    its shape and a few numbers (``shape [6, 4, 4, 4], float32, from -0.31 to 0.52, first
    0.01, -0.2, 0.13, ...``), so that a failure fits on a line or two. A tensor's dtype is
    named, since a wrong dtype is a mistake of its own."""
    if value is None:
        return "None"
    dtype = str(getattr(value, "dtype", "")).removeprefix("torch.")
    array = as_array(value)
    if array.size <= _WHOLE:
        return str(np.round(array, 4).tolist())
    flat = array.reshape(-1)
    first = ", ".join(f"{x:.4g}" for x in flat[:3])
    return (f"shape {list(array.shape)}{f', {dtype}' if dtype else ''}, "
            f"from {np.nanmin(flat):.4g} to {np.nanmax(flat):.4g}, first {first}, ...")


def close(got: np.ndarray, want: np.ndarray) -> bool:
    """Whether two arrays have the same shape and the same values, to float32's precision."""
    return got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6)


def expect_close(actual: Any, expected: Any, what: str) -> None:
    """Fail unless ``actual`` has ``expected``'s shape and values (float32 tolerance)."""
    want = as_array(expected)
    expect(actual is not None, f"{what} is None, expected {describe(expected)}")
    got = as_array(actual)
    if not close(got, want):  # (the message is worked out only for a failure)
        raise CheckFailed(difference(got, want, what))
    if _watcher is not None:
        _watcher.close(got, want, what)


def difference(got: np.ndarray, want: np.ndarray, what: str, yours: str = "is",
               theirs: str = "expected") -> str:
    """One line on how ``got`` differs from ``want``: the shapes if they differ, else the
    values if they are few, else the first element that differs and how many do; never a
    whole large tensor. ``yours`` and ``theirs`` introduce the two values."""
    if got.shape != want.shape:
        return f"{what} has shape {list(got.shape)}, {theirs} {list(want.shape)}"
    if want.size <= _WHOLE:
        return f"{what} {yours} {describe(got)}, {theirs} {describe(want)}"
    wrong = ~np.isclose(got, want, rtol=1e-5, atol=1e-6)
    first = tuple(int(i) for i in np.argwhere(wrong)[0])
    return (f"{what} at {list(first)} {yours} {got[first]:.4g}, {theirs} {want[first]:.4g} "
            f"({int(wrong.sum())} of {want.size} values differ)")


def expect_equal(actual: Any, expected: Any, what: str, message: str) -> None:
    """Fail with ``message`` unless ``actual == expected``. ``what`` names the value (``"the
    events"``), for the comparison with PyTorch's recorded answer."""
    expect(actual == expected, message)
    if _watcher is not None:
        _watcher.equal(actual, expected, what)


@contextlib.contextmanager
def watching(watcher: Any) -> Iterator[None]:
    """Let ``watcher`` see every value that :func:`expect_close` and :func:`expect_equal`
    compare inside the ``with`` block."""
    global _watcher
    outer, _watcher = _watcher, watcher
    try:
        yield
    finally:
        _watcher = outer


@dataclass(frozen=True)
class Check:
    """One check of one step; ``function(ex, torch)`` raises when the step is not right.
    ``compare_with_pytorch``: the command line also compares it with PyTorch (live, or
    its recorded answers)."""

    step: int
    title: str
    nudge: str
    pointer: str
    solution: str
    function: Callable[[types.ModuleType, types.ModuleType], None]
    compare_with_pytorch: bool


class Checks:
    """An exercise's checks in the order they are written, which is the order of the steps.

    ``compare_with_pytorch`` is the default for its checks: the exercises that rebuild
    PyTorch's machinery compare what the learner built with the library, and the command
    line runs those comparisons with real PyTorch too when it is installed, or holds what
    they compare against PyTorch's recorded answers when it is not.
    """

    def __init__(self, *, compare_with_pytorch: bool = False) -> None:
        self.compare_with_pytorch = compare_with_pytorch
        self._checks: list[Check] = []

    def __call__(self, *, step: int, title: str, nudge: str, pointer: str, solution: str,
                 compare_with_pytorch: bool | None = None) -> Callable:
        if compare_with_pytorch is None:
            compare_with_pytorch = self.compare_with_pytorch

        def register(function: Callable) -> Callable:
            self._checks.append(Check(step, title, nudge, pointer, solution, function,
                                      compare_with_pytorch))
            return function

        return register

    def __iter__(self) -> Iterator[Check]:
        return iter(self._checks)

    def __len__(self) -> int:
        return len(self._checks)


@dataclass(frozen=True)
class Result:
    """What happened to one check: ``pass``, ``fail``, ``todo`` (the check reached a gap
    that still raises ``NotImplementedError``); ``detail`` says why, and
    ``printed`` is what the learner's code printed meanwhile. ``library`` is what the check
    compared with: ``minitorch_hooks``, ``live PyTorch`` or ``recorded PyTorch 2.13``."""

    check: Check
    library: str
    status: str
    detail: str = ""
    printed: str = ""


def check_source(check: Check) -> tuple[str, int, str]:
    """Where a check is written (file, line) and its code from its ``def`` on.

    A failure names what the check built (``'y, doubled'``, ``x1``): the report gives the
    check's line, so that a learner can open it and see those names. Its decorator, which
    holds the help, is not part of the code, so that the help still waits its turn.
    """
    lines, first = inspect.getsourcelines(check.function)
    start = next(index for index, line in enumerate(lines)
                 if line.lstrip().startswith("def "))
    return (inspect.getsourcefile(check.function) or "", first + start,
            textwrap.dedent("".join(lines[start:])).rstrip("\n"))


def load(path: Path, library: str = "minitorch_hooks") -> types.ModuleType:
    """Run an exercise file as a module; with ``library="torch"``, on real PyTorch.

    The module is not named ``__main__``, so the file's ``if __name__ == "__main__":``
    cells (the demonstrations) do not run. Errors in the file propagate. A notebook
    (``.ipynb``) runs its code cells.
    """
    source = (notebook_code(path) if path.suffix == ".ipynb"
              else path.read_text(encoding="utf-8"))
    if library == "torch":
        source = source.replace(TORCH_IMPORT, "import torch")
    name = f"_exercise_{path.stem}_{library}"
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module  # dataclasses and pickling look classes up there
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


def library_name(torch: types.ModuleType) -> str:
    """How a report names the library a check ran with."""
    return "PyTorch" if torch.__name__ == "torch" else "minitorch_hooks"


def run_check(check: Check, module: types.ModuleType, torch: types.ModuleType,
              number: int) -> Result:
    """Run one check of exercise ``number`` on ``module``, quietly, and say how it went."""
    library = library_name(torch)
    printed = io.StringIO()

    def failed(detail: str) -> Result:
        return Result(check, library, "fail", detail, printed.getvalue())

    try:
        with contextlib.redirect_stdout(printed), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check.function(module, torch)
    except CheckFailed as failure:
        return failed(str(failure))
    except NotImplementedError as error:
        if str(error).startswith(f"Exercise {number}, step"):
            return Result(check, library, "todo", str(error), printed.getvalue())
        return failed(describe_error(error, module.__file__))
    except Exception as error:  # noqa: BLE001 - any error in the learner's code is a result
        return failed(describe_error(error, module.__file__))
    return Result(check, library, "pass", printed=printed.getvalue())


def describe_error(error: BaseException, filename: str) -> str:
    """``Type: message``, and the last line of the file ``filename`` (the learner's) that
    the error went through: where to look first."""
    text = f"{type(error).__name__}: {error}"
    in_file = [frame for frame in traceback.extract_tb(error.__traceback__)
               if frame.filename == filename]
    if in_file:
        text += f" (line {in_file[-1].lineno}, in {in_file[-1].name})"
    return text


def live_pytorch() -> types.ModuleType | None:
    """Real PyTorch, or None when the comparisons use its recorded answers: when it cannot
    be imported, or when ``MTH_CONFORMANCE=recorded`` asks for them (as the tests do)."""
    if os.environ.get("MTH_CONFORMANCE") == "recorded":
        return None
    try:
        return importlib.import_module("torch")
    except ImportError:
        return None


def run_exercise(number: int, checks: Checks, path: Path) -> list[Result]:
    """Every check of exercise ``number`` on the file at ``path``, with minitorch_hooks;
    each comparison is followed by its run with PyTorch: on live PyTorch when it is
    installed, else on minitorch_hooks again, compared with PyTorch's recorded answers."""
    import minitorch_hooks

    from . import answers  # here: answers.py builds on this module

    module = load(path)
    comparisons = any(check.compare_with_pytorch for check in checks)
    torch = live_pytorch() if comparisons else None
    if torch is not None:
        on_torch = load(path, "torch")
    elif comparisons:
        recorded = answers.read()
        on_minitorch = load(path)  # a fresh copy: the first run may have changed its state
    results = []
    for check in checks:
        results.append(run_check(check, module, minitorch_hooks, number))
        if not check.compare_with_pytorch:
            continue
        if torch is not None:
            results.append(replace(run_check(check, on_torch, torch, number), library=LIVE))
        else:
            results.append(answers.run_recorded(check, on_minitorch, number, recorded))
    return results
