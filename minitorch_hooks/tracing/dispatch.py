"""Watching minitorch_hooks' own hooks at the one place they are called.

Every hook in the package is called through ``call_hooks`` (utils/hooks.py), which hands
each hook, with the hook point it fires at, to the active watcher before calling it. The
watcher answers with a :class:`WatchedHook` that reports the call, or with the hook itself
for the package's own plumbing (``_is_plumbing``). It also works out the two
things a call site does not say: whether a module or optimiser step hook is global (by its
handle id, in the dictionaries of ``register_module_*`` and ``register_optimizer_step_*``),
and that a node hook wrapping a module hook is really a legacy ``register_backward_hook``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..nn.modules import module as registry
from ..optim import optimizer as optim_registry
from ..utils import hooks as dispatch
from ..utils.hooks import NODE_HOOK, HookPoint
from .kinds import GLOBAL
from .watched import Begin, WatchedHook

_GLOBAL_HOOKS = {
    "forward pre-hook": registry._global_forward_pre_hooks,
    "forward hook": registry._global_forward_hooks,
    "backward pre-hook": registry._global_backward_pre_hooks,
    "backward hook": registry._global_backward_hooks,
    "step pre-hook": optim_registry._global_optimizer_pre_hooks,
    "step post-hook": optim_registry._global_optimizer_post_hooks,
}


class DispatchWatcher:
    """What ``utils.hooks._active_tracer`` holds while a trace of minitorch_hooks runs."""

    def __init__(self, begin: Begin) -> None:
        self.begin = begin

    def watch(self, point: HookPoint, owner: Any, hook_id: int | None,
              hook: Callable[..., Any]) -> Callable[..., Any]:
        if _is_plumbing(hook):
            return hook
        kind = point.name
        if point is NODE_HOOK and isinstance(hook, registry._WrappedHook):
            # register_backward_hook puts the module's hook on the node of its last
            # operation (Module._attach_legacy_backward_hooks): report it as the module's.
            kind, owner = "backward hook (legacy)", hook.module()
            if hook.hook in registry._global_backward_hooks.values():
                kind = GLOBAL + kind
        elif hook_id in _GLOBAL_HOOKS.get(kind, ()):
            kind = GLOBAL + kind
        begin = self.begin
        return WatchedHook(hook, lambda inner, args: begin(kind, owner, inner, args))


# Hooks minitorch_hooks registers for its own use: the node hooks of a full backward hook
# (``BackwardHook``, utils/hooks.py) and the pack and unpack hooks of ``save_on_cpu``. A
# trace shows what the user registered, as PyTorch's leaves out its own hooks.
_PLUMBING = ("BackwardHook.", "save_on_cpu.")


def _is_plumbing(hook: Callable[..., Any]) -> bool:
    return (getattr(hook, "__qualname__", "").startswith(_PLUMBING)
            or getattr(hook, "__minitorch_library_hook__", False))


def library_hook(hook: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a hook that a trace registers for its own use, so that it is not reported."""
    hook.__minitorch_library_hook__ = True  # type: ignore[attr-defined]
    return hook


def install(begin: Begin) -> Callable[[], None]:
    """Start watching; the function returned stops."""
    if dispatch._active_tracer is not None:
        raise RuntimeError("a trace is already active: traces do not nest")
    dispatch.watch_hooks(DispatchWatcher(begin))

    def uninstall() -> None:
        dispatch.watch_hooks(None)

    return uninstall
