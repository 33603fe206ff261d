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

from .kinds import GLOBAL
from .watched import Begin, WatchedHook

NOT_SEEN = ("node pre-hook", "node hook")  # kinds this way of watching cannot see

_TENSOR_METHODS = {
    "register_hook": "tensor hook",
    "register_post_accumulate_grad_hook": "post-accumulate-grad hook",
}
_MODULE_METHODS = {
    "register_forward_pre_hook": "forward pre-hook",
    "register_forward_hook": "forward hook",
    "register_full_backward_pre_hook": "backward pre-hook",
    "register_full_backward_hook": "backward hook",
    "register_backward_hook": "backward hook (legacy)",
    "register_state_dict_pre_hook": "state_dict pre-hook",
    "register_state_dict_post_hook": "state_dict post-hook",
    "register_load_state_dict_pre_hook": "load_state_dict pre-hook",
    "register_load_state_dict_post_hook": "load_state_dict post-hook",
}
_OPTIMIZER_METHODS = {
    "register_step_pre_hook": "step pre-hook",
    "register_step_post_hook": "step post-hook",
    "register_state_dict_pre_hook": "optimizer state_dict pre-hook",
    "register_state_dict_post_hook": "optimizer state_dict post-hook",
    "register_load_state_dict_pre_hook": "optimizer load_state_dict pre-hook",
    "register_load_state_dict_post_hook": "optimizer load_state_dict post-hook",
}
_GLOBAL_OPTIMIZER_FUNCTIONS = {
    "register_optimizer_step_pre_hook": GLOBAL + "step pre-hook",
    "register_optimizer_step_post_hook": GLOBAL + "step post-hook",
}
_GLOBAL_FUNCTIONS = {
    "register_module_forward_pre_hook": GLOBAL + "forward pre-hook",
    "register_module_forward_hook": GLOBAL + "forward hook",
    "register_module_full_backward_pre_hook": GLOBAL + "backward pre-hook",
    "register_module_full_backward_hook": GLOBAL + "backward hook",
    "register_module_backward_hook": GLOBAL + "backward hook (legacy)",
    "register_module_module_registration_hook": "module registration hook",
    "register_module_parameter_registration_hook": "parameter registration hook",
    "register_module_buffer_registration_hook": "buffer registration hook",
}


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

    for name, kind in _TENSOR_METHODS.items():
        replace(torch.Tensor, name, kind, on_tensor=True)
    for name, kind in _MODULE_METHODS.items():
        replace(torch.nn.Module, name, kind, on_tensor=False)
    for name, kind in _GLOBAL_FUNCTIONS.items():
        replace(torch.nn.modules.module, name, kind, on_tensor=False)
    for name, kind in _OPTIMIZER_METHODS.items():
        replace(torch.optim.Optimizer, name, kind, on_tensor=False)
    optimizer_module = importlib.import_module(torch.__name__ + ".optim.optimizer")
    for name, kind in _GLOBAL_OPTIMIZER_FUNCTIONS.items():
        replace(optimizer_module, name, kind, on_tensor=False)
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
