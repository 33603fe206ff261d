"""The Python side of the site's Run and Check buttons, run by Pyodide in a Web Worker.

``worker.js`` loads this file once, after NumPy and minitorch_hooks, and calls:

* :func:`run_blocks` for a Run: the page's earlier blocks (when the namespace does not
  already hold exactly them), then the block, judged as ``tests/docs`` judges it
  (``docs_tools/blocks.py``): what it printed, with an exception written as the elided
  traceback, must be the page's output block, line ends stripped.
* :func:`check_exercise` for a Check: the learner's code saved as the exercise's file in a
  folder of its own, and ``minitorch-hooks check N`` run there, so the report has the
  same step lines and staged hints as in a terminal. The hint memory (the JSON file
  ``check`` keeps beside the learner's file) comes from the page and goes back to it, so
  that it lasts between visits.

A fresh start (:func:`fresh_start`) forgets the namespace and re-imports minitorch_hooks,
so that hooks a page registered globally, or the random generator's state, do not leak
from one run into the next.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

TRACEBACK = "Traceback (most recent call last):\n  ...\n"  # as docs_tools/blocks.py writes it
WORK = Path("/home/pyodide/exercise")

_namespace: dict[str, Any] = {"__name__": "__main__"}


def fresh_start() -> None:
    """A new namespace, and minitorch_hooks imported anew on next use."""
    global _namespace
    _namespace = {"__name__": "__main__"}
    for name in [name for name in sys.modules
                 if name.split(".")[0] == "minitorch_hooks" or name.startswith("_exercise_")]:
        del sys.modules[name]


def normalise(text: str) -> str:
    """The comparison of ``docs_tools/blocks.py``: outer blank lines and line ends ignored."""
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def _traces(before: dict[str, Any]) -> list[str]:
    """The SVG of every hook trace the block bound to a name (new, or rebound)."""
    tracer = sys.modules.get("minitorch_hooks.tracing.tracer")
    if tracer is None:
        return []
    return [value.svg() for name, value in _namespace.items()
            if isinstance(value, tracer.Trace) and before.get(name) is not value]


def _run(source: str, expected: str | None) -> dict[str, Any]:
    """Run one block in the page's namespace: what it printed, and how that compares."""
    before = dict(_namespace)
    printed = io.StringIO()
    error = None
    with contextlib.redirect_stdout(printed):
        try:
            exec(compile(source, "<block>", "exec", dont_inherit=True), _namespace)
        except Exception as exception:  # noqa: BLE001 - compared with the page below
            error = exception
    got = printed.getvalue()
    if error is not None:
        got += TRACEBACK + "".join(traceback.format_exception_only(error))
    if error is not None and (expected is None or TRACEBACK not in expected):
        status = "error"
    elif expected is None:
        status = "same" if not got else "differs"
    else:
        status = "same" if normalise(got) == normalise(expected) else "differs"
    return {"printed": got, "status": status, "svgs": _traces(before)}


def run_blocks(blocks_json: str, fresh: bool) -> dict[str, Any]:
    """Run the blocks (a JSON list of ``{"source", "expected"}``, the last one the block
    asked for) in order, after a fresh start when ``fresh``. An earlier block that fails
    stops the run: its result is returned, with ``earlier`` set to its position."""
    blocks = json.loads(blocks_json)
    if fresh:
        fresh_start()
    for position, block in enumerate(blocks):
        result = _run(block["source"], block.get("expected"))
        if position == len(blocks) - 1:
            return result
        if result["status"] == "error":
            return {**result, "earlier": position}
    raise ValueError("no block to run")


def check_exercise(number: int, filename: str, code: str, hints: str) -> dict[str, Any]:
    """``minitorch-hooks check number`` on ``code`` saved as ``filename``: its report, and
    whether every check passed, and the hint memory to keep."""
    fresh_start()
    from minitorch_hooks.__main__ import main
    from minitorch_hooks.cli.hint_memory import FILENAME

    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / filename).write_text(code, encoding="utf-8")
    memory = WORK / FILENAME
    memory.write_text(hints or "{}", encoding="utf-8")
    os.chdir(WORK)
    report = io.StringIO()
    with contextlib.redirect_stdout(report), contextlib.redirect_stderr(report):
        code_returned = main(["check", str(number), "--no-color"])
    return {"report": report.getvalue(), "passed": code_returned == 0,
            "hints": memory.read_text(encoding="utf-8") if memory.is_file() else "{}"}
