"""A build reads back each page's HTML and search entries when nothing they are made
from changed, and makes them anew when something did (``docs_tools/build_cache.py``).

The site here is a small one built in-process with the same plugins as the course's
(Material and its search, autorefs, mkdocstrings) and the same three hooks: a page with
a cross-reference, and a reference page rendered by mkdocstrings from a small package.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from docs_support import ROOT, skip_or_fail

try:
    from material.plugins.search.plugin import SearchIndex
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort
    from mkdocs.structure.pages import Page
except ImportError:
    skip_or_fail("the docs extra is not installed: pip install -e '.[docs]'")

from docs_tools import build_cache

HOOKS = """\
from docs_tools import build_cache

def on_pre_build(config):
    build_cache.forget_digests()
    build_cache.index_through_cache(config)

def on_env(env, config, files):
    env.bytecode_cache = build_cache.compiled_templates()
    return env

def on_pre_page(page, config, files):
    return build_cache.render_through_cache(page, "en")
"""

CONFIG = """\
site_name: tiny
strict: true
theme: {name: material, font: false}
nav: [index.md, api.md]
hooks: [hooks.py]
plugins:
  - search
  - autorefs
  - mkdocstrings:
      handlers: {python: {paths: [.], options: {show_root_heading: true}}}
validation: {omitted_files: warn, absolute_links: warn, unrecognized_links: warn,
             anchors: warn}
"""

HOME = "# Home\n\nSee [`scale`][tinypkg.scale] and [the API](api.md#tinypkg.scale).\n"
PACKAGE = 'def scale(x):\n    """Multiply by two: the first docstring."""\n    return 2 * x\n'


class TinySite:
    """The small site's sources in a folder; ``build()`` builds it and returns its files,
    recording which pages were rendered and indexed for search (rather than read back)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.rendered: list[str] = []
        self.indexed: list[str] = []
        for path, text in {"mkdocs.yml": CONFIG, "hooks.py": HOOKS, "docs/index.md": HOME,
                           "docs/api.md": "# API\n\n::: tinypkg.scale\n",
                           "tinypkg/__init__.py": PACKAGE}.items():
            self.write(path, text)

    def write(self, path: str, text: str) -> None:
        (self.folder / path).parent.mkdir(parents=True, exist_ok=True)
        (self.folder / path).write_text(text, encoding="utf-8")

    def build(self) -> dict[str, bytes]:
        self.rendered.clear()
        self.indexed.clear()
        site = self.folder / "site"
        build(load_config(str(self.folder / "mkdocs.yml"), site_dir=str(site)))
        return {path.relative_to(site).as_posix(): path.read_bytes()
                for path in sorted(site.rglob("*")) if path.is_file()}


def _counting(record: list[str], method: Callable, page: Callable) -> Callable:
    """``method``, recording the source of the page it is called for."""
    def counted(self, *args, **kwargs):
        record.append(page(self, *args).file.src_uri)
        return method(self, *args, **kwargs)
    return counted


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TinySite:
    """The small site, with a cache of its own, its settings (``mkdocs.yml``) and its
    package in place of the course's."""
    site = TinySite(tmp_path)
    monkeypatch.setattr(build_cache, "ROOT", tmp_path)
    monkeypatch.setattr(build_cache, "CACHE", tmp_path / ".cache" / "site")
    monkeypatch.setattr(build_cache, "PACKAGE", "tinypkg")
    monkeypatch.syspath_prepend(str(ROOT))  # for `from docs_tools import ...` in hooks.py
    monkeypatch.setattr(Page, "render", _counting(site.rendered, Page.render,
                                                  lambda page, *_: page))
    monkeypatch.setattr(SearchIndex, "add_entry_from_context",
                        _counting(site.indexed, SearchIndex.add_entry_from_context,
                                  lambda index, page: page))
    yield site
    build_cache.forget_digests()  # the course's own, for the tests that follow


def test_a_second_build_reads_every_page_back_and_writes_the_same_site(
        tiny: TinySite) -> None:
    first = tiny.build()
    assert sorted(tiny.rendered) == sorted(tiny.indexed) == ["api.md", "index.md"]
    second = tiny.build()
    assert tiny.rendered == [] and tiny.indexed == []
    assert second == first  # byte for byte, the search index and objects.inv included
    # The cross-reference resolved from the anchors that the cached render replays.
    assert b'href="api/#tinypkg.scale"' in second["index.html"]
    assert b"tinypkg.scale" in second["search/search_index.json"]


def test_a_changed_docstring_renders_its_reference_page_anew(tiny: TinySite) -> None:
    tiny.build()
    tiny.write("tinypkg/__init__.py", PACKAGE.replace("the first", "the second"))
    site = tiny.build()
    assert tiny.rendered == tiny.indexed == ["api.md"]  # index.md: read back
    assert b"the second docstring" in site["api/index.html"]
    assert b"the first docstring" not in site["api/index.html"]
    assert b"the second docstring" in site["search/search_index.json"]


def test_a_changed_page_renders_that_page_anew(tiny: TinySite) -> None:
    tiny.build()
    tiny.write("docs/index.md", HOME + "\nA new paragraph.\n")
    site = tiny.build()
    assert tiny.rendered == tiny.indexed == ["index.md"]
    assert b"A new paragraph." in site["index.html"]
    assert b"A new paragraph." in site["search/search_index.json"]


def test_a_changed_setting_renders_every_page_anew(tiny: TinySite) -> None:
    tiny.build()
    tiny.write("mkdocs.yml", CONFIG.replace("site_name: tiny", "site_name: small"))
    tiny.build()
    assert sorted(tiny.rendered) == ["api.md", "index.md"]


def test_a_render_that_warns_is_not_kept_so_it_warns_again(tiny: TinySite) -> None:
    tiny.write("docs/index.md", HOME + "\nA [broken link](missing.md).\n")
    with pytest.raises(Abort, match="strict mode"):
        tiny.build()
    assert sorted(tiny.rendered) == ["api.md", "index.md"]
    with pytest.raises(Abort, match="strict mode"):
        tiny.build()
    assert tiny.rendered == ["index.md"]  # rendered, and warned, again; api.md read back


def test_every_input_of_the_course_exists() -> None:
    """A renamed file or folder would silently leave the digest."""
    assert all((build_cache.ROOT / path).exists()
               for path in [*build_cache.SETTINGS, build_cache.PACKAGE])
