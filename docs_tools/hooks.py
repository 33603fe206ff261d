"""The mkdocs hooks of the site (``hooks:`` in ``mkdocs.yml``).

``on_files`` adds the pictures of ``docs_tools/pictures.py`` to the build as generated
files: plots drawn with matplotlib and hook timelines drawn by ``minitorch_hooks.hook_trace``,
each from the code of the page that shows it. It adds the exercise pages of
``docs_tools/exercises.py`` the same way, and ``on_config`` lists them in the nav's
Exercises section, so that a new exercise appears without editing ``mkdocs.yml``. It also
adds a page for each of the package's files that "Reading the code" links to
(``docs_tools/source_pages.py``). Nothing is written into ``docs/``.

When the Python runtime is at hand (``docs_tools/run_in_browser.py``), ``on_post_page``
gives each page of ``docs/`` Run buttons on its examples and each exercise page an editor
with Check, and ``on_post_build`` writes the runtime and the wheels into the site.

``on_pre_build``, ``on_pre_page`` and ``on_env`` let ``docs_tools/build_cache.py``
remember each page's HTML, its search entries and the compiled templates from one build to
the next, so that a build in which nothing changed (a second ``mkdocs serve``) takes
seconds.

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

import functools  # noqa: E402
import json  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import yaml  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.files import File, Files, InclusionLevel  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from docs_tools import build_cache, pictures, run_in_browser  # noqa: E402
from docs_tools.exercises import FOLDER, SECTION, exercise_nav, exercise_pages  # noqa: E402
from docs_tools.source_pages import NOTE, source_pages  # noqa: E402
from docs_tools.translations import STRINGS  # noqa: E402
from minitorch_hooks.tutorials import EXERCISES  # noqa: E402

DEFAULT_LOCALE = "en"


@functools.cache
def strings(locale: str) -> dict[str, Any]:
    """A language's interface strings (``docs_tools/i18n/<locale>.yml``); none for English."""
    path = STRINGS / f"{locale}.yml"
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}


def _exercise_titles(nav: dict[str, str]) -> dict[str, str]:
    """The exercises' nav titles ("3. Extract features") in a language, from its titles."""
    translated = {}
    for entry in exercise_nav()[1:]:
        (title,) = entry
        number, _, name = title.partition(". ")
        if name in nav:
            translated[title] = f"{number}. {nav[name]}"
    return translated


def _current_locale(config: Any) -> str:
    i18n = config.plugins.get("i18n")
    return (i18n.current_language if i18n else None) or DEFAULT_LOCALE


@event_priority(100)  # before the i18n plugin reads each language's nav_translations
def on_config(config: Any) -> Any:
    for entry in config["nav"]:
        if isinstance(entry, dict) and SECTION in entry:
            entry[SECTION] = exercise_nav()
    for language in config.plugins["i18n"].config.languages:
        nav = strings(language.locale).get("nav", {})
        language.nav_translations = {**nav, **_exercise_titles(nav)}
    return config


def _for_language(file: File, locale: str, locales: list[str]) -> File:
    """A generated file placed in a language's part of the site, as the i18n plugin
    places the files it reads from ``docs/`` (it never sees generated ones), with its
    copies in the other languages for the header's language switcher."""
    def url_in(language: str) -> str:
        return in_default if language == DEFAULT_LOCALE else f"{language}/{in_default}"

    in_default = file.url
    if locale != DEFAULT_LOCALE:
        file.dest_uri = f"{locale}/{file.dest_uri}"
        file.url = url_in(locale)
    file.alternates = {other: SimpleNamespace(url=url_in(other)) for other in locales}
    file.alternates[locale] = file
    file.locale = file.locale_alternate_of = locale
    file.localization = None if locale == DEFAULT_LOCALE else locale
    file.norm_src_uri = file.src_uri
    return file


@event_priority(-200)  # after the i18n plugin has chosen the files of this language
def on_files(files: Files, config: Any) -> Files:
    locale = _current_locale(config)
    locales = config.plugins["i18n"].build_languages
    tip = strings(locale).get("exercise_tip")
    pages = exercise_pages(locale, tip) if tip else exercise_pages(locale)
    for path, content in {**_pictures(), **pages}.items():
        files.append(_for_language(File.generated(config, path, content=content), locale,
                                   locales))
    # The package's files, linked from "Reading the code" rather than listed in the nav.
    for path, content in source_pages(strings(locale).get("source_note", NOTE)).items():
        file = File.generated(config, path, content=content,
                              inclusion=InclusionLevel.NOT_IN_NAV)
        files.append(_for_language(file, locale, locales))
    return files


@functools.cache
def _pictures() -> dict[str, str]:
    return pictures.draw_all()  # drawn once, for all four languages


def on_pre_build(config: Any) -> None:
    """Each page's search entries through the cache; and, before the first language of
    a build, the inputs read anew (``mkdocs serve`` rebuilds in the same process)."""
    if not config.plugins["i18n"].building:
        build_cache.forget_digests()
        pictures.forget_digests()
    build_cache.index_through_cache(config)


def on_env(env: Any, config: Any, files: Files) -> Any:
    """The theme's templates compiled once, not in each build of each language."""
    env.bytecode_cache = build_cache.compiled_templates()
    return env


