"""``Optimizer``: what every optimiser shares, and its hooks.

An optimiser holds the parameters it updates in *parameter groups*: dicts with a
``"params"`` list and the options (``lr``, ``momentum``...) that apply to them, so that
parts of a model can train with different settings. What it remembers between steps
(momentum buffers, running averages) lives in ``state``, one dict per parameter.
``step()`` reads each parameter's ``.grad`` and changes the parameter in place, under
``no_grad``: an update is not part of any graph.

Hooks: ``step`` is wrapped (once per class, the first time one is made) so that step
pre-hooks run before it and step post-hooks after it: the global ones registered with
``register_optimizer_step_pre_hook`` first, then the optimiser's own; on the way out the
optimiser's own first, then the global ones. A pre-hook may return ``(args, kwargs)`` to
replace what ``step`` is called with. ``state_dict`` and ``load_state_dict`` have pre- and
post-hooks too, so a checkpoint can be adapted as it is written or read.

PyTorch runs each update with one of several implementations: a loop over the parameters,
``foreach`` (one batched call per operation over all of them) or ``fused`` (one kernel for
the whole update). The first two compute the same thing, so ``foreach`` is accepted and
this loop runs. ``fused``, ``capturable`` (steps safe to record in a CUDA graph) and
``differentiable`` (steps recorded by autograd) ask for more than a result, and are refused
with ``NotImplementedError``.
See <https://docs.pytorch.org/docs/2.13/optim.html>
"""

from __future__ import annotations

import copy
import functools
import itertools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .._creation import tensor
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad
from ..utils.hooks import (
    OPTIMIZER_LOAD_STATE_DICT_POST_HOOK,
    OPTIMIZER_LOAD_STATE_DICT_PRE_HOOK,
    OPTIMIZER_STATE_DICT_POST_HOOK,
    OPTIMIZER_STATE_DICT_PRE_HOOK,
    STEP_POST_HOOK,
    STEP_PRE_HOOK,
    Hook,
    RemovableHandle,
    add_hook,
    call_hooks,
    hook_dicts,
    hooks_in,
    typename,
)

# The options minitorch_hooks cannot honour, and why (Optimizer._check_implementation_options).
_NOT_IMPLEMENTED = {
    "fused": "minitorch_hooks has no fused kernels (nor the GradScaler support that comes "
             "with them); leave fused at None or False",
    "capturable": "it makes steps safe to capture in a CUDA graph, and minitorch_hooks runs "
                  "on the CPU only",
    "differentiable": "minitorch_hooks never records an optimiser step in the autograd graph",
}

# Step hooks that every optimiser runs, before and after its own.
_global_optimizer_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_optimizer_post_hooks: OrderedDict[int, Callable] = OrderedDict()


def register_optimizer_step_pre_hook(hook: Callable) -> RemovableHandle:
    """``hook(optimizer, args, kwargs)`` before every optimiser's ``step``; it may return
    ``(new_args, new_kwargs)``. For code that watches all training, such as a profiler.
    See <https://docs.pytorch.org/docs/2.13/optim.html>
    """
    return add_hook(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook: Callable) -> RemovableHandle:
    """``hook(optimizer, args, kwargs)`` after every optimiser's ``step``; its result is
    ignored. See <https://docs.pytorch.org/docs/2.13/optim.html>"""
    return add_hook(_global_optimizer_post_hooks, hook)


