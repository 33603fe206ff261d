"""Build the site for the docs tests: ``python tests/docs/build_site.py SITE``.

``mkdocs build --strict`` into ``SITE.staging``, renamed to ``SITE`` when it passes (its
``index.html`` appears only then, whole); when it fails, its errors go to ``SITE.failed``.
``conftest.py`` starts this in the background as soon as the session knows that a test
will look at the site, so that the build (one core) runs beside the tests before it, and
the tests that need it wait for one of the two files.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(site: Path) -> int:
    staging = site.with_name(site.name + ".staging")
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                            "--site-dir", str(staging)], cwd=ROOT,
                           env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
                           capture_output=True, text=True)
    if build.returncode != 0:
        site.with_name(site.name + ".failed").write_text(
            f"mkdocs build --strict failed:\n{build.stderr}", encoding="utf-8")
        return build.returncode
    staging.replace(site)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
