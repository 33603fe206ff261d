"""pytest's summary lists each skipped test with its reason (the README says so), even
when the skip comes from a shared helper such as ``harness.real_torch``."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_skips_from_one_helper_are_listed_one_test_a_line(tmp_path: pathlib.Path) -> None:
    (tmp_path / "helper.py").write_text(
        "import pytest\n\ndef needs_something():\n    pytest.skip('something is missing')\n")
    (tmp_path / "test_two.py").write_text(
        "from helper import needs_something\n\n"
        "def test_one():\n    needs_something()\n\n"
        "def test_two():\n    needs_something()\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         "-p", "tests.conftest", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)])))
    skipped = [line for line in run.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped == ["SKIPPED [1] test_two.py:3: something is missing",
                       "SKIPPED [1] test_two.py:6: something is missing"], run.stdout
