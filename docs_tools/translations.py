"""The course's translations, and the two rules that keep them honest.

A translated page sits beside its English page with the language in its name:
``docs/how-to/log-shapes.ru.md`` beside ``docs/how-to/log-shapes.md`` (and, for the
exercises, ``README.ko.md`` beside an exercise's ``README.md``). It starts with front
matter that records which English text it translates::

    ---
    translated_from: 5b0c3f...   # git hash-object of the English file, then
    ---

Four rules follow, each checked by ``tests/docs/test_translations.py``:

- **Code does not drift.** A translation has the English page's code and output blocks,
  byte for byte, in the same order. Only the ``#`` comments of Python blocks may be
  translated, and the labels of diagrams.
- **A translation cannot go stale silently.** When the English file changes, its hash no
  longer matches the recorded one. ``python -m docs_tools.translations`` lists the stale
  translations with the English diff since the recorded version (read from git's object
  store), which is what a translator needs to update one.
- **A correction reaches every language.** A fresh hash alone proves only that someone
  looked. So each identifier, value or call the English prose names in inline code
  (``retain_graph=True``, ``prepend=True``) must also be named in the translation's prose:
  a correction that adds one to the English and is not carried over fails, even when the
  hash was updated. (The glossaries are tables of their own and are exempt.)
- **Comments are translated.** A ``#`` comment of the English code that a translation
  keeps word for word is an English sentence left in a translated page.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import re
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TUTORIALS = ROOT / "minitorch_hooks" / "tutorials"
LOCALES = ("ru", "zh", "ko")
STRINGS = ROOT / "docs_tools" / "i18n"

# The blocks that must not drift; mermaid diagrams are prose (their labels are translated).
CODE_LANGUAGES = ("python", "output", "sh", "text")
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<info>[^\n`]*)\n"
                    r"(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Translation:
    """One translated file and the English file it translates."""

    path: Path
    english: Path
    locale: str

    @property
    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @property
    def recorded_hash(self) -> str | None:
        """The ``translated_from`` hash of the front matter (None when there is none)."""
        return front_matter(self.text).get("translated_from")

    def is_stale(self) -> bool:
        return self.recorded_hash != blob_hash(self.english.read_bytes())


def translations() -> list[Translation]:
    """Every translated page and exercise text, in a stable order."""
    found = []
    for folder in (DOCS, TUTORIALS):
        for locale in LOCALES:
            for path in sorted(folder.rglob(f"*.{locale}.md")):
                english = path.with_name(path.name.replace(f".{locale}.md", ".md"))
                found.append(Translation(path, english, locale))
    return found


def front_matter(text: str) -> dict[str, str]:
    """The ``key: value`` lines between the opening ``---`` lines of a page."""
    if not text.startswith("---\n"):
        return {}
    head, _, _ = text[4:].partition("\n---\n")
    pairs = (line.partition(":") for line in head.splitlines() if ":" in line)
    return {key.strip(): value.strip() for key, _, value in pairs}


def without_front_matter(text: str) -> str:
    if not front_matter(text):
        return text
    return text[4:].partition("\n---\n")[2].lstrip("\n")


def blob_hash(content: bytes) -> str:
    """What ``git hash-object`` prints for a file: its id in git's object store."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def _without_comments(python: str) -> str:
    """Python source with its comments removed, so a translated comment is no drift."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(python).readline))
    except (tokenize.TokenError, SyntaxError):
        return python
    lines = python.splitlines(keepends=True)
    for token in reversed(tokens):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            line = lines[row - 1]
            lines[row - 1] = line[:col].rstrip() + ("\n" if line.endswith("\n") else "")
    return "".join(line for line in lines if line.strip() or not line.endswith("\n"))


def code_blocks(markdown: str) -> list[tuple[str, str]]:
    """The page's code and output blocks as (fence line, text); comments left out."""
    blocks = []
    for match in _FENCE.finditer(markdown):
        language = match["info"].strip().split(" ")[0].lstrip("{.")
        if language in CODE_LANGUAGES:
            body = match["body"]
            blocks.append((match["fence"] + match["info"],
                           _without_comments(body) if language == "python" else body))
    return blocks


_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def _prose(markdown: str) -> str:
    """The page without its front matter and fenced blocks."""
    return _FENCE.sub("", without_front_matter(markdown))


def code_spans(markdown: str) -> set[str]:
    """The inline code of the page's prose (`` `x` `` and ``` ``x`` ```), spaces collapsed."""
    return {" ".join(match[2].split()) for match in _CODE_SPAN.finditer(_prose(markdown))}


def spans_not_carried_over(translation: Translation) -> set[str]:
    """English inline code that the translation's prose never names."""
    if translation.path.stem.startswith("glossary"):
        return set()
    return (code_spans(translation.english.read_text("utf-8"))
            - code_spans(translation.text))


def python_comments(markdown: str) -> list[str]:
    """The ``#`` comments of the page's Python blocks, in order."""
    comments = []
    for match in _FENCE.finditer(markdown):
        if match["info"].strip().split(" ")[0] != "python":
            continue
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(match["body"]).readline))
        except (tokenize.TokenError, SyntaxError):
            continue
        comments += [token.string for token in tokens if token.type == tokenize.COMMENT]
    return comments


def comments_left_in_english(translation: Translation) -> list[str]:
    """Comments of the English code kept word for word: a sentence (two words of two
    letters or more), not a quoted message alone."""
    english = set(python_comments(translation.english.read_text("utf-8")))
    return [comment for comment in python_comments(translation.text)
            if comment in english and re.search(r"[a-z]{2,}[:,]? [a-z]{2,}", comment)
            and not re.fullmatch(r'#\s*"[^"]*"', comment)]


def english_diff(translation: Translation) -> str:
    """The English file's changes since the version the translation was made from."""
    recorded = translation.recorded_hash
    old = ""
    if recorded and re.fullmatch(r"[0-9a-f]{40}", recorded):
        shown = subprocess.run(["git", "cat-file", "-p", recorded], cwd=ROOT,
                               capture_output=True, text=True)
        old = shown.stdout if shown.returncode == 0 else ""
    name = translation.english.name
    now = translation.english.read_text("utf-8")
    return "".join(difflib.unified_diff(
        old.splitlines(keepends=True), now.splitlines(keepends=True),
        f"{name} (translated, {recorded or 'no hash'})", f"{name} (now)"))


def main(argv: list[str]) -> int:
    """List the stale translations (``--diff``: with the English changes since)."""
    stale = [translation for translation in translations() if translation.is_stale()]
    for translation in stale:
        print(f"stale: {translation.path.relative_to(ROOT)}"
              f" (English now {blob_hash(translation.english.read_bytes())})")
        if "--diff" in argv:
            print(english_diff(translation))
    print(f"{len(stale)} of {len(translations())} translations are stale.")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
