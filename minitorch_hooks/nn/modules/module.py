"""``Module``: the base class of every layer, and every module hook.

Read ``Module.__call__`` first: it is what runs when you write ``model(x)``. With no hooks
it simply calls ``forward``. With hooks, it runs these steps, each a short method below:

1. forward pre-hooks (global ones, then the module's own) may replace the arguments;
2. if there are backward hooks, the tensor arguments pass through an identity node;
3. ``forward`` runs;
4. forward hooks (global, then the module's) may replace the output;
5. if there are backward hooks, the output passes through an identity node too;
6. if ``forward`` or a hook raised, hooks registered with ``always_call=True`` still
   run, and the original exception propagates.

Then come the ``register_*`` methods of every module hook, and registration of members
(attributes become parameters, buffers and sub-modules). As PyTorch's ``module.py`` does,
this file also holds the global hooks. The rest of ``Module`` is inherited from three files
beside this one: ``_tree.py`` (``parameters()``, ``named_modules()``, ``repr``...),
``_conversion.py`` (``to``, ``float()``, ``train()``...) and ``_state_dict.py``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html>
"""

from __future__ import annotations

import functools
import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..._tensor import Tensor
from ...utils.hooks import (
    BUFFER_REGISTRATION_HOOK,
    FORWARD_HOOK,
    FORWARD_PRE_HOOK,
    MODULE_REGISTRATION_HOOK,
    PARAMETER_REGISTRATION_HOOK,
    BackwardHook,
    Hook,
    HookPoint,
    RecordMemory,
    RemovableHandle,
    add_hook,
    call_hooks,
    check_callable,
    hook_dicts,
    hooks_in,
    typename,
)
from ..parameter import Buffer, Parameter
from ._conversion import ConversionMixin
from ._functions import apply_identity
from ._legacy_backward_hook import attach_legacy_backward_hooks
from ._state_dict import StateDictMixin, _IncompatibleKeys  # noqa: F401 - PyTorch's home
from ._tree import TreeMixin, _addindent  # noqa: F401 - PyTorch's home of _addindent

# -- hooks for every module (debugging and profiling tools use these) --------------------
# Every global registry of hooks in the package: these module ones; the optimiser step
# hooks (optim/optimizer.py); the saved-tensor hooks in force (autograd/saved_tensors.py).
_global_forward_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_forward_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_forward_hooks_with_kwargs: OrderedDict[int, bool] = OrderedDict()
_global_forward_hooks_always_called: OrderedDict[int, bool] = OrderedDict()
_global_backward_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_backward_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_is_full_backward_hook: bool | None = None
_global_module_registration_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_parameter_registration_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_buffer_registration_hooks: OrderedDict[int, Callable] = OrderedDict()

_MIXED_BACKWARD_HOOKS = ("Cannot use both regular backward hooks and full backward hooks {}. "
                         "Please use only one of them.")


def register_module_forward_pre_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, args)`` before every module's forward, before the module's own."""
    return add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook: Callable, *, with_kwargs: bool = False,
                                 always_call: bool = False) -> RemovableHandle:
    """``hook(module, args, output)`` after every module's forward, before its own."""
    return add_hook(_global_forward_hooks, hook,
                    flag_dicts=(_global_forward_hooks_with_kwargs,
                                _global_forward_hooks_always_called),
                    flags=(with_kwargs, always_call))


def register_module_full_backward_pre_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, grad_output)`` for every module, before the module's own."""
    return add_hook(_global_backward_pre_hooks, hook)


def _check_backward_hook_kind(kind_so_far: bool | None, full: bool, where: str) -> None:
    """Full and legacy backward hooks do not mix: not on one module, nor among the global
    hooks. ``kind_so_far`` is None until the first backward hook, then whether it was full."""
    if kind_so_far is not None and kind_so_far != full:
        raise RuntimeError(_MIXED_BACKWARD_HOOKS.format(where))


