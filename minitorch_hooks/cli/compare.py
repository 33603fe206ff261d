"""``minitorch-hooks compare SCRIPT.py``: does the script behave the same on both libraries?

The script runs twice, each time in a fresh interpreter so that neither run can disturb
the other: once on real PyTorch, once on minitorch_hooks, both with ``minitorch-hooks run
--trace-json`` (``--real-torch`` for the first). Then three things are compared: what the
script printed, the timeline of its hook calls, and how it ended (its exit code and, when
it raised, the last line of its error). Each difference is shown as a unified diff; the
exit code is 0 when there is none and 1 otherwise (2 when PyTorch is not installed).

Each run leads a process group of its own. ``--timeout SECONDS`` (for both runs together;
600 by default, as a script that never ends would keep two processes waiting), Ctrl-C and
SIGTERM end both groups, with anything the script started, say so, and exit
with 124, 130 or 143 (``cli/stopping.py``): no run is left behind.

Hooks on graph nodes are left out of the timelines: on real PyTorch they cannot be seen
(see ``tracing/registration.py``), so the comparison says how many it left out.
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import minitorch_hooks

from ..tracing.events import HookEvent, events_from_json
from ..tracing.registration import NOT_SEEN
from . import stopping
from .pytorch import INSTALL_HINT, pytorch_installed
from .run import add_script_arguments, no_such_script
from .stopping import Stopped, add_timeout_argument, stop_group, stoppable


def add_compare_command(commands: argparse._SubParsersAction) -> None:
    """Add ``compare`` to the subcommands of ``minitorch-hooks``."""
    compare = commands.add_parser(
        "compare", help="run a script on PyTorch and on minitorch_hooks, and compare",
        description=("Run SCRIPT.py on real PyTorch and on minitorch_hooks, and show where "
                     "their printed output, their hook timelines or their outcome differ. "
                     "Exit code 0 when they are the same, 1 when not, 2 without PyTorch; "
                     "124 after --timeout, 130 after Ctrl-C, 143 after SIGTERM, with both "
                     "runs stopped."))
    add_timeout_argument(compare, default=stopping.COMPARE_TIMEOUT)
    add_script_arguments(compare)
    compare.set_defaults(handler=run_compare)


@dataclass
class Run:
    """How one run of the script went."""

    stdout: str
    stderr: str
    code: int
    events: list[HookEvent]

    def outcome(self) -> list[str]:
        """The exit code, and the last line of the error when the script failed."""
        lines = [f"exit code {self.code}"]
        if self.code != 0 and self.stderr.strip():
            lines.append(self.stderr.strip().splitlines()[-1])
        return lines


def run_compare(args: argparse.Namespace) -> int:
    if not pytorch_installed():
        print(f"minitorch-hooks compare: {INSTALL_HINT}", file=sys.stderr)
        return 2
    if no_such_script("compare", args.script):
        return 2
    started: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as folder:
        try:
            with stoppable(args.timeout):
                theirs, ours = _run_both(args.script, args.script_args, Path(folder), started)
        except Stopped as stop:
            for process in started:
                stop_group(process)
            print(f"minitorch-hooks compare: {args.script} {stop.reason}; its runs on "
                  "PyTorch and minitorch_hooks were stopped", file=sys.stderr)
            return stop.code
    left_out = [event for event in ours.events if event.kind in NOT_SEEN]
    kept = [event for event in ours.events if event.kind not in NOT_SEEN]
    sections = [
        ("printed output", theirs.stdout.splitlines(), ours.stdout.splitlines()),
        ("hook timeline", [e.line() for e in theirs.events], [e.line() for e in kept]),
        ("outcome", theirs.outcome(), ours.outcome()),
    ]
    print(f"compare {args.script}: PyTorch (---) and minitorch_hooks (+++)")
    same = True
    for title, their_lines, our_lines in sections:
        if their_lines == our_lines:
            print(f"{title}: the same ({_count(title, our_lines)})")
            continue
        same = False
        print(f"{title}: different")
        print("\n".join(difflib.unified_diff(their_lines, our_lines, "PyTorch",
                                             "minitorch_hooks", lineterm="")))
    if left_out:
        print(f"left out: {len(left_out)} graph-node hook call(s) of minitorch_hooks, "
              "which cannot be watched on PyTorch")
    return 0 if same else 1


def _count(title: str, lines: list[str]) -> str:
    if title == "outcome":
        return "; ".join(lines)
    return f"{len(lines)} {'line' if title == 'printed output' else 'hook call'}(s)"


def _run_both(script: str, argv: list[str], folder: Path, started: list[subprocess.Popen]
              ) -> tuple[Run, Run]:
    """Both runs at once, each ``python -m minitorch_hooks run`` in its own process and
    process group; ``started`` gets each process as it starts, for stopping them."""
    source_root = str(Path(minitorch_hooks.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source_root, env.get("PYTHONPATH")]))
    timelines = [folder / "PyTorch.json", folder / "minitorch_hooks.json"]
    for events, options in zip(timelines, (["--real-torch"], [])):
        command = [sys.executable, "-m", "minitorch_hooks", "run", "--trace-json",
                   str(events), *options, script, *argv]
        started.append(subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=env,
                                        start_new_session=True))
    runs = []
    for events, process in zip(timelines, started):
        stdout, stderr = process.communicate()
        recorded = events_from_json(events.read_text()) if events.exists() else []
        runs.append(Run(stdout, stderr, process.returncode, recorded))
    return runs[0], runs[1]
