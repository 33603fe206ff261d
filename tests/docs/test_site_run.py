"""The Run and Check buttons, in headless Debian Chromium: Python in the page, offline.

A sample of pages runs in the browser as a reader runs it
(``docs_tools/run_in_browser.py``, ``docs_tools/browser/``): each block the page's tests
run (a Python block followed by an output block) must print, in Pyodide, exactly the
output the page shows. The expected output is read from the rendered page, never
written here. The sample covers hooks (the start page), backward and a 40-step training
loop with per-layer hooks (``how-to/gradient-norms``) and a hook trace drawn as SVG
(``explanation/module-call``). Each page's first Run is on its last block, so the page's
earlier blocks must run first. An exercise page, in English and in Russian, checks its
starter (failed, the same step lines as ``minitorch-hooks check``), a wrong answer twice
(the hint comes the second time), and the solution (passed). (A translated page's blocks
are the English page's code, which the sample runs; the Russian exercise page checks the
buttons and messages in another language. Each page starts Python afresh, about 6 s, so
the sample stays small.)

Every request must stay on 127.0.0.1, and nothing may load before the first click. The
times are printed, not asserted (the machine's load decides them): the first Run of a
page starts Python (cold), the later ones reuse it (warm).

Like ``test_site_browser.py``, this skips visibly without Chromium or playwright, and
fails in CI (``CI=true``); a site built without the runtime (no npm) has no buttons to
test, which also fails in CI.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import time
from pathlib import Path

import pytest
import yaml
from docs_support import ROOT, skip_or_fail

from docs_tools import run_in_browser
from minitorch_hooks.tutorials import by_number

RUN_TIMEOUT_MS = 180_000  # a cold start on a loaded machine; the times are printed below
PYTHON_FILES = ("pyodide/", "runner/worker.js")

# page -> the block to run first (a text it contains), after which every block runs in order
SAMPLE = {
    "": "register_forward_hook",
    "how-to/gradient-norms/": "for name, norms in output_norms.items()",
    "explanation/module-call/": "hook_trace(torch=torch)",
}
EXERCISE = by_number(3)


def words(locale: str) -> dict[str, str]:
    """The buttons' and messages' words in a language, as the page shows them."""
    path = ROOT / "docs_tools" / "i18n" / f"{locale}.yml"
    translated = yaml.safe_load(path.read_text(encoding="utf-8")).get("runner", {}) \
        if path.exists() else {}
    return {**run_in_browser.STRINGS, **translated}


def locale_of(page_path: str) -> str:
    first = page_path.split("/")[0]
    return first if first in ("ru", "zh", "ko") else "en"


@pytest.fixture(scope="module")
def runtime_site(site_dir: Path) -> Path:
    if not (site_dir / "pyodide").is_dir():
        skip_or_fail("the site was built without the Python runtime (npm is missing, or "
                     "MTH_RUN_BUTTONS=0): it has no Run buttons to test")
    return site_dir


class Reader:
    """A page in a fresh browser context (nothing cached: the first run is cold), with
    every request it and its worker make."""

    def __init__(self, browser, base_url: str, page_path: str, width: int = 1280) -> None:
        self.base_url = base_url
        self.context = browser.new_context(viewport={"width": width, "height": 900},
                                           accept_downloads=True)
        self.requests, self.failed, self.errors = [], [], []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.context.on("requestfailed", lambda request: self.failed.append(request.url))
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(base_url + page_path, wait_until="networkidle")

    def python_requests(self) -> list[str]:
        return [url for url in self.requests if any(part in url for part in PYTHON_FILES)]

    def click_and_wait(self, element, label: str) -> float:
        """Click ``element``'s button ``label``; the seconds until it has a status."""
        self.page.evaluate("e => e.removeAttribute('data-run-status')",
                           element.element_handle())
        started = time.monotonic()
        element.get_by_role("button", name=label, exact=True).click()
        self.page.wait_for_function("e => e.hasAttribute('data-run-status')",
                                    arg=element.element_handle(), timeout=RUN_TIMEOUT_MS)
        return time.monotonic() - started

    def close(self) -> None:
        self.context.close()
        outside = [url for url in self.requests if not url.startswith(self.base_url)]
        assert not outside, f"requests that left 127.0.0.1: {outside}"
        assert not self.failed, f"failed requests: {self.failed}"
        assert not self.errors, f"errors in the page: {self.errors}"


