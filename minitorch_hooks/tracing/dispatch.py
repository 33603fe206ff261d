"""Watching minitorch_hooks' own hooks at the one place they are called.

Every hook in the package is called through ``call_hooks`` (utils/hooks.py), which hands
each hook, with the hook point it fires at and its record (``Hook``: its id, whether it is
global), to the active watcher before calling it. The watcher answers with a
:class:`WatchedHook` that reports the call. Everything it shows comes from there: the
kind is the hook point's name, prefixed for a global hook; the library's own hooks never
reach it (``call_hooks`` leaves out what ``library_hook`` marked).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..utils import hooks as dispatch
from ..utils.hooks import Hook, HookPoint
from .kinds import kind_name
from .watched import Begin, WatchedHook


class DispatchWatcher:
    """What ``utils.hooks._active_tracer`` holds while a trace of minitorch_hooks runs."""

    def __init__(self, begin: Begin) -> None:
        self.begin = begin

    def watch(self, point: HookPoint, owner: Any, hook: Hook) -> Callable[..., Any]:
        kind, begin = kind_name(point, hook.is_global), self.begin
        return WatchedHook(hook.fn, lambda inner, args: begin(kind, owner, inner, args))


def install(begin: Begin) -> Callable[[], None]:
    """Start watching; the function returned stops."""
    if dispatch._active_tracer is not None:
        raise RuntimeError("a trace is already active: traces do not nest")
    dispatch.watch_hooks(DispatchWatcher(begin))

    def uninstall() -> None:
        dispatch.watch_hooks(None)

    return uninstall
