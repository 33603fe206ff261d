"""Parametrizations: a module's tensor computed by other modules from the tensors it stores.

``register_parametrization(module, "weight", P)`` keeps the weight's values as
``module.parametrizations.weight.original`` (a parameter of a new ``ParametrizationList``
inside a ``ModuleDict`` called ``parametrizations``), and makes ``module.weight`` a
*property* that returns ``P(original)`` each time it is read. So a state dict holds
``parametrizations.weight.original`` where it held ``weight``, the optimiser trains
``original``, and every read of ``weight`` records a new graph through ``P``.

A property can only be defined on a class, so the module's class is replaced by a subclass
made for it, ``Parametrized<Name>`` (its ``__getstate__`` refuses pickling: only the state
dict can be saved). Several parametrizations on one tensor are applied in the order they
were registered. A parametrization may define ``right_inverse``: it is applied to the
current value when registering (the stored ``original`` is then ``right_inverse(weight)``),
and assigning ``module.weight = X`` stores ``right_inverse(X)``. A ``right_inverse`` that
returns several tensors stores them as ``original0``, ``original1``...; the forward then
takes them all (``weight_norm`` stores its magnitude and direction so).

Unlike the legacy ``weight_norm`` (a forward pre-hook that recomputes the weight once per
forward), the weight is recomputed on every read: inside ``with cached():`` each
parametrized tensor is computed once and reused until the block ends.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrize.register_parametrization.html>
and the tutorial <https://docs.pytorch.org/tutorials/intermediate/parametrizations.html>
"""

from __future__ import annotations

import collections.abc
import copyreg
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from copy import deepcopy
from typing import Any

from ... import __future__ as future
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ...utils import swap_tensors
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["ParametrizationList", "cached", "is_parametrized", "register_parametrization",
           "remove_parametrizations", "transfer_parametrizations_and_params",
           "type_before_parametrizations"]

_cache_enabled = 0
_cache: dict[tuple[int, str], Tensor | None] = {}


@contextmanager
def cached() -> Iterator[None]:
    """Inside the block, each parametrized tensor is computed at its first read and the
    same tensor returned after: a module that reads its weight several times per forward
    (an RNN, over its time steps) pays for the parametrization once. Blocks nest; the
    cache is emptied when the outermost one ends.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrize.cached.html>
    """
    global _cache, _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, value: Tensor) -> None:
    if isinstance(value, Parameter):
        module.register_parameter(name, value)
    else:
        module.register_buffer(name, value)


