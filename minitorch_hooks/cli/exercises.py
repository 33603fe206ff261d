"""``minitorch-hooks start N`` and ``minitorch-hooks check [N | --all | --list]``.

``start N`` copies exercise N's starter file into the current directory, and never
overwrites one that is there: that file is the learner's work. ``check N`` runs exercise
N's checks (``minitorch_hooks/tutorials/``) on the learner's copy in the current
directory, or on the starter in place when there is none, and prints one line per check:
passed, failed (with the reason and a hint), not done yet, or skipped. It says which file
it checked and exits with 0 only when every check passed (a comparison with PyTorch
skipped because it is not installed does not count). ``--solution`` checks the
reference solutions instead, which is how to see that the checks themselves pass.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

from ..tutorials import EXERCISES, Exercise
from ..tutorials.checking import Result, describe_error, run_exercise

_RESET, _BOLD, _DIM = "\033[0m", "\033[1m", "\033[2m"
_RED, _GREEN, _YELLOW = "\033[31m", "\033[32m", "\033[33m"

# How each status is marked: with colour and symbols at a terminal, plain words otherwise.
_FANCY = {"pass": (_GREEN, "✓"), "fail": (_RED, "✗"), "todo": (_YELLOW, "○"),
          "skip": (_DIM, "-")}
_PLAIN = {"pass": "PASS", "fail": "FAIL", "todo": "TODO", "skip": "SKIP"}
_PRINTED_LINES = 5  # of what the learner's code printed, shown under a failed check
_WIDTH = 88


def add_exercise_commands(commands: argparse._SubParsersAction) -> None:
    """Add ``start`` and ``check`` to the subcommands of ``minitorch-hooks``."""
    count = len(EXERCISES)
    start = commands.add_parser(
        "start", help="copy exercise N's starter file here, to fill in",
        description=("Copy exercise N's starter file into the current directory. Fill in "
                     "its gaps, then run 'minitorch-hooks check N'. An existing file is "
                     "never overwritten."))
    start.add_argument("number", type=int, choices=range(1, count + 1), metavar="N",
                       help=f"the exercise (1 to {count})")
    start.set_defaults(handler=run_start)

    check = commands.add_parser(
        "check", help="check your work on exercise N, step by step",
        description=("Run exercise N's checks on your copy of its file in the current "
                     "directory (made by 'minitorch-hooks start N'), or on the starter "
                     "file in place when there is none, and report each step."))
    which = check.add_mutually_exclusive_group(required=True)
    which.add_argument("number", nargs="?", type=int, choices=range(1, count + 1),
                       metavar="N", help=f"the exercise (1 to {count})")
    which.add_argument("--all", action="store_true", help="check every exercise")
    which.add_argument("--list", action="store_true",
                       help="list the exercises and their files, and stop")
    check.add_argument("--solution", action="store_true",
                       help="check the reference solution instead of your file")
    check.add_argument("--no-color", action="store_true",
                       help="plain text even on a terminal (so does setting NO_COLOR)")
    check.set_defaults(handler=run_check)


def run_start(args: argparse.Namespace) -> int:
    """``minitorch-hooks start N``: copy the starter here, unless a file of that name is
    here already."""
    exercise = EXERCISES[args.number - 1]
    target = Path.cwd() / exercise.starter.name
    try:
        with open(target, "xb") as copy:  # "x": fail rather than overwrite
            copy.write(exercise.starter.read_bytes())
    except FileExistsError:
        print(f"{target.name} is already here, and 'start' never overwrites your work. "
              f"Carry on with it and run 'minitorch-hooks check {exercise.number}', or move "
              "it away to start afresh.", file=sys.stderr)
        return 1
    print(f"Exercise {exercise.number}: {exercise.title}\n\n"
          f"Copied the starter to {target.name}. Fill in the gaps marked\n"
          f"'# --- step K: ... ---', then run:\n\n"
          f"    minitorch-hooks check {exercise.number}\n\n"
          f"The exercise's text: {exercise.text}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """``minitorch-hooks check``: the list, one exercise, or all of them."""
    # Imported here: ``__main__`` imports this module to build its parser.
    from ..__main__ import use_color

    if args.list:
        print(_exercise_list())
        return 0
    report = _Report(use_color(args.no_color) and _can_print_symbols())
    chosen = EXERCISES if args.all else (EXERCISES[args.number - 1],)
    done = [report.exercise(exercise, args.solution) for exercise in chosen]
    if args.all:
        print(f"{sum(done)} of {len(done)} exercises pass every check.")
    return 0 if all(done) else 1


def _can_print_symbols() -> bool:
    """Whether stdout's encoding has the report's symbols (a Windows console may not)."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "".join(symbol for _, symbol in _FANCY.values()).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _exercise_list() -> str:
    width = max(len(exercise.title) for exercise in EXERCISES)
    lines = [f"{exercise.number:2}. {exercise.title:{width}}  {exercise.starter.name}"
             for exercise in EXERCISES]
    lines += ["", f"Their texts and files: {EXERCISES[0].folder.parent}",
              "Start one with 'minitorch-hooks start N', then 'minitorch-hooks check N'."]
    return "\n".join(lines)


