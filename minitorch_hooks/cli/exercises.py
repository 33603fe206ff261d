"""``minitorch-hooks show N``, ``start N`` and ``check [N | --all | --list]``.

``show N`` prints exercise N's text. ``start N`` copies its starter file and its text into
the current directory, and never overwrites one that is there: that file is the learner's
work. ``check N`` runs exercise N's checks (``minitorch_hooks/tutorials/``) on the
learner's work in the current directory (the ``.py`` copy, or its notebook when that was
saved last), or on the starter in place when there is none, and prints one line per check:
passed, failed or not done yet. A check that compares with PyTorch runs twice, on
minitorch_hooks and on "live PyTorch" when it is installed (else against its "recorded
PyTorch 2.13" answers, ``tutorials/answers.py``), and still gets one line: the library is
named only when the two verdicts differ. ``check`` says which file it checked, warns when a
notebook there is not paired with the ``.py`` file, and exits with 0 only when every check
passed. At a terminal, a report taller than the window goes through the pager.
``--solution`` checks the reference solutions instead, which is how to see that the checks
themselves pass, and prints each check's solution line under it.

Help comes in stages, so that a learner gets to think first. A failed step shows only why
it failed (one or two lines, large values summarised) and where its check is written. The
second failure of the same step in a row of runs adds a nudge: which value or which rule
to look at. The third and later add a pointer: where to look (the method, the argument, the
page of PyTorch's docs or of the course). ``--hint`` moves one stage ahead.
``hint_memory.py`` remembers the failures between runs. The line to type is never shown
unasked: only ``--solution`` prints it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from ..tutorials import EXERCISES, NUMBERS, Exercise, by_number
from ..tutorials.checking import Check, Result, check_source, describe_error, run_exercise
from ..tutorials.notebooks import PAIR_COMMAND, is_paired
from .hint_memory import HintMemory
from .pager import show

_RESET, _BOLD, _DIM = "\033[0m", "\033[1m", "\033[2m"
_RED, _GREEN, _YELLOW = "\033[31m", "\033[32m", "\033[33m"

# How each status is marked: with colour and symbols at a terminal, plain words otherwise.
_FANCY = {"pass": (_GREEN, "✓"), "fail": (_RED, "✗"), "todo": (_YELLOW, "○")}
_PLAIN = {"pass": "PASS", "fail": "FAIL", "todo": "TODO"}
_PRINTED_LINES = 2  # of what the learner's code printed, shown under a failed check
_REASON_LINES = 4  # a failure's reason is cut to this many lines: it must fit one screen
_WIDTH = 88
_STAGES = 2  # after the reason: 1 adds the nudge, 2 the pointer too


def add_exercise_commands(commands: argparse._SubParsersAction) -> None:
    """Add ``show``, ``start`` and ``check`` to the subcommands of ``minitorch-hooks``."""
    number_help = f"the exercise ({NUMBERS[0]} to {NUMBERS[-1]})"
    show_text = commands.add_parser(
        "show", help="print exercise N's text",
        description=("Print exercise N's text: what to build, step by step. At a "
                     "terminal, long text goes through a pager ($PAGER, or less -R)."))
    show_text.add_argument("number", type=int, choices=NUMBERS, metavar="N",
                           help=number_help)
    show_text.add_argument("--no-pager", action="store_true",
                           help="print straight to the terminal, without a pager")
    show_text.set_defaults(handler=run_show)

    start = commands.add_parser(
        "start", help="copy exercise N's starter file and text here, to fill in",
        description=("Copy exercise N's starter file, and its text as a .md file beside "
                     "it, into the current directory. Fill in the gaps, then run "
                     "'minitorch-hooks check N'. An existing file is never overwritten."))
    start.add_argument("number", type=int, choices=NUMBERS, metavar="N",
                       help=number_help)
    start.set_defaults(handler=run_start)

    check = commands.add_parser(
        "check", help="check your work on exercise N, step by step",
        description=("Run exercise N's checks on your copy of its file in the current "
                     "directory (made by 'minitorch-hooks start N'), or on its notebook "
                     "there when you saved that last, or on the starter file in place when "
                     "there is none, and report each step. A failed step shows why; when "
                     "it fails again, a nudge, then where to look; --hint moves one stage "
                     "ahead, and --solution shows the solution lines."))
    which = check.add_mutually_exclusive_group(required=True)
    which.add_argument("number", nargs="?", type=int, choices=NUMBERS,
                       metavar="N", help=number_help)
    which.add_argument("--all", action="store_true", help="check every exercise")
    which.add_argument("--list", action="store_true",
                       help="list the exercises and their files, and stop")
    check.add_argument("--solution", action="store_true",
                       help="check the reference solution instead of your file, and show "
                            "each step's solution line")
    check.add_argument("--hint", action="store_true",
                       help="one stage more help for every step that fails (a nudge, then "
                            "where to look), and a nudge for the next step to do")
    check.add_argument("--no-color", action="store_true",
                       help="plain text even on a terminal (so does setting NO_COLOR)")
    check.add_argument("--no-pager", action="store_true",
                       help="print straight to the terminal, without a pager")
    check.set_defaults(handler=run_check)


def text_copy_name(exercise: Exercise) -> str:
    """The name ``start`` gives the copy of the exercise's text: the starter's, in .md."""
    return f"{exercise.name}.md"


def run_show(args: argparse.Namespace) -> int:
    """``minitorch-hooks show N``: print the exercise's text."""
    show(by_number(args.number).text.read_text(encoding="utf-8").rstrip("\n"),
         use_pager=not args.no_pager)
    return 0


