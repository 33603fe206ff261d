"""Set-up for the docs tests: ``site_dir`` builds the site once per session, for the tests
that look at the HTML (``docs_support`` puts ``docs_tools`` on the path)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest
from docs_support import ROOT, skip_or_fail


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
    site = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                            "--site-dir", str(site)], cwd=ROOT, env=env,
                           capture_output=True, text=True)
    assert build.returncode == 0, f"mkdocs build --strict failed:\n{build.stderr}"
    return site
