"""The gaps of the tutorial exercises, and the starter files made from the solutions.

A solution marks each piece of code the learner writes::

    # --- step 2: run the programs, and the hooks after each ---
    ...the code...
    # --- end of step 2 ---

The starter is the solution with each such piece replaced by a stub::

    raise NotImplementedError(
        "Exercise N, step 2: run the programs, and the hooks after each")

and everything else the same, character for character. ``tests/test_exercises.py``
checks that every starter is exactly that, so the two files cannot drift apart. After
editing a solution, run ``python tests/exercise_gaps.py`` to rewrite the starters.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from minitorch_hooks.tutorials import EXERCISES, Exercise  # noqa: E402 - after the path

GAP_START = re.compile(r"^(?P<indent> *)# --- step (?P<step>\d+): (?P<task>.+) ---$")
GAP_END = re.compile(r"^ *# --- end of step (?P<step>\d+) ---$")

# A file as pieces: shared text (step None) and the insides of gaps (their step number).
Pieces = list[tuple[int | None, str]]


def split_gaps(text: str) -> Pieces:
    """Cut a file into shared text and gap contents; the marker lines are shared text."""
    pieces: Pieces = []
    shared: list[str] = []
    gap: list[str] | None = None
    step = None
    for line in text.splitlines(keepends=True):
        if gap is None:
            shared.append(line)
            start = GAP_START.match(line.rstrip("\n"))
            if start:
                pieces.append((None, "".join(shared)))
                shared, gap, step = [], [], int(start["step"])
            continue
        end = GAP_END.match(line.rstrip("\n"))
        if end is None:
            gap.append(line)
            continue
        if int(end["step"]) != step:
            raise ValueError(f"'end of step {end['step']}' closes the gap of step {step}")
        pieces.append((step, "".join(gap)))
        shared, gap = [line], None
    if gap is not None:
        raise ValueError(f"the gap of step {step} is never closed")
    pieces.append((None, "".join(shared)))
    return pieces


def stub(exercise: Exercise, start_marker: str) -> str:
    """The lines a starter has in place of the gap that ``start_marker`` opens."""
    start = GAP_START.match(start_marker.splitlines()[-1])
    indent = start["indent"]
    return (f'{indent}raise NotImplementedError(\n{indent}    "Exercise {exercise.number}, '
            f'step {start["step"]}: {start["task"]}")\n')


def fill(exercise: Exercise, solution_text: str, keep: Callable[[int], bool]) -> str:
    """The solution with the gaps whose step satisfies ``keep`` filled, the rest stubbed."""
    pieces = split_gaps(solution_text)
    out = []
    for index, (step, text) in enumerate(pieces):
        if step is None or keep(step):
            out.append(text)
        else:
            out.append(stub(exercise, pieces[index - 1][1]))
    return "".join(out)


def starter_text(exercise: Exercise) -> str:
    """What the exercise's starter file must contain: its solution with no gap filled."""
    return fill(exercise, exercise.solution.read_text(encoding="utf-8"), lambda step: False)


if __name__ == "__main__":
    for exercise in EXERCISES:
        exercise.starter.write_text(starter_text(exercise), encoding="utf-8")
        print("wrote", exercise.starter)