def _register_global_backward_hook(hook: Callable, full: bool) -> RemovableHandle:
    global _global_is_full_backward_hook
    _check_backward_hook_kind(_global_is_full_backward_hook, full, "as a global Module hook")
    handle = add_hook(_global_backward_hooks, hook)
    _global_is_full_backward_hook = full
    return handle


def register_module_full_backward_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, grad_input, grad_output)`` for every module, before its own."""
    return _register_global_backward_hook(hook, full=True)


def register_module_backward_hook(hook: Callable) -> RemovableHandle:
    """The deprecated, non-full global backward hook (see ``Module.register_backward_hook``)."""
    return _register_global_backward_hook(hook, full=False)


def register_module_module_registration_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, name, submodule)`` whenever a sub-module is registered anywhere; a
    returned module is registered instead."""
    return add_hook(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, name, param)`` whenever a parameter is registered anywhere."""
    return add_hook(_global_parameter_registration_hooks, hook)


def register_module_buffer_registration_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, name, buffer)`` whenever a buffer is registered anywhere."""
    return add_hook(_global_buffer_registration_hooks, hook)


_REGISTRATION_HOOKS = {MODULE_REGISTRATION_HOOK: _global_module_registration_hooks,
                       PARAMETER_REGISTRATION_HOOK: _global_parameter_registration_hooks,
                       BUFFER_REGISTRATION_HOOK: _global_buffer_registration_hooks}


def _run_registration_hooks(point: HookPoint, module: Module, name: str, value: Any) -> Any:
    """The global hooks that see a member registered; one may return a replacement."""
    return call_hooks(point, module, hooks_in(_REGISTRATION_HOOKS[point], is_global=True),
                      value, lambda hook, value: hook.fn(module, name, value))


class _WrappedHook:
    """A load-state-dict pre-hook; with a module, it receives the module first, held
    weakly so that the hook does not keep its module alive."""

    def __init__(self, hook: Callable, module: Module | None = None) -> None:
        self.hook = hook
        functools.update_wrapper(self, hook)
        self.module = None if module is None else weakref.ref(module)

    def __call__(self, *args: Any) -> Any:
        if self.module is None:
            return self.hook(*args)
        module = self.module()
        if module is None:
            raise RuntimeError("You are trying to call the hook of a dead Module!")
        return self.hook(module, *args)

    # Copying a module copies its hooks. The copy must call the hook with the *copied*
    # module, so the module is held strongly while copying (``copy.deepcopy`` then maps it
    # to the copy) and weakly again afterwards, as in PyTorch.
    def __getstate__(self) -> dict:
        if self.module is None:
            return {"hook": self.hook}
        return {"hook": self.hook, "module": self.module()}

    def __setstate__(self, state: dict) -> None:
        self.hook = state["hook"]
        self.module = None
        if "module" in state:
            if state["module"] is None:
                raise RuntimeError("You are trying to revive the hook of a dead Module!")
            self.module = weakref.ref(state["module"])


class _CallState:
    """What one hooked call has got to so far; the always-call hooks need it on failure."""

    __slots__ = ("args", "kwargs", "result", "always_called")

    def __init__(self, args: tuple, kwargs: dict) -> None:
        self.args, self.kwargs, self.result = args, kwargs, None
        self.always_called: set[int] = set()


