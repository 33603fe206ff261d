"""``out=``: an operation's result written into a tensor the caller gives.

``torch.mul(a, b, out=buffer[:n])`` computes ``a * b`` and writes it into the memory of
``buffer`` (TorchCAM fills its batches of masked inputs so). PyTorch's rules, in its order:

* with grad mode on, no argument (``out`` included) may require grad: a result written into
  existing memory has no graph, so PyTorch refuses rather than return something that looks
  differentiable;
* the result's dtype must be castable to ``out``'s (float into int is refused; int into
  float is fine, as a copy would do);
* ``out`` of another shape is resized, with a deprecation warning unless it was empty
  (here only a tensor that is not a view can be resized);
* ``out`` may not repeat one memory location (an expanded tensor), as for every in-place
  write; its version goes up, and the call returns ``out`` itself.

Only the functions that say so take ``out=`` here (``torch.mul``); the methods never do, in
PyTorch either.
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#in-place-operations-with-autograd>
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.grad_mode import _State, no_grad
from ..utils.hooks import type_name
from . import pointwise
from ._record import any_requires_grad
from .inplace import bump_version, check_no_internal_overlap

_RESIZED = ("An output with one or more elements was resized since it had shape {old}, which "
            "does not match the required output shape {new}. This behavior is deprecated, and "
            "in a future PyTorch release outputs will not be resized unless they have zero "
            "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to "
            "zero elements with t.resize_(0). (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def _can_cast(source: np.dtype, target: np.dtype) -> bool:
    """PyTorch's ``canCast``: not a float into an integer, not a number into a bool."""
    if source.kind == "f" and target.kind in "iub":
        return False
    return not (source.kind != "b" and target.kind == "b")


def written_to_out(name: str, out: Any, inputs: tuple, compute: Callable[[], Tensor]
                   ) -> Tensor:
    """``compute()`` (the operation without ``out``) written into ``out``, by PyTorch's
    rules above; ``inputs`` are the operation's arguments, checked for requiring grad."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type_name(out)}")
    if _State.enabled and (any_requires_grad(inputs) or out.requires_grad):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                           "automatic differentiation, but one of the arguments requires "
                           "grad.")
    with no_grad():
        result = compute()._data
    if not _can_cast(result.dtype, out._data.dtype):
        raise RuntimeError(f"result type {_scalar_name(result.dtype)} can't be cast to the "
                           f"desired output type {out.dtype.scalar_name}")
    if out._data.shape != result.shape:
        if out._base is not None:
            raise NotImplementedError("minitorch_hooks does not resize a view given as out=")
        if out._data.size:
            warnings.warn(_RESIZED.format(old=list(out._data.shape), new=list(result.shape)),
                          UserWarning, stacklevel=3)
        out._data = np.empty(result.shape, dtype=out._data.dtype)
    check_no_internal_overlap(out)
    out._data[...] = result
    bump_version(out)
    return out


def _scalar_name(dtype: np.dtype) -> str:
    from .._dtype import from_numpy_dtype

    return from_numpy_dtype(dtype).scalar_name


def mul(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """``torch.mul``: ``input * other``, or written into ``out``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.mul.html>
    """
    if out is None:
        return pointwise.mul(input, other)
    return written_to_out("mul", out, (input, other), lambda: pointwise.mul(input, other))
