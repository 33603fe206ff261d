"""What a tour chapter is: some prose, one example function, and the lines it prints.

The example is an ordinary function of a torch-like namespace, ``example(torch)``, that
prints what each hook receives. The tour shows the function's own source and then runs it
(under ``minitorch_hooks.hook_trace``, to show every hook call in order), so the code on screen
is exactly the code that produced the output below it and the two cannot drift apart.
Because the namespace is a parameter, the tests run the very same function on real PyTorch
and check that it prints the same lines and makes the same hooks fire.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from ..tracing import Trace, hook_trace


@dataclass(frozen=True)
class Chapter:
    """One chapter of the tour.

    ``intro`` comes before the code, ``outro`` after its output; both are printed as
    written (after removing the common indentation), so write them wrapped.
    """

    title: str
    intro: str
    example: Callable[[ModuleType], None]
    outro: str

    def code(self) -> str:
        """The example's body, dedented: what a learner would type to run it.

        The example must start with a one-line ``def``; its body is everything after it.
        When the body uses ``torch``, an import line is put in front, so the code shown can
        be pasted into a fresh interpreter as it is.
        """
        source = inspect.getsource(self.example)
        signature, _, body = source.partition("\n")
        if not (signature.lstrip().startswith("def ") and signature.endswith(":")):
            raise ValueError(f"{self.example.__qualname__} must start with a one-line def")
        body = textwrap.dedent(body).strip("\n")
        if "torch." in body:
            body = "import minitorch_hooks as torch\n\n" + body
        return body

    def run(self, torch: ModuleType) -> list[str]:
        """Run the example with ``torch`` and return the lines it printed."""
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            self.example(torch)
        return printed.getvalue().splitlines()

    def run_traced(self, torch: ModuleType) -> tuple[list[str], Trace]:
        """Run the example under ``minitorch_hooks.hook_trace``: the lines it printed, and the
        trace of every hook it made fire (on real PyTorch too, see ``tracing/``)."""
        with hook_trace(torch=torch) as recorded:
            lines = self.run(torch)
        return lines, recorded
