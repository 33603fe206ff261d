"""Set-up for the docs tests: ``site_dir`` builds the site once per session, for the tests
that look at the HTML (``docs_support`` puts ``docs_tools`` on the path); ``base_url``
serves it on 127.0.0.1 and ``browser`` is headless Debian Chromium, for the browser checks
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


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The site built with ``mkdocs build --strict`` into a temporary folder; or the one
    in ``MTH_SITE``, which ``.ci/run`` has just built from the same tree with the same
    command (so CI builds it once, not twice)."""
    if os.environ.get("MTH_SITE"):
        site = pathlib.Path(os.environ["MTH_SITE"])
        assert (site / "index.html").is_file(), f"MTH_SITE={site} holds no built site"
        return site
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
    except ImportError:
        skip_or_fail("the docs extra is not installed: pip install -e '.[docs]'")
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return _build(tmp_path_factory.mktemp("site"))
    # pytest-xdist's workers share the parent of their temporary folders: the first to get
    # here builds the site there, the others wait for it (creating a file is atomic).
    shared = tmp_path_factory.getbasetemp().parent
    site, failed = shared / "site", shared / "site.failed"
    try:
        os.close(os.open(shared / "site.building", os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        while not (site / "index.html").is_file():
            assert not failed.exists(), failed.read_text()
            time.sleep(0.5)
        return site
    try:
        return _build(site)
    except AssertionError as error:
        failed.write_text(str(error))
        raise


def _build(site: pathlib.Path) -> pathlib.Path:
    """``mkdocs build --strict`` into ``site``; its ``index.html`` is written last."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    staging = site.with_name(site.name + ".staging")
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                            "--site-dir", str(staging)], cwd=ROOT, env=env,
                           capture_output=True, text=True)
    assert build.returncode == 0, f"mkdocs build --strict failed:\n{build.stderr}"
    staging.replace(site)
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
