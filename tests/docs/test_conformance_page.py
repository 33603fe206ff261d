"""``docs/conformance.md`` is what the conformance suite gives today.

The check (``python -m docs_tools.conformance --check``, in a separate process so that its
pytest session is its own) collects the suite and compares the page of a run where every
case passes with the committed one: whether every case passes is this test run's own
verdict, since the suite runs in it. It needs no PyTorch, and runs in both modes.
"""

from __future__ import annotations

import subprocess
import sys

from docs_support import ROOT

from docs_tools.conformance import Behaviour, readable


def test_the_committed_conformance_page_is_current() -> None:
    check = subprocess.run([sys.executable, "-m", "docs_tools.conformance", "--check"],
                           cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_behaviour_is_reported_by_what_its_cases_did() -> None:
    assert Behaviour("test_x", "", ["passed", "passed"]).result == "matches"
    assert Behaviour("test_x", "", ["passed", "failed"]).result == "DIFFERS (1 of 2 cases)"
    assert Behaviour("test_x_deviation", "", ["passed"]).result == "deviation, by design"
    assert Behaviour("test_x_deviation", "", ["failed"]).result.startswith("DIFFERS")
    assert Behaviour("test_x", "", ["skipped"]).result == "not run"
    assert Behaviour("test_hook_order_deviation", "", []).title == "Hook order"


def test_titles_read_as_sentences_and_marks_need_no_emoji_font() -> None:
    assert readable("to_a_non_cpu_device_is_an_error") == "To a non-CPU device is an error"
    assert readable("bad_input_gets_pytorchs_error") == "Bad input gets PyTorch's error"
    marks = [Behaviour("test_x", "", outcomes).result
             for outcomes in (["passed"], ["failed"], ["skipped"])]
    assert all(mark.isascii() for mark in marks)
