"""The site's Run and Check buttons: Python in the reader's browser, served by the site.

minitorch_hooks needs only NumPy, so the course's examples and exercises can run in the
browser through Pyodide (CPython compiled to WebAssembly), with nothing to install and
nothing fetched from another host. The build ships, in ``site/pyodide/``:

* the runtime: five files of the npm package ``pyodide``, pinned to
  :data:`PYODIDE_VERSION` and to the tarball's :data:`PYODIDE_INTEGRITY`. ``npm pack``
  fetches it once into ``.cache/``; without npm (or with ``MTH_RUN_BUTTONS=0``) the site
  is built without the buttons, and the build log says so once;
* NumPy's wheel for that Pyodide, kept in ``docs_tools/browser/`` with NumPy's licence,
  checked against the ``sha256`` of the runtime's ``pyodide-lock.json`` (CONTRIBUTING,
  "Run in the browser", says why it is kept rather than fetched);
* minitorch_hooks as a wheel built from the checkout (:func:`build_wheel`).

``site/runner/`` gets the page script, its worker and stylesheet, and the Python code
the worker runs (``docs_tools/browser/``). ``docs_tools/hooks.py`` calls these functions
from its mkdocs events.
"""

from __future__ import annotations

import base64
import csv
import functools
import hashlib
import io
import json
import logging
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BROWSER = ROOT / "docs_tools" / "browser"

PYODIDE_VERSION = "0.27.7"  # Python 3.12.7; the newest Pyodide whose NumPy wheel we can have
PYODIDE_INTEGRITY = ("sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm"
                     "1kRISeWUBdulEgO26qpSRA==")  # npm's dist.integrity of pyodide-0.27.7.tgz
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
CACHE = ROOT / ".cache" / f"pyodide-{PYODIDE_VERSION}"
NUMPY_WHEEL = BROWSER / "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"
NUMPY_LICENSE = BROWSER / "numpy-LICENSE.txt"
PAGE_FILES = ("runner.js", "worker.js", "runner.css", "page_runner.py")
SWITCH = "MTH_RUN_BUTTONS"  # =0: build without the buttons

RUNTIME_FOLDER = "pyodide"  # in the site
RUNNER_FOLDER = "runner"

log = logging.getLogger("mkdocs.docs_tools.run_in_browser")


def _integrity(data: bytes) -> str:
    """npm's integrity string of a tarball: ``sha512-`` and the base64 digest."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch_runtime(folder: Path) -> str | None:
    """Fetch the pinned runtime into ``folder`` with ``npm pack``, unless it is there.
    Returns why it cannot be had (no npm, npm failed), or None when it is there.

    A tarball other than the pinned one is an error, not a reason to go without: it is
    never shipped."""
    if all((folder / name).is_file() for name in RUNTIME_FILES):
        return None
    npm = shutil.which("npm")
    if npm is None:
        return (f"npm is not installed, so the runtime (npm pyodide@{PYODIDE_VERSION}) "
                "cannot be fetched")
    with tempfile.TemporaryDirectory() as temporary:
        packed = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}",
                                 "--pack-destination", temporary],
                                capture_output=True, text=True, timeout=600, check=False)
        tarball = Path(temporary) / f"pyodide-{PYODIDE_VERSION}.tgz"
        if packed.returncode != 0 or not tarball.is_file():
            last = (packed.stderr.strip().splitlines() or ["no message"])[-1]
            return f"`npm pack pyodide@{PYODIDE_VERSION}` failed ({last})"
        data = tarball.read_bytes()
        if _integrity(data) != PYODIDE_INTEGRITY:
            raise RuntimeError(f"{tarball.name} from npm is not the pinned one: its integrity "
                               f"is {_integrity(data)}, expected {PYODIDE_INTEGRITY}")
        staging = Path(temporary) / "runtime"
        staging.mkdir()
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            for name in RUNTIME_FILES:
                member = archive.extractfile(f"package/{name}")
                (staging / name).write_bytes(member.read())
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(folder, ignore_errors=True)
        shutil.move(staging, folder)
    return None


def check_numpy_wheel(lock_file: Path) -> None:
    """The kept NumPy wheel must be the one the runtime's lock file names, byte for byte."""
    entry = json.loads(lock_file.read_text(encoding="utf-8"))["packages"]["numpy"]
    digest = hashlib.sha256(NUMPY_WHEEL.read_bytes()).hexdigest()
    if entry["file_name"] != NUMPY_WHEEL.name or entry["sha256"] != digest:
        raise RuntimeError(f"{NUMPY_WHEEL.name} (sha256 {digest}) is not the NumPy wheel of "
                           f"Pyodide {PYODIDE_VERSION}'s lock file: {entry['file_name']} "
                           f"(sha256 {entry['sha256']})")


