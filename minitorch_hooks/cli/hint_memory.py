"""Which steps of which exercise have failed before, for ``check``'s staged help.

The first failure of a step shows why it failed, and lets the learner think; the second
failure of the same step adds a nudge (which value or rule to look at), the third and later
a pointer (where to look). The solution line never comes by itself: ``check --solution``
shows it. Remembering the failures between runs takes a small JSON file beside the
learner's file, ``.minitorch-hooks-hints.json``: ``{"ex01_package_pattern": {"2": 1}}``
means step 2 of exercise 1 has failed once. A step that passes is forgotten. A file that
cannot be read or written is simply no memory: the help then waits for ``--hint``.
"""

from __future__ import annotations

import json
from pathlib import Path

FILENAME = ".minitorch-hooks-hints.json"


class HintMemory:
    """The failures remembered in ``folder`` (``None``: remember nothing)."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / FILENAME
        self.failures: dict[str, dict[str, int]] = {}
        if self.path is not None and self.path.is_file():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                loaded = {}
            if isinstance(loaded, dict):
                self.failures = loaded

    def failed_before(self, exercise: str, step: int) -> int:
        """How many earlier runs this step failed in."""
        count = self.failures.get(exercise, {}).get(str(step), 0)
        return count if isinstance(count, int) else 0

    def update(self, exercise: str, failed: set[int], passed: set[int]) -> None:
        """Count one more failure for each step in ``failed``; forget those in ``passed``."""
        if self.path is None:
            return
        steps = self.failures.setdefault(exercise, {})
        for step in failed:
            steps[str(step)] = self.failed_before(exercise, step) + 1
        for step in passed - failed:
            steps.pop(str(step), None)
        try:
            self.path.write_text(json.dumps(self.failures, indent=1) + "\n", encoding="utf-8")
        except OSError:
            pass  # a read-only folder: no memory, the hints wait for --hint
