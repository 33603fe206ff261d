"""The mkdocs hooks of the site (``hooks:`` in ``mkdocs.yml``).

``on_files`` adds the pictures of ``docs_tools/pictures.py`` to the build as generated
files: plots drawn with matplotlib and hook timelines drawn by ``minitorch_hooks.hook_trace``,
each from the code of the page that shows it. It adds the exercise pages of
``docs_tools/exercises.py`` the same way, and ``on_config`` lists them in the nav's
Exercises section, so that a new exercise appears without editing ``mkdocs.yml``. Nothing
is written into ``docs/``.

``on_page_content`` drops the Sphinx roles that some docstrings use (``:func:`x```):
Markdown shows the code span and would print the role as text.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # mkdocs loads this file by path, not as a package
    sys.path.insert(0, str(ROOT))

from mkdocs.structure.files import File, Files  # noqa: E402

from docs_tools.exercises import SECTION, exercise_nav, exercise_pages  # noqa: E402
from docs_tools.pictures import draw_all  # noqa: E402


def on_config(config: Any) -> Any:
    for entry in config["nav"]:
        if isinstance(entry, dict) and SECTION in entry:
            entry[SECTION] = exercise_nav()
    return config


def on_files(files: Files, config: Any) -> Files:
    for path, svg in draw_all().items():
        files.append(File.generated(config, path, content=svg))
    for path, markdown in exercise_pages().items():
        files.append(File.generated(config, path, content=markdown))
    return files


_SPHINX_ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|exc):(?=<code>)")


def on_page_content(html: str, **kwargs: Any) -> str:
    return _SPHINX_ROLE.sub("", html)
