"""Running the Python blocks of a docs page, and checking the output the page shows.

Every ```` ```python ```` fence of a page under ``docs/`` is one example, run with Sybil.
The blocks of one page share a namespace, in page order, as a reader who pastes them one
after the other into an interpreter would. When the very next fence is an
```` ```output ```` block, what the Python block printed must be exactly that text. A block
that raises is a failure, unless its output block ends with the exception, written as

    Traceback (most recent call last):
      ...
    TypeError: the message

which is what Python shows, with the frames elided. A block that prints without an output
block below it, or that warns, fails too: the page would not show what the reader sees.
There is no way to skip a block: a block that cannot run is a failing test.

The tests (``tests/docs/test_doc_blocks.py``) and the docs build (the plots of
``docs_tools/plots.py``) both run pages through :class:`PageRun`.
"""

from __future__ import annotations

import contextlib
import io
import re
import traceback
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sybil import Document, Example, Region
from sybil.parsers.markdown.lexers import FencedCodeBlockLexer

DOCS = Path(__file__).resolve().parent.parent / "docs"
TRACEBACK = "Traceback (most recent call last):\n  ...\n"

# Every fence, whatever its info string; the language is its first word.
_FENCES = FencedCodeBlockLexer(language=r"[^\n]*", mapping={"language": "info",
                                                             "source": "source"})


def fence_language(info: str) -> str:
    """``python`` for ```` ```python title="x.py" ````: the first word of the info string."""
    words = info.split()
    return words[0] if words else ""


def fences(document: Document) -> list[Region]:
    """Every fenced block of the page, in page order."""
    return sorted(_FENCES(document), key=lambda region: region.start)


@dataclass(frozen=True)
class CodeBlock:
    """A Python block and the output block that follows it, if there is one."""

    source: str
    expected: str | None


def _parse_python_blocks(document: Document) -> Iterator[Region]:
    regions = fences(document)
    for region, following in zip(regions, [*regions[1:], None]):
        if fence_language(region.lexemes["info"]) != "python":
            continue
        expected = None
        if following is not None and fence_language(following.lexemes["info"]) == "output" \
                and not document.text[region.end:following.start].strip():
            expected = str(following.lexemes["source"])
        region.parsed = CodeBlock(str(region.lexemes["source"]), expected)
        region.evaluator = evaluate
        yield region


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def evaluate(example: Example) -> str | None:
    """Run one block in the page's namespace; a returned string describes a failure."""
    block: CodeBlock = example.parsed
    # Blank lines in front, so that a traceback names the line of the page.
    code = compile("\n" * example.line + block.source, example.path, "exec",
                   dont_inherit=True)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, example.namespace)
            error = None
        except Exception as exception:  # noqa: BLE001 - compared with the page below
            error = exception
    got = printed.getvalue()
    if error is not None:
        if block.expected is None or TRACEBACK not in block.expected:
            raise error
        got += TRACEBACK + "".join(traceback.format_exception_only(error))
    if caught:
        shown = "; ".join(f"{w.category.__name__}: {w.message}" for w in caught)
        return (f"the block warned, and the page does not show it: {shown}. Catch the "
                "warning and print it (or fix the code).")
    if block.expected is None:
        if got:
            return f"the block printed output that the page does not show:\n{got}"
        return None
    if _normalise(got) != _normalise(block.expected):
        return ("what the block printed differs from the output block below it\n"
                f"--- expected (the page) ---\n{_normalise(block.expected)}\n"
                f"--- got (run just now) ---\n{_normalise(got)}")
    return None


IMPORT = "import minitorch_hooks as torch"
NOT_ON_PYTORCH = re.compile(r"<!-- not-on-pytorch: (.+?) -->")


def parse_page(path: Path, on_pytorch: bool = False) -> Document:
    """The page with one Sybil example per Python block.

    With ``on_pytorch``, every ``import minitorch_hooks as torch`` becomes
    ``import torch`` (and ``from minitorch_hooks.x import y``, ``from torch.x import y``):
    the same page, run on real PyTorch, must print the same output.
    """
    text = path.read_text(encoding="utf-8")
    if on_pytorch:
        text = text.replace(IMPORT, "import torch")
        text = re.sub(r"^(\s*)from minitorch_hooks\b", r"\1from torch", text, flags=re.MULTILINE)
    document = Document(text, str(path))
    for region in _parse_python_blocks(document):
        document.add(region)
    document.namespace["__name__"] = "__main__"  # as when the reader runs a script
    return document


