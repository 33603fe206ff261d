"""Shared by the docs tests: the repository root on ``sys.path`` (for ``docs_tools``),
and the rule for checks that need optional tools."""

from __future__ import annotations

import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

IN_CI = os.environ.get("CI") == "true"


def skip_or_fail(reason: str) -> None:
    """Outside CI, a visible skip; in CI (``CI=true``) the check must run, so a failure.
    Also at a module's top, for a module that imports the docs extra as it loads."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: this check must run in CI)")
    pytest.skip(reason, allow_module_level=True)


def search_for(page, query: str) -> None:
    """Search the site for ``query`` in a loaded ``page``, and return once its results are
    listed: no fixed pause, whatever the machine's load.

    Material sends a query to its search worker on each key released in the search box,
    and the worker answers in order. So the box is emptied first (the worker's answer
    to an empty query empties the list), then filled with the whole query and a key is
    released: the first result that appears after that belongs to this query."""
    box = page.locator(".md-search__input")
    items = page.locator(".md-search-result__item")
    box.click()
    box.fill("")
    box.press("End")
    items.first.wait_for(state="detached", timeout=15000)
    box.fill(query)
    box.press("End")
    items.first.wait_for(timeout=15000)
