"""Turning chapters into the text the tour prints, with or without colour.

Rendering is kept apart from the command line so that the same text can be produced with
any torch-like namespace: the tests render a chapter with real PyTorch and compare it,
character for character, with what ``minitorch-hooks tour`` prints.
"""

from __future__ import annotations

import inspect
import textwrap
from types import ModuleType

from ..tracing import Trace
from .chapter import Chapter

_RESET = "\033[0m"
_BOLD = "\033[1m"
_DIM = "\033[2m"
_CYAN = "\033[36m"
_GREEN = "\033[32m"
_YELLOW = "\033[33m"
_MAGENTA = "\033[35m"


class Style:
    """ANSI colours when ``color`` is true; plain text otherwise."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def paint(self, text: str, *codes: str) -> str:
        """``text`` wrapped in the given ANSI codes; each line separately, so that a
        pager or a terminal that cuts a line keeps the colour of the next one."""
        if not self.color:
            return text
        return "\n".join("".join(codes) + line + _RESET if line else line
                         for line in text.split("\n"))


WIDTH = 88
"""The widest line the tour prints: code, output and timelines included."""

_INDENT = "    "


def _block(text: str) -> str:
    """A block of code or output, indented so that it stands out from the prose."""
    return textwrap.indent(text, _INDENT)


def _fit(line: str, width: int | None) -> list[str]:
    """An output line as it is, or wrapped with a deeper indent when it is too wide
    (a warning's text often is): a terminal would otherwise cut it or fold it anyhow."""
    if width is None or len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False,
                         drop_whitespace=True)


def _timeline(recorded: Trace, width: int | None, style: Style) -> list[str]:
    if not recorded.events:
        return [style.paint("No hook of minitorch_hooks fired: hook_trace sees only the "
                            "library's hooks,", _BOLD),
                style.paint("and the hooks above are plain Python.", _BOLD)]
    text = recorded.text(None if width is None else width - len(_INDENT))
    return [style.paint("The hooks that fired, in order, as minitorch_hooks.hook_trace saw them:",
                        _BOLD), "", style.paint(_block(text), _MAGENTA)]


def render_chapter(number: int, total: int, chapter: Chapter, torch: ModuleType,
                   style: Style, width: int | None = WIDTH) -> str:
    """The text of one chapter: prose, the example's code, the output of running it with
    ``torch`` just now and the timeline of the hooks that fired, then the prose that
    explains them. Output lines wider than ``width`` are wrapped (``None``: never)."""
    heading = f"Chapter {number} of {total}: {chapter.title}"
    lines, recorded = chapter.run_traced(torch)
    inner = None if width is None else width - len(_INDENT)
    output = "\n".join(piece for line in lines for piece in _fit(line, inner))
    return "\n".join([
        style.paint(heading, _BOLD, _CYAN),
        style.paint("=" * len(heading), _DIM),
        "",
        inspect.cleandoc(chapter.intro),
        "",
        style.paint("The code:", _BOLD),
        "",
        style.paint(_block(chapter.code()), _YELLOW),
        "",
        style.paint("What it printed, run just now:", _BOLD),
        "",
        style.paint(_block(output), _GREEN),
        "",
        *_timeline(recorded, width, style),
        "",
        inspect.cleandoc(chapter.outro),
    ])


_WELCOME_TITLE = "A tour of PyTorch's hooks, run live on minitorch_hooks"
_WELCOME = """
    Each chapter shows a small example and then runs it as you read, so the output is
    never stale. Put "import torch" in place of an example's first line and real PyTorch
    prints the same: the test suite runs every example on both and compares.

    After the output comes the timeline of every hook call the example made, recorded by
    minitorch_hooks.hook_trace: its phase, its kind, what the hook belongs to, the hook with
    what it received, and whether it replaced the value. A tensor is shown by its shape,
    [2, 3] (a single number is []), which is what tells you which gradient a hook got.
"""

_FAREWELL = """
    That is the tour. To see where these hooks are called, read utils/hooks.py (the
    pattern of chapter 1, written once), autograd/engine.py (the order of chapter 5) and
    nn/modules/module.py (the module hooks of chapters 7 to 14, Module.__call__ first),
    autograd/saved_tensors.py and autograd/graph.py (saved-tensor and multi-grad hooks).
    "minitorch-hooks tour --chapter N" shows one chapter again.

    To watch the hooks of your own code, wrap it in
    "with minitorch_hooks.hook_trace(model) as t:" and print(t), or save t.svg() and
    t.mermaid() as drawings. An ordinary PyTorch script runs on minitorch_hooks with
    "minitorch-hooks run --trace script.py", and "minitorch-hooks compare script.py" runs
    it on real PyTorch too and shows where the two differ.
"""


def _welcome(style: Style) -> str:
    return style.paint(_WELCOME_TITLE, _BOLD) + "\n\n" + inspect.cleandoc(_WELCOME)


def render_tour(chapters: list[Chapter], torch: ModuleType, style: Style) -> str:
    """Every chapter, between a welcome and a farewell, separated by blank lines."""
    parts = [_welcome(style)]
    parts += [render_chapter(number, len(chapters), chapter, torch, style)
              for number, chapter in enumerate(chapters, start=1)]
    parts.append(inspect.cleandoc(_FAREWELL))
    return "\n\n\n".join(parts)


def render_start(chapters: list[Chapter], torch: ModuleType, style: Style) -> str:
    """What ``minitorch-hooks tour`` prints with no option: the welcome, the chapter list
    and chapter 1 (then ``render_next(1, ...)`` tells how to go on). The whole tour at once
    is over a thousand lines, too much for a first look."""
    contents = style.paint("The chapters:", _BOLD) + "\n\n" + _block(render_list(chapters))
    return "\n\n\n".join([_welcome(style), contents,
                           render_chapter(1, len(chapters), chapters[0], torch, style)])


def render_next(number: int, total: int, style: Style) -> str:
    """The line after chapter ``number``: the command for the next one, or the farewell."""
    if number == total:
        return inspect.cleandoc(_FAREWELL)
    return style.paint(f"Next: minitorch-hooks tour --chapter {number + 1}", _BOLD) + (
        f"\n(--chapter N for any of the {total} chapters, --list for their titles, "
        "--all for all of them)")


def render_list(chapters: list[Chapter]) -> str:
    """The numbered chapter titles, for ``tour --list``."""
    return "\n".join(f"{number}. {chapter.title}"
                     for number, chapter in enumerate(chapters, start=1))