def result_of(block):
    """What a Run showed for ``block``: the result box under the page's output block."""
    return block.locator("xpath=following-sibling::div[contains(@class,'mth-run__result')][1]")


def report_times(capsys, what: str, cold: float, warm: list[float]) -> None:
    with capsys.disabled():
        print(f"\n[run in browser] {what}: first run (cold) {cold:.2f} s; later runs "
              f"{len(warm)}, max {max(warm, default=0):.2f} s, total {sum(warm):.2f} s")


@pytest.mark.parametrize("page_path", list(SAMPLE), ids=lambda p: p or "start page")
def test_blocks_print_what_the_page_shows(browser, base_url: str, runtime_site: Path,
                                          page_path: str, capsys) -> None:
    label = words(locale_of(page_path))
    reader = Reader(browser, base_url, page_path)
    page = reader.page
    blocks = page.locator("[data-runnable]")
    count = blocks.count()
    assert count >= 1, "no Run button on the page"
    # Each block the tests run has its Run button, in the page's language.
    assert blocks.get_by_role("button", name=label["run"], exact=True).count() == count
    assert page.locator("div.language-python + div.language-output").count() == count
    assert not reader.python_requests(), "Python loaded before the first Run"

    first = blocks.filter(has_text=SAMPLE[page_path]).first
    cold = reader.click_and_wait(first, label["run"])
    statuses = {first.get_attribute("data-run-status")}
    result = result_of(first)
    assert first.get_attribute("data-run-status") == "same", result.inner_text()
    if "hook_trace" in SAMPLE[page_path]:
        drawing = result.locator(".mth-run__drawing svg")
        assert drawing.count() == 1 and drawing.bounding_box()["height"] > 40
    warm, differing = [], {}
    for index in range(count):
        block = blocks.nth(index)
        warm.append(reader.click_and_wait(block, label["run"]))
        status = block.get_attribute("data-run-status")
        statuses.add(status)
        if status != "same":
            differing[index] = result_of(block).inner_text()
    assert label["same"] in result.inner_text()
    reader.close()
    report_times(capsys, page_path or "start page", cold, warm)
    assert not differing, f"blocks that did not print what the page shows: {differing}"
    assert statuses == {"same"}


# Integers whose dtype comes from NumPy's default int, which is 32 bits in the browser's
# wasm32 and 64 on this machine; PyTorch's are 64 bits everywhere.
INTEGERS = """import minitorch_hooks as torch
torch.manual_seed(0)
x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
print(x.argmax(), x.argmax(dim=1), x.max(dim=0).indices, torch.arange(3))
print(torch.randint(0, 10, (3,)), torch.randperm(4), (x * 2).grad_fn._saved_other)
print(torch.tensor([1, 2]).sum(), torch.full((2,), 7), torch.tensor(x.shape))
"""


def test_edit_reset_and_stop(browser, base_url: str, runtime_site: Path, capsys) -> None:
    reader = Reader(browser, base_url, "how-to/log-shapes/")
    page = reader.page
    block = page.locator("[data-runnable]").first
    code = block.locator("code")
    original = code.inner_text()
    # An edited block runs as edited: here its output differs from the page's, and it is
    # what CPython prints on this machine.
    code.evaluate("(c, text) => { c.textContent = text; }", INTEGERS)
    cold = reader.click_and_wait(block, "Run")
    assert block.get_attribute("data-run-status") == "differs"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(INTEGERS, {})
    assert result_of(block).locator("pre").inner_text().strip() == printed.getvalue().strip()
    # A script that never ends: Stop ends the worker and starts another.
    code.evaluate("c => { c.textContent = 'while True:\\n    pass\\n'; }")
    block.get_by_role("button", name="Run", exact=True).click()
    page.get_by_text("Running…").wait_for()
    block.get_by_role("button", name="Stop", exact=True).click()
    page.wait_for_function("e => e.getAttribute('data-run-status') === 'error'",
                           arg=block.element_handle())
    assert "Stopped" in result_of(block).inner_text()
    # Reset brings the page's code back, and it runs again, in the new worker.
    block.get_by_role("button", name="Reset", exact=True).click()
    assert code.inner_text() == original
    restart = reader.click_and_wait(block, "Run")
    assert block.get_attribute("data-run-status") == "same"
    reader.close()
    report_times(capsys, "edited block, then Stop", cold, [restart])