def _maybe_set(dest: Tensor, src: Tensor) -> None:
    """``dest.set_(src)``: ``dest``, the same object, now holds ``src``'s memory (its
    version goes up, as for any in-place change); with the swap switch of
    ``torch.__future__`` on, the two tensors' contents are swapped instead."""
    if future.get_swap_module_params_on_conversion():
        if isinstance(dest, Parameter) and not isinstance(src, Parameter):
            src = Parameter(src, requires_grad=dest.requires_grad)
        swap_tensors(dest, src)
    else:
        dest._data = src._data
        dest._version_counter[0] += 1


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, and the tensor(s) they start from: ``original``,
    or ``original0``, ``original1``... when a ``right_inverse`` returned several.

    Made by ``register_parametrization``; its forward chains the parametrizations.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrize.ParametrizationList.html>
    """

    original: Tensor
    unsafe: bool

    def __init__(self, modules: Sequence[Module], original: Tensor,
                 unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, Tensor) and not isinstance(new, Sequence):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                             f"(list, tuple...). Got {type(new).__name__}")
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\n"
                    f"right_inverse(original).dtype: {new.dtype}")
            with no_grad():  # even with ``new`` the original itself (its version goes up)
                _maybe_set(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, Tensor):
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors (list, "
                        f"tuple...). Got element {i} of the sequence with type "
                        f"{type(originali).__name__}.")
                if isinstance(original, Parameter):
                    originali = Parameter(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)
        if not self.unsafe:
            z = self()
            if not isinstance(z, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got "
                                 f"{type(z).__name__}.")
            if z.dtype != original_dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized dtype: {original_dtype}\nparametrized dtype: {z.dtype}")
            if z.shape != original_shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized shape: {original_shape}\nparametrized shape: {z.shape}")

    def right_inverse(self, value: Tensor) -> None:
        """Store ``value`` by calling each parametrization's ``right_inverse``, last first:
        what ``module.<name> = value`` does."""
        with no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(f"parametrization {type(module).__name__} does not "
                                       "implement right_inverse.")
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise ValueError("`right_inverse` should return a tensor. Got "
                                     f"{type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise ValueError(f"The tensor returned by `right_inverse` has dtype "
                                     f"{value.dtype} while `original` has dtype "
                                     f"{self.original.dtype}")
                _maybe_set(self.original, value)
                return
            if not isinstance(value, collections.abc.Sequence):
                raise ValueError("'right_inverse' must return a sequence of tensors. Got "
                                 f"{type(value).__name__}.")
            if len(value) != self.ntensors:
                raise ValueError("'right_inverse' must return a sequence of tensors of length "
                                 f"{self.ntensors}. Got a sequence of length {len(value)}.")
            for i, tensor in enumerate(value):
                original_i = getattr(self, f"original{i}")
                if not isinstance(tensor, Tensor):
                    raise ValueError("'right_inverse' must return a sequence of tensors or "
                                     "reference-type opaques. Got element "
                                     f"{i} of type {type(tensor).__name__}.")
                if original_i.dtype != tensor.dtype:
                    raise ValueError(f"Tensor {i} returned by `right_inverse` has dtype "
                                     f"{tensor.dtype} while `original{i}` has dtype "
                                     f"{original_i.dtype}")
                _maybe_set(original_i, tensor)

    def forward(self) -> Tensor:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        index = 1
        while hasattr(self, str(index)):  # the others, each on the result of the last
            x = self[index](x)
            index += 1
        return x


def _refuse_pickling(self: Module) -> None:
    raise RuntimeError(
        "Serialization of parametrized modules is only supported through state_dict(). "
        "See:\nhttps://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")


def _default_deepcopy(self: Module, memo: dict) -> Module:
    """``copy.deepcopy`` of a parametrized module, which ``__getstate__`` would refuse."""
    obj = memo.get(id(self), None)
    if obj is not None:
        return obj
    replica = self.__new__(self.__class__)
    memo[id(self)] = replica
    replica.__dict__ = deepcopy(self.__dict__, memo)
    for slot in copyreg._slotnames(self.__class__):
        if hasattr(self, slot):
            setattr(replica, slot, deepcopy(getattr(self, slot), memo))
    return replica


def _inject_new_class(module: Module) -> None:
    """Give ``module`` a class of its own, ``Parametrized<Name>``, to hold the properties."""
    cls = module.__class__
    namespace: dict[str, Any] = {"__getstate__": _refuse_pickling}
    if not hasattr(cls, "__deepcopy__"):
        namespace["__deepcopy__"] = _default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), namespace)


def _inject_property(module: Module, tensor_name: str) -> None:
    """``module.<tensor_name>``: computed by the parametrizations when read (or taken from
    the cache), stored through their ``right_inverse`` when assigned."""
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")

    def get_cached_parametrization(parametrization: ParametrizationList) -> Tensor:
        key = (id(module), tensor_name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = parametrization()
            _cache[key] = tensor
        return tensor

    def get_parametrized(self: Module) -> Tensor:
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            return get_cached_parametrization(parametrization)
        return parametrization()

    def set_original(self: Module, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Make ``module.<tensor_name>`` the output of ``parametrization`` (added after those
    already there), as described at the top of this file. Unless ``unsafe``, the result
    must keep the tensor's shape and dtype, checked now.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrize.register_parametrization.html>
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_added_parametrization(module, tensor_name, parametrization)
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    return module


def _check_added_parametrization(module: Module, tensor_name: str,
                                 parametrization: Module) -> None:
    """A second parametrization must keep the dtype and shape, as must its inverse."""
    y = getattr(module, tensor_name)
    x = parametrization(y)
    if not isinstance(x, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(x).__name__}.")
    for what, mine, theirs in (("dtype", x.dtype, y.dtype), ("shape", x.shape, y.shape)):
        if mine != theirs:
            raise ValueError(
                f"Registering a parametrization may not change the {what} of the tensor, "
                f"unless the `unsafe` flag is enabled.\nmodule.{tensor_name}.{what}: "
                f"{theirs}\nparametrization(module.{tensor_name}).{what}: {mine}")
    if not hasattr(parametrization, "right_inverse"):
        return
    try:
        z = parametrization.right_inverse(x)
    except NotImplementedError:
        return
    if not isinstance(z, Tensor):
        raise ValueError("parametrization.right_inverse must return a tensor. Got: "
                         f"{type(z).__name__}")
    for what, mine, theirs in (("dtype", z.dtype, y.dtype), ("shape", z.shape, y.shape)):
        if mine != theirs:
            raise ValueError(
                "The tensor returned by parametrization.right_inverse must have the same "
                f"{what} as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                f"module.{tensor_name}.{what}: {theirs}\nreturned {what}: {mine}")


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has a parametrization (on ``tensor_name``, if given).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrize.is_parametrized.html>
    """
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module: Module, tensor_name: str,
                            leave_parametrized: bool = True) -> Module:
    """Undo ``register_parametrization``: ``<tensor_name>`` is a parameter (or buffer) again,
    holding its parametrized value (``leave_parametrized``) or ``original``; the module
    gets its own class back when no parametrization is left.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrize.remove_parametrizations.html>
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
                _maybe_set(original, t)
    elif leave_parametrized:
        t = getattr(module, tensor_name)
        original = Parameter(t) if t.requires_grad else t
    else:
        raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                         "that is parametrized in terms of a sequence of tensors.")
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before ``register_parametrization`` replaced it."""
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(from_module: Module, to_module: Module,
                                         tensor_name: str | None = None) -> Module:
    """Register ``from_module``'s parametrizations (of ``tensor_name``, or all) on
    ``to_module``, sharing their ``original`` tensors."""
    if not is_parametrized(from_module):
        return to_module
    names = from_module.parametrizations if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        for param_func in from_module.parametrizations[name]:
            register_parametrization(to_module, name, param_func)
        source = from_module.parametrizations[name]
        if hasattr(source, "original"):
            to_module.parametrizations[name].original = source.original
        else:
            num = 0
            while hasattr(source, f"original{num}"):
                setattr(to_module.parametrizations[name], f"original{num}",
                        getattr(source, f"original{num}"))
                num += 1
    return to_module
