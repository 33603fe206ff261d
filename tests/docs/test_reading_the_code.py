"""The "Reading the code" page keeps in step with the package: every Python file of
``minitorch_hooks`` is named there (as part of the hook core, or as a parity extra a hook
learner may skip), every file or folder it names exists, and every file of the hook core
links to the page the site publishes for it (``docs_tools/source_pages.py``)."""

from __future__ import annotations

import re

from docs_support import ROOT

from docs_tools.source_pages import linked_files, source_page, source_pages

PAGE = ROOT / "docs" / "reference" / "reading-the-code.md"
PACKAGE = ROOT / "minitorch_hooks"


def _named_paths(text: str) -> set[str]:
    """The paths in backticks, relative to the package (``minitorch_hooks/`` dropped)."""
    paths = set()
    for token in re.findall(r"`([^`\s]+)`", text):
        if token.endswith((".py", "/")):
            paths.add(token.removeprefix("minitorch_hooks/"))
    return paths


def _core_table(text: str) -> list[str]:
    section = text.split("## The hook core", 1)[1].split("\n## ", 1)[0]
    return [path.removeprefix("minitorch_hooks/")
            for path in re.findall(r"^\| \d+ \| \[?`([^`]+)`", section, flags=re.MULTILINE)]


def _covers(path: str, file: str) -> bool:
    if path.endswith("/"):
        return file.startswith(path)
    return file == path or ("/" not in path and path == "__init__.py"
                            and file.endswith("__init__.py"))


def test_every_named_file_exists() -> None:
    missing = [path for path in _named_paths(PAGE.read_text("utf-8"))
               if not (PACKAGE / path).exists()]
    assert not missing, f"the page names files that do not exist: {missing}"


def test_every_python_file_of_the_package_is_named() -> None:
    named = _named_paths(PAGE.read_text("utf-8"))
    files = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py"))
    unnamed = [file for file in files if not any(_covers(path, file) for path in named)]
    assert not unnamed, f"files the page does not place (core or extra): {unnamed}"


def test_the_hook_core_is_listed_in_reading_order_and_starts_at_the_table() -> None:
    core = _core_table(PAGE.read_text("utf-8"))
    assert core[0] == "utils/hooks.py"
    assert {"autograd/engine.py", "nn/modules/module.py", "optim/optimizer.py"} <= set(core)
    assert len(core) == len(set(core))


def test_every_file_of_the_hook_core_links_to_its_published_page() -> None:
    text = PAGE.read_text("utf-8")
    linked = linked_files(PAGE)
    core = _core_table(text)
    files = [path for path in core if not path.endswith("/")]
    folders = [path for path in core if path.endswith("/")]
    assert [path for path in linked if not path.startswith(tuple(folders))] == files
    for folder in folders:  # a folder of the core: at least one of its files linked
        assert any(path.startswith(folder) for path in linked), folder
    missing = [path for path in linked if not (PACKAGE / path).is_file()]
    assert not missing, f"the page links to files that do not exist: {missing}"
    assert set(source_pages()) == {f"reference/source/{path}.md" for path in linked}


def test_a_published_page_shows_the_whole_file_with_line_numbers() -> None:
    page = source_page("utils/hooks.py", "{lines} lines, see [the page]({back})")
    code = (PACKAGE / "utils/hooks.py").read_text("utf-8")
    assert page.startswith("---\nsearch:\n  exclude: true\n---\n\n"
                           "# `minitorch_hooks/utils/hooks.py`")
    assert f"{code.count(chr(10))} lines, see [the page](../../reading-the-code.md)" in page
    fence = re.search(r'^(`{3,})python linenums="1"$', page, flags=re.MULTILINE).group(1)
    assert page.endswith(f"\n{code}{fence}\n")
    assert fence not in code