class Module(TreeMixin, ConversionMixin, StateDictMixin):
    """Base class for all neural network modules; subclasses define ``forward``.

    This file holds calling a module and its hooks, and the registration of its members.
    Walking the tree of modules (``parameters()``...), conversion (``to``, ``train``...)
    and ``state_dict`` are inherited from ``_tree.py``, ``_conversion.py`` and
    ``_state_dict.py``.
    """

    training: bool
    _version: int = 1
    call_super_init: bool = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument '{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                            f"but {len(args) + 1} were given")
        object.__setattr__(self, "training", True)
        for name, value in _fresh_state().items():
            object.__setattr__(self, name, value)

    def __setstate__(self, state: dict) -> None:
        """Unpickling (``torch.load(..., weights_only=False)``, ``copy.deepcopy``): a module
        pickled by an older release may lack a hook dictionary added since; it gets an
        empty one, as in PyTorch, so that every hook kind works on it."""
        self.__dict__.update(state)
        for name, value in _fresh_state().items():
            self.__dict__.setdefault(name, value)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    # == calling the module: where the forward and backward hooks run =====================
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_pre_hooks
                or self._backward_hooks or _global_forward_pre_hooks or _global_forward_hooks
                or _global_backward_pre_hooks or _global_backward_hooks):
            return self.forward(*args, **kwargs)  # no hooks anywhere: forward alone
        state = _CallState(args, kwargs)
        try:
            return self._call_with_hooks(state)
        except Exception:
            self._run_always_called_hooks(state)
            raise

    def _call_with_hooks(self, state: _CallState) -> Any:
        # The backward hooks that apply are fixed before any forward hook can add more.
        backward_hook, legacy_hooks = self._setup_backward_hook()
        self._run_forward_pre_hooks(state)
        if backward_hook is not None:
            state.args = backward_hook.setup_input_hook(state.args)
        state.result = self.forward(*state.args, **state.kwargs)
        self._run_forward_hooks(state)
        if backward_hook is not None:
            if not isinstance(state.result, (Tensor, tuple)):
                warnings.warn("For backward hooks to be called, module output should be a "
                              "Tensor or a tuple of Tensors but received "
                              f"{type(state.result)}", UserWarning, stacklevel=3)
            state.result = backward_hook.setup_output_hook(state.result)
        if legacy_hooks:  # the deprecated register_backward_hook (_legacy_backward_hook.py)
            attach_legacy_backward_hooks(self, state.args, state.result, legacy_hooks)
        return state.result

    def _run_forward_pre_hooks(self, state: _CallState) -> None:
        """Step 1: ``hook(module, args)``, or ``hook(module, args, kwargs)`` when registered
        ``with_kwargs``. A result replaces the arguments; a non-tuple is wrapped in one.

        Each replacement is stored in ``state`` at once, not after the last hook: if a later
        hook raises, the always-call hooks see the arguments as they were, as in PyTorch.
        """
        if not (_global_forward_pre_hooks or self._forward_pre_hooks):
            return  # nothing to build: the module may have other kinds of hooks only
        hooks = (hooks_in(_global_forward_pre_hooks, is_global=True)
                 + self._remembered_records.hooks_in(
                     "_forward_pre_hooks", self._forward_pre_hooks,
                     with_kwargs=self._forward_pre_hooks_with_kwargs))

        def call(hook: Hook, args_kwargs: tuple) -> tuple | None:
            args, kwargs = args_kwargs
            if hook.has("with_kwargs"):
                result = hook.fn(self, args, kwargs)
                if result is not None and not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {result}.")
            else:
                result = hook.fn(self, args)
                if result is not None:
                    result = (result if isinstance(result, tuple) else (result,)), kwargs
            if result is not None:
                state.args, state.kwargs = result
            return result

        call_hooks(FORWARD_PRE_HOOK, self, hooks, (state.args, state.kwargs), call)

    def _setup_backward_hook(self) -> tuple[BackwardHook | None, list[Hook]]:
        """Step 2's bookkeeping: the full backward hooks and pre-hooks that apply here, in a
        ``BackwardHook``, and the legacy backward hooks. A set of backward hooks (the
        global ones, a module's own) is of one kind only, fixed by the first registered
        (``_check_backward_hook_kind``)."""
        full_hooks: list[Hook] = []
        legacy_hooks: list[Hook] = []
        if not (self._backward_hooks or self._backward_pre_hooks or _global_backward_hooks
                or _global_backward_pre_hooks):
            return None, legacy_hooks
        remembered = self._remembered_records
        for kind, hooks in ((_global_is_full_backward_hook,
                             hooks_in(_global_backward_hooks, is_global=True)),
                            (self._is_full_backward_hook,
                             remembered.hooks_in("_backward_hooks", self._backward_hooks))):
            if kind is not None:  # None: no backward hook was ever registered there
                (full_hooks if kind else legacy_hooks).extend(hooks)
        pre_hooks = [*hooks_in(_global_backward_pre_hooks, is_global=True),
                     *remembered.hooks_in("_backward_pre_hooks", self._backward_pre_hooks)]
        if not (full_hooks or pre_hooks):
            return None, legacy_hooks
        return BackwardHook(self, full_hooks, pre_hooks, apply_identity), legacy_hooks

    def _run_forward_hooks(self, state: _CallState) -> None:
        """Step 4: ``hook(module, args, output)`` (``with_kwargs``: ``hook(module, args,
        kwargs, output)``); a result other than ``None`` replaces the output."""
        if not (_global_forward_hooks or self._forward_hooks):
            return
        hooks = (hooks_in(_global_forward_hooks, is_global=True,
                          with_kwargs=_global_forward_hooks_with_kwargs,
                          always_call=_global_forward_hooks_always_called)
                 + self._remembered_records.hooks_in(
                     "_forward_hooks", self._forward_hooks,
                     with_kwargs=self._forward_hooks_with_kwargs,
                     always_call=self._forward_hooks_always_called))
        call_hooks(FORWARD_HOOK, self, hooks, state.result, self._forward_hook_caller(state))

    def _forward_hook_caller(self, state: _CallState) -> Callable[[Hook, Any], Any]:
        """Calls one forward hook. Like the pre-hooks, a new output is stored in ``state``
        at once, for the always-call hooks should a later hook raise; and an always-call
        hook that ran is not run again."""
        def call(hook: Hook, result: Any) -> Any:
            with_kwargs = False
            if hook.flag_dicts is not None:  # some hook of its dictionary has a flag
                if hook.has("always_call"):
                    state.always_called.add(hook.id)
                with_kwargs = hook.has("with_kwargs")
            if with_kwargs:
                result = hook.fn(self, state.args, state.kwargs, result)
            else:
                result = hook.fn(self, state.args, result)
            if result is not None:
                state.result = result
            return result

        return call

    def _run_always_called_hooks(self, state: _CallState) -> None:
        """Step 6: after a failure, the ``always_call`` forward hooks that have not run yet
        still run. An error inside one of them is turned into a warning, so that the
        original exception is the one that propagates.

        Unlike every other hook loop, PyTorch walks the live dictionaries here, not a copy.
        So a hook that removes a hook from the dictionary being walked, unless it was the
        last one, ends the walk with Python's "OrderedDict mutated during iteration"
        RuntimeError, which replaces the original exception; we do the same.
        """
        call = self._forward_hook_caller(state)
        for hook_dict, always, is_global, with_kwargs, label in (
                (_global_forward_hooks, _global_forward_hooks_always_called, True,
                 _global_forward_hooks_with_kwargs, "global module forward hook"),
                (self._forward_hooks, self._forward_hooks_always_called, False,
                 self._forward_hooks_with_kwargs, "module forward hook")):
            for hook_id, fn in hook_dict.items():  # the live dictionary
                if hook_id not in always or hook_id in state.always_called:
                    continue
                hook = Hook(hook_id, fn, is_global,
                            {"with_kwargs": with_kwargs, "always_call": always})
                try:
                    call_hooks(FORWARD_HOOK, self, (hook,), state.result, call)
                except Exception as error:  # noqa: BLE001 - reported as PyTorch does
                    warnings.warn(f"{label} with ``always_call=True`` raised an exception that "
                                  f"was silenced as another error was raised in forward: "
                                  f"{error}", UserWarning, stacklevel=4)

    # == registering hooks ====================================================================
    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """Run ``hook(module, args)`` before ``forward``; it may return new args.

        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.register_forward_pre_hook>
        """
        return add_hook(self._forward_pre_hooks, hook, prepend=prepend,
                        flag_dicts=(self._forward_pre_hooks_with_kwargs,), flags=(with_kwargs,),
                        memory=self._remembered_records)

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False, always_call: bool = False
                              ) -> RemovableHandle:
        """Run ``hook(module, args, output)`` after ``forward``; it may return a new output.

        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.register_forward_hook>
        """
        return add_hook(self._forward_hooks, hook, prepend=prepend,
                        flag_dicts=(self._forward_hooks_with_kwargs,
                                    self._forward_hooks_always_called),
                        flags=(with_kwargs, always_call), memory=self._remembered_records)

    def register_full_backward_pre_hook(self, hook: Callable, prepend: bool = False
                                        ) -> RemovableHandle:
        """Run ``hook(module, grad_output)`` when the gradient reaches the module's outputs;
        it may return a new ``grad_output``.

        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_pre_hook>
        """
        return add_hook(self._backward_pre_hooks, hook, prepend=prepend,
                        memory=self._remembered_records)

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False
                                    ) -> RemovableHandle:
        """Run ``hook(module, grad_input, grad_output)`` once the gradients with respect to
        the module's inputs are computed; it may return a new ``grad_input``.

        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook>
        """
        _check_backward_hook_kind(self._is_full_backward_hook, True, "on a single Module")
        handle = add_hook(self._backward_hooks, hook, prepend=prepend,
                          memory=self._remembered_records)
        self._is_full_backward_hook = True
        return handle

    def register_backward_hook(self, hook: Callable) -> RemovableHandle:
        """Deprecated: a hook on the grad_fn of the module's last operation only, so its
        ``grad_input`` can be the gradient of some inner tensor. Use
        ``register_full_backward_hook``.
        """
        _check_backward_hook_kind(self._is_full_backward_hook, False, "on a single Module")
        handle = add_hook(self._backward_hooks, hook, memory=self._remembered_records)
        self._is_full_backward_hook = False
        return handle

    def register_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, prefix, keep_vars)`` before ``state_dict`` collects this module."""
        return add_hook(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata)`` after; it edits in place.

        PyTorch marks the hook itself (``hook._from_public_api = True``) so that
        ``state_dict`` can tell it from one registered the old, private way, which may
        return a new dictionary. A bound method cannot take that mark: PyTorch then raises
        ``AttributeError``, and so does this.
        """
        check_callable(hook)
        hook._from_public_api = True
        return add_hook(self._state_dict_hooks, hook)

    def _register_state_dict_hook(self, hook: Callable) -> RemovableHandle:
        """The older, private post-hook: unlike ``register_state_dict_post_hook``'s, it may
        return a new state dict, which replaces the result when its module is the one
        ``state_dict()`` was called on (a sub-module's return value is dropped)."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook "
                               "that was previously registered via "
                               "register_state_dict_post_hook")
        return add_hook(self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before this module loads its entries."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook: Callable, with_module: bool = False
                                           ) -> RemovableHandle:
        """The private form PyTorch's own layers use: the hook gets the module as its first
        argument only ``with_module``."""
        check_callable(hook)
        return add_hook(self._load_state_dict_pre_hooks,
                        _WrappedHook(hook, self if with_module else None))

    def register_load_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, incompatible_keys)`` after loading; it edits the keys in place."""
        return add_hook(self._load_state_dict_post_hooks, hook)

    # == registration through attributes ==================================================
    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, self.__dict__, self._buffers, self._modules,
                         self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if self.__dict__.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, self.__dict__, self._parameters, self._buffers,
                         self._non_persistent_buffers_set)
            self._modules[name] = _run_registration_hooks(MODULE_REGISTRATION_HOOK, self, name,
                                                          value)
        elif name in self.__dict__.get("_modules", ()):
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = _run_registration_hooks(MODULE_REGISTRATION_HOOK, self, name,
                                                          value)
        elif isinstance(value, Buffer) or name in self.__dict__.get("_buffers", ()):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            persistent = value.persistent if isinstance(value, Buffer) else \
                name not in self._non_persistent_buffers_set
            self.register_buffer(name, value, persistent)
        else:
            object.__setattr__(self, name, value)

    @staticmethod
    def _forget(name: str, *containers: Any) -> None:
        for container in containers:
            if name in container:
                if isinstance(container, dict):
                    del container[name]
                else:
                    container.discard(name)

    def __getattr__(self, name: str) -> Any:
        # Called only when normal lookup fails: parameters, buffers and sub-modules live in
        # their own dictionaries, not in ``__dict__``.
        state = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in state and name in state[registry]:
                return state[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def _check_name(self, kind: str, name: Any, registry: dict) -> None:
        """PyTorch's checks on a new name, in its order (modules check clashes first)."""
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        clash = hasattr(self, name) and name not in registry
        if clash and kind == "module":
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f"{kind} name can't contain \".\"" +
                           (f", got: {name}" if kind == "module" else ""))
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if clash:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter under ``name``; ``None`` registers an empty slot."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name("parameter", name, self._parameters)
        if param is not None:
            if not isinstance(param, Parameter):
                raise TypeError(f"cannot assign '{typename(param)}' object to parameter "
                                f"'{name}' (torch.nn.Parameter or None required)")
            if param.grad_fn is not None:
                raise ValueError(
                    f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters "
                    f"must be created explicitly. To express '{name}' as a function of another "
                    "Tensor, compute the value in the forward() method.")
            param = _run_registration_hooks(PARAMETER_REGISTRATION_HOOK, self, name, param)
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True
                        ) -> None:
        """Add a tensor that is state but not a parameter (e.g. running statistics);
        ``persistent=False`` keeps it out of ``state_dict``."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name("buffer", name, self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = _run_registration_hooks(BUFFER_REGISTRATION_HOOK, self, name, tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def get_submodule(self, target: str) -> Module:
        """The module at a dotted path such as ``"encoder.0"``."""
        module = self
        for item in target.split(".") if target else ():
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Put ``module`` at a dotted path such as ``"encoder.0"``: an assignment to the
        parent module, so registration hooks see it as they see ``parent.name = module``.
        With ``strict``, only an existing attribute may be replaced.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.set_submodule>
        """
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent_path, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a sub-module under ``name`` (what attribute assignment does)."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name("module", name, self._modules)
        self._modules[name] = _run_registration_hooks(MODULE_REGISTRATION_HOOK, self, name, module)

    def register_module(self, name: str, module: Module | None) -> None:
        """Alias for :meth:`add_module`; its own method, as in PyTorch, so that an error
        names the method that was called."""
        self.add_module(name, module)


