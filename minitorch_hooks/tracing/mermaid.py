"""The timeline as a Mermaid sequence diagram (https://mermaid.js.org), for Markdown pages.

Each phase (forward, backward, state_dict, registration, step) is a participant that calls the
owners of the hooks: an arrow per hook call, and a dashed arrow back when the hook replaced
the value (a crossed one when it raised).
"""

from __future__ import annotations

from .events import HookEvent

# Characters Mermaid would read as syntax, written as its entity codes; a participant's
# name may not hold a colon either (``torch::autograd::AccumulateGrad``).
_ESCAPES = str.maketrans({"#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;"})
_NAME_ESCAPES = str.maketrans({"#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;",
                               ":": "#58;"})


def _escape(text: str, table: dict = _ESCAPES) -> str:
    return text.translate(table)


def render_mermaid(events: list[HookEvent]) -> str:
    lines = ["sequenceDiagram"]
    if not events:
        return "\n".join([*lines, "    participant trace", "    Note over trace: no hook fired"])
    phases = list(dict.fromkeys(event.phase for event in events))
    owners = {where: f"o{number}" for number, where in
              enumerate(dict.fromkeys(event.where for event in events), start=1)}
    lines += [f"    participant {phase} as {phase}" for phase in phases]
    lines += [f"    participant {ident} as {_escape(where, _NAME_ESCAPES)}"
              for where, ident in owners.items()]
    for event in events:
        owner = owners[event.where]
        lines.append(f"    {event.phase}->>{owner}: "
                     + _escape(f"{event.index}. {event.kind}: {event.call()}"))
        if event.raised is not None:
            lines.append(f"    {owner}--x{event.phase}: " + _escape(event.result()))
        elif event.replaced:
            lines.append(f"    {owner}-->>{event.phase}: replaced")
    return "\n".join(lines)
