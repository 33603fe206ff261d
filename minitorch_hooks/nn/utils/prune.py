"""Pruning: zero a fraction of a layer's weights, as ``torch.nn.utils.prune`` does it.

Pruning is a real-world use of a forward pre-hook. ``l1_unstructured(module, "weight",
amount=0.3)`` does not change the weights; it re-parametrises them:

* the trained values move to a new parameter ``weight_orig`` (the optimiser keeps
  updating it, including the pruned entries);
* a buffer ``weight_mask`` of 0s and 1s marks what is kept (it is saved in the
  ``state_dict``);
* ``module.weight`` becomes a plain attribute, ``weight_orig * weight_mask``, and the
  pruning method itself is registered as a forward pre-hook that recomputes it before
  every forward, so the product is part of each new graph and the pruned entries get a
  gradient of 0 through the mask.

Pruning the same tensor again prunes what is still kept: the two methods are combined in
a ``PruningContainer``, which replaces the first hook (it is removed and the container
registered, so it moves to the end of the pre-hooks), and the new mask is computed on the
entries (``unstructured``), the channels (``structured``) or the whole tensor (``global``)
that the old mask kept. A method of one's own subclasses ``BasePruningMethod`` with a
``PRUNING_TYPE`` and a ``compute_mask``.

``remove(module, "weight")`` makes it permanent: ``weight`` is a parameter again, holding
the masked values, and the hook, ``weight_orig`` and ``weight_mask`` are gone.
See https://pytorch.org/tutorials/intermediate/pruning_tutorial.html and
<https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.l1_unstructured.html>
"""

from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from ..._creation import ones_like, rand, rand_like, zeros_like
from ..._tensor import Tensor
from ..modules.module import Module
from .convert_parameters import parameters_to_vector

__all__ = ["BasePruningMethod", "CustomFromMask", "Identity", "L1Unstructured", "LnStructured",
           "PruningContainer", "RandomStructured", "RandomUnstructured", "custom_from_mask",
           "global_unstructured", "identity", "is_pruned", "l1_unstructured", "ln_structured",
           "random_structured", "random_unstructured", "remove"]


class BasePruningMethod(ABC):
    """A way of choosing a mask; an instance is also the forward pre-hook that applies it.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.BasePruningMethod.html>
    """

    _tensor_name: str

    def __call__(self, module: Module, inputs: tuple) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The mask for ``t``: ``default_mask`` with the entries to prune set to 0."""

    def apply_mask(self, module: Module) -> Tensor:
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module: Module, name: str, *args: Any,
              importance_scores: Tensor | None = None, **kwargs: Any) -> BasePruningMethod:
        """Re-parametrise ``module.<name>`` as described at the top of this file."""
        method = _composite_method(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is None:
            importance_scores = orig
        elif importance_scores.shape != orig.shape:
            raise AssertionError(f"importance_scores should have the same shape as parameter "
                                 f"{name} of {module}, got {importance_scores.shape} vs "
                                 f"{orig.shape}")
        if not isinstance(method, PruningContainer):
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = ones_like(orig)
        else:  # pruned before: start from the mask in place
            default_mask = getattr(module, name + "_mask").detach().clone()
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:  # a first pruning leaves the module as it was
            if not isinstance(method, PruningContainer):
                orig = getattr(module, name + "_orig")
                module.register_parameter(name, orig)
                del module._parameters[name + "_orig"]
            raise
        return method

    def prune(self, t: Tensor, default_mask: Tensor | None = None,
              importance_scores: Tensor | None = None) -> Tensor:
        """``t`` times its mask, without touching any module."""
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError("importance_scores should have the same shape as tensor t, "
                                 f"got {importance_scores.shape} vs {t.shape}")
        default_mask = default_mask if default_mask is not None else ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module: Module) -> None:
        """Make the pruning permanent: ``<name>`` becomes a parameter again, masked."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be "
                                 "removed")
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _composite_method(cls: type[BasePruningMethod], module: Module, name: str, *args: Any,
                      **kwargs: Any) -> BasePruningMethod:
    """The new method, or, when ``name`` was pruned before, a container of the old and the
    new one (the old hook is removed: the container will be registered in its place)."""
    old_method = None
    found = 0
    hooks_to_remove = []
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            old_method = hook
            hooks_to_remove.append(key)
            found += 1
    if found > 1:
        raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} "
                             f"of module {module}. Use a PruningContainer.")
    for key in hooks_to_remove:
        del module._forward_pre_hooks[key]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if isinstance(old_method, PruningContainer):
        old_method.add_pruning_method(method)
        method = old_method
    elif old_method is not None:
        container = PruningContainer(old_method)
        container.add_pruning_method(method)
        method = container
    return method


