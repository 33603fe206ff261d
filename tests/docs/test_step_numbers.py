"""Numbered steps read the same in the text and in the picture.

Python-Markdown renders every ordered list as ``<ol>`` counting from 1, whatever number
the Markdown wrote first; so a list written from ``0.`` is shown one higher than its
source, and than a diagram that numbers the same steps. Two checks, on every page: each
ordered list in the Markdown starts at 1, and where a Mermaid diagram numbers its boxes
("2 · backward set-up"), the page's numbered list has exactly those numbers.
"""

from __future__ import annotations

import re

from docs_tools.blocks import DOCS, pages

LIST_ITEM = re.compile(r"^(\d+)\. ", re.MULTILINE)
DIAGRAM_STEP = re.compile(r'\["(\d+) · ')
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def test_every_ordered_list_starts_at_one() -> None:
    wrong = {}
    for path in pages():
        text = FENCE.sub("", path.read_text(encoding="utf-8"))
        starts = [int(m.group(1)) for m in LIST_ITEM.finditer(text)
                  if m.start() == 0 or not LIST_ITEM.match(_previous_item_line(text, m.start()))]
        if any(start != 1 for start in starts):
            wrong[path.relative_to(DOCS).as_posix()] = starts
    assert not wrong, f"ordered lists that do not start at 1 (rendered from 1): {wrong}"


def _previous_item_line(text: str, start: int) -> str:
    """The last line before ``start`` that begins at the margin."""
    for line in reversed(text[:start].splitlines()):
        if line and not line[0].isspace():
            return line
    return ""


def test_a_diagram_and_its_list_number_the_same_steps() -> None:
    checked = 0
    for path in pages():
        text = path.read_text(encoding="utf-8")
        diagram = sorted({int(n) for n in DIAGRAM_STEP.findall(text)})
        if not diagram:
            continue
        numbers = [int(n) for n in LIST_ITEM.findall(FENCE.sub("", text))]
        assert numbers == diagram, (path.name, numbers, diagram)
        checked += 1
    assert checked >= 1
