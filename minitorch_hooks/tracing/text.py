"""The timeline as text: one row per hook call, in the order the hooks ran."""

from __future__ import annotations

import textwrap

from .events import HookEvent

_HEADER = ("#", "phase", "kind", "where", "hook(what it received) -> result")


def render_text(events: list[HookEvent], width: int | None = None) -> str:
    """An aligned table; a tensor a hook received shows as its shape, ``[4, 10]``.

    With a ``width``, a table that would be wider puts each call on lines of its own
    under its row, wrapped, so that a terminal or a pager never cuts it off.
    """
    if not events:
        return "(no hook fired)"
    rows = [_HEADER, *((str(e.index), e.phase, e.kind, e.where,
                        e.call() + (f" -> {e.result()}" if e.result() else ""))
                       for e in events)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(_HEADER) - 1)]
    lines = ["  ".join([row[0].rjust(widths[0]),
                        *(cell.ljust(width) for cell, width in zip(row[1:-1], widths[1:])),
                        row[-1]])
             for row in rows]
    if width is None or max(len(line) for line in lines) <= width:
        return "\n".join(lines)
    indent = " " * (widths[0] + 2)
    wrapped = []
    for line, row in zip(lines, rows):
        wrapped.append(line[:len(line) - len(row[-1])].rstrip())
        wrapped += textwrap.wrap(row[-1], width, initial_indent=indent,
                                 subsequent_indent=indent + "    ", break_on_hyphens=False)
    return "\n".join(wrapped)
