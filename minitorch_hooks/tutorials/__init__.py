"""The tutorial exercises: from using PyTorch's hooks to building them.

Each exercise is a folder here, listed in :data:`EXERCISE_FOLDERS` in the order a learner
takes them; its number is the one in its name (``ex05_...`` is exercise 5), so that
exercises written on different branches keep their numbers. A folder holds:

* ``README.md``: the exercise's text (the documentation site shows it too);
* ``exNN_<name>.py``: the starter file, with gaps marked ``# --- step K: ... ---`` that
  raise ``NotImplementedError("Exercise N, step K: ...")`` until they are filled. It is in
  jupytext's percent format, so it also opens as a notebook;
* ``solution.py``: the same file with every gap filled;
* ``checks.py``: the checks, one or more per step, each with a nudge, a pointer and a
  solution line (see :mod:`.checking`).

``minitorch-hooks start N`` copies the starter into the current directory and
``minitorch-hooks check N`` runs the checks on it (see ``minitorch_hooks/cli/``). The
exercises ship inside the package so that both work after ``pip install .``; the
``tutorials/`` folder at the top of the repository is a link to this one.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from .checking import Checks

EXERCISE_FOLDERS = (
    "ex01_package_pattern",
    "ex02_validate_inputs",
    "ex03_feature_extractor",
    "ex04_activation_stats",
    "ex05_gradient_clipping",
    "ex06_gradient_flow",
    "ex07_freezing_and_masking",
    "ex08_pruning",
    "ex09_module_call",
    "ex10_backward_engine",
    "ex11_full_backward_hook",
    "ex12_saved_tensor_hooks",
    "ex13_optimizer_step_hooks",
    "ex14_global_hooks",
    "ex15_optimizer_in_backward",
    "ex16_grad_cam",
    "ex17_attention_maps",
)

_HERE = Path(__file__).parent


@dataclass(frozen=True)
class Exercise:
    """One exercise: its number (1 for the first) and its folder's name."""

    number: int
    name: str

    @property
    def folder(self) -> Path:
        return _HERE / self.name

    @property
    def starter(self) -> Path:
        """The file the learner fills in; ``start`` copies it under the same name."""
        return self.folder / f"{self.name}.py"

    @property
    def solution(self) -> Path:
        return self.folder / "solution.py"

    @property
    def text(self) -> Path:
        return self.folder / "README.md"

    @property
    def title(self) -> str:
        """The first line of the exercise's text, without its ``# Exercise N:`` prefix."""
        first_line = self.text.read_text(encoding="utf-8").partition("\n")[0]
        return first_line.removeprefix(f"# Exercise {self.number}:").strip()

    def checks(self) -> Checks:
        return importlib.import_module(f"{__name__}.{self.name}.checks").CHECKS


EXERCISES = tuple(Exercise(int(name[2:4]), name) for name in EXERCISE_FOLDERS)
NUMBERS = tuple(exercise.number for exercise in EXERCISES)


def by_number(number: int) -> Exercise:
    """Exercise ``number`` (a number of :data:`NUMBERS`)."""
    return EXERCISES[NUMBERS.index(number)]
