"""The docs' code, run on real PyTorch 2.13.0, prints exactly what the pages show.

The pages say "this runs unchanged on PyTorch"; this checks it. Each page is run once more
with ``import torch`` in place of ``import minitorch_hooks as torch`` and compared with
the same output blocks. A page that uses what only minitorch_hooks has says so with
``<!-- not-on-pytorch: reason -->`` and is left out here (and listed, below).

Without PyTorch installed, what PyTorch printed for each block is read from its recording
(``tests/recordings/docs/``) and must still be what the page shows: a page whose code or
output changed since PyTorch last ran it fails here, while ``test_doc_blocks.py`` checks
the same output blocks against minitorch_hooks.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from harness import pytorch_answer

from docs_tools.blocks import PageRun, _normalise, block_id, not_on_pytorch, pages, parse_page

ON_PYTORCH = [path for path in pages() if not_on_pytorch(path) is None]


@functools.cache
def page_run(path: Path) -> PageRun:
    return PageRun(path, on_pytorch=True)


@functools.cache
def shown_outputs(path: Path) -> list[str]:
    """What the page shows below each block (empty for a block that prints nothing)."""
    return [_normalise(example.parsed.expected or "") for example in parse_page(path)]


@pytest.mark.parametrize(("path", "index"), [
    pytest.param(path, index, id=block_id(path, example))
    for path in ON_PYTORCH for index, example in enumerate(parse_page(path))])
def test_block_on_pytorch(path: Path, index: int) -> None:
    shown = shown_outputs(path)[index]

    def printed(_torch: object) -> str:
        page_run(path).run_through(index)  # fails unless PyTorch prints what the page shows
        return shown

    printed_by_pytorch = pytorch_answer(printed)
    assert shown == printed_by_pytorch, (
        "the page's output block is not what PyTorch printed when recorded\n"
        f"--- the page ---\n{shown}\n--- PyTorch ---\n{printed_by_pytorch}")


def test_only_a_few_pages_are_minitorch_only() -> None:
    """Each exception is a page about minitorch_hooks itself; keep the list short. A
    translation (``tour.ru.md``) counts with its English page."""
    excluded = {path.name.split(".")[0]: not_on_pytorch(path) for path in pages()
                if not_on_pytorch(path) is not None}
    assert len(excluded) <= 3, excluded
