"""Helpers shared across the package, as in ``torch.utils``."""

from __future__ import annotations

import weakref
from typing import Any

_POISONED = ("Trying to execute AccumulateGrad node that was poisoned by swap_tensors this can "
             "happen when you try to run backward on a tensor that was swapped. For a module m "
             "with `torch.__future__.set_swap_module_params_on_conversion(True)` you should not "
             "change the device or dtype of the module (e.g. `m.cpu()` or `m.half()`) between "
             "running forward and backward. To resolve this, please only change the "
             "device/dtype before running forward (or after both forward and backward).")

# Everything a tensor is: its values, autograd state and version (slots), and the rest
# (gradient, hooks, grad accumulator, user attributes) in its ``__dict__``.
_TENSOR_STATE = ("_data", "_requires_grad", "_grad_fn", "_version_counter", "__dict__")


def swap_tensors(t1: Any, t2: Any) -> None:
    """Swap the whole content of two tensors, so that ``t1`` becomes what ``t2`` was while
    every reference to the object ``t1`` stays valid (a module's, an optimiser's).

    The hooks go with the content, so hooks registered on ``t1`` no longer fire for it. A
    graph recorded before the swap can no longer deliver a gradient to the leaf: its
    ``AccumulateGrad`` node gets a pre-hook that raises. A weak reference to either tensor
    could see the change, so PyTorch refuses then.
    See https://docs.pytorch.org/docs/2.13/generated/torch.utils.swap_tensors.html
    """
    if weakref.getweakrefs(t1):
        raise RuntimeError("Cannot swap t1 because it has weakref associated with it")
    if weakref.getweakrefs(t2):
        raise RuntimeError("Cannot swap t2 because it has weakref associated with it")
    if t1 is t2:
        return
    for tensor in (t1, t2):
        accumulator = tensor._grad_accumulator() if tensor._grad_accumulator else None
        if accumulator is not None:
            accumulator.register_prehook(_refuse_poisoned)
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
    for name in _TENSOR_STATE:
        first, second = getattr(t1, name), getattr(t2, name)
        setattr(t1, name, second)
        setattr(t2, name, first)


def _refuse_poisoned(grad_outputs: Any) -> None:
    raise RuntimeError(_POISONED)
