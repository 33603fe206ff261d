"""Set-up for the docs tests: ``site_dir`` is the site built once per session (from the
session's start, in the background: ``build_site.py``), for the tests that look at the
HTML (``docs_support`` puts ``docs_tools`` on the path); ``base_url`` serves it on
127.0.0.1 and ``browser`` is headless Debian Chromium, for the browser checks
(``test_site_browser.py``, ``test_site_run.py``)."""

from __future__ import annotations

import functools
import http.server
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from docs_support import ROOT, skip_or_fail

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Flags for a sandbox-free container, and so that Chromium itself stays quiet on the
# network; every request the *page* makes is checked by the tests anyway.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update",
        "--disable-default-apps", "--disable-sync", "--no-first-run",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def _docs_extra_missing() -> bool:
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
    except ImportError:
        return True
    return False


def _shared_folder(config: pytest.Config) -> pathlib.Path:
    """A folder every process of this run sees: pytest-xdist's workers share the parent
    of their temporary folders. (``config._tmp_path_factory`` is what the
    ``tmp_path_factory`` fixture returns; a collection hook has no fixtures.)"""
    base = config._tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _start_site_build(shared: pathlib.Path) -> None:
    """Start ``build_site.py`` into ``shared / "site"`` in the background, unless a
    process of this run already has (creating the marker file is atomic)."""
    try:
        os.close(os.open(shared / "site.building", os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return
    subprocess.Popen([sys.executable, str(pathlib.Path(__file__).with_name("build_site.py")),
                      str(shared / "site")], cwd=ROOT,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pytest_collection_finish(session: pytest.Session) -> None:
    """The site is built from the start of the session when a selected test will look at
    it, beside the tests that run first, rather than with a core waiting for it when the
    first of those tests comes."""
    if (not _docs_extra_missing()
            and any("site_dir" in getattr(item, "fixturenames", ()) for item in session.items)):
        _start_site_build(_shared_folder(session.config))


@pytest.fixture(scope="session")
def site_dir(request: pytest.FixtureRequest) -> pathlib.Path:
    """The site built with ``mkdocs build --strict`` into a temporary folder, once for
    the whole run (``build_site.py``, started as the session starts)."""
    if _docs_extra_missing():
        skip_or_fail("the docs extra is not installed: pip install -e '.[docs]'")
    shared = _shared_folder(request.config)
    _start_site_build(shared)  # if the collection hook did not (a test selected by hand)
    site, failed = shared / "site", shared / "site.failed"
    deadline = time.monotonic() + 1800  # a build that died without a word
    while not (site / "index.html").is_file():
        assert not failed.exists(), failed.read_text(encoding="utf-8")
        assert time.monotonic() < deadline, f"no site in {site} after 30 minutes"
        time.sleep(0.5)
    return site


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def base_url(site_dir: pathlib.Path) -> Iterator[str]:
    """The built site, served on 127.0.0.1."""
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium, launched through playwright (no browser download)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed: pip install -e '.[docs]'")
    if not pathlib.Path(CHROMIUM).exists():
        skip_or_fail("Chromium is not installed: apt-get install chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()
