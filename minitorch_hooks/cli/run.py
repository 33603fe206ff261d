"""``minitorch-hooks run SCRIPT.py``: run an ordinary PyTorch script on minitorch_hooks.

The script runs as ``python SCRIPT.py`` would run it (as ``__main__``, with its own
``sys.argv`` and its folder on ``sys.path``), but its ``import torch`` and ``import
torch.nn as nn`` give minitorch_hooks (``install_as_torch``, in ``cli/torch_alias.py``).
``--trace`` prints the timeline of every hook call after the script's output, ``--svg
FILE`` and ``--mermaid FILE`` save it as a drawing, and ``--trace-json FILE`` as data.
``--real-torch`` runs the script on real PyTorch instead, traced the same way: that is how
``minitorch-hooks compare`` sees both sides.

The exit code is the script's: 0, the code it passed to ``sys.exit``, or 1 when it raised,
after its traceback (from the script's own frames on) is printed on stderr. ``--timeout
SECONDS``, Ctrl-C and SIGTERM stop the script where it is, show where that was and exit
with 124, 130 and 143 (``cli/stopping.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import runpy
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

from .. import _missing
from ..tracing import Trace, hook_trace
from . import stopping, torch_alias
from .pytorch import INSTALL_HINT
from .stopping import Stopped, add_timeout_argument, stoppable
from .torch_alias import install_as_torch


def add_run_command(commands: argparse._SubParsersAction) -> None:
    """Add ``run`` to the subcommands of ``minitorch-hooks``."""
    run = commands.add_parser(
        "run", help="run a PyTorch script on minitorch_hooks, and see its hooks fire",
        description=("Run SCRIPT.py with 'import torch' giving minitorch_hooks. A torch "
                     "feature minitorch_hooks lacks fails with an error naming it. The "
                     "exit code is the script's (1 when it raised; 124 after --timeout, "
                     "130 after Ctrl-C, 143 after SIGTERM)."))
    add_timeout_argument(run)
    add_script_arguments(run)
    run.add_argument("--trace", action="store_true",
                     help="print the timeline of every hook call after the script's output")
    run.add_argument("--svg", metavar="FILE", help="write the timeline as an SVG drawing")
    run.add_argument("--mermaid", metavar="FILE",
                     help="write the timeline as a Mermaid sequence diagram (a FILE "
                          "ending in .md gets it in a ```mermaid block, ready for a page)")
    run.add_argument("--trace-json", metavar="FILE",
                     help="write the hook calls as JSON (what 'compare' reads)")
    run.add_argument("--real-torch", action="store_true",
                     help="run on real PyTorch instead, its hooks traced as they are "
                          "registered")
    run.set_defaults(handler=run_script)


def add_script_arguments(parser: argparse.ArgumentParser) -> None:
    """``SCRIPT.py`` and the arguments passed on to it (for ``run`` and ``compare``)."""
    parser.add_argument("script", metavar="SCRIPT.py", help="the script to run")
    parser.add_argument("script_args", nargs=argparse.REMAINDER, metavar="ARGS",
                        help="passed on to the script as sys.argv[1:]")


def no_such_script(command: str, script: str) -> bool:
    """Say so on stderr when ``script`` is not a file; the caller then exits with 2."""
    if Path(script).is_file():
        return False
    print(f"minitorch-hooks {command}: no such script: {script}", file=sys.stderr)
    return True


def run_script(args: argparse.Namespace) -> int:
    if no_such_script("run", args.script):
        return 2
    script = Path(args.script)
    torch = None
    if args.real_torch:
        try:
            torch = importlib.import_module("torch")
        except ImportError:
            print(f"minitorch-hooks run --real-torch: {INSTALL_HINT}", file=sys.stderr)
            return 2
    traced = args.trace or args.svg or args.mermaid or args.trace_json
    with contextlib.ExitStack() as stack:
        if torch is None:
            # the caller's own real torch, if any, is set aside while the script runs
            stack.enter_context(install_as_torch(set_aside_real_torch=True))
        recorded = stack.enter_context(hook_trace(torch=torch)) if traced else None
        code = run_path(script, args.script_args, args.timeout)
    if recorded is not None:
        _report(recorded, args)
    return code


def run_path(script: Path, argv: list[str], timeout: float | None = None) -> int:
    """Run ``script`` as ``__main__`` and return its exit code; stop it after ``timeout``
    seconds, or at Ctrl-C or SIGTERM."""
    saved_argv, saved_path = sys.argv, sys.path[:]
    sys.argv = [str(script), *argv]
    sys.path.insert(0, str(script.resolve().parent))
    try:
        with stoppable(timeout):
            runpy.run_path(str(script), run_name="__main__")
    except SystemExit as stop:
        return _exit_code(stop.code)
    except Stopped as stop:
        sys.stdout.flush()
        _print_traceback(stop, script)
        return stop.code
    except Exception as error:  # noqa: BLE001 - reported as Python would, then exit 1
        sys.stdout.flush()
        _print_traceback(error, script)
        return 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return 0


def _exit_code(code: object) -> int:
    """What the interpreter does with ``sys.exit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _print_traceback(error: BaseException, script: Path) -> None:
    """The traceback as Python prints it, from the script's first frame on and without
    the frames of the torch alias and of a missing name's error: runpy's frames and ours
    are not the learner's. (With
    no frame at all when the script never ran, as after a syntax error.)"""
    tb = error.__traceback__
    target = str(script.resolve())
    while tb is not None and str(Path(tb.tb_frame.f_code.co_filename).resolve()) != target:
        tb = tb.tb_next
    report = traceback.TracebackException(type(error), error, tb)
    report.stack = traceback.StackSummary.from_list(
        [frame for frame in report.stack
         if frame.filename not in (torch_alias.__file__, stopping.__file__, _missing.__file__)])
    if isinstance(error, Stopped):  # where the script was, then why it stopped
        lines = [*report.format()][:-1]
        lines.append(f"minitorch-hooks run: {script} {error.reason}\n")
    else:
        lines = [*report.format()]
    print("".join(lines), end="", file=sys.stderr)


ON_PYTORCH_NOTE = ("(On PyTorch, hooks are seen as they are registered; graph-node hooks, "
                   "grad_fn.register_hook and register_prehook, cannot be, and are left out.)")


def _report(recorded: Trace, args: argparse.Namespace) -> None:
    if args.trace:
        if args.real_torch:
            print(f"\nHook timeline (PyTorch, by minitorch_hooks.hook_trace):\n{ON_PYTORCH_NOTE}")
        else:
            print("\nHook timeline (minitorch_hooks.hook_trace):")
        print(recorded.text())
    for path, text in ((args.svg, recorded.svg), (args.mermaid, _mermaid_text(recorded, args)),
                       (args.trace_json, recorded.json)):
        if path:
            Path(path).write_text(text().rstrip("\n") + "\n", encoding="utf-8")


def _mermaid_text(recorded: Trace, args: argparse.Namespace) -> Callable[[], str]:
    """The diagram as it is (for a .mmd file or mermaid-cli), or fenced for Markdown."""
    if args.mermaid and Path(args.mermaid).suffix.lower() == ".md":
        return lambda: f"```mermaid\n{recorded.mermaid().rstrip()}\n```"
    return recorded.mermaid