def _with_step_hooks(step: Callable) -> Callable:
    """``step`` wrapped to run the step hooks around it. ``args`` includes the optimiser
    itself, as PyTorch passes it (a pre-hook that replaces them must keep it first)."""

    @functools.wraps(step)
    def hooked_step(*args: Any, **kwargs: Any) -> Any:
        optimizer = args[0]

        def call_pre_hook(hook: Hook, args_kwargs: tuple) -> tuple | None:
            result = hook.fn(optimizer, *args_kwargs)
            if result is not None and not (isinstance(result, tuple) and len(result) == 2):
                raise RuntimeError(f"{step} must return None or a tuple of (new_args, "
                                   f"new_kwargs), but got {result}.")
            return result

        args, kwargs = call_hooks(
            STEP_PRE_HOOK, optimizer,
            [*hooks_in(_global_optimizer_pre_hooks, is_global=True),
             *hooks_in(optimizer._optimizer_step_pre_hooks)], (args, kwargs), call_pre_hook)
        out = step(*args, **kwargs)
        call_hooks(STEP_POST_HOOK, optimizer,  # on the way out, the optimiser's own first
                   [*hooks_in(optimizer._optimizer_step_post_hooks),
                    *hooks_in(_global_optimizer_post_hooks, is_global=True)], (args, kwargs),
                   lambda hook, args_kwargs: hook.fn(optimizer, *args_kwargs))
        return out

    # PyTorch's own mark (``hooked``, set by ``Optimizer.profile_hook_step``): a class's
    # ``step`` is wrapped once.
    hooked_step.hooked = True  # type: ignore[attr-defined]
    return hooked_step


