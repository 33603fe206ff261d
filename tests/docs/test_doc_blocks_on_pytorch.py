"""The docs' code, run on real PyTorch 2.13.0, prints exactly what the pages show.

The pages say "this runs unchanged on PyTorch"; this checks it. Each page is run once more
with ``import torch`` in place of ``import minitorch_hooks as torch`` and compared with
the same output blocks. A page that uses what only minitorch_hooks has says so with
``<!-- not-on-pytorch: reason -->`` and is left out here (and listed, below). Without
PyTorch installed these tests skip visibly, like every cross-check.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from harness import real_torch

from docs_tools.blocks import PageRun, block_id, not_on_pytorch, pages, parse_page

ON_PYTORCH = [path for path in pages() if not_on_pytorch(path) is None]


@functools.cache
def page_run(path: Path) -> PageRun:
    return PageRun(path, on_pytorch=True)


@pytest.mark.parametrize(("path", "index"), [
    pytest.param(path, index, id=block_id(path, example))
    for path in ON_PYTORCH for index, example in enumerate(parse_page(path))])
def test_block_on_pytorch(path: Path, index: int) -> None:
    real_torch()
    page_run(path).run_through(index)


def test_only_a_few_pages_are_minitorch_only() -> None:
    """Each exception is a page about minitorch_hooks itself; keep the list short. A
    translation (``tour.ru.md``) counts with its English page."""
    excluded = {path.name.split(".")[0]: not_on_pytorch(path) for path in pages()
                if not_on_pytorch(path) is not None}
    assert len(excluded) <= 3, excluded
