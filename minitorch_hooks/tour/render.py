"""Turning chapters into the text the tour prints, with or without colour.

Rendering is kept apart from the command line so that the same text can be produced with
any torch-like namespace: the tests render a chapter with real PyTorch and compare it,
character for character, with what ``minitorch-hooks tour`` prints.
"""

from __future__ import annotations

import inspect
import textwrap
from types import ModuleType

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


def _block(text: str) -> str:
    """A block of code or output, indented so that it stands out from the prose."""
    return textwrap.indent(text, "    ")


def render_chapter(number: int, total: int, chapter: Chapter, torch: ModuleType,
                   style: Style) -> str:
    """The text of one chapter: prose, the example's code, the output of running it with
    ``torch`` just now and the timeline of the hooks that fired, then the prose that
    explains them."""
    heading = f"Chapter {number} of {total}: {chapter.title}"
    lines, recorded = chapter.run_traced(torch)
    output = "\n".join(lines)
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
        style.paint("The hooks that fired, in order, as minitorch_hooks.hook_trace saw them:",
                    _BOLD),
        "",
        style.paint(_block(recorded.text()), _MAGENTA),
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
    nn/modules/module.py (the module hooks of chapters 7 to 14, Module.__call__ first).
    "minitorch-hooks tour --chapter N" shows one chapter again.

    To watch the hooks of your own code, wrap it in "with minitorch_hooks.hook_trace(model) as
    t:" and print(t), or save t.svg() and t.mermaid() as drawings. An ordinary PyTorch
    script runs on minitorch_hooks with "minitorch-hooks run --trace script.py", and
    "minitorch-hooks compare script.py" runs it on real PyTorch too and shows where the
    two differ.
"""


def render_tour(chapters: list[Chapter], torch: ModuleType, style: Style) -> str:
    """Every chapter, between a welcome and a farewell, separated by blank lines."""
    parts = [style.paint(_WELCOME_TITLE, _BOLD) + "\n\n" + inspect.cleandoc(_WELCOME)]
    parts += [render_chapter(number, len(chapters), chapter, torch, style)
              for number, chapter in enumerate(chapters, start=1)]
    parts.append(inspect.cleandoc(_FAREWELL))
    return "\n\n\n".join(parts)


def render_list(chapters: list[Chapter]) -> str:
    """The numbered chapter titles, for ``tour --list``."""
    return "\n".join(f"{number}. {chapter.title}"
                     for number, chapter in enumerate(chapters, start=1))