class PruningContainer(BasePruningMethod):
    """The pruning methods applied one after another to one tensor; each new one prunes
    among what the methods before it kept.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.PruningContainer.html>
    """

    def __init__(self, *args: BasePruningMethod) -> None:
        self._pruning_methods: tuple[BasePruningMethod, ...] = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method: BasePruningMethod) -> None:
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self) -> Iterator[BasePruningMethod]:
        return iter(self._pruning_methods)

    def __getitem__(self, idx: int) -> BasePruningMethod:
        return self._pruning_methods[idx]

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The last method's mask, computed on the part of ``t`` that ``default_mask``
        still keeps, and written into a copy of it."""
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        if method.PRUNING_TYPE == "unstructured":
            slc: Any = default_mask == 1
        elif method.PRUNING_TYPE == "structured":
            if not hasattr(method, "dim"):
                raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to '
                                     "have the attribute `dim` defined.")
            n_dims = t.dim()
            dim = method.dim if method.dim >= 0 else n_dims + method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
            keep_channel = default_mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
            slc = [slice(None)] * n_dims
            slc[dim] = keep_channel
            slc = tuple(slc)
        elif method.PRUNING_TYPE == "global":
            slc = tuple([slice(None)] * len(t.shape))
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
        partial_mask = method.compute_mask(t[slc], default_mask=default_mask[slc])
        new_mask[slc] = partial_mask.to(dtype=new_mask.dtype)
        return new_mask


class Identity(BasePruningMethod):
    """Prunes nothing: the module gets the layout of a pruned one, with a mask of ones."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        return default_mask

    @classmethod
    def apply(cls, module: Module, name: str) -> BasePruningMethod:
        return super().apply(module, name)


def _lowest_zeroed(default_mask: Tensor, scores: np.ndarray, count: int) -> Tensor:
    """A copy of ``default_mask`` with 0 where ``scores`` has its ``count`` lowest values
    (PyTorch picks them with ``topk(largest=False)``)."""
    mask = default_mask.clone()
    if count:
        lowest = np.argsort(scores.reshape(-1), kind="stable")[:count]
        mask._data.reshape(-1)[lowest] = 0
    return mask


def _entries_to_prune(t: Tensor, amount: float) -> int:
    """How many of ``t``'s entries an unstructured method prunes: ``amount`` as a count
    (an int) or a fraction (a float), and no more than there are."""
    count = _compute_nparams_toprune(amount, t.numel())
    _validate_pruning_amount(count, t.numel())
    return count