def on_pre_page(page: Any, config: Any, files: Files) -> Any:
    """The page rendered through the cache (``Page.render``'s result, read back when
    nothing it reads changed)."""
    return build_cache.render_through_cache(page, _current_locale(config))


def on_page_markdown(markdown: str, page: Any, config: Any, **kwargs: Any) -> str:
    """An English page in another language's site says so, in that language, and says
    why: generated from the code or the tests (the API reference, with ``:::`` directives,
    and pages marked ``<!-- Generated``), which stay English, or not translated yet."""
    if getattr(page.file, "localization", None) is not None or page.file.generated_by:
        return markdown
    generated = ":::" in markdown or "<!-- Generated" in markdown
    note = strings(_current_locale(config)).get(
        "fallback_note" if generated else "untranslated_note")
    return f'!!! info ""\n    {note}\n\n{markdown}' if note else markdown


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Changes to each page Material renders: mermaid where the page has a flowchart, Run
    buttons (``_with_run_buttons``), and two so that each language works on its own.

    - In another language's part of the site, Material's base is that language's folder,
      so its search reads that language's index (see ``on_post_build``).
    - The page's ``<link rel="alternate">`` tags go: Material fetches ``sitemap.xml`` beside
      each of them, as if they were the languages' home pages, and here they are the page
      itself in each language (a 404 for each). The switcher's links stay, and lead to the
      same page in the other language.
    """
    head, body = output.split("</head>", 1)  # the tags are in the head: search only it
    output = f"{_ALTERNATE_LINK.sub('', head)}</head>{body}"
    locale = _current_locale(config)
    output = _with_run_buttons(_with_flowchart_drawing(output, page), page, locale)
    if locale == DEFAULT_LOCALE:
        return output
    return _CONFIG_BASE.sub(rf'\1\2/{locale}/"', output, count=1)


MERMAID = "javascripts/mermaid.min.js"  # vendored: Material never fetches it from a CDN


def _with_flowchart_drawing(output: str, page: Any) -> str:
    """The vendored mermaid on the pages that have a ``mermaid`` block, and only there.

    Material draws such a block with the ``mermaid`` it finds loaded (else it fetches one
    from a CDN, which an offline site must not do). Loaded on every page, its 3.5 MB of
    JavaScript would be read by the browser on each of them, while most pages draw none.
    It comes after Material's own script, as ``extra_javascript`` would put it."""
    if 'class="mermaid"' not in output:
        return output
    script = get_relative_url(MERMAID, page.url)
    return output.replace("</body>", f'<script src="{script}"></script>\n</body>', 1)


_EXERCISES = {f"{FOLDER}/{exercise.name}.md": exercise for exercise in EXERCISES}


def _with_run_buttons(output: str, page: Any, locale: str) -> str:
    """Run buttons on the examples of a page of ``docs/`` (the blocks its tests run), or
    the editor and Check of an exercise page, when the site ships the runtime."""
    if run_in_browser.runtime() is None:
        return output
    exercise = _EXERCISES.get(page.file.src_uri)
    if exercise is not None:
        kind = {"exercise": {"number": exercise.number, "filename": exercise.starter.name,
                             "starter": exercise.starter.read_text(encoding="utf-8")}}
    elif page.file.generated_by is None:
        kind = {"blocks": True}
    else:
        return output
    folder = run_in_browser.RUNNER_FOLDER
    style = get_relative_url(f"{folder}/runner.css", page.url)
    script = get_relative_url(f"{folder}/runner.js", page.url)
    config = run_in_browser.page_config(kind, strings(locale).get("runner", {}))
    output = output.replace("</head>", f'<link rel="stylesheet" href="{style}">\n</head>', 1)
    return output.replace("</body>", f'{config}\n<script src="{script}"></script>\n</body>', 1)


_ALTERNATE_LINK = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_CONFIG_BASE = re.compile(r'(<script id="__config" type="application/json">\{[^<]*?"base": ")'
                          r'([^"]*)"')


@event_priority(-200)  # after the i18n plugin has built every language
def on_post_build(config: Any) -> None:
    """One search index per language, so that a reader searches the pages of their own
    language (the i18n plugin writes one index of all four); and the Python that the Run
    buttons run, once for all four."""
    i18n = config.plugins["i18n"]
    if i18n.building:  # a language's own build, inside the build of all four
        return
    site = Path(config.site_dir)
    runtime = run_in_browser.runtime()
    if runtime is not None:
        run_in_browser.write_to_site(site, runtime)
    index = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    others = [locale for locale in i18n.build_languages if locale != DEFAULT_LOCALE]
    for locale in [DEFAULT_LOCALE, *others]:
        prefix = "" if locale == DEFAULT_LOCALE else f"{locale}/"
        docs = [{**doc, "location": doc["location"].removeprefix(prefix)}
                for doc in index["docs"]
                if (doc["location"].startswith(prefix) if prefix
                    else doc["location"].split("/")[0] not in others)]
        folder = site / prefix
        (folder / "search").mkdir(parents=True, exist_ok=True)
        (folder / "search" / "search_index.json").write_text(
            json.dumps({**index, "docs": docs}, ensure_ascii=False), encoding="utf-8")


_SPHINX_ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|exc):(?=<code>)")


def on_page_content(html: str, **kwargs: Any) -> str:
    return _SPHINX_ROLE.sub("", html)
