"""PyTorch's answers to the exercises' comparisons, recorded, for learners without PyTorch.

A comparison check (``compare_with_pytorch``) builds what it expects with the library it
runs on. Run on real PyTorch with the exercise's solution, every value it compares with,
the ``expected`` of :func:`~.checking.expect_close` and :func:`~.checking.expect_equal`,
is PyTorch's answer. ``record_answers.py`` writes those answers, in the order the check
compares them, to ``pytorch_answers.json``, shipped with the package.

Where PyTorch cannot be imported (or ``MTH_CONFORMANCE=recorded`` asks for it), ``check``
runs each comparison check a second time on minitorch_hooks, and :class:`Compare` holds
every value the learner's code gave against PyTorch's recorded answer as well, with the
same comparison. So a learner without PyTorch is still compared with PyTorch, not only
with minitorch_hooks.
"""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import numpy as np

from ..cli.pytorch import INSTALL_PYTORCH
from .checking import Check, CheckFailed, Result, close, describe, run_check, watching

ANSWERS = Path(__file__).with_name("pytorch_answers.json")
REGENERATE = "python -m minitorch_hooks.tutorials.record_answers"


def exercise_and_name(check: Check) -> tuple[str, str]:
    """Where a check's answers are kept: its exercise's folder, and its function's name."""
    return check.function.__module__.split(".")[-2], check.function.__name__


def plain(value: Any) -> Any:
    """A value as it reads back from JSON (tuples become lists), so that what a learner's
    code gave compares with what was recorded. What JSON cannot hold is kept as its repr."""
    return json.loads(json.dumps(value, default=repr))


def shortest(x: float) -> float | int:
    """``x`` written with the fewest digits that read back as the same float32 (a whole
    number without its ``.0``): the answers stay small and equal to PyTorch's float32s."""
    x = float(str(np.float32(x)))
    return int(x) if x.is_integer() and abs(x) < 2**53 else x


class Recorder:
    """Keeps PyTorch's side of every comparison a check makes, in order: ``answers``."""

    def __init__(self) -> None:
        self.answers: list[dict[str, Any]] = []

    def close(self, actual: np.ndarray, expected: np.ndarray, what: str) -> None:
        self.answers.append({"what": what, "shape": list(expected.shape),
                             "close": [shortest(x) for x in expected.reshape(-1)]})

    def equal(self, actual: Any, expected: Any, what: str) -> None:
        self.answers.append({"what": what, "equal": plain(expected)})


class Compare:
    """Holds each value a check compares against PyTorch's recorded answer for it: the
    ``answers`` of one check, in the order they were recorded."""

    def __init__(self, answers: list[dict[str, Any]], pytorch: str) -> None:
        self.answers = answers
        self.pytorch = pytorch  # "PyTorch 2.13", for the messages
        self.used = 0

    def next_answer(self, what: str, kind: str) -> dict[str, Any]:
        """The recorded answer to this comparison; a failure when it does not fit (the
        check compares something the recording does not have)."""
        number, self.used = self.used, self.used + 1
        answer = self.answers[number] if number < len(self.answers) else None
        if answer is None or answer["what"] != what or kind not in answer:
            raise CheckFailed(out_of_date(f"comparison {number + 1} ({what}) has no "
                                          f"recorded answer of {self.pytorch}"))
        return answer

    def close(self, actual: np.ndarray, expected: np.ndarray, what: str) -> None:
        answer = self.next_answer(what, "close")
        recorded = np.array(answer["close"], dtype=float).reshape(answer["shape"])
        if not close(actual, recorded):
            raise CheckFailed(f"{what} differs from what {self.pytorch} computed (recorded): "
                              f"yours is {describe(actual)}, {self.pytorch}'s "
                              f"is {describe(recorded)}")

    def equal(self, actual: Any, expected: Any, what: str) -> None:
        answer = self.next_answer(what, "equal")
        if plain(actual) != answer["equal"]:
            raise CheckFailed(f"{what} differ from what {self.pytorch} gave (recorded): "
                              f"yours are {plain(actual)}, {self.pytorch}'s are "
                              f"{answer['equal']}")


def out_of_date(what: str) -> str:
    """Why a check cannot be compared with the recordings, and what to do about it."""
    return (f"{what}: the recordings in {ANSWERS.name} do not fit this check, so it cannot "
            f"be compared with PyTorch here. With PyTorch installed it is compared live "
            f"({INSTALL_PYTORCH}); maintainers: run `{REGENERATE}`")


def read(path: Path = ANSWERS) -> dict[str, Any]:
    """The recorded answers: ``{"pytorch": version, "answers": {exercise: {check:
    [answer, ...]}}}``, or no answers at all when the file is missing."""
    if not path.is_file():
        return {"pytorch": "2.13.0", "answers": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def label(recorded: dict[str, Any]) -> str:
    """How a report names the recorded comparison: ``recorded PyTorch 2.13``."""
    return "recorded PyTorch " + ".".join(recorded["pytorch"].split(".")[:2])


def run_recorded(check: Check, module: types.ModuleType, number: int,
                 recorded: dict[str, Any]) -> Result:
    """Run ``check`` on minitorch_hooks, comparing every value it compares with PyTorch's
    recorded answer too; the result is named after the recording (:func:`label`)."""
    import minitorch_hooks

    exercise, name = exercise_and_name(check)
    library = label(recorded)
    pytorch = library.removeprefix("recorded ")
    answers = recorded["answers"].get(exercise, {}).get(name)
    if answers is None:
        return Result(check, library, "fail", out_of_date(f"{pytorch}'s answers to "
                                                          f"{exercise}'s {name} are missing"))
    comparison = Compare(answers, pytorch)
    with watching(comparison):
        result = run_check(check, module, minitorch_hooks, number)
    if result.status == "pass" and comparison.used != len(answers):
        result = Result(check, library, "fail", out_of_date(
            f"the check made {comparison.used} comparisons, and {pytorch} answered "
            f"{len(answers)} when it was recorded"), result.printed)
    return Result(check, library, result.status, result.detail, result.printed)
