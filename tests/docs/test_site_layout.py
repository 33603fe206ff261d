"""The course's layout in a real browser, on a 1280 px desktop and a 390 px phone.

What a reader saw and this keeps fixed: the home page's table of hook families cut off at
the right edge of a desktop column, code blocks that needed sideways scrolling (a course
shows code to be read whole), the Grad-CAM figure shrunk to a strip on a phone and the
flowcharts' text shrunk to about 6 px there. Code is kept to 88 columns
(``test_code_blocks_fit_88_columns``), and the column is wide enough for 88 columns at
1280 px because the page's contents sit in the left navigation (``toc.integrate``).
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from docs_support import ROOT

DOCS = ROOT / "docs"
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<info>[^\n`]*)\n(?P<body>.*?)"
                    r"^(?P=indent)(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
COLUMNS = 88


def _columns(line: str) -> int:
    """Columns a line takes in a monospaced font: CJK characters are two wide."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def test_code_blocks_fit_88_columns() -> None:
    """Every line of every Python and shell block of every page, in every language, fits in
    88 columns (output blocks hold what a program printed, and wrap instead)."""
    wide = []
    for page in sorted(DOCS.rglob("*.md")):
        for block in _FENCE.finditer(page.read_text(encoding="utf-8")):
            if block["info"].strip().split(" ")[0] not in ("python", "sh", "pycon"):
                continue
            wide += [f"{page.relative_to(ROOT)}: {line.strip()[:50]}..."
                     for line in block["body"].splitlines() if _columns(line) > COLUMNS]
    assert not wide, f"{len(wide)} code lines wider than {COLUMNS} columns: {wide[:10]}"


# Course pages with the widest code, in English and two translations.
DESKTOP_PAGES = ["", "explanation/hook-kinds/", "explanation/registration-hooks/",
                 "how-to/grad-cam/", "how-to/attention-maps/", "how-to/hook-does-not-fire/",
                 "how-to/see-what-autograd-saves/", "ru/", "zh/how-to/grad-cam/"]
_OVERFLOWING = """() => [...document.querySelectorAll('.md-content__inner pre > code')]
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => e.textContent.split('\\n')[0].slice(0, 40)
            + ' (' + e.scrollWidth + ' px in ' + e.clientWidth + ')')"""
_HOME_TABLES = """() => [...document.querySelectorAll('.md-content__inner .md-typeset__scrollwrap')]
  .map(e => [e.scrollWidth, e.clientWidth])"""


def test_code_fits_the_desktop_column(browser, base_url: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    overflowing = {}
    for page_path in DESKTOP_PAGES:
        page.goto(base_url + page_path, wait_until="networkidle")
        found = page.evaluate(_OVERFLOWING)
        if found:
            overflowing[page_path or "home"] = found
    page.close()
    assert not overflowing, f"code that scrolls sideways at 1280 px: {overflowing}"


@pytest.mark.parametrize("page_path", ["", "ru/", "zh/", "ko/"])
def test_the_home_pages_tables_fit_a_desktop(browser, base_url: str,
                                             page_path: str) -> None:
    """The families of hooks and the learning path, whole at 1280 px (a wide reference
    table elsewhere scrolls in its own box, with a visible scrollbar)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base_url + page_path, wait_until="networkidle")
    tables = page.evaluate(_HOME_TABLES)
    page.close()
    assert tables and all(wide <= box + 1 for wide, box in tables), tables


def test_the_grad_cam_figure_is_legible_on_a_phone(browser, base_url: str) -> None:
    """Four digits a row: at 390 px the figure is a grid about as tall as it is wide, not
    a strip of eight digits 97 px high."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base_url + "how-to/grad-cam/", wait_until="networkidle")
    figure = page.locator("img[src$='grad-cam.svg']")
    figure.scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.images].every(i => i.complete)")
    box = figure.bounding_box()
    page.close()
    assert box["width"] >= 300 and box["height"] >= box["width"], box


_DIAGRAMS = """() => [...document.querySelectorAll('.md-content__inner .mermaid')]
  .map(e => [e.scrollWidth, e.clientWidth])"""


@pytest.mark.parametrize("page_path", ["explanation/module-call/", "ko/explanation/module-call/"])
def test_diagrams_keep_their_size_on_a_phone(browser, base_url: str,
                                             page_path: str) -> None:
    """A flowchart is drawn at its natural size, so its text is as large on a phone as on
    a desktop: the call flow of ``Module.__call__`` is wider than a phone and scrolls
    sideways in its own box, where it used to shrink to the 358 px column (text 6 px)."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base_url + page_path, wait_until="networkidle")
    page.wait_for_function("() => [...document.querySelectorAll('.mermaid')]"
                           ".every(e => e.getBoundingClientRect().height > 40)")
    sizes = page.evaluate(_DIAGRAMS)
    page.close()
    assert any(drawn > column + 100 for drawn, column in sizes), sizes


def test_the_page_never_scrolls_sideways_on_a_phone(browser, base_url: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    wide = {}
    for page_path in DESKTOP_PAGES + ["explanation/module-call/"]:
        page.goto(base_url + page_path, wait_until="networkidle")
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > 390:
            wide[page_path or "home"] = scroll
    page.close()
    assert not wide, f"pages wider than the phone: {wide}"

