"""The "Reading the code" page keeps in step with the package: every Python file of
``minitorch_hooks`` is named there (as part of the hook core, or as a parity extra a hook
learner may skip), and every file or folder it names exists."""

from __future__ import annotations

import re

from docs_support import ROOT

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
            for path in re.findall(r"^\| \d+ \| `([^`]+)`", section, flags=re.MULTILINE)]


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
