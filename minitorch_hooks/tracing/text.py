"""The timeline as text: one row per hook call, in the order the hooks ran."""

from __future__ import annotations

from .events import HookEvent

_HEADER = ("#", "phase", "kind", "where", "hook(what it received) -> result")


def render_text(events: list[HookEvent]) -> str:
    """An aligned table; a tensor a hook received shows as its shape, ``[4, 10]``."""
    if not events:
        return "(no hook fired)"
    rows = [_HEADER, *((str(e.index), e.phase, e.kind, e.where,
                        e.call() + (f" -> {e.result()}" if e.result() else ""))
                       for e in events)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(_HEADER) - 1)]
    return "\n".join(
        "  ".join([row[0].rjust(widths[0]),
                   *(cell.ljust(width) for cell, width in zip(row[1:-1], widths[1:])),
                   row[-1]])
        for row in rows)