def _copy(source: Path, target: Path) -> bool:
    """Copy ``source`` to ``target`` unless ``target`` exists; whether it copied."""
    try:
        with open(target, "xb") as copy:  # "x": fail rather than overwrite
            copy.write(source.read_bytes())
    except FileExistsError:
        return False
    return True


def run_start(args: argparse.Namespace) -> int:
    """``minitorch-hooks start N``: copy the starter and the text here, unless the starter
    is here already (a text already here is kept: it may hold the learner's notes)."""
    exercise = by_number(args.number)
    target = Path.cwd() / exercise.starter.name
    if not _copy(exercise.starter, target):
        print(f"{target.name} is already here, and 'start' never overwrites your work. "
              f"Carry on with it and run 'minitorch-hooks check {exercise.number}', or move "
              "it away to start afresh.", file=sys.stderr)
        return 1
    text = text_copy_name(exercise)
    copied = _copy(exercise.text, Path.cwd() / text)
    print(f"Exercise {exercise.number}: {exercise.title}\n\n"
          f"Copied the starter to {target.name}, and the exercise's text to {text}"
          f"{'' if copied else ' (kept: one is here already)'}.\n"
          f"Read the text, fill in the gaps marked '# --- step K: ... ---', then run:\n\n"
          f"    minitorch-hooks check {exercise.number}\n\n"
          f"To work in Jupyter, pair the file with a notebook first (needs jupytext):\n\n"
          f"    {PAIR_COMMAND.format(name=target.name)}\n\n"
          f"and open {target.with_suffix('.ipynb').name}: Jupyter then saves your edits "
          f"into both files.")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """``minitorch-hooks check``: the list, one exercise, or all of them."""
    # Imported here: ``__main__`` imports this module to build its parser.
    from ..__main__ import use_color

    if args.list:
        print(_exercise_list())
        return 0
    report = _Report(use_color(args.no_color) and _can_print_symbols(), args.hint)
    chosen = EXERCISES if args.all else (by_number(args.number),)
    # The report is written whole, then shown: a page at a time when it is taller than
    # the terminal, as 'tour' and 'show' do, so that the first failure does not scroll away.
    written = io.StringIO()
    with contextlib.redirect_stdout(written):
        done = [report.exercise(exercise, args.solution) for exercise in chosen]
        if args.all:
            print(f"{sum(done)} of {len(done)} exercises pass every check.")
        elif done[0] and not args.solution:
            print(_next_exercise(chosen[0]))
    show(written.getvalue().rstrip("\n"), use_pager=not args.no_pager)
    return 0 if all(done) else 1


def _next_exercise(exercise: Exercise) -> str:
    if exercise is EXERCISES[-1]:
        return "That was the last exercise: well done."
    following = EXERCISES[EXERCISES.index(exercise) + 1]
    return (f"Next: exercise {following.number}, {following.title}:\n\n"
            f"    minitorch-hooks start {following.number}\n")


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
              "Read one with 'minitorch-hooks show N'; start it with 'minitorch-hooks start N',",
              "then check your work with 'minitorch-hooks check N'."]
    return "\n".join(lines)


@dataclass(frozen=True)
class _Target:
    """The file ``check`` runs the checks on, how to describe it, a warning about it, and
    whether it is the learner's (then the failures are remembered beside it)."""

    path: Path
    description: str
    warning: str = ""
    learners: bool = True


