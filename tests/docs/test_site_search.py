"""Site search finds every page that uses an API name.

Material for MkDocs builds its lunr index in the browser from ``search/search_index.json``.
Its tokenizer (``integrations/search/internal/tokenize`` in Material's sources) takes the
text between HTML tags, splits it with the ``separator`` of ``mkdocs.yml``, lowercases each
piece and runs the pipeline the index names (here only the stop-word filter). A query is
split at whitespace and then with the same separator, and each term gets a trailing
wildcard, so it matches every token it is a prefix of. This test does the same in Python,
on the built index: with the default separator (whitespace and "-") the code
``model.register_forward_pre_hook(hook)`` was one token, and searching for the method
missed most of the pages that show it.
"""

from __future__ import annotations

import html
import inspect
import json
import re
from pathlib import Path

import pytest

import minitorch_hooks
from minitorch_hooks.autograd import graph
from minitorch_hooks.nn.modules import module as module_hooks

TAG = re.compile(r"<[^>]*>")


def public_api_names() -> set[str]:
    """The public names a learner searches for: functions, classes and their methods."""
    names: set[str] = set()
    for namespace in (minitorch_hooks, minitorch_hooks.Tensor, minitorch_hooks.nn,
                      minitorch_hooks.nn.Module, minitorch_hooks.autograd, graph,
                      minitorch_hooks.autograd.graph.Node, module_hooks):
        for name, value in inspect.getmembers(namespace):
            if not name.startswith("_") and (callable(value) or isinstance(value, property)):
                names.add(name)
    return {name for name in names if len(name) >= 4}


def tokens(text: str, separator: re.Pattern) -> list[str]:
    """Material's tokenizer: text between tags, split with the separator, lowercased."""
    found = []
    for section in TAG.split(text):
        found += [piece.lower() for piece in separator.split(section) if piece]
    return found


def query_terms(query: str, separator: re.Pattern) -> list[str]:
    return [term.lower() for part in query.split() for term in separator.split(part) if term]


def search_index(site_dir: Path) -> tuple[re.Pattern, dict[str, list[set[str]]], dict[str, str]]:
    """The separator; per page, the token set of each of its sections; and its plain text.

    ``site_dir`` is the site, or one language's folder of it: each language has its own
    index, so that a reader searches the pages of their language."""
    index = json.loads((site_dir / "search" / "search_index.json").read_text("utf-8"))
    separator = re.compile(index["config"]["separator"])
    sections: dict[str, list[set[str]]] = {}
    plain: dict[str, str] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#")[0]
        sections.setdefault(page, []).append(set(tokens(doc["title"] + " " + doc["text"],
                                                        separator)))
        plain[page] = plain.get(page, "") + " " + html.unescape(TAG.sub(" ", doc["text"]))
    return separator, sections, plain


def finds(terms: list[str], page_sections: list[set[str]]) -> bool:
    """Some section of the page holds a token starting with each term (lunr's ``term*``)."""
    return any(all(any(token.startswith(term) for token in section) for term in terms)
               for section in page_sections)


@pytest.mark.parametrize("language", ["", "ru", "zh", "ko"], ids=lambda lang: lang or "en")
def test_every_api_name_finds_every_page_that_uses_it(site_dir: Path, language: str) -> None:
    separator, sections, plain = search_index(site_dir / language)
    # A page uses a name where the name is a whole word of its text (names are words).
    words = {page: set(re.findall(r"\w+", text)) for page, text in plain.items()}
    missed = {}
    checked = 0
    for name in sorted(public_api_names()):
        pages = [page for page, found in words.items() if name in found]
        terms = query_terms(name, separator)
        checked += len(pages)
        lost = [page or "home" for page in pages if not finds(terms, sections[page])]
        if lost:
            missed[name] = lost
    assert checked > 500  # a guard: the index and the names were really read
    assert not missed, f"search misses pages that use these names: {missed}"


def test_a_method_called_on_an_object_is_a_token_of_its_own(site_dir: Path) -> None:
    separator, _, _ = search_index(site_dir)
    assert "register_forward_pre_hook" in tokens(
        "model.register_forward_pre_hook(log_shape)", separator)
    assert tokens("torch.nn.modules.module", separator) == ["torch", "nn", "modules", "module"]
    assert "2.13" in tokens("PyTorch 2.13", separator)
