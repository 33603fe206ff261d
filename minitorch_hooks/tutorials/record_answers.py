"""Record PyTorch's answers to the exercises' comparisons: ``python -m
minitorch_hooks.tutorials.record_answers``, with torch==2.13.0 installed.

It runs every comparison check on each exercise's solution on real PyTorch, keeps the
values they compare with (see ``answers.py``), rewrites ``pytorch_answers.json`` and prints
which checks' answers changed. Run it after changing a comparison check or a solution;
``tests/test_exercises.py`` fails while the file no longer says what PyTorch answers.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from . import EXERCISES
from .answers import ANSWERS, Recorder, exercise_and_name, read
from .checking import load, run_check, watching


def ask_pytorch() -> dict[str, Any]:
    """PyTorch's answers to every comparison check, run on the solutions: what
    :func:`answers.read` reads back. A check that fails on PyTorch stops it."""
    import torch

    answers: dict[str, dict[str, list]] = {}
    for exercise in EXERCISES:
        compared = [check for check in exercise.checks() if check.compare_with_pytorch]
        if not compared:
            continue
        module = load(exercise.solution, "torch")
        for check in compared:
            recorder = Recorder()
            with watching(recorder):
                result = run_check(check, module, torch, exercise.number)
            if result.status != "pass":
                raise RuntimeError(f"{exercise.name}'s {check.function.__name__} does not "
                                   f"pass on PyTorch with the solution: {result.detail}")
            folder, name = exercise_and_name(check)
            answers.setdefault(folder, {})[name] = recorder.answers
    return {"pytorch": torch.__version__.split("+")[0], "answers": answers}


def dumps(recorded: dict[str, Any]) -> str:
    """JSON with one line per answer, so that a diff shows which answers changed."""
    lines = ["{", f'"pytorch": {json.dumps(recorded["pytorch"])},', '"answers": {']
    exercises = list(recorded["answers"].items())
    for e, (exercise, checks) in enumerate(exercises):
        lines.append(f" {json.dumps(exercise)}: {{")
        for c, (name, answers) in enumerate(checks.items()):
            lines.append(f"  {json.dumps(name)}: [")
            lines += [f"   {json.dumps(answer, separators=(',', ':'))}"
                      + ("," if a < len(answers) - 1 else "") for a, answer in enumerate(answers)]
            lines.append("  ]" + ("," if c < len(checks) - 1 else ""))
        lines.append(" }" + ("," if e < len(exercises) - 1 else ""))
    return "\n".join([*lines, "}", "}"]) + "\n"


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """``+`` added, ``~`` changed and ``-`` removed checks, one line each."""
    def flat(recorded: dict[str, Any]) -> dict[str, list]:
        return {f"{exercise}.{name}": answers
                for exercise, checks in recorded["answers"].items()
                for name, answers in checks.items()}

    before, after = flat(old), flat(new)
    lines = [f"+ {key}" for key in after if key not in before]
    lines += [f"~ {key}" for key in after if key in before and after[key] != before[key]]
    lines += [f"- {key}" for key in before if key not in after]
    if old["pytorch"] != new["pytorch"]:
        lines.insert(0, f"~ PyTorch {old['pytorch']} -> {new['pytorch']}")
    return lines


def main() -> int:
    old, new = read(), ask_pytorch()
    ANSWERS.write_text(dumps(new), encoding="utf-8")
    print(f"{ANSWERS} ({ANSWERS.stat().st_size // 1024} KB):",
          *(changes(old, new) or ["unchanged"]), sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