def _fresh_state() -> dict[str, Any]:
    """What a new module starts with besides ``training``: no members, an empty
    dictionary for each kind of module hook in the table (``HOOK_POINTS``), and an empty
    memory of their records."""
    return {
        "_parameters": {}, "_buffers": {}, "_non_persistent_buffers_set": set(), "_modules": {},
        "_is_full_backward_hook": None, **hook_dicts("module"),
        # The records of the hook dictionaries above, made at a call and kept for the next
        # ones while the dictionaries do not change (``RecordMemory``).
        "_remembered_records": RecordMemory(),
    }


def _name_as_modules_own(*mixins: type) -> None:
    """The mixins are files of Module, not classes a user meets: their methods go by
    ``Module.<name>``, as in PyTorch, where Module is one class. Python names a method by
    its ``__qualname__`` in a bad call's TypeError (``Module.state_dict() got an
    unexpected keyword argument``), in its repr and in ``help``."""
    for mixin in mixins:
        for name, member in vars(mixin).items():
            function = member.fget if isinstance(member, property) else getattr(
                member, "__func__", member)
            if callable(function) and hasattr(function, "__qualname__"):
                function.__qualname__ = f"Module.{name}"


_name_as_modules_own(TreeMixin, ConversionMixin, StateDictMixin)