def _file_to_check(exercise: Exercise, solution: bool) -> _Target:
    """The learner's work in the current directory comes first: the ``.py`` copy or its
    notebook, whichever was saved last; then the starter in place."""
    if solution:
        return _Target(exercise.solution, "the reference solution", learners=False)
    copy = Path.cwd() / exercise.starter.name
    notebook = copy.with_suffix(".ipynb")
    has_copy = copy.is_file() and not copy.samefile(exercise.starter)
    if not notebook.is_file():
        if has_copy:
            return _Target(copy, "your copy, in the current directory")
        return _Target(exercise.starter, (f"the starter in place; 'minitorch-hooks start "
                                          f"{exercise.number}' copies it here for you to "
                                          "edit"), learners=False)
    try:
        paired = is_paired(notebook)
    except ValueError:
        return _Target(copy if has_copy else exercise.starter, "",
                       f"{notebook.name} is here but is not a notebook that can be read "
                       "(not valid JSON), so it is not checked.", learners=has_copy)
    newer = not has_copy or notebook.stat().st_mtime > copy.stat().st_mtime
    warning = "" if paired else (
        f"{notebook.name} is not paired with {copy.name}, so what you type in the "
        f"notebook is saved in the notebook only. Pair them once with "
        f"'{PAIR_COMMAND.format(name=notebook.name)}' (it writes the notebook's code "
        f"into {copy.name}), and Jupyter keeps both up to date.")
    if newer:
        return _Target(notebook, "your notebook's code cells, saved after "
                       f"{copy.name}" if has_copy else "your notebook's code cells", warning)
    if warning:
        warning += f" Checked now: {copy.name}, saved after the notebook."
    return _Target(copy, f"your copy, paired with {notebook.name}" if paired
                   else "your copy, in the current directory", warning)


def _shown(path: Path) -> str:
    """A path relative to the current directory when it is inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class _Row:
    """One check as the report shows it: its results on each library it ran with (one, or
    two for a comparison with PyTorch), merged into one verdict."""

    check: Check
    results: tuple[Result, ...]

    @property
    def status(self) -> str:
        statuses = {result.status for result in self.results}
        return next(status for status in ("fail", "todo", "pass") if status in statuses)

    @property
    def agree(self) -> bool:
        """Whether every library gave the same verdict."""
        return len({result.status for result in self.results}) == 1

    @property
    def reasons(self) -> list[tuple[str, str]]:
        """The different reasons for failing, each with the library it came from."""
        seen: dict[str, str] = {}
        for result in self.results:
            if result.status == "fail":
                seen.setdefault(result.detail, result.library)
        return [(library, detail) for detail, library in seen.items()]


def _rows(results: list[Result]) -> list[_Row]:
    """The results grouped by check, in order: a comparison's runs are one row."""
    rows: list[_Row] = []
    for result in results:
        if rows and rows[-1].check is result.check:
            rows[-1] = _Row(result.check, (*rows[-1].results, result))
        else:
            rows.append(_Row(result.check, (result,)))
    return rows


