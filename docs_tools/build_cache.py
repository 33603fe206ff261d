"""What a site build remembers from the last one: each page's HTML and its search entries.

After the pictures (``docs_tools/pictures.py``), most of a build's time goes to two steps
that are pure functions of their inputs, done for each page in each of the four languages:

- **rendering** the page's Markdown to HTML (``Page.render``), which for a reference page
  means mkdocstrings loading the package with griffe and rendering every docstring;
- **indexing** the rendered page for search (Material's ``SearchIndex``), which parses its
  HTML and, for Chinese, segments the text with jieba.

``docs_tools/hooks.py`` runs both through this module. Each result is kept in
``.cache/site/`` (ignored by git, like the pictures) under a digest of everything the step
reads, and read back when a later build finds the same digest:

- rendering: the page's Markdown (after ``on_page_markdown``), its URL and language, the
  URL of every file of the site (links are resolved against them), ``mkdocs.yml``, the
  code in ``docs_tools/``, the version of every installed distribution and of Python, and
  for a page with ``:::`` blocks the package's sources (``minitorch_hooks/``);
- indexing: the rendered HTML after cross-references are applied, the page's URL, title,
  metadata and table of contents, the search settings and the same versions.

A render also leaves things behind besides the page's HTML: the anchors it registers
with autorefs (what ``[name][minitorch_hooks.x]`` links resolve to), the objects it adds
to mkdocstrings' inventory (``objects.inv``) and the mkdocstrings handlers it used (whose
CSS the build writes). They are recorded with the HTML and replayed on a read, so the
site is the same byte for byte. A render that logged a warning is not kept, so that its
warning comes again (and fails ``--strict``) on the next build.

The theme's templates are compiled once too, by Jinja's own bytecode cache, which
compiles a template again when its source or Jinja's or Python's version changes.

Delete the folder to render everything anew.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import json
import logging
import os
import platform
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.structure.toc import get_toc

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "site"
# What every render reads besides its page (folders: every file in them).
SETTINGS = ["mkdocs.yml", "docs_tools"]
# What a page with mkdocstrings' ``:::`` blocks reads besides.
PACKAGE = "minitorch_hooks"
_AUTODOC = re.compile(r"^(?:#{1,6} *)?::: ?[\w.]+", re.MULTILINE)


def _files_digest(digest: Any, paths: list[str]) -> None:
    for name in paths:
        path = ROOT / name
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0")
                digest.update(file.read_bytes() + b"\0")


@functools.cache
def versions_digest() -> str:
    """Python's version and every installed distribution's name and version: a new
    release of Markdown, Material, mkdocstrings, Pygments or jieba can change the HTML."""
    names = sorted(f"{dist.metadata['Name']} {dist.version}"
                   for dist in importlib.metadata.distributions())
    return hashlib.sha256("\n".join([platform.python_version(), *names]).encode()).hexdigest()


@functools.cache
def settings_digest() -> str:
    digest = hashlib.sha256(versions_digest().encode())
    _files_digest(digest, SETTINGS)
    return digest.hexdigest()


@functools.cache
def package_digest() -> str:
    digest = hashlib.sha256()
    _files_digest(digest, [PACKAGE])
    return digest.hexdigest()


def forget_digests() -> None:
    """Read the files again on the next build (``mkdocs serve`` rebuilds in one process)."""
    for digest in (versions_digest, settings_digest, package_digest):
        digest.cache_clear()


def _recalled(kind: str, name: str, key: str, compute: Callable[[], Any | None]) -> Any:
    """What ``compute()`` returned when the key was the same, or ``None`` after calling
    it now. One entry per ``name``: a new key replaces the older one. A ``None`` from
    ``compute`` (a step that warned) is not kept."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    stem = re.sub(r"[^\w.-]", "-", name)
    cached = CACHE / kind / f"{stem}-{digest}.json"
    if cached.exists():
        return json.loads(cached.read_text(encoding="utf-8"))
    value = compute()
    if value is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        for older in cached.parent.glob(f"{stem}-{'?' * 20}.json"):
            older.unlink(missing_ok=True)
        # Written whole, then renamed: a build running beside this one (a test's, a
        # serve's) reads the old entry, none, or the new one, never half of it.
        partial = cached.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
        partial.replace(cached)
    return None


