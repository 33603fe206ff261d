"""Helpers shared across the package, as in ``torch.utils``."""

from __future__ import annotations

import gc
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
    ``AccumulateGrad`` node gets a pre-hook that raises. PyTorch refuses when anything else
    could see the change: a weak reference, a view, or a graph that saved the tensor (a
    module converted between forward and backward).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.utils.swap_tensors.html>
    """
    if weakref.getweakrefs(t1):
        raise RuntimeError("Cannot swap t1 because it has weakref associated with it")
    if weakref.getweakrefs(t2):
        raise RuntimeError("Cannot swap t2 because it has weakref associated with it")
    if t1 is t2:
        return
    accumulators = [_check_use_count(t1, "t1"), _check_use_count(t2, "t2")]
    for accumulator in accumulators:
        if accumulator is not None:
            accumulator.register_prehook(_refuse_poisoned)
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
    for name in _TENSOR_STATE:
        first, second = getattr(t1, name), getattr(t2, name)
        setattr(t1, name, second)
        setattr(t2, name, first)


def _check_use_count(tensor: Any, name: str) -> Any:
    """PyTorch refuses to swap a tensor that something besides its Python object and its
    ``AccumulateGrad`` node holds: a graph that saved it, or a view of it. Here those are
    the saved tensors and the views that refer to it. Returns the live ``AccumulateGrad``."""
    ref = tensor._grad_accumulator
    accumulator = ref() if ref is not None else None
    held = sum(1 for holder in gc.get_referrers(tensor) if _holds(holder, tensor))
    count = 1 + held + (accumulator is not None)
    if count == 2 and accumulator is None and tensor.is_leaf and not tensor.requires_grad:
        # PyTorch looks for the AccumulateGrad node, which such a tensor cannot have
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that "
                           "does not require gradients")
    if count > 2 or (count == 2 and accumulator is None):
        raise RuntimeError(f"Expected use_count of {name} to be 1 or 2 with an AccumulateGrad "
                           f"node but got {count} make sure you are not holding references "
                           "to the tensor in other places.")
    return accumulator


def _holds(holder: Any, tensor: Any) -> bool:
    """Whether ``holder`` is a saved tensor of ``tensor`` or a view of it (or the
    attribute dictionary of such a view, which is what refers to it once it exists)."""
    if isinstance(holder, dict):
        return holder.get("_base") is tensor
    return getattr(holder, "_tensor", None) is tensor or getattr(holder, "_base", None) is tensor


def _refuse_poisoned(grad_outputs: Any) -> None:
    raise RuntimeError(_POISONED)
