"""Stopping a script that runs too long: ``--timeout SECONDS``, Ctrl-C and SIGTERM.

``run`` and ``compare`` execute a learner's script, which may never end (a training loop
with the wrong condition). Both take ``--timeout SECONDS``, and both turn the three ways
of stopping into one exception, :class:`Stopped`, raised where the script (or ``compare``,
waiting for its two runs) happens to be, so that ``finally`` blocks run and the command
can say what stopped and clean up. ``compare`` starts each run in a process group of its
own and, when stopped, ends that whole group (:func:`stop_group`): the run, and anything
the script started, so that nothing is left behind.

The exit codes are the shell's conventions, which ``timeout(1)`` follows too:

* 124: the ``--timeout`` ran out (``compare`` has one by default: :data:`COMPARE_TIMEOUT`);
* 130: Ctrl-C (SIGINT, 128 + 2);
* 143: SIGTERM (128 + 15), as from ``kill`` or a CI runner cancelling a job.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from types import FrameType

EXIT_TIMEOUT, EXIT_INTERRUPTED, EXIT_TERMINATED = 124, 130, 143

# ``compare``'s timeout when none is given: it runs two processes where the user asked for
# one, so a script that never ends must not keep both waiting for ever. Ten minutes is far
# more than a course script takes on both libraries.
COMPARE_TIMEOUT = 600.0

# How long a stopped process group gets to end after SIGTERM before SIGKILL.
GRACE_SECONDS = 2.0


class Stopped(BaseException):  # noqa: N818 - it is not an error of the script's
    """The script was stopped: ``reason`` says why, ``code`` is the exit code to give. A
    BaseException, like KeyboardInterrupt, so that the script's ``except Exception``
    cannot swallow it."""

    def __init__(self, reason: str, code: int) -> None:
        super().__init__(reason)
        self.reason, self.code = reason, code


def add_timeout_argument(parser: argparse.ArgumentParser, default: float | None = None
                         ) -> None:
    """``--timeout SECONDS``, for ``run`` (no default: the learner runs the script) and
    ``compare`` (a default, :data:`COMPARE_TIMEOUT`: it starts two runs)."""
    default_text = f"; by default {_seconds(default)}" if default else ""
    parser.add_argument(
        "--timeout", type=_positive_seconds, metavar="SECONDS", default=default,
        help=f"stop the script after SECONDS seconds{default_text} (exit code 124; Ctrl-C "
             "gives 130, SIGTERM 143)")


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"SECONDS must be a positive number, not {text!r}")
    return seconds


def _seconds(value: float) -> str:
    return f"{value:g} second{'' if value == 1 else 's'}"


@contextlib.contextmanager
def stoppable(timeout: float | None) -> Iterator[None]:
    """While active, the timeout, SIGINT and SIGTERM raise :class:`Stopped` in the main
    thread. (SIGINT is set explicitly: a process started in the background may have
    inherited it ignored.) The previous handlers come back afterwards."""
    def stop(reason: str, code: int):
        def handler(signum: int, frame: FrameType | None) -> None:
            raise Stopped(reason, code)

        return handler

    previous = {
        signal.SIGINT: signal.signal(signal.SIGINT, stop("interrupted (Ctrl-C)",
                                                         EXIT_INTERRUPTED)),
        signal.SIGTERM: signal.signal(signal.SIGTERM, stop("terminated (SIGTERM)",
                                                           EXIT_TERMINATED)),
    }
    if timeout is not None:
        previous[signal.SIGALRM] = signal.signal(
            signal.SIGALRM, stop(f"stopped after {_seconds(timeout)} (--timeout)", EXIT_TIMEOUT))
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        if timeout is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def stop_group(process: subprocess.Popen) -> None:
    """End ``process``'s process group (it must lead one: ``start_new_session=True``):
    SIGTERM, then SIGKILL for whatever is still there after :data:`GRACE_SECONDS`."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signum)
        try:
            process.wait(GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            continue
        with contextlib.suppress(ProcessLookupError):  # what the script itself started
            os.killpg(process.pid, signal.SIGKILL)
        return
    process.wait()
