"""The Exercises section of the site, made from the texts the package ships.

Each exercise's ``README.md`` in ``minitorch_hooks/tutorials/`` is the one text of that
exercise: ``minitorch-hooks show N`` prints it, ``start N`` copies it, and the site renders
it here as ``exercises/exNN_<name>.md``, with the tutorials' own README as the section's
index. Nothing is copied into ``docs/``; ``docs_tools/hooks.py`` adds the pages to the
build and to the nav. Their links between exercises are rewritten to the site's pages.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # mkdocs loads the hooks by path, not as a package
    sys.path.insert(0, str(ROOT))

from docs_tools.translations import without_front_matter  # noqa: E402
from minitorch_hooks.tutorials import EXERCISES  # noqa: E402

FOLDER = "exercises"
INDEX = f"{FOLDER}/index.md"
SECTION = "Exercises"
_README_LINK = re.compile(r"\((?:\.\./)?(ex\d\d_\w+)/README\.md\)")

_HOW_TO_WORK = """
!!! tip "Working on it"
    `minitorch-hooks start {number}` copies the file to fill in, and this text beside it;
    `minitorch-hooks check {number}` checks your work step by step. `minitorch-hooks show
    {number}` prints this text in the terminal.
"""


def _site_links(markdown: str) -> str:
    return _README_LINK.sub(r"(\1.md)", markdown)


def _text(readme: Path, locale: str | None) -> str:
    """The README in the reader's language when it is translated, else the English one."""
    translated = readme.with_name(f"README.{locale}.md")
    if locale and translated.exists():
        return without_front_matter(translated.read_text(encoding="utf-8"))
    return readme.read_text(encoding="utf-8")


def exercise_pages(locale: str | None = None, how_to_work: str = _HOW_TO_WORK) -> dict[str, str]:
    """Every page of the section: its path under ``docs/`` and its Markdown.

    ``locale`` picks the translated READMEs (``README.ru.md``) where they exist, and
    ``how_to_work`` is the tip at the top of each exercise, in the same language.
    """
    pages = {INDEX: _site_links(_text(EXERCISES[0].folder.parent / "README.md", locale))}
    for exercise in EXERCISES:
        title, _, body = _text(exercise.text, locale).partition("\n")
        pages[f"{FOLDER}/{exercise.name}.md"] = (
            title + "\n" + how_to_work.format(number=exercise.number) + _site_links(body))
    return pages


def exercise_nav() -> list:
    """The section's entries for ``nav:``: the index, then one page per exercise."""
    return [INDEX, *({f"{exercise.number}. {exercise.title}": f"{FOLDER}/{exercise.name}.md"}
                     for exercise in EXERCISES)]
