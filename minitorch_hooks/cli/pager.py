"""Showing long text a screen at a time, the way ``git log`` does.

At a terminal, text taller than the window goes through a pager: ``$PAGER`` when it is
set, ``less -R`` otherwise (``-R`` keeps the colours). Piped or redirected output, text
that fits, ``--no-pager``, an empty ``PAGER`` or a pager that cannot be found all print
straight to stdout, so a script or a test always gets the plain text.

A paged text opens with the keys that page and quit, for a reader who has never met
``less``. Its ``footer`` (the tour's "Next: ..." line) is shown at the end in the pager and
printed again once the pager has closed, so that quitting early does not lose the way on:
``less`` restores the screen as it was when it quits.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

DEFAULT_PAGER = "less -R"
KEYS = "(space: next page, b: back, /: search, q: quit)"


def pager_command() -> str | None:
    """The pager to run: ``$PAGER`` (empty means none), else ``less -R``; ``None`` when
    its program is not installed."""
    command = os.environ.get("PAGER", DEFAULT_PAGER).strip()
    if not command or shutil.which(shlex.split(command)[0]) is None:
        return None
    return command


def show(text: str, *, use_pager: bool = True, footer: str = "") -> None:
    """Print ``text`` and ``footer`` (after two blank lines), through the pager when a
    person at a terminal would need one."""
    whole = f"{text}\n\n\n{footer}" if footer else text
    if not (use_pager and sys.stdout.isatty()):
        print(whole)
        return
    rows = shutil.get_terminal_size().lines
    command = pager_command()
    if command is None or whole.count("\n") + 1 < rows:
        print(whole)
        return
    sys.stdout.flush()
    # Through the shell, as git does: PAGER may hold options and quoting.
    with subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                          encoding="utf-8", errors="replace") as pager:
        try:
            pager.stdin.write(f"{KEYS}\n\n{whole}\n")
            pager.stdin.close()
        except BrokenPipeError:
            pass  # the reader quit the pager before the end: nothing more to show
        pager.wait()
    if footer:
        print(footer)