def not_on_pytorch(path: Path) -> str | None:
    """Why a page cannot run on real PyTorch (``<!-- not-on-pytorch: reason -->``), if
    it says so; such a page uses what only minitorch_hooks has, such as its tour."""
    found = NOT_ON_PYTORCH.search(path.read_text(encoding="utf-8"))
    return found.group(1) if found else None


def pages() -> list[Path]:
    """Every Markdown page of the docs, in a stable order."""
    return sorted(DOCS.rglob("*.md"))


class PageRun:
    """The blocks of one page, run at most once each and always in page order.

    Asking for block ``i`` runs every earlier block first (if it has not run yet), so a
    single block can be selected (``pytest -k``) and still see the page's state.
    """

    def __init__(self, path: Path, on_pytorch: bool = False) -> None:
        self.path = path
        self.document = parse_page(path, on_pytorch)
        self.examples = list(self.document)
        self.failures: dict[int, BaseException | None] = {}

    def run_through(self, index: int) -> None:
        """Run blocks ``0..index``; raise the error of block ``index`` if it failed, and
        say which earlier block failed if one did."""
        __tracebackhide__ = True
        for i in range(index + 1):
            if i not in self.failures:
                try:
                    self.examples[i].evaluate()
                    self.failures[i] = None
                except BaseException as error:  # noqa: BLE001 - kept and re-raised
                    self.failures[i] = error
            failure = self.failures[i]
            if failure is not None:
                if i == index:
                    raise failure
                raise AssertionError(f"an earlier block of this page failed, at line "
                                     f"{self.examples[i].line}: {failure}") from failure

    def run_all(self) -> dict:
        """Run every block and return the page's namespace."""
        if self.examples:
            self.run_through(len(self.examples) - 1)
        return self.document.namespace


def block_id(path: Path, example: Example) -> str:
    """``how-to/log-shapes.md:12``: the page and the line of the block's fence."""
    return f"{path.relative_to(DOCS).as_posix()}:{example.line}"


def run_block(example: Example) -> str:
    """What one block prints when run in its page's namespace, in the output-block form
    (an exception as the elided traceback); for writing output blocks, not for testing."""
    block: CodeBlock = example.parsed
    code = compile("\n" * example.line + block.source, example.path, "exec", dont_inherit=True)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            exec(code, example.namespace)
        except Exception as error:  # noqa: BLE001 - shown on the page
            printed.write(TRACEBACK + "".join(traceback.format_exception_only(error)))
    return printed.getvalue()


def refresh_outputs(path: Path) -> int:
    """Rewrite the output blocks of a page with what its blocks print now, adding one
    below each block that prints and has none. Returns how many blocks changed.

    ``python -m docs_tools.blocks docs/how-to/log-shapes.md`` runs it; read the diff
    before committing: the point of an output block is that a person checked it.
    """
    document = parse_page(path)
    text = document.text
    edits = []  # (start, end, new text), applied from the end
    regions = fences(document)
    following = dict(zip((r.start for r in regions), [*regions[1:], None]))
    for example in document:
        got = run_block(example)
        block: CodeBlock = example.parsed
        if block.expected is not None:
            nxt = following[example.start]
            source = nxt.lexemes["source"]
            start = nxt.start + text[nxt.start:].index("\n") + 1
            end = start + len(str(source))
            if _normalise(got) != _normalise(block.expected):
                edits.append((start, end, _normalise(got) + "\n"))
        elif got:
            edits.append((example.end, example.end, "\n\n```output\n" + _normalise(got) + "\n```"))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    path.write_text(text, encoding="utf-8")
    return len(edits)


if __name__ == "__main__":
    import sys

    for name in sys.argv[1:]:
        print(f"{name}: {refresh_outputs(Path(name).resolve())} output block(s) written")
