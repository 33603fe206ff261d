"""Watching real PyTorch's hooks, by wrapping each one as it is registered.

PyTorch calls its hooks from many places (C++ included), so there is no one place to watch
them as minitorch_hooks has. Instead, while a trace runs, every public ``register_*``
function and method is replaced by one that registers a :class:`WatchedHook` around the
user's hook. That sees the same calls, with three limits: only hooks registered while the
trace is active are seen; hooks on graph nodes are not seen at all, because PyTorch's node
classes are C++ types whose methods cannot be replaced; and PyTorch's own internal hooks
(the node hooks of full backward hooks) stay out of sight, as they should. Saved-tensor
hooks put on one saved tensor (``grad_fn._raw_saved_self.register_hooks``) are C++ too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ..utils.hooks import HOOK_POINTS
from .kinds import kind_name
from .watched import Begin, WatchedHook

# The methods and functions to replace, and the kind each registers, read from the table
# of hook points: a kind added there is watched here too.
NOT_SEEN = tuple(point.name for point in HOOK_POINTS.values() if point.owner == "node")
_METHODS = {owner: {name: point.name for point in HOOK_POINTS.values()
                    if point.owner == owner for name in point.register}
            for owner in ("tensor", "module", "optimizer")}
_GLOBAL_FUNCTIONS = {owner: {point.register_global: kind_name(point, is_global=True)
                             for point in HOOK_POINTS.values()
                             if point.owner == owner and point.register_global}
                     for owner in ("module", "optimizer")}


def install(torch: ModuleType, begin: Begin) -> Callable[[], None]:
    """Replace the registration functions of ``torch``; the function returned puts the
    originals back."""
    originals: list[tuple[Any, str, Any]] = []

    def watched(kind: str, owner: Any, hook: Callable[..., Any]) -> WatchedHook:
        # A module hook's owner is the module it is called with (a copied model's
        # hooks are called with the copy); a tensor hook's is the tensor it was put on.
        return WatchedHook(hook, lambda inner, args: begin(kind, owner, inner, args))

    def replace(namespace: Any, name: str, kind: str, on_tensor: bool) -> None:
        original = vars(namespace)[name]
        originals.append((namespace, name, original))
        if isinstance(namespace, ModuleType):
            def register(hook: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
                return original(watched(kind, None, hook), *args, **kwargs)
        else:
            def register(self: Any, hook: Callable[..., Any], *args: Any, **kwargs: Any
                         ) -> Any:
                owner = self if on_tensor else None
                return original(self, watched(kind, owner, hook), *args, **kwargs)
        register.__name__ = register.__qualname__ = name
        setattr(namespace, name, register)

    optimizer_module = importlib.import_module(torch.__name__ + ".optim.optimizer")
    for namespace, names, on_tensor in (
            (torch.Tensor, _METHODS["tensor"], True),
            (torch.nn.Module, _METHODS["module"], False),
            (torch.nn.modules.module, _GLOBAL_FUNCTIONS["module"], False),
            (torch.optim.Optimizer, _METHODS["optimizer"], False),
            (optimizer_module, _GLOBAL_FUNCTIONS["optimizer"], False)):
        for name, kind in names.items():
            replace(namespace, name, kind, on_tensor=on_tensor)
    _watch_saved_tensors_hooks(torch, originals, watched)

    def uninstall() -> None:
        for namespace, name, original in reversed(originals):
            setattr(namespace, name, original)

    return uninstall


def _watch_saved_tensors_hooks(torch: ModuleType, originals: list,
                               watched: Callable[..., WatchedHook]) -> None:
    """``saved_tensors_hooks(pack_hook, unpack_hook)`` is a class: put a subclass in its
    place that wraps the two hooks. PyTorch's ``save_on_cpu`` subclasses the original, so
    its own hooks stay out of sight, as they should."""
    graph = torch.autograd.graph
    original = graph.saved_tensors_hooks

    class saved_tensors_hooks(original):  # noqa: N801 - the name it stands in for
        def __init__(self, pack_hook: Callable[..., Any], unpack_hook: Callable[..., Any]
                     ) -> None:
            super().__init__(watched("pack hook", None, pack_hook),
                             watched("unpack hook", None, unpack_hook))

    originals.append((graph, "saved_tensors_hooks", original))
    graph.saved_tensors_hooks = saved_tensors_hooks
