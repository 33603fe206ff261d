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

The tests (``tests/docs/test_doc_blocks.py``) and the docs build (the pictures of
``docs_tools/pictures.py``) both run pages through :class:`PageRun`.

A translated page has the English page's blocks with translated comments. Its blocks are
not run a second time: a block whose code (comments aside, as Python's tokenizer reads
it) and output block, and those of every block above it on its page, are those of a block
that already ran reuses that run's verdict (see :func:`block_key`).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import tokenize
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


def code_tokens(source: str) -> list[str]:
    """The tokens of a block's code without its comments: what Python runs. Tokenizing,
    not a pattern, tells a comment from a ``#`` inside a string; blank and comment-only
    lines (``NL`` tokens) go too. Code that does not tokenize is kept as it is."""
    try:
        return [token.string for token in tokenize.generate_tokens(io.StringIO(source).readline)
                if token.type not in (tokenize.COMMENT, tokenize.NL)]
    except (tokenize.TokenError, SyntaxError):
        return [source]


def block_keys(document: Document, on_pytorch: bool) -> list[str]:
    """For each block, a digest of what its run depends on: its code (comments aside) and
    output block, and those of every block above it on the page (whose state it sees).
    Two blocks with the same key run the same code from the same state and must show the
    same output, so the second may reuse the first one's verdict: any difference in code
    or output, however small, makes another key and a run of its own."""
    digest = hashlib.sha256(b"on PyTorch" if on_pytorch else b"on minitorch_hooks")
    keys = []
    for example in document:
        block: CodeBlock = example.parsed
        for part in (*code_tokens(block.source), "\0output", block.expected or "", "\0end"):
            digest.update(part.encode("utf-8") + b"\0")
        keys.append(digest.copy().hexdigest())
    return keys


# The verdict of every block run in this process, by its key (None: it passed), and where
# it ran: a block with the same key elsewhere reuses it.
_VERDICTS: dict[str, tuple[BaseException | None, str]] = {}


class PageRun:
    """The blocks of one page, run at most once each and always in page order.

    Asking for block ``i`` runs every earlier block first (if it has not run yet), so a
    single block can be selected (``pytest -k``) and still see the page's state. A block
    whose key (:func:`block_keys`) has already run on another page takes that verdict
    instead of running again; the first block of the page that is new makes the page run
    for real, from its first block, so it sees the state its own code leaves.
    """

    def __init__(self, path: Path, on_pytorch: bool = False) -> None:
        self.path = path
        self.document = parse_page(path, on_pytorch)
        self.examples = list(self.document)
        self.keys = block_keys(self.document, on_pytorch)
        self.failures: dict[int, BaseException | None] = {}
        self.reused: set[int] = set()  # blocks whose verdict came from another page

    def _evaluate(self, index: int) -> BaseException | None:
        example = self.examples[index]
        try:
            example.evaluate()
            error = None
        except BaseException as exception:  # noqa: BLE001 - kept and re-raised
            error = exception
        _VERDICTS.setdefault(self.keys[index], (error, self._where(index)))
        return error

    def _where(self, index: int) -> str:
        path = self.path.relative_to(DOCS) if self.path.is_relative_to(DOCS) else self.path
        return f"{path.as_posix()}:{self.examples[index].line}"

    def _verdict(self, index: int) -> BaseException | None:
        known = _VERDICTS.get(self.keys[index])
        if known is not None and known[1] != self._where(index):
            error, where = known
            self.reused.add(index)
            return None if error is None else AssertionError(
                f"this block is the code of {where} (comments aside), which failed: {error}")
        for earlier in sorted(self.reused):  # the page's own state, before a new block
            self.reused.discard(earlier)
            error = self._evaluate(earlier)
            if error is not None:
                return AssertionError(f"the block at line {self.examples[earlier].line}, "
                                      f"run for this block, failed: {error}")
        return self._evaluate(index)

    def run_through(self, index: int) -> None:
        """Run blocks ``0..index``; raise the error of block ``index`` if it failed, and
        say which earlier block failed if one did."""
        __tracebackhide__ = True
        for i in range(index + 1):
            if i not in self.failures:
                self.failures[i] = self._verdict(i)
            failure = self.failures[i]
            if failure is not None:
                if i == index:
                    raise failure
                raise AssertionError(f"an earlier block of this page failed, at line "
                                     f"{self.examples[i].line}: {failure}") from failure

    def run_all(self) -> dict:
        """Run every block in this page's own namespace (none reused) and return it."""
        if self.examples:
            self.run_through(len(self.examples) - 1)
        for index in sorted(self.reused):
            self.reused.discard(index)
            if (error := self._evaluate(index)) is not None:
                raise error
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