def _file_to_check(exercise: Exercise, solution: bool) -> tuple[Path, str]:
    """The file to check and how to describe it: the learner's copy in the current
    directory comes first, then the starter in place."""
    if solution:
        return exercise.solution, "the reference solution"
    copy = Path.cwd() / exercise.starter.name
    if copy.is_file() and not copy.samefile(exercise.starter):
        return copy, "your copy, in the current directory"
    return exercise.starter, (f"the starter in place; 'minitorch-hooks start "
                              f"{exercise.number}' copies it here for you to edit")


def _shown(path: Path) -> str:
    """A path relative to the current directory when it is inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class _Report:
    """Prints the checks of one exercise after another, in colour or in plain text."""

    def __init__(self, fancy: bool) -> None:
        self.fancy = fancy

    def paint(self, text: str, *codes: str) -> str:
        return "".join(codes) + text + _RESET if self.fancy else text

    def mark(self, status: str) -> str:
        if not self.fancy:
            return _PLAIN[status]
        colour, symbol = _FANCY[status]
        return self.paint(symbol, colour)

    def exercise(self, exercise: Exercise, solution: bool) -> bool:
        """Check one exercise and print the report; true when every check passed (a
        check skipped for want of PyTorch does not count against the learner)."""
        path, description = _file_to_check(exercise, solution)
        print(self.paint(f"Exercise {exercise.number}: {exercise.title}", _BOLD))
        print(f"checking {_shown(path)} ({description})\n")
        try:
            results = run_exercise(exercise.number, exercise.checks(), path)
        except Exception as error:  # noqa: BLE001 - the learner's file did not even load
            print(f"  {self.mark('fail')} could not run {path.name}: "
                  f"{describe_error(error, str(path))}\n")
            return False
        first_todo = next((r for r in results if r.status == "todo"), None)
        for result in results:
            if result.status != "skip":
                self.result(result, show_hint=result is first_todo)
        self.skips([r for r in results if r.status == "skip"])
        print(f"\n  {self.summary(results)}\n")
        return all(result.status in ("pass", "skip") for result in results)

    def result(self, result: Result, show_hint: bool) -> None:
        check = result.check
        title = f"step {check.step}: {check.title}"
        if check.compare_with_pytorch:
            title += f" (vs {result.library})"
        if result.status == "pass":
            print(f"  {self.mark('pass')} {title}")
            return
        if result.status == "todo":
            print(f"  {self.mark('todo')} {title}: not done yet")
            if show_hint:
                print(_note("next: ", result.detail))
                print(_note("hint: ", check.hint))
            return
        print(f"  {self.mark('fail')} {title}")
        print(_note("", result.detail))
        print(_note("hint: ", check.hint))
        printed = result.printed.splitlines()
        if printed:
            print("      your code printed:")
            for line in printed[:_PRINTED_LINES]:
                print(f"        {line}")
            if len(printed) > _PRINTED_LINES:
                print(f"        ... ({len(printed) - _PRINTED_LINES} more lines)")

    def skips(self, skipped: list[Result]) -> None:
        """The comparisons skipped without PyTorch: one line for all of them."""
        if skipped:
            print(f"  {self.mark('skip')} {len(skipped)} checks skipped: {skipped[0].detail}")

    def summary(self, results: list[Result]) -> str:
        counts = {status: sum(r.status == status for r in results)
                  for status in ("pass", "fail", "todo", "skip")}
        ran = len(results) - counts["skip"]
        if counts["pass"] == ran:
            text = f"All {ran} checks pass"
        else:
            parts = [f"{counts['fail']} failed" if counts["fail"] else "",
                     f"{counts['todo']} not done yet" if counts["todo"] else ""]
            text = f"{counts['pass']} of {ran} checks pass ({', '.join(p for p in parts if p)})"
        if counts["skip"]:
            text += f"; {counts['skip']} skipped"
        return self.paint(text + ".", _GREEN) if counts["pass"] == ran else text + "."


def _note(label: str, text: str) -> str:
    """An indented, wrapped line under a check: its reason, the next gap, or a hint."""
    indent = " " * 6
    return textwrap.fill(text, width=_WIDTH, initial_indent=indent + label,
                         subsequent_indent=indent + " " * len(label),
                         break_long_words=False, break_on_hyphens=False)