class RandomUnstructured(BasePruningMethod):
    """Prune ``amount`` entries chosen at random: those where ``rand_like`` drew the largest
    numbers, so a seeded run prunes the same entries as PyTorch."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: float) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        count = _entries_to_prune(t, self.amount)
        if count == 0:  # PyTorch draws no random numbers then
            return default_mask.clone()
        return _lowest_zeroed(default_mask, -rand_like(t)._data, count)

    @classmethod
    def apply(cls, module: Module, name: str, amount: float) -> BasePruningMethod:
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    """Prune the ``amount`` entries of smallest absolute value."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: float) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        count = _entries_to_prune(t, self.amount)
        return _lowest_zeroed(default_mask, np.abs(t._data), count)

    @classmethod
    def apply(cls, module: Module, name: str, amount: float,
              importance_scores: Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


def _channels_to_prune(t: Tensor, amount: float, dim: int) -> tuple[int, int]:
    """What both structured methods check before choosing channels, in PyTorch's order: a
    tensor of two or more dimensions, a ``dim`` inside it, an ``amount`` no larger than the
    channels along ``dim``. Returns the number of channels and how many to prune."""
    _validate_structured_pruning(t)
    _validate_pruning_dim(t, dim)
    channels = t.shape[dim]
    count = _compute_nparams_toprune(amount, channels)
    _validate_pruning_amount(count, channels)
    return channels, count


def _channels_mask(t: Tensor, dim: int, kept: np.ndarray, default_mask: Tensor) -> Tensor:
    """Zeros like ``t`` with ones in the ``kept`` channels along ``dim``, times the old mask."""
    mask = zeros_like(t)
    index: list[Any] = [slice(None)] * t.dim()
    index[dim] = kept
    mask._data[tuple(index)] = 1
    mask *= default_mask.to(dtype=mask.dtype)
    return mask


class RandomStructured(BasePruningMethod):
    """Prune ``amount`` channels along ``dim`` at random: ``rand(channels)`` is drawn, and
    the channels whose draw is at most its ``amount``-th smallest go."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: float, dim: int = -1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        channels, count = _channels_to_prune(t, self.amount, self.dim)
        if count == 0:  # PyTorch draws no random numbers then
            return default_mask
        prob = rand(channels)._data
        threshold = np.sort(prob)[count - 1]  # PyTorch: kthvalue(prob, k=count)
        return _channels_mask(t, self.dim, prob > threshold, default_mask)

    @classmethod
    def apply(cls, module: Module, name: str, amount: float,
              dim: int = -1) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prune the ``amount`` channels along ``dim`` of smallest ``n``-norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: float, n: int | float | str, dim: int = -1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        channels, count = _channels_to_prune(t, self.amount, self.dim)
        # The norms come before the count is looked at, as in PyTorch: a bad ``n`` is
        # refused even when nothing is pruned.
        norm = _compute_norm(t, self.n, self.dim)
        if count == 0:
            return default_mask
        # PyTorch: topk(norm, k=channels - count, largest=True).indices
        kept = np.argsort(-norm, kind="stable")[:channels - count]
        return _channels_mask(t, self.dim, kept, default_mask)

    @classmethod
    def apply(cls, module: Module, name: str, amount: float, n: int | float | str, dim: int,
              importance_scores: Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prune where a given ``mask`` is 0."""

    PRUNING_TYPE = "global"

    def __init__(self, mask: Tensor) -> None:
        self.mask = mask

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        if default_mask.shape != self.mask.shape:
            raise AssertionError(f"default_mask shape {default_mask.shape} must match "
                                 f"self.mask shape {self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module: Module, name: str, mask: Tensor) -> BasePruningMethod:
        return super().apply(module, name, mask=mask)


def identity(module: Module, name: str) -> Module:
    """Give ``module.<name>`` the pruned layout with a mask of ones."""
    Identity.apply(module, name)
    return module


def random_unstructured(module: Module, name: str, amount: float) -> Module:
    """Prune ``amount`` randomly chosen entries of ``module.<name>``."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module: Module, name: str, amount: float,
                    importance_scores: Tensor | None = None) -> Module:
    """Prune ``module.<name>``'s ``amount`` smallest entries (by ``|importance_scores|``,
    by default the entries themselves); an int counts entries, a float is a fraction."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: Module, name: str, amount: float, dim: int) -> Module:
    """Prune ``amount`` randomly chosen channels of ``module.<name>`` along ``dim``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.random_structured.html>
    """
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module: Module, name: str, amount: float, n: int | float | str, dim: int,
                  importance_scores: Tensor | None = None) -> Module:
    """Prune the ``amount`` channels of ``module.<name>`` along ``dim`` of lowest n-norm.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.ln_structured.html>
    """
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters: Iterable[tuple[Module, str]], pruning_method: type,
                        importance_scores: dict | None = None, **kwargs: Any) -> None:
    """Prune the given tensors together, as one vector: ``l1_unstructured`` this way prunes
    the smallest entries of the whole model, not the same fraction of each layer. Each
    tensor is then pruned with its share of the mask (``custom_from_mask``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.global_unstructured.html>
    """
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    relevant_importance_scores = parameters_to_vector([
        importance_scores.get((module, name), getattr(module, name))
        for module, name in parameters])
    default_mask = parameters_to_vector([
        getattr(module, name + "_mask", ones_like(getattr(module, name)))
        for module, name in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    final_mask = container.compute_mask(relevant_importance_scores, default_mask)
    pointer = 0
    for module, name in parameters:
        param = getattr(module, name)
        num_param = param.numel()
        custom_from_mask(module, name,
                         mask=final_mask[pointer:pointer + num_param].view_as(param))
        pointer += num_param


def custom_from_mask(module: Module, name: str, mask: Tensor) -> Module:
    """Prune ``module.<name>`` where ``mask`` is 0."""
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module: Module, name: str) -> Module:
    """Make the pruning of ``module.<name>`` permanent and remove its forward pre-hook."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     "can be removed")


def is_pruned(module: Module) -> bool:
    """Whether ``module`` or any module inside it carries a pruning pre-hook."""
    return any(isinstance(hook, BasePruningMethod)
               for _, submodule in module.named_modules()
               for hook in submodule._forward_pre_hooks.values())


def _validate_pruning_amount_init(amount: Any) -> None:
    """An int is a number of entries, a float a fraction of them."""
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (isinstance(amount, numbers.Integral) and amount < 0) or (
            not isinstance(amount, numbers.Integral) and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")


def _validate_pruning_amount(amount: int, tensor_size: int) -> None:
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters "
                         f"to prune={tensor_size}")


def _validate_structured_pruning(t: Tensor) -> None:
    shape = t.shape
    if len(shape) <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. "
                         f"Found tensor of shape {shape} with {len(shape)} dims")


def _compute_nparams_toprune(amount: float, tensor_size: int) -> int:
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


def _validate_pruning_dim(t: Tensor, dim: int) -> None:
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _compute_norm(t: Tensor, n: int | float | str, dim: int) -> np.ndarray:
    """``torch.norm(t, p=n, dim=<every dim but dim>)``: one norm per channel."""
    data = np.abs(t._data).astype(np.float64)
    axes = tuple(d for d in range(data.ndim) if d != dim % data.ndim)
    if isinstance(n, str):  # a matrix norm: PyTorch hands it to linalg.matrix_norm
        if n not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {n} not supported.")
        # "fro" is the 2-norm over up to two dimensions; "nuc" needs exactly two
        if len(axes) > 2 or (n == "nuc" and len(axes) != 2):
            raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                               + " ".join(map(str, axes)))
        if n == "nuc":  # the sum of singular values, which the signs change
            return np.linalg.norm(t._data.astype(np.float64), "nuc", axis=axes)
        n = 2
    if n == math.inf:
        return data.max(axis=axes)
    if n == -math.inf:
        return data.min(axis=axes)
    if n == 0:
        return (data != 0).sum(axis=axes).astype(np.float64)
    return (data ** n).sum(axis=axes) ** (1 / n)