@functools.cache
def runtime() -> Path | None:
    """The runtime's folder, or None: then the build says why, once, and the site has no
    Run buttons."""
    if os.environ.get(SWITCH) == "0":
        reason = f"{SWITCH}=0"
    else:
        reason = fetch_runtime(CACHE)
    if reason is not None:
        log.info("Run buttons left out of the site: %s. See CONTRIBUTING.md, \"Run in the "
                 "browser\".", reason)
        return None
    check_numpy_wheel(CACHE / "pyodide-lock.json")
    return CACHE


def project_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return re.search(r'^version = "([^"]+)"', text, re.MULTILINE).group(1)


def wheel_name() -> str:
    return f"minitorch_hooks-{project_version()}-py3-none-any.whl"


def build_wheel(folder: Path) -> Path:
    """minitorch_hooks from the checkout as a pure-Python wheel, written in ``folder``.

    A wheel is a zip of the package with a ``.dist-info`` folder; writing it here needs
    no build backend and no network, and its fixed dates make it the same bytes for the
    same code."""
    version = project_version()
    info = f"minitorch_hooks-{version}.dist-info"
    files = {path.relative_to(ROOT).as_posix(): path.read_bytes()
             for path in sorted((ROOT / "minitorch_hooks").rglob("*"))
             if path.is_file() and "__pycache__" not in path.parts}
    files[f"{info}/METADATA"] = (f"Metadata-Version: 2.1\nName: minitorch-hooks\n"
                                 f"Version: {version}\nRequires-Dist: numpy>=1.24\n").encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: docs_tools.run_in_browser\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        writer.writerow([name, f"sha256={digest.decode()}", len(data)])
    writer.writerow([f"{info}/RECORD", "", ""])
    files[f"{info}/RECORD"] = record.getvalue().encode()
    wheel = folder / wheel_name()
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data,
                             compress_type=zipfile.ZIP_DEFLATED)
    return wheel


def write_to_site(site: Path, runtime_folder: Path) -> None:
    """The runtime, the two wheels and the page files, into the built site."""
    target = site / RUNTIME_FOLDER
    target.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(runtime_folder / name, target / name)
    shutil.copyfile(NUMPY_WHEEL, target / NUMPY_WHEEL.name)
    shutil.copyfile(NUMPY_LICENSE, target / NUMPY_LICENSE.name)
    (target / "README.txt").write_text(
        f"Pyodide {PYODIDE_VERSION} (npm package pyodide, MPL-2.0; source: "
        "https://github.com/pyodide/pyodide), NumPy 2.0.2 built for it (BSD-3-Clause, "
        f"{NUMPY_LICENSE.name}) and minitorch_hooks (MIT): the Python that runs the "
        "course's examples in the browser.\n", encoding="utf-8")
    build_wheel(target)
    pages = site / RUNNER_FOLDER
    pages.mkdir(parents=True, exist_ok=True)
    for name in PAGE_FILES:
        shutil.copyfile(BROWSER / name, pages / name)


# The buttons' and messages' words; docs_tools/i18n/<locale>.yml translates them under
# ``runner:``.
STRINGS = {
    "run": "Run",
    "reset": "Reset",
    "stop": "Stop",
    "check": "Check",
    "download": "Download .py",
    "same": "Printed what the page shows",
    "differs": "Printed something else than the page shows",
    "error": "Error",
    "earlierFailed": "An earlier block of this page failed",
    "loadingPython": "Loading Python in the browser (the first time takes a few seconds)…",
    "loadingPackages": "Loading NumPy and minitorch_hooks…",
    "running": "Running…",
    "done": "Done in {seconds} s.",
    "stopped": "Stopped. Python is starting again.",
    "fileProtocol": ("Python cannot start in a page opened from a file. Serve the site "
                     "folder instead: python -m http.server -d site, then open "
                     "http://127.0.0.1:8000"),
    "exerciseHeading": "Try it here",
    "exerciseJump": "Or fill it in below, in your browser ↓",
    "exerciseIntro": ("Fill in the gaps below, then Check: it runs the same checks as "
                      "`minitorch-hooks check {number}`, here in your browser. Your code "
                      "is kept in this browser; Download saves it as the starter file."),
}


def page_config(page_kind: dict[str, Any], translated: dict[str, str]) -> str:
    """The page's ``<script id="mth-run-config">``: its strings and what to make runnable."""
    config = {"strings": {**STRINGS, **translated}, "wheel": wheel_name(), **page_kind}
    data = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    return f'<script id="mth-run-config" type="application/json">{data}</script>'
