"""The Russian, Chinese and Korean course: complete, in step with the English pages, and
with the same code.

See ``docs_tools/translations.py`` for the two rules (no drift, nothing stale) and
CONTRIBUTING.md for how to update a stale translation. Each rule is also shown to fail on
a planted change, so a broken checker cannot pass silently.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from docs_support import ROOT

from docs_tools.translations import (
    DOCS,
    LOCALES,
    STRINGS,
    TUTORIALS,
    Translation,
    blob_hash,
    code_blocks,
    comments_left_in_english,
    english_diff,
    front_matter,
    spans_not_carried_over,
    translations,
)

TRANSLATIONS = translations()


def _english_pages() -> list[Path]:
    """What each language translates: Start here, the glossary, every explanation and
    how-to page, and every exercise text (the API reference and the conformance page,
    generated from the code and the tests, stay English)."""
    english = [DOCS / "index.md"]
    for part in ("start", "explanation", "how-to"):
        english += sorted((DOCS / part).glob("*.md"))
    english += [TUTORIALS / "README.md", *sorted(TUTORIALS.glob("ex*/README.md"))]
    return [path for path in english if path.name.count(".") == 1]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_page_is_translated(locale: str) -> None:
    missing = [str(page.relative_to(ROOT)) for page in _english_pages()
               if not page.with_name(page.name.replace(".md", f".{locale}.md")).exists()]
    assert not missing, f"{len(missing)} pages have no {locale} translation: {missing}"


@pytest.mark.parametrize("translation", TRANSLATIONS, ids=lambda t: str(t.path.relative_to(ROOT)))
def test_code_does_not_drift(translation: Translation) -> None:
    assert translation.english.exists(), "a translation of a page that does not exist"
    assert code_blocks(translation.text) == code_blocks(translation.english.read_text("utf-8"))


def test_no_translation_is_stale() -> None:
    stale = [str(translation.path.relative_to(ROOT)) for translation in TRANSLATIONS
             if translation.is_stale()]
    assert not stale, ("the English page changed since these were translated; "
                       f"`python -m docs_tools.translations --diff` shows how: {stale}")


def test_every_correction_reaches_every_language() -> None:
    """Inline code the English prose names is named in each translation: a correction
    such as "pass `retain_graph=True`" cannot stay English-only behind a fresh hash."""
    missing = {str(t.path.relative_to(ROOT)): sorted(spans_not_carried_over(t))
               for t in TRANSLATIONS if spans_not_carried_over(t)}
    assert not missing, f"inline code of the English page missing from its translation: {missing}"


def test_no_comment_is_left_in_english() -> None:
    left = {str(t.path.relative_to(ROOT)): comments_left_in_english(t)
            for t in TRANSLATIONS if comments_left_in_english(t)}
    assert not left, f"translate these comments (or move their teaching to prose): {left}"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_nav_and_the_notes_are_translated(locale: str) -> None:
    strings = yaml.safe_load((STRINGS / f"{locale}.yml").read_text(encoding="utf-8"))
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n")[1].split("\n\n")[0]
    titles = {title.strip().strip('"') for title in re.findall(r"^\s*- ([^:\n]+):", nav, re.M)}
    assert titles - set(strings["nav"]) == set()
    assert strings["fallback_note"].strip() and "{number}" in strings["exercise_tip"]
    assert strings["untranslated_note"].strip()


# ---- the checkers themselves fail on a planted change ----

ENGLISH = """# A page

Some prose.

```python
x = 1  # a comment
print(x)
```