def cli_step_lines(tmp_path: Path, code: str, monkeypatch) -> list[str]:
    """The step lines ``minitorch-hooks check`` prints for ``code`` on this machine."""
    from minitorch_hooks.__main__ import main

    (tmp_path / EXERCISE.starter.name).write_text(code, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MTH_CONFORMANCE", "recorded")  # as in the browser: no PyTorch there
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main(["check", str(EXERCISE.number), "--no-color"])
    return step_lines(printed.getvalue())


def step_lines(report: str) -> list[str]:
    return [line for line in report.splitlines() if re.match(r"  (PASS|FAIL|TODO) ", line)]


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_exercise_check_in_the_page(browser, base_url: str, runtime_site: Path,
                                    locale: str, tmp_path: Path, monkeypatch,
                                    capsys) -> None:
    label = words(locale)
    prefix = "" if locale == "en" else f"{locale}/"
    page_path = f"{prefix}exercises/{EXERCISE.name}/"
    reader = Reader(browser, base_url, page_path)
    page = reader.page
    exercise = page.locator(f".mth-exercise[data-exercise='{EXERCISE.number}']")
    editor = exercise.locator("textarea")
    report = exercise.locator(".mth-exercise__report")
    starter = EXERCISE.starter.read_text(encoding="utf-8")
    solution = EXERCISE.solution.read_text(encoding="utf-8")
    assert editor.input_value() == starter
    assert not reader.python_requests(), "Python loaded before the first Check"

    cold = reader.click_and_wait(exercise, label["check"])
    assert exercise.get_attribute("data-run-status") == "failed"
    assert step_lines(report.inner_text()) == cli_step_lines(tmp_path, starter, monkeypatch)
    assert "not done yet" in report.inner_text()
    warm = []
    if locale == "en":
        # A wrong step: the first failure offers a nudge, the second one shows it (the
        # failures are remembered in the browser, as beside the file in a terminal).
        wrong = solution.replace("= output.detach()", "= output")
        assert wrong != solution
        nudge = next(iter(EXERCISE.checks())).nudge
        editor.fill(wrong)
        warm.append(reader.click_and_wait(exercise, label["check"]))
        assert exercise.get_attribute("data-run-status") == "failed"
        shown_nudge = re.compile(r"^ +nudge: " + re.escape(nudge.split()[0]), re.MULTILINE)
        assert "(a nudge" in report.inner_text()
        assert not shown_nudge.search(report.inner_text())
        warm.append(reader.click_and_wait(exercise, label["check"]))
        assert shown_nudge.search(report.inner_text()), report.inner_text()
    editor.fill(solution)
    warm.append(reader.click_and_wait(exercise, label["check"]))
    assert exercise.get_attribute("data-run-status") == "passed", report.inner_text()
    assert f"All {len(EXERCISE.checks())} checks pass." in report.inner_text()
    assert step_lines(report.inner_text()) == cli_step_lines(tmp_path, solution, monkeypatch)
    # Kept between visits, and downloadable as the starter's file.
    page.reload(wait_until="networkidle")
    assert editor.input_value() == solution
    with page.expect_download() as download:
        exercise.get_by_role("button", name=label["download"], exact=True).click()
    assert download.value.suggested_filename == EXERCISE.starter.name
    assert Path(download.value.path()).read_text(encoding="utf-8") == solution
    reader.close()
    report_times(capsys, f"{page_path} Check", cold, warm)


def test_what_the_site_ships_for_python(runtime_site: Path, capsys) -> None:
    """At most 20 MB, the NumPy wheel the runtime's lock names, with NumPy's licence."""
    shipped = [path for folder in ("pyodide", "runner")
               for path in (runtime_site / folder).iterdir()]
    size = sum(path.stat().st_size for path in shipped)
    with capsys.disabled():
        print(f"\n[run in browser] shipped: {size / 1e6:.2f} MB raw in {len(shipped)} files")
    assert size <= 20e6
    lock = json.loads((runtime_site / "pyodide" / "pyodide-lock.json").read_text())
    numpy = runtime_site / "pyodide" / lock["packages"]["numpy"]["file_name"]
    assert hashlib.sha256(numpy.read_bytes()).hexdigest() == lock["packages"]["numpy"]["sha256"]
    assert (runtime_site / "pyodide" / "numpy-LICENSE.txt").read_text().startswith(
        "Copyright (c) 2005-")
    assert lock["info"]["version"] == run_in_browser.PYODIDE_VERSION

