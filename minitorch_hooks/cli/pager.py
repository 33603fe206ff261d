"""Showing long text a screen at a time, the way ``git log`` does.

At a terminal, text taller than the window goes through a pager: ``$PAGER`` when it is
set, ``less -R`` otherwise (``-R`` keeps the colours). Piped or redirected output, text
that fits, ``--no-pager``, an empty ``PAGER`` or a pager that cannot be found all print
straight to stdout, so a script or a test always gets the plain text.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

DEFAULT_PAGER = "less -R"


def pager_command() -> str | None:
    """The pager to run: ``$PAGER`` (empty means none), else ``less -R``; ``None`` when
    its program is not installed."""
    command = os.environ.get("PAGER", DEFAULT_PAGER).strip()
    if not command or shutil.which(shlex.split(command)[0]) is None:
        return None
    return command


def show(text: str, *, use_pager: bool = True) -> None:
    """Print ``text``, through the pager when a person at a terminal would need one."""
    if not (use_pager and sys.stdout.isatty()):
        print(text)
        return
    rows = shutil.get_terminal_size().lines
    command = pager_command()
    if command is None or text.count("\n") + 1 < rows:
        print(text)
        return
    sys.stdout.flush()
    # Through the shell, as git does: PAGER may hold options and quoting.
    with subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                          encoding="utf-8", errors="replace") as pager:
        try:
            pager.stdin.write(text + "\n")
            pager.stdin.close()
        except BrokenPipeError:
            pass  # the reader quit the pager before the end: nothing more to show
        pager.wait()
