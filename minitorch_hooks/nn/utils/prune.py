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

``remove(module, "weight")`` makes it permanent: ``weight`` is a parameter again, holding
the masked values, and the hook, ``weight_orig`` and ``weight_mask`` are gone.
See https://pytorch.org/tutorials/intermediate/pruning_tutorial.html and
<https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.l1_unstructured.html>
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from ..._creation import ones_like, rand_like
from ..._tensor import Tensor
from ..modules.module import Module

__all__ = ["BasePruningMethod", "L1Unstructured", "RandomUnstructured", "is_pruned",
           "l1_unstructured", "random_unstructured", "remove"]


class BasePruningMethod(ABC):
    """A way of choosing a mask; an instance is also the forward pre-hook that applies it."""

    _tensor_name: str

    def __call__(self, module: Module, inputs: tuple) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The mask for ``t``: ``default_mask`` with the entries to prune set to 0."""

    def apply_mask(self, module: Module) -> Tensor:
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module: Module, name: str, *args: Any,
              importance_scores: Tensor | None = None, **kwargs: Any) -> BasePruningMethod:
        """Re-parametrise ``module.<name>`` as described at the top of this file."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                raise NotImplementedError(
                    f"'{name}' is already pruned: PyTorch would combine both methods in a "
                    "PruningContainer, which minitorch_hooks does not implement")
        method = cls(*args, **kwargs)
        method._tensor_name = name
        orig = getattr(module, name)
        if importance_scores is None:
            importance_scores = orig
        elif importance_scores.shape != orig.shape:
            raise AssertionError(f"importance_scores should have the same shape as parameter "
                                 f"{name} of {module}, got {importance_scores.shape} vs "
                                 f"{orig.shape}")
        module.register_parameter(name + "_orig", orig)
        del module._parameters[name]
        try:
            mask = method.compute_mask(importance_scores, default_mask=ones_like(orig))
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:  # leave the module as it was
            module.register_parameter(name, orig)
            del module._parameters[name + "_orig"]
            raise
        return method

    def remove(self, module: Module) -> None:
        """Make the pruning permanent: ``<name>`` becomes a parameter again, masked."""
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _validate_pruning_amount_init(amount: Any) -> None:
    """An int is a number of entries, a float a fraction of them."""
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (isinstance(amount, numbers.Integral) and amount < 0) or (
            not isinstance(amount, numbers.Integral) and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")


def _compute_nparams_toprune(amount: float, tensor_size: int) -> int:
    if isinstance(amount, numbers.Integral):
        if amount > tensor_size:
            raise ValueError(f"amount={amount} should be smaller than the number of parameters "
                             f"to prune={tensor_size}")
        return int(amount)
    return round(amount * tensor_size)


def _zero_lowest(default_mask: Tensor, scores: np.ndarray, count: int) -> Tensor:
    """A copy of ``default_mask`` with 0 where ``scores`` has its ``count`` lowest values
    (PyTorch picks them with ``topk(largest=False)``)."""
    mask = default_mask.clone()
    lowest = np.argsort(scores.reshape(-1), kind="stable")[:count]
    mask._data.reshape(-1)[lowest] = 0
    return mask


class L1Unstructured(BasePruningMethod):
    """Prune the ``amount`` entries of smallest absolute value."""

    def __init__(self, amount: float) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        count = _compute_nparams_toprune(self.amount, t.numel())
        return _zero_lowest(default_mask, np.abs(t._data), count)


class RandomUnstructured(BasePruningMethod):
    """Prune ``amount`` entries chosen at random: those where ``rand_like`` drew the largest
    numbers, so a seeded run prunes the same entries as PyTorch."""

    def __init__(self, amount: float) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        count = _compute_nparams_toprune(self.amount, t.numel())
        if count == 0:  # PyTorch draws no random numbers then
            return default_mask.clone()
        return _zero_lowest(default_mask, -rand_like(t)._data, count)


def l1_unstructured(module: Module, name: str, amount: float,
                    importance_scores: Tensor | None = None) -> Module:
    """Prune ``module.<name>``'s ``amount`` smallest entries (by ``|importance_scores|``,
    by default the entries themselves); an int counts entries, a float is a fraction."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_unstructured(module: Module, name: str, amount: float) -> Module:
    """Prune ``amount`` randomly chosen entries of ``module.<name>``."""
    RandomUnstructured.apply(module, name, amount=amount)
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
