"""Helpers for the exercises' demonstrations: a text progress bar and optional plots.

Nothing here is part of an exercise. The progress bar is a few lines rather than a
dependency (it draws what tqdm draws, on one line), and plotting uses matplotlib only when
it is installed (from a clone: ``pip install -e ".[tutorials]"``): without it, a demonstration
says that it skipped its plot and carries on.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


class ProgressBar(Generic[T]):
    """Iterate over ``items`` while a one-line bar shows how far along it is::

        bar = ProgressBar(range(20), "training")
        for epoch in bar:
            ...
            bar.note = f"loss {loss:.3f}"  # shown after the bar

    The line is redrawn in place with a carriage return, in a terminal and in Jupyter.
    """

    def __init__(self, items: Sequence[T], label: str, width: int = 30) -> None:
        self.items, self.label, self.width = items, label, width
        self.note = ""
        self._drawn = 0

    def __iter__(self) -> Iterator[T]:
        self._draw(0)
        for done, item in enumerate(self.items, start=1):
            yield item
            self._draw(done)
        sys.stdout.write("\n")

    def _draw(self, done: int) -> None:
        total = len(self.items)
        filled = self.width * done // total if total else self.width
        line = f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total}"
        if self.note:
            line += f"  {self.note}"
        # Spaces wipe what is left of a longer previous line.
        sys.stdout.write("\r" + line.ljust(self._drawn))
        sys.stdout.flush()
        self._drawn = len(line)


def plot_lines(series: Mapping[str, Sequence[float]], *, title: str, xlabel: str,
               ylabel: str, filename: str, log_y: bool = False) -> None:
    """One line per entry of ``series`` against 1, 2, 3, ...: shown in a notebook, saved
    to ``filename`` otherwise. Without matplotlib, print that the plot was skipped."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        print(f"(no plot of {title!r}: matplotlib is not installed; "
              'from a clone: pip install -e ".[tutorials]")')
        return
    figure = Figure(figsize=(6.4, 3.6), layout="constrained")
    axes = figure.subplots()
    for label, values in series.items():
        axes.plot(range(1, len(values) + 1), values, marker=".", label=label)
    axes.set(title=title, xlabel=xlabel, ylabel=ylabel)
    if log_y:
        axes.set_yscale("log")
    axes.legend()
    if "ipykernel" in sys.modules:  # in Jupyter: show the picture under the cell
        from IPython.display import Image, display

        png = io.BytesIO()
        figure.savefig(png, format="png")
        display(Image(png.getvalue()))
    else:
        figure.savefig(filename)
        print(f"saved the plot {title!r} to {filename}")
