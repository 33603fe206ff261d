"""Generate ``docs/conformance.md`` from the conformance suite, run against real PyTorch.

    python -m docs_tools.conformance           # run the suite, write the page
    python -m docs_tools.conformance --check   # fail if the page is not current

A *behaviour* is one test function of the suite (its parametrized cases are counted
together). Its result is what happened when the suite ran just now: it **matches**
PyTorch 2.13.0 when every case passed; it is a **deviation, by design** when its name
ends in ``_deviation`` (such a test asserts both PyTorch's behaviour and ours, and its
docstring gives the reason); it **differs** when a case failed. The page is committed, so
that it can be read without running anything; ``tests/docs/test_conformance_page.py``
runs the ``--check`` in CI, so it cannot go stale.

The ``--check`` does not run the suite again (that took three minutes): it only collects
it, and builds the page that a run in which every case passes writes. The page's other
results cannot be committed anyway, since a case that fails or skips in the live mode fails
the test run that checks the page (the suite itself is part of that run). So the check
needs what the page lists, the behaviours, their cases and docstrings, and PyTorch's
version, and takes seconds, with or without PyTorch installed.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import importlib.metadata
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "conformance.md"
# The suite: every cross-check of tests/conformance/, and the module-level bad-input checks.
SUITE = ["tests/conformance", "tests/test_module_bad_input.py"]


# Words a test name cannot spell, as the page should print them.
_WORDS = {"pytorch": "PyTorch", "pytorchs": "PyTorch's", "cpu": "CPU", "nan": "NaN",
          "numpy": "NumPy", "api": "API", "sgd": "SGD", "sumnet": "SumNet", "relu": "ReLU",
          "0d": "0-d", "l1": "L1", "nll": "NLL", "grads": "gradients", "fn": "grad_fn",
          "rng": "RNG", "non": "non-"}
# Hook flags and phrases that a test name spells with underscores, as a reader writes them.
_PHRASES = {"always call": "always-call", "with kwargs": "with keyword arguments",
            "pre hook": "pre-hook", "post hook": "post-hook"}
# Result marks in words: an emoji needs an emoji font, which many systems lack.
MATCHES, DEVIATION, DIFFERS, NOT_RUN = "matches", "deviation, by design", "DIFFERS", "not run"


@dataclass
class Behaviour:
    name: str            # the test function
    description: str     # the first paragraph of its docstring, if any
    outcomes: list[str] = field(default_factory=list)  # one per case

    @property
    def result(self) -> str:
        if "failed" in self.outcomes:
            failed = self.outcomes.count("failed")
            return f"{DIFFERS} ({failed} of {len(self.outcomes)} cases)"
        if not self.outcomes or all(o == "skipped" for o in self.outcomes):
            return NOT_RUN
        if self.name.endswith("_deviation"):
            return DEVIATION
        return MATCHES

    @property
    def title(self) -> str:
        return readable(self.name.removeprefix("test_").removesuffix("_deviation"))


def readable(name: str) -> str:
    """A test or file name as a sentence: ``to_a_non_cpu_device`` -> "To a non-CPU device"."""
    words = [_WORDS.get(word, word) for word in name.split("_")]
    text = " ".join(words).replace("non- ", "non-")
    for phrase, written in _PHRASES.items():
        text = text.replace(phrase, written)
    return text if text.startswith("nn ") else text[:1].upper() + text[1:]  # nn stays nn


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

    def behaviours(self, default: str = "skipped") -> dict[str, dict[str, Behaviour]]:
        """The behaviours by file; a case that did not run counts as ``default``."""
        for nodeid, (path, function) in self.where.items():
            self.files[path][function].outcomes.append(self.outcome.get(nodeid, default))
        return self.files


def _first_paragraph(function: object) -> str:
    doc = (getattr(function, "__doc__", None) or "").strip()
    text = " ".join(doc.split("\n\n")[0].split())
    # "DEVIATION (where it is documented): ..." or "...), as for ...": the page says so already.
    text = re.sub(r"^DEVIATION(\s*\([^()]*\))?[:,]\s*", "", text)
    return text if text.startswith("minitorch_hooks") else text[:1].upper() + text[1:]


def _module_summary(path: str) -> str:
    """The first sentence of a test file's docstring: what the file checks."""
    source = (ROOT / path).read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(source)) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    return first.split(". ")[0].rstrip(".") + "." if first else ""


