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
