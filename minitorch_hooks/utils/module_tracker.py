"""``ModuleTracker``: which modules are running right now, in forward and in backward,
built from nothing but hooks. A port of ``torch/utils/module_tracker.py``.

It is a small lesson in combining hook kinds:

* two *global* module hooks (``register_module_forward_pre_hook`` and
  ``register_module_forward_hook``) see every module of every model enter and leave its
  forward, so the tracker adds the module's name to ``parents`` before and removes it
  after;
* for backward, which runs the modules in reverse, the same forward hooks register
  *multi-grad hooks* (``torch.autograd.graph.register_multi_grad_hook``): one on the
  module's outputs, which fires when their gradients are ready, that is when backward
  *enters* the module, and one on its inputs, which fires when backward *leaves* it;
* a callback queued on the autograd engine (``Variable._execution_engine.queue_callback``)
  resets ``parents`` when the backward pass is over.

Names are built from the module tree: ``Linear`` for a root module of that class,
``Sequential.0`` for its child ``0``, and so on; every name stays under ``"Global"``.
See <https://github.com/pytorch/pytorch/blob/v2.13.0/torch/utils/module_tracker.py>
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import Any

from .. import autograd
from .._tensor import Tensor
from ..autograd.graph import current_graph_task_id, register_multi_grad_hook
from ..nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
from ._pytree import tree_flatten
from .hooks import RemovableHandle

logger = logging.getLogger(__name__)

__all__ = ["ModuleTracker"]


class ModuleTracker:
    """A context manager whose ``parents`` is the set of the names of the modules running
    (their forward, or their part of backward), always with ``"Global"``; ``is_bw`` says
    whether a backward pass is running.

    ``is_bw`` stays True after a backward hook until another module runs, as in PyTorch.
    """

    parents: set[str]

    def __init__(self) -> None:
        self.parents = {"Global"}
        self._known_modules: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._seen_modules: weakref.WeakSet = weakref.WeakSet()
        self._has_callback = False
        self._hooks: list[RemovableHandle] = []

    def _maybe_set_engine_callback(self) -> None:
        """Once per backward pass: when it ends, forget every module it entered."""
        if self._has_callback:
            return

        def callback() -> None:
            self.parents = {"Global"}
            self._has_callback = False

        autograd.Variable._execution_engine.queue_callback(callback)
        self._has_callback = True

    @property
    def is_bw(self) -> bool:
        """Whether this runs during a backward pass."""
        return current_graph_task_id() != -1

    def _get_mod_name(self, mod: Any) -> str:
        if mod not in self._known_modules:
            self._known_modules[mod] = type(mod).__name__
        mod_name = self._known_modules[mod]
        if mod not in self._seen_modules:
            for name, submod in mod.named_children():
                self._known_modules[submod] = f"{mod_name}.{name}"
                self._get_mod_name(submod)
            self._seen_modules.add(mod)
        return mod_name

    def _get_append_fn(self, name: str, is_bw: bool) -> Callable[..., None]:
        def fn(*args: Any) -> None:
            if is_bw:
                self._maybe_set_engine_callback()
            if name in self.parents:
                logger.info("The module hierarchy tracking seems to be broken as this Module "
                            "was already entered. %s during %s", name,
                            "backward" if is_bw else "forward")
            self.parents.add(name)

        return fn

    def _get_pop_fn(self, name: str, is_bw: bool) -> Callable[..., None]:
        def fn(*args: Any) -> None:
            if name in self.parents:
                self.parents.remove(name)
            else:
                logger.info("The Module hierarchy tracking is confused as we're exiting a "
                            "Module that was never entered. %s during %s", name,
                            "backward" if is_bw else "forward")

        return fn

    def _fw_pre_hook(self, mod: Any, input: Any) -> None:
        name = self._get_mod_name(mod)
        self._get_append_fn(name, False)()
        args, _ = tree_flatten(input)
        tensors = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
        if tensors:  # backward leaves the module when the inputs' gradients are ready
            self._hooks.append(register_multi_grad_hook(tensors, self._get_pop_fn(name, True)))

    def _fw_post_hook(self, mod: Any, input: Any, output: Any) -> None:
        name = self._get_mod_name(mod)
        self._get_pop_fn(name, False)()
        args, _ = tree_flatten(output)
        tensors = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
        if tensors:  # backward enters the module when the outputs' gradients are ready
            self._hooks.append(
                register_multi_grad_hook(tensors, self._get_append_fn(name, True)))

    def __enter__(self) -> ModuleTracker:
        self._fw_pre_handle = register_module_forward_pre_hook(self._fw_pre_hook)
        self._fw_post_handle = register_module_forward_hook(self._fw_post_hook)
        return self

    def __exit__(self, *args: object) -> None:
        self._fw_pre_handle.remove()
        self._fw_post_handle.remove()
        for hook in self._hooks:
            hook.remove()
        self._hooks.clear()
