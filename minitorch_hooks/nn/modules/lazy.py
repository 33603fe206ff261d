"""``LazyModuleMixin``: layers that learn their input size from their first input.

``nn.LazyLinear(3)`` does not know ``in_features`` yet, so its weight is an
``UninitializedParameter``. PyTorch builds the rest on two hooks, registered in
``__init__``:

* a **forward pre-hook** (``_infer_parameters``, with kwargs) that, at the first call,
  asks the module to ``initialize_parameters(*args)`` (materialise and initialise the
  weights from the input's shape), then removes itself and the other hook, and turns the
  module into its ordinary class (``cls_to_become``: ``LazyLinear`` becomes ``Linear``);
* a **load-state-dict pre-hook** that materialises uninitialised parameters to the
  checkpoint's shapes, so that a lazy model can load a trained one without a forward.

So the first call of a lazy module shows one more forward pre-hook than later calls, and
it runs before any registered after the module was built.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.modules.lazy.LazyModuleMixin.html>
"""

from __future__ import annotations

import itertools
from typing import Any

from ...autograd.grad_mode import no_grad
from ..parameter import is_lazy


class LazyModuleMixin:
    """Put it before the layer class: ``class LazyLinear(LazyModuleMixin, Linear)``."""

    cls_to_become: type | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters,
                                                               with_kwargs=True)

    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        """As ``Module``'s, but an uninitialised tensor is stored as it is (there is
        nothing to detach)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if is_lazy(param) or keep_vars \
                    else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buffer if is_lazy(buffer) or keep_vars \
                    else buffer.detach()

    def _lazy_load_hook(self, state_dict: dict, prefix: str, local_metadata: dict,
                        strict: bool, missing_keys: list, unexpected_keys: list,
                        error_msgs: list) -> None:
        """Give each uninitialised tensor the shape of its initialised checkpoint entry,
        so that ``load_state_dict`` can then copy into it."""
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param) \
                    and not is_lazy(state_dict[key]):
                with no_grad():
                    param.materialize(state_dict[key].shape)

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        """Materialise and initialise the parameters from the first input; each lazy
        layer defines it."""
        raise NotImplementedError("initialize_parameters is not implemented for "
                                  f"{type(self).__name__}")

    def has_uninitialized_params(self) -> bool:
        """Whether some parameter or buffer is still uninitialised."""
        return any(is_lazy(t) for t in itertools.chain(self._parameters.values(),
                                                       self._buffers.values()))

    def _infer_parameters(self, module: Any, args: tuple, kwargs: dict | None = None
                          ) -> None:
        """The forward pre-hook: initialise from this call's arguments, then remove both
        hooks and become ``cls_to_become``."""
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become
