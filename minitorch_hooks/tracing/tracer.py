"""``hook_trace``: record every hook that fires inside a ``with`` block.

It is not called ``trace``: in PyTorch ``torch.trace`` is the sum of a matrix's diagonal,
and a PyTorch name here must mean what it means there.

    with minitorch_hooks.hook_trace(model, names={"x": x}) as t:
        model(x).sum().backward()
    print(t)                      # the timeline, one line per hook call
    t.mermaid(), t.svg()          # the same as a diagram

Each call becomes a :class:`HookEvent`: its number, phase, kind, owner, the hook's name,
what it received and whether it replaced the value. ``hook_trace`` watches minitorch_hooks
at its hook dispatch (``tracing/dispatch.py``); ``hook_trace(torch=torch)`` watches real PyTorch
instead, by wrapping hooks as they are registered (``tracing/registration.py``). Both
report in the same words, so the two timelines of one script can be compared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from ..nn.modules import module as our_registry
from ..utils.hooks import Result, library_hook
from . import dispatch, registration
from .events import HookEvent, events_to_json
from .kinds import describe, hook_name, is_module, kind_info
from .mermaid import render_mermaid
from .naming import Names
from .svg import render_svg
from .text import render_text
from .watched import Finish

# The rules under which a result other than None takes the place of the value.
_TAKES_THE_PLACE = (Result.REPLACES, Result.NONE_AFTER_ALL, Result.IS_THE_VALUE)

class Trace:
    """The events of one traced block, and the ways to show them."""

    def __init__(self, roots: tuple, names: Mapping[str, Any], torch: ModuleType | None
                 ) -> None:
        self.events: list[HookEvent] = []
        self._names = Names(roots, names)
        self._registry = our_registry if torch is None else torch.nn.modules.module
        self._torch = torch
        self._undo: list[Callable[[], None]] = []

    def __enter__(self) -> Trace:
        if self._undo:
            raise RuntimeError("this trace is already active")
        try:
            self._start()
        except BaseException:
            self._stop()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop()

    def _start(self) -> None:
        # The trace's own registration hooks, registered before any patching so that they
        # are never reported: they only tell the names which modules exist.
        @library_hook
        def seen(module: Any, name: str, value: Any) -> None:
            self._names.registered(module)

        for register in (self._registry.register_module_module_registration_hook,
                         self._registry.register_module_parameter_registration_hook,
                         self._registry.register_module_buffer_registration_hook):
            self._undo.append(register(seen).remove)
        if self._registry is our_registry:
            self._undo.append(dispatch.install(self._begin))
        else:
            self._undo.append(registration.install(self._torch, self._begin))

    def _stop(self) -> None:
        while self._undo:
            self._undo.pop()()
        self._names.forget()

    def _begin(self, kind: str, owner: Any, hook: Callable[..., Any], args: tuple) -> Finish:
        """Record the call of ``hook`` as it starts (so that a hook that runs other hooks
        comes before them); the function returned fills in how it ended."""
        info = kind_info(kind)
        if info.owner == "module":
            owner = args[0] if owner is None else owner
            if args and args[0] is owner:
                args = args[1:]
            where = self._names.module(owner)
        elif info.owner == "tensor":
            where = self._names.tensor(owner)
        elif info.owner == "optimizer":  # called with the optimiser first, as module hooks
            owner, args = args[0], args[1:]
            where = type(owner).__name__
        elif info.owner == "context":  # saved-tensor hooks belong to a ``with`` block
            where = "saved_tensors_hooks"
        else:
            where = self._names.node(owner)
        received = tuple(zip(info.parameter_names(len(args)), map(describe, args)))
        event = HookEvent(len(self.events) + 1, info.phase, kind, where, hook_name(hook),
                          received)
        self.events.append(event)

        def finish(result: Any, error: BaseException | None) -> None:
            # Whether the result took the value's place is the hook point's rule.
            event.replaced = result is not None and info.result in _TAKES_THE_PLACE
            event.raised = None if error is None else type(error).__name__
            if info.phase == "registration":
                # Names looked up during a registration hook saw the model before the
                # registration: look them up afresh next time.
                self._names.registered(owner)

        return finish

    def text(self, width: int | None = None) -> str:
        """The timeline as an aligned table, one hook call a row; with a ``width``, a
        call that would make a row wider goes on its own lines under the row."""
        return render_text(self.events, width)

    def mermaid(self) -> str:
        """The timeline as a Mermaid sequence diagram."""
        return render_mermaid(self.events)

    def svg(self) -> str:
        """The timeline as a self-contained SVG drawing, one swim lane per owner, the
        modules in the order of the model."""
        return render_svg(self.events, self._names.module_order())

    def json(self) -> str:
        return events_to_json(self.events)

    def __str__(self) -> str:
        return self.text()


def hook_trace(*roots: Any, names: Mapping[str, Any] | None = None,
               torch: ModuleType | None = None) -> Trace:
    """Record every hook call while the ``with`` block runs.

    ``roots`` are models whose modules and parameters are named as ``named_modules()`` and
    ``named_parameters()`` name them (modules built inside the block are named anyway).
    ``names`` names tensors or modules yourself: ``names={"x": x}``. ``torch`` is the
    library to watch: minitorch_hooks by default, or the real ``torch`` module.
    """
    for root in roots:
        if not is_module(root):
            raise TypeError(f"hook_trace() takes modules to name, not "
                            f"{type(root).__name__}")
    return Trace(roots, names or {}, torch)
