"""One recorded hook call, and how it is written on one line or saved as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


@dataclass
class HookEvent:
    """One call of one hook, as a trace saw it.

    ``where`` names the owner: a module by its qualified name (``encoder.0 (Linear)``), a
    tensor by what it is (``leaf tensor [2]``, ``output of MulBackward0``) or by the name
    given to the trace, a graph node by its name. ``received`` pairs each parameter the
    hook received (after its module) with a description of the value. ``replaced`` says
    the hook returned something other than ``None``, which takes the place of the value;
    ``raised`` is the name of the exception it raised, if it did.
    """

    index: int
    phase: str
    kind: str
    where: str
    hook: str
    received: tuple[tuple[str, str], ...]
    replaced: bool = False
    raised: str | None = None

    def call(self) -> str:
        """The call as code would write it: ``hook(args=([4, 10],))``."""
        return f"{self.hook}(" + ", ".join(f"{name}={value}"
                                           for name, value in self.received) + ")"

    def result(self) -> str:
        if self.raised is not None:
            return f"raised {self.raised}"
        return "replaced" if self.replaced else ""

    def line(self) -> str:
        """The event on one line without its number, so that two timelines can be
        compared line by line even where one has an extra event."""
        result = self.result()
        return (f"{self.phase}: {self.kind} on {self.where}: {self.call()}"
                + (f" -> {result}" if result else ""))


def events_to_json(events: list[HookEvent]) -> str:
    return json.dumps([asdict(event) for event in events], indent=1)


def events_from_json(text: str) -> list[HookEvent]:
    events = []
    for record in json.loads(text):
        record["received"] = tuple(tuple(pair) for pair in record["received"])
        events.append(HookEvent(**record))
    return events
