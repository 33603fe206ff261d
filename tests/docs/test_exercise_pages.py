"""The site's Exercises section: one page per exercise, made from the text the package
ships, in the nav, and on the home page's learning path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docs_support import ROOT

from docs_tools.exercises import INDEX, exercise_nav, exercise_pages
from minitorch_hooks.tutorials import EXERCISES

TEXTS = [EXERCISES[0].folder.parent / "README.md", *(e.text for e in EXERCISES)]


def test_every_exercise_has_a_page_made_from_its_readme():
    pages = exercise_pages()
    assert sorted(pages) == sorted([INDEX, *(f"exercises/{e.name}.md" for e in EXERCISES)])
    for exercise in EXERCISES:
        page = pages[f"exercises/{exercise.name}.md"]
        body = exercise.text.read_text(encoding="utf-8").partition("\n")[2]
        assert page.startswith(f"# Exercise {exercise.number}: {exercise.title}\n")
        assert page.endswith(body)  # the README itself: one source
        assert f"minitorch-hooks start {exercise.number}" in page


def test_the_nav_lists_them_in_order():
    assert exercise_nav() == [INDEX, *({f"{e.number}. {e.title}": f"exercises/{e.name}.md"}
                                       for e in EXERCISES)]
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "  - Exercises: []" in nav


@pytest.mark.parametrize("path", TEXTS, ids=lambda path: path.parent.name)
def test_their_code_blocks_are_not_untested_python(path):
    """The pages are generated, so the docs' code-block tests do not read them: a
    Python block there would go untested. Blocks must name another language."""
    fences = re.findall(r"^ *```(\w*)", path.read_text(encoding="utf-8"), re.MULTILINE)
    opening = fences[::2]
    assert "python" not in opening and "" not in opening, opening


def test_links_between_exercises_point_at_their_pages():
    index = exercise_pages()[INDEX]
    for exercise in EXERCISES:
        assert f"]({exercise.name}.md)" in index
    assert "README.md)" not in index


def test_the_built_site_has_the_section_and_the_home_page_links_it(site_dir: Path):
    for exercise in EXERCISES:
        html = (site_dir / "exercises" / exercise.name / "index.html").read_text()
        assert exercise.title.replace("'", "&#39;").split("`")[0][:20] in html
    # The home page's learning path: the pattern, the tour, then the chapters, and every
    # exercise linked from the chapter that teaches it, in every language.
    for page in ("index.md", "index.ru.md", "index.zh.md", "index.ko.md"):
        home = (ROOT / "docs" / page).read_text(encoding="utf-8")
        path = re.search(r"^## .*\n\n(?:.*\n)*?(\| # \|[\s\S]*?)\n\n", home, re.MULTILINE)[1]
        linked = [int(n) for n in re.findall(r"\(exercises/ex(\d\d)_", path)]
        assert sorted(linked) == list(range(1, len(EXERCISES) + 1)), (page, linked)
        assert path.index("start/hook-pattern.md") < path.index("start/tour.md") < path.index(
            "exercises/ex02")
