"""``docs/reference/coverage.md``, the API coverage page, says what the code has today, its
marks are true, and the course itself uses nothing that is missing.

The page is generated from the shipped list of PyTorch's names and from what
minitorch_hooks can import, so it needs no PyTorch; the list itself is checked against
real PyTorch (visibly skipped without it).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from harness import real_torch

import minitorch_hooks
from docs_tools import api_coverage
from minitorch_hooks._missing import MODULES, TorchFeatureNotImplementedError
from minitorch_hooks._missing import pytorch_names as shipped_names

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_coverage_page_is_current() -> None:
    assert api_coverage.PAGE.read_text(encoding="utf-8") == api_coverage.render(), (
        "docs/reference/coverage.md is not current: run python -m docs_tools.api_coverage")


def test_the_shipped_names_are_pytorchs() -> None:
    """``minitorch_hooks/pytorch_names.txt`` is what PyTorch 2.13 has. Asked in a fresh
    interpreter: ``dir(torch)`` grows with every submodule some earlier test imported."""
    real_torch()
    check = subprocess.run([sys.executable, "-m", "docs_tools.pytorch_names", "--check"],
                           cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


@pytest.mark.parametrize("namespace", api_coverage.NAMESPACES)
def test_every_mark_is_true(namespace: str) -> None:
    """A name marked implemented can be read; any other raises the missing-name error,
    which ``hasattr`` and ``getattr`` with a default absorb."""
    owner = api_coverage.namespace_object(namespace)
    # A matrix: ``x.mT`` and ``x.T`` of a vector raise or warn.
    probe = minitorch_hooks.ones(2, 2) if namespace == "torch.Tensor" else owner
    for name, mark in api_coverage.marks()[namespace].items():
        if mark == api_coverage.IMPLEMENTED:
            with warnings.catch_warnings():  # reading a deprecated name warns, as in PyTorch
                warnings.simplefilter("ignore")
                getattr(probe, name)
            continue
        with pytest.raises(TorchFeatureNotImplementedError, match=re.escape(
                f"{namespace}.{name} is not implemented by minitorch_hooks")):
            getattr(probe, name)
        assert not hasattr(probe, name) and getattr(probe, name, "default") == "default"


def test_every_likely_name_is_pytorchs() -> None:
    """A typo in the list of likely names would mark nothing and go unnoticed."""
    names = shipped_names()
    for namespace, likely in api_coverage.likely_names().items():
        assert likely <= names[namespace], sorted(likely - names[namespace])


def test_the_modules_marked_missing_refuse_to_import() -> None:
    for module, mark in api_coverage.marks()[MODULES].items():
        ours = "minitorch_hooks" + module[len("torch"):]
        if mark != api_coverage.IMPLEMENTED:
            with pytest.raises(ModuleNotFoundError, match=re.escape(
                    f"{module} is not implemented by minitorch_hooks")):
                __import__(ours)


# -- the course's own pages and exercises use only what is implemented -----------------------

# How the course's code names PyTorch's namespaces: ``torch.nn.functional.x``, ``F.x``...
ALIASES = {"torch": "torch", "nn": "torch.nn", "F": "torch.nn.functional",
           "optim": "torch.optim"}


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def names_used(source: str) -> set[tuple[str, str]]:
    """``(namespace, name)`` for every ``torch.x``, ``nn.x``, ``F.x``, ``optim.x`` (and
    the longer spellings) that ``source`` reads. Tensor methods cannot be told from the
    text; the pages' blocks and the exercises run as tests, which covers them."""
    used = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
            continue
        dotted = _dotted(node)
        if dotted is None:
            continue
        head, *rest = dotted.split(".")
        if head not in ALIASES or not rest:
            continue
        namespace = ALIASES[head]
        while rest and f"{namespace}.{rest[0]}" in api_coverage.NAMESPACES:
            namespace = f"{namespace}.{rest.pop(0)}"
        if rest:
            used.add((namespace, rest[0]))
    return used


def course_sources() -> dict[str, str]:
    """Every Python block of the English pages (the translations have the same code) and
    every Python file of the exercises."""
    sources = {}
    for page in sorted((ROOT / "docs").rglob("*.md")):
        if re.search(r"\.(ru|zh|ko)\.md$", page.name):
            continue
        blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"),
                            re.M | re.S)
        if blocks:
            sources[str(page.relative_to(ROOT))] = "\n".join(blocks)
    for file in sorted((ROOT / "minitorch_hooks" / "tutorials").rglob("*.py")):
        sources[str(file.relative_to(ROOT))] = file.read_text(encoding="utf-8")
    return sources


def test_the_course_uses_only_what_is_implemented() -> None:
    pytorch = shipped_names()
    sources = course_sources()
    assert len(sources) > 20  # the pages and the exercises were found
    missing = sorted(
        (where, f"{namespace}.{name}") for where, source in sources.items()
        for namespace, name in names_used(source)
        if name in pytorch[namespace] and not api_coverage.implemented(namespace, name))
    assert missing == []


def test_the_scan_sees_each_spelling() -> None:
    assert names_used("import torch\ntorch.histc(x)\nF.unfold(x)\nnn.LSTM(2, 2)\n"
                      "torch.nn.functional.fold(x)\ntorch.optim.AdamW(p)\nx.histc()\n") == {
        ("torch", "histc"), ("torch.nn.functional", "unfold"), ("torch.nn", "LSTM"),
        ("torch.nn.functional", "fold"), ("torch.optim", "AdamW")}