def run_suite() -> tuple[dict[str, dict[str, Behaviour]], str]:
    """Run the suite quietly; return the behaviours by file, and PyTorch's version."""
    try:
        import torch
    except ImportError:
        from minitorch_hooks.cli.pytorch import MISSING

        sys.exit(f"the conformance page needs PyTorch: {MISSING}")
    # The release, not the build (``+cpu``): the page reads the same from a live run and
    # from the recordings.
    return _pytest_suite([]).behaviours(), torch.__version__.split("+")[0]


def suite_all_passing() -> tuple[dict[str, dict[str, Behaviour]], str]:
    """The suite collected, not run, with every case counted as passed; and the PyTorch
    version the page is generated with: the installed one, or else the pinned one."""
    try:
        version = importlib.metadata.version("torch").split("+")[0]  # the release, not +cpu
    except importlib.metadata.PackageNotFoundError:
        pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
        [version] = re.findall(r'^conformance = \["torch==([^"]+)"\]$', pyproject, re.M)
    return _pytest_suite(["--collect-only"]).behaviours(default="passed"), version


def _pytest_suite(options: list[str]) -> _Recorder:
    import pytest

    recorder = _Recorder()
    # -n 0: in this process, without pytest-xdist's workers, so the recorder sees each test.
    with contextlib.redirect_stdout(io.StringIO()):
        pytest.main([*(str(ROOT / p) for p in SUITE), "-q", "-p", "no:cacheprovider",
                     "-p", "no:randomly", "-n", "0", "--rootdir", str(ROOT), *options],
                    plugins=[recorder])
    return recorder


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


# A file whose scenarios a course page tells as a story links to that page.
STORY_PAGES = {"tests/conformance/test_three_articles.py":
               "[Three articles, corrected](start/three-articles.md)"}


def _area(path: str) -> str:
    """What a test file covers, from its name: ``tests/test_module_bad_input.py`` -> ..."""
    return readable(Path(path).stem.removeprefix("test_"))


def _file_result(behaviours: list[Behaviour]) -> str:
    results = [b.result for b in behaviours]
    differ = sum(r.startswith(DIFFERS) for r in results)
    if differ:
        return f"**{differ} {DIFFERS.lower()}**"
    deviations = results.count(DEVIATION)
    matched = results.count(MATCHES)
    if matched == len(results):
        return MATCHES if matched == 1 else f"all {matched} match"
    text = f"{matched} match"
    if deviations:
        text += f", {deviations} by design"
    missing = results.count(NOT_RUN)
    return text + (f", {missing} not run" if missing else "")


def render(files: dict[str, dict[str, Behaviour]], torch_version: str) -> str:
    everything = [b for behaviours in files.values() for b in behaviours.values()]
    cases = sum(len(b.outcomes) for b in everything)
    results = [b.result for b in everything]
    count = {key: sum(r.startswith(key) for r in results)
             for key in (MATCHES, DEVIATION, DIFFERS, NOT_RUN)}
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
        f"**{len(everything)} behaviours in {cases} checks: {count[MATCHES]} match, "
        f"{count[DEVIATION]} are deviations by design, {count[DIFFERS]} differ"
        + (f", {count[NOT_RUN]} were not run" if count[NOT_RUN] else "") + ".**",
        "",
        "A behaviour is one test; its checks are its parametrized cases. CI regenerates this",
        "page from the suite and fails when the committed copy differs, so it is current",
        "with the code it describes.",
        "",
        "## Summary",
        "",
        "| area | behaviours | checks | result |",
        "| --- | --: | --: | --- |",
    ]
    for path, behaviours in files.items():
        found = list(behaviours.values())
        lines.append(f"| {_cell(_area(path))} | {len(found)} | "
                     f"{sum(len(b.outcomes) for b in found)} | {_file_result(found)} |")
    lines += [
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
    lines += ["## Every behaviour, by area", "",
              "Open an area to see its behaviours, one row each.", ""]
    for path, behaviours in files.items():
        found = list(behaviours.values())
        lines += [f'??? note "{_area(path)}: {_file_result(found)}"', ""]
        summary = _module_summary(path)
        if path in STORY_PAGES:
            summary += f" The story is told on {STORY_PAGES[path]}."
        body = [f"`{path}`" + (f": {summary}" if summary else ""), "",
                "| behaviour | checks | result |", "| --- | --: | --- |"]
        body += [f"| {_cell(b.title)} | {len(b.outcomes)} | {b.result} |" for b in found]
        lines += [("    " + line).rstrip() for line in body] + [""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    files, version = suite_all_passing() if "--check" in argv else run_suite()
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
