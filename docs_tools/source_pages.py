"""The package's own files as pages of the site, for the "Reading the code" page.

That page links each file of the hook core to the file itself, so that a learner reads
the code, not a summary of it. mkdocs checks every link of the site and accepts only pages
of the site (``mkdocs build --strict`` refuses a link out of ``docs/``). So the build
publishes each file the page links to as a page of its own, ``reference/source/<path>.md``
(``source/utils/hooks.py.md`` for ``minitorch_hooks/utils/hooks.py``): the file exactly as
it is in the checkout the site is built from, with line numbers, highlighted at build time
like every code block of the site. Nothing is fetched, and nothing is written into
``docs/``; the mkdocs hook (``docs_tools/hooks.py``) adds the pages as generated files.

Which files: those the English page links to, read from the page itself, so that linking
one more file there publishes it. ``tests/docs/test_reading_the_code.py`` checks that
every file of the hook core is linked and that every link names a file of the package.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "minitorch_hooks"
PAGE = ROOT / "docs" / "reference" / "reading-the-code.md"
FOLDER = "reference/source"

# A link from the page to a published file:
# [`minitorch_hooks/utils/hooks.py`](source/utils/hooks.py.md)
LINK = re.compile(r"\]\(source/([^)\s]+\.py)\.md\)")


def linked_files(page: Path = PAGE) -> list[str]:
    """The files the page links to, relative to the package, in the page's order."""
    return list(dict.fromkeys(LINK.findall(page.read_text(encoding="utf-8"))))


def source_page(path: str, note: str) -> str:
    """The Markdown of the page showing ``minitorch_hooks/<path>``.

    The fence is longer than any run of backticks in the file, so a docstring that shows
    a Markdown code block cannot end it early. The page stays out of the site's search:
    its words are the code's, which the reference pages already make searchable.
    """
    code = (PACKAGE / path).read_text(encoding="utf-8")
    fence = "`" * max(3, *(len(run) + 1 for run in re.findall("`+", code)))
    back = "../" * path.count("/") + "../reading-the-code.md"
    lines = code.count("\n")
    return (f"---\nsearch:\n  exclude: true\n---\n\n# `minitorch_hooks/{path}`\n\n"
            f"{note.format(lines=lines, back=back)}\n\n"
            f'{fence}python linenums="1"\n{code}{fence}\n')


NOTE = ("This file as it is in the version of minitorch_hooks this site was built from "
        "({lines} lines). [Reading the code]({back}) says where it fits in the hook core.")


def source_pages(note: str = NOTE) -> dict[str, str]:
    """Every published file: its path under ``docs/`` and its Markdown."""
    return {f"{FOLDER}/{path}.md": source_page(path, note) for path in linked_files()}
