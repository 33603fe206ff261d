"""The built site in a real browser: headless Debian Chromium, driven by playwright.

The site is built with ``mkdocs build --strict`` (the ``site_dir`` fixture), served from
127.0.0.1 and loaded like a reader would. Each checked page must render with Material's
theme (header, tabs, navigation, search box), show its diagram drawn (mermaid's SVG has a
real size; a build-time SVG picture has loaded), make no request to any other host and
have no failed request or page error. Typing into the search box must find a page:
search works offline, and a method's name finds the pages that only call it in code. The
layout at desktop and phone widths is checked in ``test_site_layout.py``.

Outside CI the test skips visibly when Chromium or playwright is missing; with
``CI=true`` it fails instead (``.ci/run`` installs both). ``MTH_SCREENSHOTS=DIR`` saves a
screenshot of each page there, to look at. The server and the browser are fixtures of
``conftest.py``, shared with ``test_site_run.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from docs_support import search_for


class Seen:
    """What the tab's page did during one check: every request, the failed ones, the
    responses with an error status, and the page's uncaught errors."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.missing: list[str] = []
        self.errors: list[str] = []

    def clear(self) -> None:
        for seen in (self.requests, self.failed, self.missing, self.errors):
            seen.clear()


@pytest.fixture(scope="module")
def tab(browser) -> object:
    """One browser tab for this file's checks, each of which loads its own page in it:
    opening a tab costs Chromium about twice the CPU of loading a page of the same site in
    a tab already open, and these checks open many pages."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.seen = Seen()
    page.on("request", lambda request: page.seen.requests.append(request.url))
    page.on("requestfailed", lambda request: page.seen.failed.append(request.url))
    page.on("response", lambda response: page.seen.missing.append(response.url)
            if response.status >= 400 else None)
    page.on("pageerror", lambda error: page.seen.errors.append(str(error)))
    yield page
    page.close()


@pytest.fixture
def page(tab) -> object:
    """The tab, with ``page.seen`` holding this check's events only: the page the check
    before left has finished loading (nothing of it is still on its way), then the events
    are forgotten."""
    tab.wait_for_load_state("networkidle")
    tab.seen.clear()
    return tab

# page -> CSS selector of the diagram it must show drawn
PAGES = {
    "": "div.mermaid",                                   # the start page
    "explanation/module-call/": "div.mermaid",
    "explanation/hook-kinds/": "img[src$='one-backward.svg']",
    "how-to/activation-statistics/": "img[src$='activation-frequency.svg']",
    "explanation/legacy-backward-hook/": "div.mermaid",   # legacy beside full hooks
    "how-to/see-what-autograd-saves/": "div.mermaid",     # a saved tensor's life
}


@pytest.mark.parametrize("page_path", list(PAGES), ids=lambda p: p or "start page")
def test_page_renders_offline_with_theme_navigation_and_diagram(
        page, base_url: str, page_path: str) -> None:
    page.goto(base_url + page_path, wait_until="networkidle")
    if os.environ.get("MTH_SCREENSHOTS"):
        name = (page_path.strip("/").replace("/", "-") or "start") + ".png"
        page.screenshot(path=str(Path(os.environ["MTH_SCREENSHOTS"]) / name))

    # Material's theme, tabs, side navigation and search box are there and visible.
    assert page.locator("header.md-header").is_visible()
    assert page.locator(".md-tabs").is_visible()
    assert page.locator("nav.md-nav--primary").count() >= 1
    assert page.locator(".md-search__input").count() == 1
    assert page.locator("link[href*='assets/stylesheets/main']").count() == 1
    # The diagram is drawn: mermaid replaced its source with an SVG of real size, or the
    # build-time picture loaded.
    diagram = page.locator(PAGES[page_path]).first
    diagram.scroll_into_view_if_needed()
    page.wait_for_function(
        "selector => { const e = document.querySelector(selector);"
        " return e && e.getBoundingClientRect().height > 40"
        " && (e.tagName !== 'IMG' || (e.complete && e.naturalWidth > 0)); }",
        arg=PAGES[page_path], timeout=15000)
    if PAGES[page_path].startswith("div.mermaid"):
        assert "graph" not in diagram.inner_text()[:40], "mermaid source shown as text"

    if os.environ.get("MTH_SCREENSHOTS"):
        name = (page_path.strip("/").replace("/", "-") or "start") + "-diagram.png"
        page.screenshot(path=str(Path(os.environ["MTH_SCREENSHOTS"]) / name))
    outside = [url for url in page.seen.requests if not url.startswith(base_url)]
    assert not outside, f"requests to other hosts: {outside}"
    assert not page.seen.failed, f"failed requests: {page.seen.failed}"
    assert not page.seen.errors, f"errors in the page: {page.seen.errors}"


def test_search_works_offline(page, base_url: str) -> None:
    page.goto(base_url, wait_until="networkidle")
    search = page.locator(".md-search__input")
    search.click()
    search.press_sequentially("prepend", delay=30)  # typed, as a reader would
    result = page.locator(".md-search-result__item").first
    result.wait_for(timeout=15000)
    assert "Inside Module.__call__" in page.locator(".md-search-result").inner_text()
    assert all(url.startswith(base_url) for url in page.seen.requests), page.seen.requests


def test_search_finds_the_pages_that_call_a_method(page, base_url: str) -> None:
    page.goto(base_url, wait_until="networkidle")
    search_for(page, "register_forward_pre_hook")
    # Material shows results ten at a time and adds more as the list scrolls: scroll until
    # every matching page is listed.
    for _ in range(10):
        shown = page.locator(".md-search-result__item").count()
        page.locator(".md-search__scrollwrap").evaluate("wrap => wrap.scrollTo(0, 1e6)")
        page.wait_for_timeout(300)
        if page.locator(".md-search-result__item").count() == shown:
            break
    found = page.locator(".md-search-result").inner_text()
    # code-only uses, missed when model.register_forward_pre_hook( was one token
    for title in ("Log shapes", "Prune with a forward pre-hook", "Modify inputs and outputs"):
        assert title in found, found[:500]


# Each language: its home page and an explanation page render offline in that language,
# and a query in that language finds that language's pages.
LANGUAGE_PAGES = [f"{locale}/{page}" for locale in ("ru", "zh", "ko")
                  for page in ("", "explanation/common-mistakes/")]
QUERIES = {"ru": "хук", "zh": "钩子", "ko": "훅"}


@pytest.mark.parametrize("page_path", LANGUAGE_PAGES)
def test_each_language_renders_offline(page, base_url: str, page_path: str) -> None:
    locale = page_path.split("/")[0]
    page.goto(base_url + page_path, wait_until="networkidle")
    assert page.locator("html").get_attribute("lang") == locale
    assert page.locator("header.md-header").is_visible()
    assert page.locator(".md-tabs").is_visible()
    # the language switcher offers all four languages
    switcher = page.locator(".md-select__link[hreflang]")
    assert sorted(switcher.evaluate_all("links => links.map(l => l.hreflang)")) == [
        "en", "ko", "ru", "zh"]
    assert all(url.startswith(base_url) for url in page.seen.requests), page.seen.requests
    assert not page.seen.errors, page.seen.errors


@pytest.mark.parametrize("locale", list(QUERIES))
def test_search_finds_pages_in_each_language(page, base_url: str, locale: str) -> None:
    page.goto(f"{base_url}{locale}/", wait_until="networkidle")
    search = page.locator(".md-search__input")
    search.click()
    # Characters outside ASCII are inserted as text, with no key events; Material searches
    # on a key press, as it gets one when a reader types with their keyboard or IME.
    search.press_sequentially(QUERIES[locale], delay=30)
    search.press("End")
    page.locator(".md-search-result__item").first.wait_for(timeout=15000)
    links = page.locator(".md-search-result__link").evaluate_all(
        "links => links.map(l => new URL(l.href).pathname)")
    assert any(link.startswith(f"/{locale}/") for link in links), links


def test_the_language_switcher_keeps_the_page(page, base_url: str) -> None:
    page.goto(base_url + "ru/how-to/log-shapes/", wait_until="networkidle")
    page.locator(".md-select").first.hover()
    page.locator('.md-select__link[hreflang="zh"]').click()
    page.wait_for_load_state("networkidle")
    assert page.url == base_url + "zh/how-to/log-shapes/"
    assert page.locator("html").get_attribute("lang") == "zh"
    assert not page.seen.missing, f"requests that failed: {page.seen.missing}"