class _Report:
    """Prints the checks of one exercise after another, in colour or in plain text."""

    def __init__(self, fancy: bool, hint: bool) -> None:
        self.fancy = fancy
        self.hint = hint

    def paint(self, text: str, *codes: str) -> str:
        return "".join(codes) + text + _RESET if self.fancy else text

    def mark(self, status: str) -> str:
        if not self.fancy:
            return _PLAIN[status]
        colour, symbol = _FANCY[status]
        return self.paint(symbol, colour)

    def exercise(self, exercise: Exercise, solution: bool) -> bool:
        """Check one exercise and print the report; true when every check passed."""
        target = _file_to_check(exercise, solution)
        path = target.path
        print(self.paint(f"Exercise {exercise.number}: {exercise.title}", _BOLD))
        print(f"checking {_shown(path)}" + (f" ({target.description})" if target.description
                                            else ""))
        if target.warning:
            print(self.paint(_note("warning: ", target.warning, indent=""), _YELLOW))
        print()
        try:
            results = run_exercise(exercise.number, exercise.checks(), path)
        except Exception as error:  # noqa: BLE001 - the learner's file did not even load
            print(f"  {self.mark('fail')} could not run {path.name}: "
                  f"{describe_error(error, str(path))}\n")
            return False
        memory = HintMemory(path.parent if target.learners else None)
        rows = _rows(results)
        failed = {row.check.step for row in rows if row.status == "fail"}
        first_todo = next((row for row in rows if row.status == "todo"), None)
        helped: set[int] = set()  # a step's help is shown once, under its first failure
        first_failed = min(failed, default=None)
        for row in rows:
            step = row.check.step
            stage = memory.failed_before(exercise.name, step) + self.hint
            self.row(row, number=exercise.number, solution=solution,
                     stage=None if step in helped else min(stage, _STAGES),
                     next_todo=row is first_todo, first_failed=first_failed)
            if row.status == "fail" or row is first_todo:
                helped.add(step)
        print(f"\n  {self.summary(rows)}\n")
        memory.update(exercise.name, failed, {row.check.step for row in rows} - failed)
        return all(row.status == "pass" for row in rows)

    def row(self, row: _Row, *, number: int, solution: bool, stage: int | None,
            next_todo: bool, first_failed: int | None) -> None:
        """One check's line, and under it what it needs: the reason of a failure, the help
        its stage has reached, the next gap, or the solution line when asked for."""
        check = row.check
        title = f"step {check.step}: {check.title}"
        if not row.agree:  # name the libraries only when their verdicts differ
            title += " (" + "; ".join(f"{result.library}: {_PLAIN[result.status]}"
                                      for result in row.results) + ")"
        if row.status == "todo":
            print(f"  {self.mark('todo')} {title}: not done yet")
            if next_todo:
                print(_note("next: ", row.results[0].detail))
                if self.hint:
                    print(_note("nudge: ", check.nudge))
        else:
            print(f"  {self.mark(row.status)} {title}")
        if row.status == "fail":
            self.failure(row, number=number, stage=stage, first_failed=first_failed)
        if solution:
            print(self.paint(_note("solution: ", check.solution), _DIM))

    def failure(self, row: _Row, *, number: int, stage: int | None,
                first_failed: int | None) -> None:
        reasons = row.reasons
        for library, detail in reasons:
            label = f"vs {library}: " if len(reasons) > 1 else ""
            print(_cut(_note(label, detail), _REASON_LINES // len(reasons)))
        _, line, _ = check_source(row.check)
        print(self.paint(_note("", f"(the check: checks.py:{line})"), _DIM))
        if first_failed is not None and row.check.step > first_failed:
            # A later step builds on the earlier ones: its failure may be theirs, so the
            # help goes to the first failed step only.
            if stage is not None:
                print(self.paint(_note("", f"(step {first_failed} fails too: fix it first, "
                                           "this may follow from it)"), _DIM))
        elif stage is not None:
            self.help(row.check, number, stage)
        printed = next((r.printed for r in row.results if r.status == "fail"), "").splitlines()
        if printed:
            print("      your code printed:")
            for text in printed[:_PRINTED_LINES]:
                print(f"        {text}")
            if len(printed) > _PRINTED_LINES:
                print(f"        ... ({len(printed) - _PRINTED_LINES} more lines)")

    def help(self, check: Check, number: int, stage: int) -> None:
        """The help a step's failure has earned: none yet, the nudge, then the pointer; and
        a line saying what comes next."""
        if stage >= 1:
            print(_note("nudge: ", check.nudge))
        if stage >= 2:
            print(_note("look at: ", check.pointer))
        offer = ("a nudge" if stage == 0 else "where to look" if stage == 1 else None)
        command = f"'minitorch-hooks check {number} --hint'"
        print(self.paint(_note("", f"({offer}: run {command}, or run check again)" if offer
                               else f"(the solution lines: 'minitorch-hooks check {number} "
                                    "--solution')"), _DIM))

    def summary(self, rows: list[_Row]) -> str:
        counts = {status: sum(row.status == status for row in rows)
                  for status in ("pass", "fail", "todo")}
        ran = len(rows)
        if counts["pass"] == ran:
            text = f"All {ran} checks pass"
        else:
            parts = [f"{counts['fail']} failed" if counts["fail"] else "",
                     f"{counts['todo']} not done yet" if counts["todo"] else ""]
            text = f"{counts['pass']} of {ran} checks pass ({', '.join(p for p in parts if p)})"
        return self.paint(text + ".", _GREEN) if counts["pass"] == ran else text + "."


def _cut(text: str, lines: int) -> str:
    """``text`` cut to its first ``lines`` lines, marked as cut."""
    kept = text.splitlines()
    if len(kept) <= lines:
        return text
    return "\n".join(kept[:lines]) + " ..."


class _CodeWrapper(textwrap.TextWrapper):
    """Wraps only at spaces outside brackets, so that a call in a hint or a message,
    ``self.hooks.pop(id, None)``, is never cut in two."""

    def _split(self, text: str) -> list[str]:
        chunks, current, depth = [], "", 0
        for char in text:
            depth = depth + (char in "([{") - (depth > 0 and char in ")]}")
            if char == " " and depth == 0:
                chunks += [current, " "]
                current = ""
            else:
                current += char
        return [chunk for chunk in [*chunks, current] if chunk]


def _note(label: str, text: str, indent: str = " " * 6) -> str:
    """An indented, wrapped line under a check: its reason, the next gap, or its help."""
    return _CodeWrapper(width=_WIDTH, initial_indent=indent + label,
                        subsequent_indent=indent + " " * len(label),
                        break_long_words=False, break_on_hyphens=False).fill(text)
