"""``torch.autograd.Variable``: the tensor that recorded gradients, before PyTorch 0.4.

Until 0.4 a plain tensor had no autograd: ``Variable(t, requires_grad=True)`` wrapped it
in one that did. Since 0.4 every tensor is a Variable, and the name stays for the code
written before: ``Variable(t)`` returns a *tensor* (``t`` detached, sharing its memory,
with the ``requires_grad`` asked for), and ``isinstance(x, Variable)`` holds for every
tensor, through the metaclass. The class also carries the engine,
``Variable._execution_engine``, whose ``queue_callback`` hook code uses.
See <https://docs.pytorch.org/docs/2.13/autograd.html#variable-deprecated>
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from .engine import _EngineBase
from .graph import Node

__all__ = ["Variable", "VariableMeta"]

# PyTorch's C++ constructor accepts and refuses these (``python_legacy_variable.cpp``).
_VOLATILE_WARNING = ("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                     "instead.")


class _LegacyVariableBase:
    """``torch._C._LegacyVariableBase``: what ``Variable(...)`` runs, a constructor that
    returns a tensor rather than an instance of the class. (``name`` named the tensor for
    PyTorch's C++ debugging output; nothing in Python shows it.)"""

    __module__ = "minitorch_hooks._C"  # where PyTorch's is, a C++ class

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = False,
                volatile: bool = False, _grad_fn: Any = None, name: str | None = None,
                **unknown: Any) -> Tensor:
        if unknown:  # refused as CPython refuses a C function's unknown keyword
            raise TypeError(f"'{next(iter(unknown))}' is an invalid keyword argument for this "
                            "function")
        if _grad_fn is not None and not isinstance(_grad_fn, Node):
            raise TypeError("_grad_fn has to be a Function object or None, but got "
                            f"{type(_grad_fn).__name__}")
        if volatile:
            warnings.warn(_VOLATILE_WARNING, UserWarning, stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same "
                                 "time!")
        if data is None:  # for old pickles, and ``Parameter()``: an empty float32 tensor
            tensor = wrap(np.zeros(0, dtype=np.float32))
        elif isinstance(data, Tensor):
            tensor = data.detach()
        else:
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if _grad_fn is not None:
            raise RuntimeError(
                "_grad_fn argument to legacy Variable constructor is no longer supported.  "
                "Instead, please invoke your _grad_fn to produce a variable with it as the "
                "_grad_fn.")
        tensor._set_requires_grad(
            bool(requires_grad),
            "Only Tensors of floating point and complex dtype can require gradients")
        return tensor


class VariableMeta(type):
    """Every tensor is a Variable: ``isinstance(t, Variable)`` asks whether ``t`` is a
    tensor."""

    def __instancecheck__(cls, other: object) -> bool:
        return isinstance(other, Tensor)


class Variable(_LegacyVariableBase, metaclass=VariableMeta):
    """``Variable(data, requires_grad=False)``: ``data`` detached, as a tensor that requires
    grad if asked. Deprecated: a tensor does it all (``t.detach().requires_grad_()``)."""

    _execution_engine = _EngineBase()
