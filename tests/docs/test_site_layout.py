"""The course's layout in a real browser, on a 1280 px desktop and a 390 px phone.

What a reader saw and this keeps fixed: the home page's table of hook families cut off at
the right edge of a desktop column, code blocks that needed sideways scrolling (a course
shows code to be read whole), the Grad-CAM figure shrunk to a strip on a phone and the
flowcharts' text shrunk to about 6 px there, drawings wider than the text column and
identifiers broken across lines in a phone's tables. Code is kept to 88 columns
(``test_code_blocks_fit_88_columns``), and the column is wide enough for 88 columns at
1280 px because the page's contents sit in the left navigation (``toc.integrate``).

Each page is loaded once per width and measured in that one visit (the ``layout``
fixture); the checks read the measurements. The server and the browser are fixtures of
``conftest.py``.
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


# The pages the layout checks look at: the widest code, the build-time drawings, the wide
# tables, the flowcharts, the home page in each language.
WIDEST_CODE = ["", "explanation/hook-kinds/", "explanation/registration-hooks/",
               "how-to/grad-cam/", "how-to/attention-maps/", "how-to/hook-does-not-fire/",
               "how-to/see-what-autograd-saves/", "ru/", "zh/how-to/grad-cam/"]
DRAWINGS_AND_TABLES = ["explanation/module-call/", "how-to/activation-statistics/",
                       "how-to/gradient-norms/", "reference/", "how-to/feature-maps/",
                       "how-to/batchnorm-statistics/", "performance/",
                       "zh/how-to/attention-maps/", "ko/explanation/why-it-is-fast/",
                       "ko/explanation/module-call/"]
HOME_PAGES = ["", "ru/", "zh/", "ko/"]
PAGES = list(dict.fromkeys(WIDEST_CODE + DRAWINGS_AND_TABLES + HOME_PAGES))
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}

# Everything drawn: images loaded, and each mermaid source (a ``pre``) replaced by the
# ``div`` that holds its drawing (in a closed shadow root, so the SVG itself is not
# reachable from here: the div's size is the drawing's).
_DRAWN = """() => [...document.images].every(i => i.complete)
  && [...document.querySelectorAll('.mermaid')]
       .every(e => e.tagName === 'DIV' && e.getBoundingClientRect().height > 40)"""
# One page's measurements, all taken in one visit.
_MEASURE = """() => {
  const inner = document.querySelector('.md-content__inner');
  const column = inner.getBoundingClientRect();
  const all = selector => [...inner.querySelectorAll(selector)];
  return {
    // drawings whose right edge passes the text column's
    tooWide: all('img, div.mermaid')
      .filter(e => e.getBoundingClientRect().right > column.right + 1)
      .map(e => (e.getAttribute('src') || 'flowchart') + ': '
                + Math.round(e.getBoundingClientRect().width) + ' px in a column of '
                + Math.round(column.width)),
    // identifiers in tables broken across lines
    brokenCode: all('table code').filter(e => e.getClientRects().length > 1)
      .map(e => e.textContent),
    // code blocks that scroll sideways
    scrollingCode: all('pre > code').filter(e => e.scrollWidth > e.clientWidth + 1)
      .map(e => e.textContent.split('\\n')[0].slice(0, 40)
                + ' (' + e.scrollWidth + ' px in ' + e.clientWidth + ')'),
    tables: all('.md-typeset__scrollwrap').map(e => [e.scrollWidth, e.clientWidth]),
    flowcharts: all('.mermaid').map(e => [e.scrollWidth, e.clientWidth]),
    images: Object.fromEntries(all('img').map(e => {
      const box = e.getBoundingClientRect();
      return [e.getAttribute('src'), [box.width, box.height]];
    })),
    pageWidth: document.documentElement.scrollWidth,
  };
}"""


@pytest.fixture(scope="module")
def layout(browser, base_url: str) -> dict[str, dict[str, dict]]:
    """Each page of ``PAGES`` measured once at each width of ``WIDTHS``, everything
    drawn: the checks below read these measurements instead of loading a page each."""
    measured: dict[str, dict[str, dict]] = {}
    for name, (width, height) in WIDTHS.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        measured[name] = {}
        for page_path in PAGES:
            page.goto(base_url + page_path, wait_until="load")
            page.wait_for_function(_DRAWN, timeout=15000)
            measured[name][page_path or "home"] = page.evaluate(_MEASURE)
        page.close()
    return measured


def found(layout: dict, width: str, measurement: str) -> dict[str, object]:
    """The pages where ``measurement`` at ``width`` found something, with what it found."""
    return {page: taken[measurement] for page, taken in layout[width].items()
            if taken[measurement]}


@pytest.mark.parametrize("width", list(WIDTHS))
def test_no_drawing_is_wider_than_its_column(layout: dict, width: str) -> None:
    too_wide = found(layout, width, "tooWide")
    assert not too_wide, f"drawings wider than the text column: {too_wide}"


def test_code_fits_the_desktop_column(layout: dict) -> None:
    scrolling = found(layout, "desktop", "scrollingCode")
    assert not scrolling, f"code that scrolls sideways at 1280 px: {scrolling}"


def test_tables_on_a_phone_do_not_break_identifiers(layout: dict) -> None:
    broken = found(layout, "phone", "brokenCode")
    assert not broken, f"identifiers broken across lines in tables: {broken}"


def test_the_page_never_scrolls_sideways_on_a_phone(layout: dict) -> None:
    """A wide table or flowchart scrolls inside its own box, never the page."""
    wide = {page: taken["pageWidth"] for page, taken in layout["phone"].items()
            if taken["pageWidth"] > 390}
    assert not wide, f"pages wider than the phone: {wide}"


@pytest.mark.parametrize("page_path", HOME_PAGES, ids=lambda p: p or "en")
def test_the_home_pages_tables_fit_a_desktop(layout: dict, page_path: str) -> None:
    """The families of hooks and the learning path, whole at 1280 px (a wide reference
    table elsewhere scrolls in its own box, with a visible scrollbar)."""
    tables = layout["desktop"][page_path or "home"]["tables"]
    assert tables and all(wide <= box + 1 for wide, box in tables), tables


def test_the_grad_cam_figure_is_legible_on_a_phone(layout: dict) -> None:
    """Four digits a row: at 390 px the figure is a grid about as tall as it is wide, not
    a strip of eight digits 97 px high."""
    images = layout["phone"]["how-to/grad-cam/"]["images"]
    (width, height), = [box for src, box in images.items() if src.endswith("grad-cam.svg")]
    assert width >= 300 and height >= width, (width, height)


@pytest.mark.parametrize("page_path", ["explanation/module-call/", "ko/explanation/module-call/"])
def test_diagrams_keep_their_size_on_a_phone(layout: dict, page_path: str) -> None:
    """A flowchart is drawn at its natural size, so its text is as large on a phone as on
    a desktop: the call flow of ``Module.__call__`` is wider than a phone and scrolls
    sideways in its own box, where it used to shrink to the 358 px column (text 6 px)."""
    sizes = layout["phone"][page_path]["flowcharts"]
    assert any(drawn > column + 100 for drawn, column in sizes), sizes
