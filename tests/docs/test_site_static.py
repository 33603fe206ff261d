"""The built site asks no outside host for anything, checked in the HTML and CSS alone.

The browser test sees the requests a page really makes; this audit needs no browser and
covers every page: no ``<script>``, stylesheet, image, frame or font from another host,
no ``import("https://...")`` in an inline script, no remote ``url(...)`` in the CSS. Links
(``<a href>``) may point anywhere: following one is the reader's choice, not a request
made when the page is viewed. The search index must be there, for offline search.
"""

from __future__ import annotations

import html.parser
import re
from pathlib import Path

from docs_tools.pictures import PICTURES

# Attributes through which a page loads something by itself.
LOADING = {("script", "src"), ("link", "href"), ("img", "src"), ("iframe", "src"),
           ("source", "src"), ("source", "srcset"), ("video", "src"), ("audio", "src"),
           ("embed", "src"), ("object", "data"), ("image", "href")}
REMOTE = re.compile(r"^(https?:)?//", re.IGNORECASE)
INLINE_IMPORT = re.compile(r"""import\(\s*["'](https?:)?//""")
CSS_URL = re.compile(r"""url\(\s*["']?(https?:)?//""", re.IGNORECASE)


class _Loads(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.remote: list[str] = []
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._in_script = tag == "script"
        for name, value in attrs:
            if (tag, name) in LOADING and value and REMOTE.match(value):
                # <link rel="canonical"> and friends name a page; they load nothing.
                rel = dict(attrs).get("rel", "")
                if tag == "link" and rel not in ("stylesheet", "preload", "preconnect",
                                                 "icon", "modulepreload", "dns-prefetch"):
                    continue
                self.remote.append(f"<{tag} {name}={value}>")

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.inline_scripts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False


def test_no_page_loads_anything_from_another_host(site_dir: Path) -> None:
    problems = {}
    pages = sorted(site_dir.rglob("*.html"))
    assert len(pages) >= 20
    for page in pages:
        parser = _Loads()
        parser.feed(page.read_text(encoding="utf-8"))
        found = parser.remote + [f"inline import of {m.group(0)}" for script in
                                 parser.inline_scripts for m in INLINE_IMPORT.finditer(script)]
        if found:
            problems[page.relative_to(site_dir).as_posix()] = found
    assert not problems, problems


def test_no_stylesheet_loads_from_another_host(site_dir: Path) -> None:
    remote = {css.relative_to(site_dir).as_posix(): CSS_URL.findall(css.read_text("utf-8"))
              for css in site_dir.rglob("*.css")}
    assert not {name: found for name, found in remote.items() if found}


def test_offline_settings_are_in_effect(site_dir: Path) -> None:
    start = (site_dir / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis.com" not in start and "fonts.gstatic.com" not in start
    assert "api.github.com" not in start and 'class="md-source"' not in start  # no repo_url
    assert "Made with" not in start  # extra.generator: false
    assert (site_dir / "search" / "search_index.json").stat().st_size > 10_000


def test_mermaid_is_vendored_and_loaded_where_a_flowchart_is_drawn(site_dir: Path) -> None:
    """A page with a flowchart loads the vendored mermaid (else Material fetches it from a
    CDN); a page without one does not load its 3.5 MB."""
    drawn, plain = [], []
    for page in site_dir.rglob("index.html"):
        text = page.read_text(encoding="utf-8")
        script = re.search(r'<script src="((?:\.\./)*)javascripts/mermaid\.min\.js">', text)
        if 'class="mermaid"' in text:
            assert script, f"{page.relative_to(site_dir)} draws a flowchart without mermaid"
            depth = len(page.relative_to(site_dir).parts) - 1
            assert script[1] == "../" * depth, page  # the site's own copy, from any folder
            drawn.append(page)
        else:
            assert not script, f"{page.relative_to(site_dir)} loads mermaid and draws nothing"
            plain.append(page)
    assert len(drawn) >= 20 and len(plain) > len(drawn), (len(drawn), len(plain))
    assert (site_dir / "javascripts" / "mermaid.min.js").stat().st_size > 1_000_000


def test_the_pictures_are_built_and_shown(site_dir: Path) -> None:
    for picture in PICTURES:
        svg = (site_dir / picture).read_text(encoding="utf-8")
        assert "<svg" in svg and not REMOTE.search(svg.split("xmlns", 1)[0])
    page = (site_dir / "how-to" / "activation-statistics" / "index.html").read_text("utf-8")
    assert "assets/plots/activation-frequency.svg" in page
    page = (site_dir / "how-to" / "grad-cam" / "index.html").read_text("utf-8")
    assert "assets/plots/grad-cam.svg" in page


def test_reference_signatures_wrap_and_pytorch_links_are_links(site_dir: Path) -> None:
    """Long signatures are wrapped to fit the column (ruff, from the docs extra), and
    every address of PyTorch's documentation is a real link, not plain text."""
    page = (site_dir / "reference" / "module" / "index.html").read_text(encoding="utf-8")
    start = page.index('id="minitorch_hooks.nn.Module.register_forward_pre_hook"')
    signature = page[page.index("doc-signature", start):page.index("</code>", start)]
    lines = re.sub(r"<[^>]+>", "", signature).split(">", 1)[1].splitlines()
    assert len(lines) >= 3 and max(map(len, lines)) <= 80, lines
    for html_page in (site_dir / "reference").rglob("*.html"):
        if html_page.relative_to(site_dir / "reference").parts[0] == "source":
            continue  # a file shown as it is written, docstrings and all (Reading the code)
        text = html_page.read_text(encoding="utf-8")
        plain = re.sub(r"<a [^>]*>.*?</a>|<[^>]+>", "", text)
        assert "https://docs.pytorch.org" not in plain, html_page
