"""The ``minitorch-hooks`` command (also ``python -m minitorch_hooks``).

``tour`` is defined here: a guided walk through PyTorch's hooks whose examples run
live, so what it prints is what the library does today. Subcommands are argparse
subparsers, each with a ``handler`` that receives the parsed arguments and returns the exit
code; a new subcommand is a new subparser and a new handler.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import minitorch_hooks

from .cli.compare import add_compare_command
from .cli.exercises import add_exercise_commands
from .cli.pager import show
from .cli.run import add_run_command
from .tour import chapters
from .tour.render import (
    Style,
    render_chapter,
    render_list,
    render_next,
    render_start,
    render_tour,
)

_EXAMPLES = """\
examples:
  minitorch-hooks tour              the chapter titles, then chapter 1
  minitorch-hooks tour --chapter 2  chapter 2 only
  minitorch-hooks tour --all        every chapter, one after the other
  minitorch-hooks run --trace x.py  run a PyTorch script on minitorch_hooks
  minitorch-hooks compare x.py      run it on PyTorch too, and compare
  minitorch-hooks show 1            print tutorial exercise 1's text
  minitorch-hooks start 1           copy exercise 1 here (its file and text), to fill in
  minitorch-hooks check 1           check your work on it, step by step

Run 'minitorch-hooks COMMAND --help' for the options of a command."""


def build_parser() -> argparse.ArgumentParser:
    """The command line: ``minitorch-hooks tour [--list | --chapter N | --all]`` and the
    commands of ``cli/``."""
    parser = argparse.ArgumentParser(
        prog="minitorch-hooks",
        description="PyTorch's autograd and hooks, rebuilt in readable NumPy to teach them.",
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {minitorch_hooks.__version__}")
    commands = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND")

    count = len(chapters())
    tour = commands.add_parser(
        "tour",
        help="a guided walk through PyTorch's hooks, with examples run live",
        description=(
            "A guided walk through PyTorch's tensor, graph-node and module hooks, chapter "
            "by chapter: an explanation, the code of a small example, and what each hook "
            "received when that example ran just now. Without options it prints the "
            "chapter titles and chapter 1. At a terminal, long text goes through a pager "
            "($PAGER, or less -R; PAGER= turns it off)."),
    )
    which = tour.add_mutually_exclusive_group()
    which.add_argument("--list", action="store_true",
                       help="print the chapter titles and stop")
    which.add_argument("--chapter", type=int, choices=range(1, count + 1), metavar="N",
                       help=f"print only chapter N (1 to {count})")
    which.add_argument("--all", action="store_true",
                       help="print every chapter, one after the other")
    tour.add_argument("--no-color", action="store_true",
                      help="plain text even on a terminal (so does setting NO_COLOR)")
    tour.add_argument("--no-pager", action="store_true",
                      help="print straight to the terminal, without a pager")
    tour.set_defaults(handler=run_tour)
    add_exercise_commands(commands)
    add_run_command(commands)
    add_compare_command(commands)
    return parser


def use_color(no_color_option: bool) -> bool:
    """Colour only for a person at a terminal: not when piped or redirected, not with
    ``--no-color``, and not when the NO_COLOR environment variable is set (no-color.org)."""
    return not no_color_option and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def run_tour(args: argparse.Namespace) -> int:
    """``minitorch-hooks tour``: the list, one chapter, the whole tour, or (by default)
    the list and chapter 1."""
    all_chapters = chapters()
    total = len(all_chapters)
    style = Style(use_color(args.no_color))
    footer = ""
    if args.list:
        text = render_list(all_chapters)
    elif args.chapter is not None:
        text = render_chapter(args.chapter, total, all_chapters[args.chapter - 1],
                              minitorch_hooks, style)
        footer = render_next(args.chapter, total, style)
    elif args.all:
        text = render_tour(all_chapters, minitorch_hooks, style)
    else:
        text = render_start(all_chapters, minitorch_hooks, style)
        footer = render_next(1, total, style)
    show(text, use_pager=not args.no_pager, footer=footer)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code.

    argparse reports usage errors (and ``--help``) by raising SystemExit; they are turned
    into a returned code here, so that callers and tests get a number in every case:
    0 for success and help, 2 for a usage error or a missing command.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return 0 if stop.code is None else int(stop.code)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.handler(args)
    except BrokenPipeError:
        # The reader stopped early (``minitorch-hooks tour | head``): not an error worth a
        # traceback. Point stdout at devnull so Python's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