class _WarningSeen(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen = False

    def emit(self, record: logging.LogRecord) -> None:
        self.seen = True


@contextlib.contextmanager
def _watching_warnings() -> Iterator[_WarningSeen]:
    """Whether anything logged a warning (mkdocs' loggers do not propagate to the root)."""
    handler = _WarningSeen()
    loggers = [logging.getLogger(), logging.getLogger("mkdocs")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


@contextlib.contextmanager
def _recording(calls: list[list[Any]], name: str, owner: Any, method: str,
               skip: int = 0) -> Iterator[None]:
    """Record each call of ``owner.method`` as ``[name, args[skip:], kwargs]``, and make it."""
    original = getattr(owner, method)

    def record(*args: Any, **kwargs: Any) -> Any:
        calls.append([name, list(args[skip:]), kwargs])
        return original(*args, **kwargs)

    setattr(owner, method, record)
    try:
        yield
    finally:
        delattr(owner, method)  # the class's method shows through again


def _toc_tokens(items: Any) -> list[dict[str, Any]]:
    return [{"level": item.level, "id": item.id, "name": item.title,
             "children": _toc_tokens(item.children)} for item in items]


def render_key(page: Any, config: Any, files: Any, locale: str) -> str:
    """Everything ``Page.render`` reads, as one string."""
    site = [(file.src_uri, file.url, str(file.inclusion)) for file in files]
    parts = [settings_digest(), locale, page.file.src_uri, page.url, json.dumps(site),
             package_digest() if _AUTODOC.search(page.markdown) else "", page.markdown]
    return "\0".join(parts)


def render(page: Any, config: Any, files: Any, locale: str) -> None:
    """``page.render(config, files)``, or its result from the cache, with the anchors,
    inventory entries and handlers that rendering gives autorefs and mkdocstrings."""
    autorefs = config.plugins["autorefs"]
    handlers = config.plugins["mkdocstrings"].handlers

    def compute() -> dict[str, Any] | None:
        calls: list[list[Any]] = []
        with (_watching_warnings() as warnings,
              _recording(calls, "anchor", autorefs, "register_anchor", skip=1),
              _recording(calls, "url", autorefs, "register_url"),
              _recording(calls, "inventory", handlers.inventory, "register"),
              _recording(calls, "handler", handlers, "get_handler")):
            type(page).render(page, config, files)
        if warnings.seen:
            return None
        links = page.links_to_anchors
        return {"content": page.content, "toc": _toc_tokens(page.toc),
                "title": page._title_from_render,
                "anchors": sorted(page.present_anchor_ids),
                "links_to_anchors": None if links is None else
                {file.src_uri: anchors for file, anchors in links.items()},
                "calls": calls}

    name = f"{locale}--{page.file.src_uri}"
    rendered = _recalled("pages", name, render_key(page, config, files, locale), compute)
    if rendered is None:  # rendered just now
        return
    page.content = rendered["content"]
    page.toc = get_toc(rendered["toc"])
    page._title_from_render = rendered["title"]
    page.present_anchor_ids = set(rendered["anchors"])
    links = rendered["links_to_anchors"]
    page.links_to_anchors = None if links is None else {
        files.get_file_from_path(src_uri): anchors for src_uri, anchors in links.items()}
    replay = {"anchor": functools.partial(autorefs.register_anchor, page),
              "url": autorefs.register_url, "inventory": handlers.inventory.register,
              "handler": handlers.get_handler}
    for name, args, kwargs in rendered["calls"]:
        replay[name](*args, **kwargs)


def render_through_cache(page: Any, locale: str) -> Any:
    """The page, whose ``render(config, files)`` is now :func:`render` (for
    ``on_pre_page``: mkdocs renders the page next)."""
    page.render = functools.partial(render, page, locale=locale)
    return page


def index_through_cache(config: Any) -> None:
    """Material's search index, whose ``add_entry_from_context(page)`` is now
    :func:`search_entries` (for ``on_pre_build``: the search plugin makes a new index in
    each build's ``on_config``)."""
    index = config.plugins["material/search"].search_index
    index.add_entry_from_context = functools.partial(search_entries, index)


def compiled_templates() -> jinja2.BytecodeCache:
    """Jinja's own cache of compiled templates, for the theme's: it compiles a template
    again when its source changes, or Jinja's or Python's version."""
    (CACHE / "templates").mkdir(parents=True, exist_ok=True)
    return jinja2.FileSystemBytecodeCache(str(CACHE / "templates"))


def search_entries(index: Any, page: Any) -> None:
    """``index.add_entry_from_context(page)`` (Material's search), or the entries it added
    for the same page, HTML and settings."""
    settings = {key: value for key, value in index.config.items()}
    key = json.dumps([versions_digest(), settings, page.url, page.title, page.meta,
                      _toc_tokens(page.toc), page.content], default=str, sort_keys=True)

    def compute() -> list[dict[str, Any]]:
        before = len(index.entries)
        type(index).add_entry_from_context(index, page)
        return index.entries[before:]

    entries = _recalled("search", page.url or "index", key, compute)
    if entries is not None:
        index.entries.extend(entries)
