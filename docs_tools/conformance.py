"""Generate ``docs/conformance.md`` from the conformance suite, run against real PyTorch.

    python -m docs_tools.conformance           # run the suite, write the page
    python -m docs_tools.conformance --check   # run it, fail if the page is not current

A *behaviour* is one test function of the suite (its parametrized cases are counted
together). Its result is what happened when the suite ran just now: it **matches**
PyTorch 2.13.0 when every case passed; it is a **deviation, by design** when its name
ends in ``_deviation`` (such a test asserts both PyTorch's behaviour and ours, and its
docstring gives the reason); it **differs** when a case failed. The page is committed, so
that it can be read without running anything; ``tests/docs/test_conformance_page.py``
runs the ``--check`` in CI, so it cannot go stale.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "conformance.md"
# The suite: every cross-check of tests/conformance/, and the module-level bad-input checks.
SUITE = ["tests/conformance", "tests/test_module_bad_input.py"]


@dataclass
class Behaviour:
    name: str            # the test function
    description: str     # the first paragraph of its docstring, if any
    outcomes: list[str] = field(default_factory=list)  # one per case

    @property
    def result(self) -> str:
        if "failed" in self.outcomes:
            failed = self.outcomes.count("failed")
            return f"❌ differs ({failed} of {len(self.outcomes)} cases)"
        if not self.outcomes or all(o == "skipped" for o in self.outcomes):
            return "not run"
        if self.name.endswith("_deviation"):
            return "⚖️ deviation, by design"
        return "✅ matches"

    @property
    def title(self) -> str:
        words = self.name.removeprefix("test_").removesuffix("_deviation").replace("_", " ")
        return words[:1].upper() + words[1:]


class _Recorder:
    """A pytest plugin that keeps each test's outcome, by file and function."""

    def __init__(self) -> None:
        self.files: dict[str, dict[str, Behaviour]] = {}
        self.outcome: dict[str, str] = {}
        self.where: dict[str, tuple[str, str]] = {}

    def pytest_collection_modifyitems(self, items: list) -> None:
        for item in items:
            path = Path(str(item.path)).relative_to(ROOT).as_posix()
            function = item.originalname
            behaviours = self.files.setdefault(path, {})
            if function not in behaviours:
                behaviours[function] = Behaviour(function, _first_paragraph(item.function))
            self.where[item.nodeid] = (path, function)

    def pytest_runtest_logreport(self, report: object) -> None:
        previous = self.outcome.get(report.nodeid)
        if report.failed:
            self.outcome[report.nodeid] = "failed"
        elif report.skipped and previous is None:
            self.outcome[report.nodeid] = "skipped"
        elif report.when == "call" and report.passed and previous is None:
            self.outcome[report.nodeid] = "passed"

    def behaviours(self) -> dict[str, dict[str, Behaviour]]:
        for nodeid, (path, function) in self.where.items():
            self.files[path][function].outcomes.append(self.outcome.get(nodeid, "skipped"))
        return self.files


def _first_paragraph(function: object) -> str:
    doc = (getattr(function, "__doc__", None) or "").strip()
    text = " ".join(doc.split("\n\n")[0].split())
    return re.sub(r"^DEVIATION(\s*\([^)]*\))?:\s*", "", text)  # the page says so already


def _module_summary(path: str) -> str:
    """The first sentence of a test file's docstring: what the file checks."""
    source = (ROOT / path).read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(source)) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    return first.split(". ")[0].rstrip(".") + "." if first else ""


def run_suite() -> tuple[dict[str, dict[str, Behaviour]], str]:
    """Run the suite quietly; return the behaviours by file, and PyTorch's version."""
    import pytest

    try:
        import torch
    except ImportError:
        from minitorch_hooks.cli.pytorch import MISSING

        sys.exit(f"the conformance page needs PyTorch: {MISSING}")
    recorder = _Recorder()
    with contextlib.redirect_stdout(io.StringIO()):
        pytest.main([*(str(ROOT / p) for p in SUITE), "-q", "-p", "no:cacheprovider",
                     "-p", "no:randomly", "--rootdir", str(ROOT)], plugins=[recorder])
    return recorder.behaviours(), torch.__version__


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render(files: dict[str, dict[str, Behaviour]], torch_version: str) -> str:
    everything = [b for behaviours in files.values() for b in behaviours.values()]
    cases = sum(len(b.outcomes) for b in everything)
    count = {key: sum(b.result.startswith(key) for b in everything)
             for key in ("✅", "⚖️", "❌", "not run")}
    lines = [
        "# Conformance",
        "",
        "<!-- Generated by `python -m docs_tools.conformance`; do not edit by hand. -->",
        "",
        "minitorch_hooks copies PyTorch's observable behaviour: values, gradients, the order",
        "in which hooks fire, printed tensors, and the text of errors and warnings. The",
        "conformance suite (`tests/conformance/` and `tests/test_module_bad_input.py`) runs",
        "each scenario once on minitorch_hooks and once on real PyTorch and compares what",
        "happened. This page lists every behaviour it checks and what happened when it last",
        f"ran, against PyTorch {torch_version}.",
        "",
        f"**{len(everything)} behaviours in {cases} checks: {count['✅']} match, "
        f"{count['⚖️']} are deviations by design, {count['❌']} differ"
        + (f", {count['not run']} were not run" if count["not run"] else "") + ".**",
        "",
        "A behaviour is one test; its checks are its parametrized cases. CI regenerates this",
        "page from the suite and fails when the committed copy differs, so it is current",
        "with the code it describes.",
        "",
        "## Deviations, by design",
        "",
        "Where PyTorch 2.13 contradicts its own documentation, or its behaviour is a plain",
        "inconsistency, minitorch_hooks does the documented or consistent thing. The test of",
        "each deviation asserts both behaviours, so a change on either side is noticed.",
        "",
    ]
    for path, behaviours in files.items():
        for behaviour in behaviours.values():
            if behaviour.name.endswith("_deviation"):
                lines += [f"- **{behaviour.title}** (`{path}`). {behaviour.description}", ""]
    lines += ["## Every behaviour, by test file", ""]
    for path, behaviours in files.items():
        lines += [f"### `{path}`", ""]
        summary = _module_summary(path)
        if summary:
            lines += [summary, ""]
        lines += ["| behaviour | checks | result |", "| --- | --: | --- |"]
        for behaviour in behaviours.values():
            lines.append(f"| {_cell(behaviour.title)} | {len(behaviour.outcomes)} | "
                         f"{behaviour.result} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    files, version = run_suite()
    text = render(files, version)
    if "--check" in argv:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            diff = "".join(difflib.unified_diff(
                current.splitlines(True), text.splitlines(True),
                "docs/conformance.md (committed)", "docs/conformance.md (from the suite now)"))
            print(f"docs/conformance.md is not current; run: python -m docs_tools.conformance"
                  f"\n{diff}")
            return 1
        print("docs/conformance.md is current")
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
