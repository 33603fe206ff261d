"""Installing PyTorch is written one way everywhere a learner or contributor reads it.

The line lives in ``minitorch_hooks/cli/pytorch.py`` (``INSTALL_PYTORCH``); the README,
the pages, CONTRIBUTING, the skip reasons, ``check``'s message when PyTorch's recorded
answers do not fit a check, and ``compare``'s message all give that line and no other.
The extras table of the Installing page lists every extra of ``pyproject.toml``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from minitorch_hooks.cli.pytorch import INSTALL_HINT, INSTALL_PYTORCH, MISSING
from minitorch_hooks.tutorials.answers import out_of_date

ROOT = Path(__file__).parents[1]
SOURCES = sorted({*ROOT.glob("*.md"), *ROOT.glob("docs/**/*.md"),
                  *ROOT.glob("minitorch_hooks/**/*.md"), *ROOT.glob("minitorch_hooks/**/*.py"),
                  *ROOT.glob("tests/**/*.py"), *ROOT.glob("benchmarks/*.py"),
                  *ROOT.glob("docs_tools/*.py")} - {ROOT / "CHANGELOG.md", Path(__file__),
                                          ROOT / "minitorch_hooks/cli/pytorch.py"})
# A command that installs PyTorch: the conformance extra, or torch itself.
INSTALLS_TORCH = re.compile(r"pip install[^\n`]*(conformance|\btorch\b)")


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_instruction_to_install_pytorch_is_the_same_line(path):
    text = path.read_text(encoding="utf-8")
    for match in INSTALLS_TORCH.finditer(text):
        line = text[match.start():text.find("\n", match.start())]
        assert line.startswith(INSTALL_PYTORCH), line


def test_the_messages_give_that_line():
    assert INSTALL_PYTORCH in MISSING and INSTALL_PYTORCH in INSTALL_HINT
    assert INSTALL_PYTORCH in out_of_date("a check")


def test_the_extras_table_lists_every_extra():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = pyproject.split("[project.optional-dependencies]")[1].split("\n[")[0]
    extras = re.findall(r"^(\w+) = \[", section, re.MULTILINE)
    assert "tutorials" in extras
    for page in (ROOT / "docs/start/install.md", ROOT / "CONTRIBUTING.md"):
        rows = re.findall(r"^\| `(\w+)` \|", page.read_text(encoding="utf-8"), re.MULTILINE)
        assert sorted(rows) == sorted(extras), page


def test_the_quick_start_makes_a_venv_first():
    """PEP 668 systems (Debian, Ubuntu, Homebrew) refuse pip outside a virtual
    environment, so the first command of the README makes and activates one; the package
    is installed once, editable and with the test extra, not once plain and then again."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    assert lines[0].startswith("python3 -m venv .venv && . .venv/bin/activate")
    assert lines[1:] == ['pip install -e ".[test]" && minitorch-hooks tour', "pytest"]
    assert sum("pip install" in line for line in lines) == 1
