"""``state_dict`` and ``load_state_dict``: saving a module's parameters and buffers by name,
and loading them back, with the four state-dict hooks called on the way.

``Module`` inherits these methods from :class:`StateDictMixin`; PyTorch writes them in
``torch/nn/modules/module.py`` itself. The hooks are registered in ``module.py``, with
every other module hook.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.state_dict>
"""

from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ... import __future__
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ...utils import swap_tensors
from ...utils.hooks import (
    LOAD_STATE_DICT_POST_HOOK,
    LOAD_STATE_DICT_PRE_HOOK,
    STATE_DICT_POST_HOOK,
    STATE_DICT_PRE_HOOK,
    Hook,
    call_hooks,
    hooks_in,
)
from ..parameter import Parameter, is_lazy

if TYPE_CHECKING:
    from .module import Module

_EXTRA_STATE = "_extra_state"  # the state-dict key of what ``get_extra_state`` returns


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it could not match."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class StateDictMixin:
    """``state_dict``, ``load_state_dict`` and the steps a module overrides to take part:
    ``_save_to_state_dict``, ``_load_from_state_dict``, ``get_extra_state`` and
    ``set_extra_state``.

    It needs the registries and the four state-dict hook dictionaries that
    ``Module.__init__`` sets up (the hooks are registered in ``module.py``), and the
    module's ``_version``.
    """

    _version: int
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _non_persistent_buffers_set: set[str]
    _modules: dict[str, Module | None]
    _state_dict_pre_hooks: OrderedDict[int, Callable]
    _state_dict_hooks: OrderedDict[int, Callable]
    _load_state_dict_pre_hooks: OrderedDict[int, Callable]
    _load_state_dict_post_hooks: OrderedDict[int, Callable]

    def state_dict(self, *args: Any, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> dict:
        """Parameters and persistent buffers by dotted name, detached unless ``keep_vars``.
        Pre-hooks run before this module's entries are collected, post-hooks after.

        Older code passes ``destination, prefix, keep_vars`` positionally; that still works,
        with PyTorch's deprecation warning.
        """
        if args:
            warnings.warn("Positional args are being deprecated, use kwargs instead. Refer to "
                          "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                          "#torch.nn.Module.state_dict for details.", FutureWarning,
                          stacklevel=2)
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        call_hooks(STATE_DICT_PRE_HOOK, self, hooks_in(self._state_dict_pre_hooks), None,
                   lambda hook, _: hook.fn(self, prefix, keep_vars))
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)

        def call_post_hook(hook: Hook, destination: dict) -> dict | None:
            result = hook.fn(self, destination, prefix, local_metadata)
            # A hook of the public method must return None; the private form may not.
            if result is not None and getattr(hook.fn, "_from_public_api", False):
                raise RuntimeError("state_dict post-hook must return None")
            return result

        return call_hooks(STATE_DICT_POST_HOOK, self, hooks_in(self._state_dict_hooks),
                          destination, call_post_hook)

    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        """This module's own entries (not its children's): parameters, persistent buffers
        and extra state. A module that stores something else overrides it (lazy modules
        keep their uninitialised parameters as they are)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buffer if keep_vars else buffer.detach()
        if type(self).get_extra_state is not StateDictMixin.get_extra_state:  # overridden
            destination[prefix + _EXTRA_STATE] = self.get_extra_state()

    def get_extra_state(self) -> Any:
        """Override this (and ``set_extra_state``) to keep something besides parameters and
        buffers in the state dict, under the key ``"_extra_state"``: a module is asked only
        when its class overrides it.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.get_extra_state>
        """
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never "
                           "be called: state_dict() asks only modules that override it.")

    def set_extra_state(self, state: Any) -> None:
        """Override this to take back what ``get_extra_state`` stored, in
        ``load_state_dict``.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.set_extra_state>
        """
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never "
                           "be called: load_state_dict() tells only modules that override it.")

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict,
                              strict: bool, missing_keys: list, unexpected_keys: list,
                              error_msgs: list) -> None:
        call_hooks(LOAD_STATE_DICT_PRE_HOOK, self, hooks_in(self._load_state_dict_pre_hooks),
                   None, lambda hook, _: hook.fn(state_dict, prefix, local_metadata, strict,
                                                 missing_keys, unexpected_keys, error_msgs))
        assign = local_metadata.get("assign_to_params_buffers", False)
        local_state = {name: value for name, value in itertools.chain(
            self._parameters.items(),
            ((n, b) for n, b in self._buffers.items()
             if n not in self._non_persistent_buffers_set)) if value is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                self._load_entry(key, name, param, state_dict[key], assign, error_msgs)
            elif strict:
                missing_keys.append(key)
        extra_state_key = prefix + _EXTRA_STATE
        if type(self).set_extra_state is not StateDictMixin.set_extra_state:  # overridden
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_state_key:
                    head, *rest = key[len(prefix):].split(".", 1)
                    if (rest and head not in self._modules) or \
                            (not rest and head not in local_state):
                        unexpected_keys.append(key)

    def _load_entry(self, key: str, name: str, param: Tensor, source: Any, assign: bool,
                    error_msgs: list) -> None:
        """Load the checkpoint's ``source`` for the parameter or buffer ``name``, or say in
        ``error_msgs`` why it cannot be loaded."""
        if not isinstance(source, Tensor):
            error_msgs.append(f'While copying the parameter named "{key}", expected '
                              "torch.Tensor or Tensor-like object from checkpoint but "
                              f"received {type(source)}")
            return
        lazy = is_lazy(param)  # an uninitialised parameter has no shape to check yet
        if not lazy and param.ndim == 0 and source.shape == (1,):
            source = source[0]
        if not lazy and source.shape != param.shape:
            error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                              f"{source.shape} from checkpoint, the shape in current model "
                              f"is {param.shape}.")
            return
        try:
            with no_grad():
                self._load_one(name, param, source, assign)
        except Exception as error:
            action = "swapping" if __future__.get_swap_module_params_on_conversion() \
                else "copying"
            error_msgs.append(f'While {action} the parameter named "{key}", whose '
                              f"dimensions in the model are {param.size()} and whose "
                              f"dimensions in the checkpoint are {source.size()}, an "
                              f"exception occurred : {error.args}.")

    def _load_one(self, name: str, param: Tensor, source: Tensor, assign: bool) -> None:
        """Load one checkpoint tensor: copy it into ``param``; with ``assign``, make it the
        parameter or buffer itself (keeping only the module's ``requires_grad``); with the
        swap switch of ``torch.__future__``, swap the result into the same object."""
        if __future__.get_swap_module_params_on_conversion():
            new = param.module_load(source, assign=assign)
            if isinstance(param, Parameter):
                new = Parameter(new, requires_grad=param.requires_grad)
            swap_tensors(param, new)
        elif assign:
            if isinstance(param, Parameter):
                if isinstance(source, Parameter):
                    source.requires_grad_(param.requires_grad)
                else:
                    source = Parameter(source, requires_grad=param.requires_grad)
            setattr(self, name, source)
        else:
            param.copy_(source)

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy values from ``state_dict`` into this module's parameters and buffers (with
        ``assign``, make the given tensors the parameters and buffers instead).

        With ``strict`` any missing or unexpected key is an error (raised after the
        matching entries were copied, as in PyTorch).
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys: list[str] = []
        unexpected_keys: list[str] = []
        error_msgs: list[str] = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)  # a copy: the pre-hooks may edit it
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module: Module, local_state_dict: dict, prefix: str = "") -> None:
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True,
                                         missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local_state_dict.items()
                                 if k.startswith(child_prefix)}, child_prefix)
            call_hooks(LOAD_STATE_DICT_POST_HOOK, module,
                       hooks_in(module._load_state_dict_post_hooks),
                       _IncompatibleKeys(missing_keys, unexpected_keys),
                       lambda hook, keys: hook.fn(module, keys))

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)
