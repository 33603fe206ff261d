"""The build side of the Run buttons (``docs_tools/run_in_browser.py``), without a browser.

The site without the runtime loses only the buttons, and says why once; the wheel built
from the checkout holds the whole package; the Python side of the buttons
(``docs_tools/browser/page_runner.py``) judges a block as the docs tests do; and every
language has every word of the buttons. ``test_site_run.py`` runs it all in Chromium.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import json
import logging
import re
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from docs_support import ROOT, skip_or_fail

from docs_tools import blocks, run_in_browser


@pytest.fixture
def page_runner():
    """``page_runner.py`` as the worker loads it: a module of its own, not of a package.

    Its fresh start drops minitorch_hooks from ``sys.modules``, so the modules the rest of
    the test session imported are put back afterwards."""
    spec = importlib.util.spec_from_file_location(
        "page_runner", run_in_browser.BROWSER / "page_runner.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    imported = dict(sys.modules)
    yield module
    for name in [name for name in sys.modules if name not in imported]:
        del sys.modules[name]
    sys.modules.update(imported)


def test_without_npm_the_site_has_no_run_buttons_and_says_so_once(
        tmp_path: Path, monkeypatch, caplog) -> None:
    if importlib.util.find_spec("mkdocs") is None:  # the site's hooks need it
        skip_or_fail("the docs extra is not installed: pip install -e '.[docs]'")
    monkeypatch.setattr(run_in_browser, "CACHE", tmp_path / "no-runtime-here")
    monkeypatch.setenv("PATH", str(tmp_path))  # no npm on it
    monkeypatch.delenv(run_in_browser.SWITCH, raising=False)
    run_in_browser.runtime.cache_clear()
    try:
        with caplog.at_level(logging.INFO, logger=run_in_browser.log.name):
            assert run_in_browser.runtime() is None
            assert run_in_browser.runtime() is None
        from docs_tools import hooks

        html = "<html><head></head><body><p>page</p></body></html>"
        page = SimpleNamespace(file=SimpleNamespace(src_uri="index.md", generated_by=None),
                               url="")
        assert hooks._with_run_buttons(html, page, "en") == html
    finally:
        run_in_browser.runtime.cache_clear()
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 1
    assert said[0].startswith("Run buttons left out of the site: npm is not installed")


def test_the_switch_turns_the_buttons_off(monkeypatch, caplog) -> None:
    monkeypatch.setenv(run_in_browser.SWITCH, "0")
    run_in_browser.runtime.cache_clear()
    try:
        with caplog.at_level(logging.INFO, logger=run_in_browser.log.name):
            assert run_in_browser.runtime() is None
    finally:
        run_in_browser.runtime.cache_clear()
    assert "MTH_RUN_BUTTONS=0" in caplog.text


def test_the_kept_numpy_wheel_must_be_the_locks(tmp_path: Path) -> None:
    lock = tmp_path / "pyodide-lock.json"
    wheel = run_in_browser.NUMPY_WHEEL
    right = hashlib.sha256(wheel.read_bytes()).hexdigest()
    lock.write_text(f'{{"packages": {{"numpy": {{"file_name": "{wheel.name}", '
                    f'"sha256": "{right}"}}}}}}')
    run_in_browser.check_numpy_wheel(lock)
    lock.write_text(f'{{"packages": {{"numpy": {{"file_name": "{wheel.name}", '
                    f'"sha256": "{"0" * 64}"}}}}}}')
    with pytest.raises(RuntimeError, match="is not the NumPy wheel of Pyodide 0.27.7"):
        run_in_browser.check_numpy_wheel(lock)


def test_the_wheel_holds_the_package_as_its_record_says(tmp_path: Path) -> None:
    wheel = run_in_browser.build_wheel(tmp_path)
    assert wheel.name == f"minitorch_hooks-{run_in_browser.project_version()}-py3-none-any.whl"
    package = {path.relative_to(ROOT).as_posix()
               for path in (ROOT / "minitorch_hooks").rglob("*")
               if path.is_file() and "__pycache__" not in path.parts}
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"minitorch_hooks-{run_in_browser.project_version()}.dist-info"
        assert names == package | {f"{info}/METADATA", f"{info}/WHEEL", f"{info}/RECORD"}
        assert "minitorch_hooks/tutorials/pytorch_answers.json" in names
        record = list(csv.reader(io.StringIO(archive.read(f"{info}/RECORD").decode())))
        for name, digest, size in record[:-1]:
            data = archive.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert (digest, int(size)) == (f"sha256={expected.decode()}", len(data)), name
    (tmp_path / "again").mkdir()
    again = run_in_browser.build_wheel(tmp_path / "again")
    assert again.read_bytes() == wheel.read_bytes()  # the same bytes for the same code


def test_the_page_runner_judges_a_block_as_the_docs_tests_do(page_runner) -> None:
    assert page_runner.TRACEBACK == blocks.TRACEBACK
    assert page_runner.normalise("\nx = 1   \ny\n\n") == blocks._normalise("\nx = 1   \ny\n\n")

    def run(source: str, expected: str | None, fresh: bool = False) -> dict:
        return page_runner.run_blocks(
            json.dumps([{"source": source, "expected": expected}]), fresh)

    assert run("x = 2\nprint(x * 3)", "6\n", fresh=True)["status"] == "same"
    assert run("print(x)", "3")["status"] == "differs"  # the namespace is kept
    raised = run("1 / 0", "Traceback (most recent call last):\n  ...\n"
                 "ZeroDivisionError: division by zero")
    assert raised["status"] == "same"
    assert run("1 / 0", "nothing")["status"] == "error"
    assert run("print(x)", "2", fresh=True)["status"] == "error"  # a fresh start forgot x
    earlier = page_runner.run_blocks(json.dumps([
        {"source": "undefined_name", "expected": None},
        {"source": "print(1)", "expected": "1"}]), True)
    assert (earlier["status"], earlier["earlier"]) == ("error", 0)


def test_the_page_runner_draws_the_traces_a_block_makes(page_runner) -> None:
    result = page_runner.run_blocks(json.dumps([{"source": (
        "import minitorch_hooks as torch\n"
        "layer = torch.nn.Linear(2, 1)\n"
        "layer.register_forward_hook(lambda m, a, o: None)\n"
        "with torch.hook_trace(layer) as recorded:\n"
        "    layer(torch.ones(1, 2))\n"), "expected": None}]), True)
    assert result["status"] == "same"
    assert len(result["svgs"]) == 1 and result["svgs"][0].startswith("<svg")
    again = page_runner.run_blocks(json.dumps([{"source": "y = 1", "expected": None}]),
                                   False)
    assert again["svgs"] == []  # only the traces the block itself made


@pytest.mark.parametrize("locale", ["ru", "zh", "ko"])
def test_every_language_has_every_word_of_the_buttons(locale: str) -> None:
    path = ROOT / "docs_tools" / "i18n" / f"{locale}.yml"
    words = yaml.safe_load(path.read_text(encoding="utf-8"))["runner"]
    assert set(words) == set(run_in_browser.STRINGS)
    for key, english in run_in_browser.STRINGS.items():
        assert set(re.findall(r"\{\w+\}", words[key])) == set(re.findall(r"\{\w+\}", english)), key
