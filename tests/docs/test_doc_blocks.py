"""Every Python block in ``docs/`` runs, and prints exactly the output its page shows.

One test per block (``test_block[how-to/log-shapes.md:12]``), run in page order with the
page's shared namespace; see ``docs_tools/blocks.py`` for the conventions. Nothing is
skipped: a page that cannot run is a failing test.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

import minitorch_hooks
from docs_tools.blocks import DOCS, PageRun, block_id, fence_language, fences, pages, parse_page

# The fences a page may use: code that runs, its output, and what is not Python.
LANGUAGES = {"python", "output", "sh", "text", "mermaid"}


@functools.cache
def page_run(path: Path) -> PageRun:
    return PageRun(path)


def _blocks() -> list:
    return [pytest.param(path, index, id=block_id(path, example))
            for path in pages() for index, example in enumerate(parse_page(path))]


@pytest.mark.parametrize(("path", "index"), _blocks())
def test_block(path: Path, index: int) -> None:
    page_run(path).run_through(index)


def test_the_docs_have_pages_and_blocks() -> None:
    assert len(pages()) >= 24
    assert len(_blocks()) >= 75  # a guard: a broken parser would find none


@pytest.mark.parametrize("path", pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_fence_has_a_known_language(path: Path) -> None:
    """A fence written ```` ```py ```` or ```` ```python3 ```` would silently not run."""
    document = parse_page(path)
    unknown = [(document.line_column(region.start), region.lexemes["info"])
               for region in fences(document)
               if fence_language(region.lexemes["info"]) not in LANGUAGES]
    assert not unknown, f"fences with a language outside {sorted(LANGUAGES)}: {unknown}"


@pytest.mark.parametrize("path", [p for p in pages() if list(parse_page(p))],
                         ids=lambda p: p.relative_to(DOCS).as_posix())
def test_a_page_imports_minitorch_hooks_as_torch_first(path: Path) -> None:
    """Each page's code runs as PyTorch code: ``import minitorch_hooks as torch``, in its
    first block, and never the real ``torch``."""
    sources = [example.parsed.source for example in parse_page(path)]
    assert "import minitorch_hooks as torch" in sources[0]
    assert not any(re.search(r"^\s*(import torch\b|from torch\b)", source, re.MULTILINE)
                   for source in sources)


_GLOBAL_HOOKS = [name for name in vars(minitorch_hooks.nn.modules.module)
                 if name.startswith("_global_") and name.endswith("hooks")]


@pytest.mark.parametrize("path", [p for p in pages() if list(parse_page(p))],
                         ids=lambda p: p.relative_to(DOCS).as_posix())
def test_a_page_leaves_no_global_module_hook_behind(path: Path) -> None:
    """The docs teach removing global hooks; every page must do it, or it would change
    what the next page prints. (A translated page whose blocks are the English page's
    code, comments aside, reuses the English page's run: the same code leaves the same
    hooks.)"""
    run = page_run(path)
    run.run_through(len(run.examples) - 1)
    module = minitorch_hooks.nn.modules.module
    left = {name: dict(getattr(module, name)) for name in _GLOBAL_HOOKS
            if getattr(module, name)}
    assert not left, f"{path.name} left global module hooks registered: {left}"