class Optimizer:
    """Subclasses pass their options as ``defaults`` and define ``step``."""

    # Options a checkpoint from an older PyTorch may lack, and the value they then take.
    _OPTIONS_ADDED_SINCE: dict[str, Any] = {}
    # Whether each parameter's state counts its steps in ``state["step"]`` (Adam, RMSprop,
    # Adagrad do; SGD does not): see ``_new_step_count`` and ``_count_step``.
    _COUNTS_STEPS = False

    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]]
                 | Iterable[tuple[str, Tensor]], defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        for name, hooks in hook_dicts("optimizer").items():
            setattr(self, name, hooks)
        # PyTorch wraps a class's ``step`` the first time one is made, so that a subclass a
        # user writes gets the hooks without calling anything.
        if not getattr(type(self).step, "hooked", False):
            type(self).step = _with_step_hooks(type(self).step)
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + typename(params))
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self) -> dict[str, Any]:
        """What pickling (``torch.save(optimizer)``, ``copy.deepcopy``) keeps: the options,
        the state and the groups; hooks are not saved, as for tensors and modules."""
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickling, and the end of ``load_state_dict``: state from an older checkpoint
        brought up to date. Each group gets the options added since
        (``_OPTIONS_ADDED_SINCE``), and an optimiser that counts steps turns a ``step``
        saved as a number (before PyTorch 1.12) into a tensor. PyTorch writes these two
        loops out in each optimiser's ``__setstate__``; they are the same loop each time,
        so here they are written once, and a subclass only names its options."""
        self.__dict__.update(state)
        for name, hooks in hook_dicts("optimizer").items():
            self.__dict__.setdefault(name, hooks)
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:
            for name, value in self._OPTIONS_ADDED_SINCE.items():
                group.setdefault(name, value)
            if not self._COUNTS_STEPS:
                continue
            for param in group["params"]:
                param_state = self.state.get(param, {})
                if param_state and not isinstance(param_state["step"], Tensor):
                    param_state["step"] = _new_step_count(param_state["step"])

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group; the options it does not set are taken from ``defaults``.

        ``params`` may be ``(name, tensor)`` pairs, as ``named_parameters()`` gives: the
        names are kept as the group's ``param_names`` and saved in the state dict, so that
        a load pre-hook can match parameters by name. A group's parameters are all named or
        all unnamed, and so are an optimiser's groups.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.Optimizer.add_param_group.html>
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        params = [params] if isinstance(params, Tensor) else list(params)
        names = [param[0] for param in params if isinstance(param, tuple)]
        param_group["params"] = [param[1] if isinstance(param, tuple) else param
                                 for param in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some "
                                 "param names are missing")
            param_group["param_names"] = names
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + typename(param))
            # PyTorch lets a differentiable optimiser update non-leaf tensors; here it is
            # refused anyway, with an error that says why (_check_implementation_options).
            if not self.defaults.get("differentiable") and not (param.is_leaf
                                                                or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        for group in self.param_groups:
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        if any(i in seen for i in ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # -- hooks -------------------------------------------------------------------------------
    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(optimizer, args, kwargs)`` before each ``step``; returning
        ``(new_args, new_kwargs)`` replaces what ``step`` gets.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.Optimizer.register_step_pre_hook.html>
        """
        return add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(optimizer, args, kwargs)`` after each ``step``: the parameters are updated,
        so this is where to measure what the step did.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.Optimizer.register_step_post_hook.html>
        """
        return add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable, prepend: bool = False
                                     ) -> RemovableHandle:
        """``hook(optimizer)`` before ``state_dict`` packs the state."""
        return add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend=prepend)

    def register_state_dict_post_hook(self, hook: Callable, prepend: bool = False
                                      ) -> RemovableHandle:
        """``hook(optimizer, state_dict)`` after ``state_dict``; a returned dict replaces it."""
        return add_hook(self._optimizer_state_dict_post_hooks, hook, prepend=prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable, prepend: bool = False
                                          ) -> RemovableHandle:
        """``hook(optimizer, state_dict)`` with a shallow copy of what ``load_state_dict``
        got, before it is checked; a returned dict is loaded instead."""
        return add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend=prepend)

    def register_load_state_dict_post_hook(self, hook: Callable, prepend: bool = False
                                           ) -> RemovableHandle:
        """``hook(optimizer)`` once ``load_state_dict`` has loaded everything."""
        return add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend=prepend)

    # -- state dict --------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """``{"state": ..., "param_groups": ...}`` with each parameter replaced by its
        index, counted across the groups in order: a checkpoint cannot hold the parameter
        objects, and the indices match the parameters of an optimiser built the same way.
        The state's tensors are the optimiser's own, not copies (``torch.save`` copies).
        See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.Optimizer.state_dict.html>
        """
        call_hooks(OPTIMIZER_STATE_DICT_PRE_HOOK, self,
                   hooks_in(self._optimizer_state_dict_pre_hooks), None,
                   lambda hook, _: hook.fn(self))
        index: dict[int, int] = {}
        param_groups = []
        for group in self.param_groups:
            for param in group["params"]:
                index.setdefault(id(param), len(index))
            packed = {key: value for key, value in group.items() if key != "params"}
            packed["params"] = [index[id(param)] for param in group["params"]]
            param_groups.append(packed)
        state = {index[id(key)] if isinstance(key, Tensor) else key: value
                 for key, value in self.state.items()}
        state_dict = {"state": state, "param_groups": param_groups}
        return call_hooks(OPTIMIZER_STATE_DICT_POST_HOOK, self,
                          hooks_in(self._optimizer_state_dict_post_hooks), state_dict,
                          lambda hook, state_dict: hook.fn(self, state_dict))

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the state and the group options from a ``state_dict``: saved index ``i``
        becomes this optimiser's ``i``-th parameter, without checking more than the group
        sizes (PyTorch checks no more). Tensors in the state take the parameter's dtype,
        except ``step``.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.Optimizer.load_state_dict.html>
        """
        state_dict = state_dict.copy()  # shallow, as Module.load_state_dict: hooks may edit it
        state_dict = call_hooks(OPTIMIZER_LOAD_STATE_DICT_PRE_HOOK, self,
                                hooks_in(self._optimizer_load_state_dict_pre_hooks),
                                state_dict, lambda hook, state_dict: hook.fn(self, state_dict))
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(self.param_groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(group["params"]) != len(saved["params"])
               for group, saved in zip(self.param_groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        params_by_index = dict(zip(
            itertools.chain.from_iterable(saved["params"] for saved in saved_groups),
            itertools.chain.from_iterable(group["params"] for group in self.param_groups)))
        state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in params_by_index:
                param = params_by_index[key]
                state[param] = _cast_state(param, value)
            else:  # state kept by key, as PyTorch keeps it, for old checkpoints
                state[key] = value
        for group, saved in zip(self.param_groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.__setstate__({"state": state, "param_groups": saved_groups})
        call_hooks(OPTIMIZER_LOAD_STATE_DICT_POST_HOOK, self,
                   hooks_in(self._optimizer_load_state_dict_post_hooks), None,
                   lambda hook, _: hook.fn(self))

    # -- stepping ----------------------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients before the next ``backward`` (which would add to them).

        ``set_to_none`` (the default) drops them: less memory, and a parameter that gets no
        gradient next time is skipped by ``step`` instead of updated with zeros.
        """
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is None:
                    continue
                if set_to_none:
                    param.grad = None
                else:
                    if param.grad.grad_fn is not None:
                        param.grad.detach_()
                    else:
                        param.grad.requires_grad_(False)
                    param.grad.zero_()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Perform one update; each optimiser defines it."""
        raise NotImplementedError

    def _update_each(self, closure: Callable[[], Any] | None) -> Any:
        """The body of each built-in optimiser's ``step``: update every parameter that has a
        ``.grad``. ``closure``, if given, recomputes the loss (with gradients enabled) and
        its result is returned."""
        for group in self.param_groups:  # before any change, for any group added since
            self._refuse_what_is_not_implemented(group)
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is not None:
                    self._update(param, group)
        return loss

    def _update(self, param: Tensor, group: dict[str, Any]) -> None:
        """One parameter's update: what each optimiser defines."""
        raise NotImplementedError

    @staticmethod
    def _count_step(state: dict[str, Any]) -> float:
        """Add one to a parameter's ``state["step"]`` and return the new count, the ``t``
        of the bias corrections and decays (counted from 1). The count is a tensor, as
        PyTorch keeps it, and is incremented in place."""
        state["step"] += 1
        return state["step"].item()

    def _check_implementation_options(self) -> None:
        """The end of a subclass's ``__init__``: PyTorch's checks of ``fused``, which it makes
        once the groups are built, then the refusal of what minitorch_hooks cannot do.

        Refused after PyTorch's own checks, so that every error PyTorch raises is raised
        here too, with its type and message; the ``NotImplementedError`` replaces only what
        PyTorch would have accepted.
        """
        if self.defaults.get("fused"):
            if self.defaults.get("differentiable"):
                raise RuntimeError("`fused` does not support `differentiable`")
            if self.defaults.get("foreach"):
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        for group in self.param_groups:
            self._refuse_what_is_not_implemented(group)

    def _refuse_what_is_not_implemented(self, group: dict[str, Any]) -> None:
        """A group's options are read at every step, so one can ask for ``fused`` after the
        optimiser was made (``add_param_group``, or by editing ``param_groups``)."""
        for name, reason in _NOT_IMPLEMENTED.items():
            if group.get(name):
                raise NotImplementedError(
                    f"{type(self).__name__}({name}=True) is not implemented: {reason}")

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(f"    {key}: {group[key]}\n" for key in sorted(group)
                            if key != "params")
        return text + ")"


def _new_step_count(value: float = 0.0) -> Tensor:
    """A parameter's step count as PyTorch keeps it since 1.12: a 0-d float32 tensor, so
    that it can live on the parameter's device (a plain number before, as old checkpoints
    still hold it)."""
    return tensor(float(value))


def _cast_state(param: Tensor, value: Any, key: str | None = None) -> Any:
    """A loaded state value for ``param``: its tensors converted to the parameter's dtype
    (a float64 model resumes with float64 buffers), except ``step``, a count; dicts and
    sequences are walked. A tensor already of that dtype is kept, not copied."""
    if isinstance(value, Tensor):
        if key == "step" or not param.is_floating_point():
            return value
        return value.to(dtype=param.dtype)
    if isinstance(value, dict):
        return {k: _cast_state(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_state(param, v) for v in value)
    return value