```output
1
```
"""


def _translated(english: str, note: str = "# Страница\n\nНемного текста.") -> str:
    body = english.split("\n\n", 2)[2]
    return f"---\ntranslated_from: {blob_hash(english.encode())}\n---\n{note}\n\n{body}"


def test_translated_comments_are_not_drift_but_changed_code_is() -> None:
    translated = _translated(ENGLISH)
    assert code_blocks(translated) == code_blocks(ENGLISH)
    assert code_blocks(translated.replace("# a comment", "# комментарий")) == code_blocks(ENGLISH)
    for planted in (translated.replace("x = 1", "x = 2"),
                    translated.replace("1\n```\n", "2\n```\n"),
                    translated.replace("```output", "```text"),
                    translated.replace("```python\nx = 1  # a comment\nprint(x)\n```\n\n", "")):
        assert code_blocks(planted) != code_blocks(ENGLISH)


def test_a_changed_english_page_makes_its_translation_stale(tmp_path: Path) -> None:
    english, translated = tmp_path / "page.md", tmp_path / "page.ru.md"
    english.write_text(ENGLISH, encoding="utf-8")
    translated.write_text(_translated(ENGLISH), encoding="utf-8")
    translation = Translation(translated, english, "ru")
    assert front_matter(translation.text) == {"translated_from": blob_hash(ENGLISH.encode())}
    assert not translation.is_stale()
    english.write_text(ENGLISH.replace("Some prose.", "Some new prose."), encoding="utf-8")
    assert translation.is_stale()


def test_a_correction_left_out_of_a_translation_is_found(tmp_path: Path) -> None:
    english, translated = tmp_path / "page.md", tmp_path / "page.ru.md"
    page = ENGLISH.replace("# a comment", "# the comment")
    english.write_text(page, encoding="utf-8")
    translated.write_text(_translated(page), encoding="utf-8")
    translation = Translation(translated, english, "ru")
    assert spans_not_carried_over(translation) == set()
    assert comments_left_in_english(translation) == ["# the comment"]
    corrected = page.replace("Some prose.", "Some prose; pass ``retain_graph=True``.")
    english.write_text(corrected, encoding="utf-8")
    translated.write_text(_translated(corrected).replace("# the comment", "# комментарий"),
                          encoding="utf-8")
    assert not translation.is_stale()  # the hash was updated, the correction not carried
    assert spans_not_carried_over(translation) == {"retain_graph=True"}
    assert comments_left_in_english(translation) == []


def test_the_stale_list_shows_the_english_diff_since_the_translation(tmp_path: Path) -> None:
    """The recorded hash names a blob in git, so the diff needs no copy of the old text."""
    committed = subprocess.run(["git", "rev-parse", "HEAD:docs/start/glossary.md"], cwd=ROOT,
                               capture_output=True, text=True)
    if committed.returncode != 0:
        pytest.skip("not a git checkout with docs/start/glossary.md committed")
    english = tmp_path / "glossary.md"
    english.write_text((DOCS / "start" / "glossary.md").read_text("utf-8") + "| planted | row |\n",
                       encoding="utf-8")
    translated = tmp_path / "glossary.ru.md"
    translated.write_text(f"---\ntranslated_from: {committed.stdout.strip()}\n---\n# Глоссарий\n",
                          encoding="utf-8")
    diff = english_diff(Translation(translated, english, "ru"))
    assert "+| planted | row |" in diff and diff.count("\n+") == 2  # the header, the row


# ---- the built site ----

@pytest.mark.parametrize("locale", LOCALES)
def test_each_language_is_built_with_its_pages_and_an_english_fallback(site_dir: Path,
                                                                        locale: str) -> None:
    home = (site_dir / locale / "index.html").read_text("utf-8")
    assert f'<html lang="{locale}"' in home
    for language in ("English", "Русский", "中文", "한국어"):  # the switcher in the header
        assert language in home
    pages = [t for t in TRANSLATIONS if t.locale == locale and t.path.is_relative_to(DOCS)]
    for translation in pages:
        page = translation.path.relative_to(DOCS).as_posix().replace(f".{locale}.md", "")
        built = site_dir / locale / page.removesuffix("index") / "index.html"
        title = next(line for line in translation.text.splitlines() if line.startswith("# "))
        title = re.sub(r"\s*\{[^}]*\}$", "", title[2:]).replace("`", "")
        assert title.split()[0] in built.read_text("utf-8"), built
    reference = (site_dir / locale / "reference" / "module" / "index.html").read_text("utf-8")
    note = yaml.safe_load((STRINGS / f"{locale}.yml").read_text("utf-8"))["fallback_note"]
    assert note.split()[0] in reference
    performance = (site_dir / locale / "performance" / "index.html").read_text("utf-8")
    untranslated = yaml.safe_load((STRINGS / f"{locale}.yml").read_text("utf-8"))
    assert untranslated["untranslated_note"] in performance  # written by hand, not generated
    assert note not in performance


QUERIES = {"ru": "хук", "zh": "钩子", "ko": "훅"}


@pytest.mark.parametrize("locale", LOCALES)
def test_each_language_has_its_own_search_index(site_dir: Path, locale: str) -> None:
    """A reader searches the pages of their own language: each language's folder has an
    index of its pages (translated or shown in English), and the English index has none of
    them. Chinese is split into words (by jieba, at build time), so that a two-character
    word is a search term of its own."""
    index = json.loads((site_dir / locale / "search" / "search_index.json").read_text("utf-8"))
    english = json.loads((site_dir / "search" / "search_index.json").read_text("utf-8"))
    assert locale in index["config"]["lang"]
    found = [doc["location"] for doc in index["docs"] if QUERIES[locale] in doc["text"]]
    assert len(found) >= 10, found
    assert not any(QUERIES[locale] in doc["text"] for doc in english["docs"])
    pages = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert pages == {doc["location"].split("#")[0] for doc in english["docs"]}
    if locale == "zh":
        assert any("\u200b钩子\u200b" in doc["text"] for doc in index["docs"])
