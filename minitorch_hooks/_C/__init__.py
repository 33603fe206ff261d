"""``torch._C``: the few one-line queries of autograd state that PyTorch's own hook tests
call directly. In PyTorch they are C++ bindings; here each reads or sets the Python state
that the matching public API uses, so the two can never disagree.
"""

from __future__ import annotations

import weakref
from typing import Any

from .. import _warnings
from .._generator import Generator
from .._tensor import TensorBase
from ..autograd import grad_mode
from ..autograd.engine import _EngineBase as _ImperativeEngine  # torch._C's only name for it
from ..autograd.grad_mode import is_grad_enabled
from ..autograd.graph import current_autograd_node as _current_autograd_node
from ..autograd.graph import current_graph_task_id as _current_graph_task_id
from ..autograd.graph import will_engine_execute_node as _will_engine_execute_node
from ..autograd.variable import _LegacyVariableBase
from . import _autograd
from ._future import Future

__all__ = ["Future", "Generator", "TensorBase", "_ImperativeEngine", "_LegacyVariableBase",
           "_WeakTensorRef", "_autograd", "_current_autograd_node", "_current_graph_task_id",
           "_get_warnAlways", "_set_grad_enabled", "_set_warnAlways", "_will_engine_execute_node",
           "is_grad_enabled"]


def _check_bool(value: Any, message: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(message.format(type(value).__name__))


def _set_grad_enabled(enabled: bool) -> None:
    """Switch grad mode without a context manager (``torch.set_grad_enabled`` as a call)."""
    _check_bool(enabled, "set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                         "not {}")
    grad_mode._State.enabled = enabled


def _get_warnAlways() -> bool:  # noqa: N802 - torch's name
    return _warnings.warn_always


def _set_warnAlways(enabled: bool) -> None:  # noqa: N802 - torch's name
    if not isinstance(enabled, bool):
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(enabled).__name__}")
    _warnings.warn_always = enabled


class _WeakTensorRef:
    """A weak reference to a tensor that says whether it is gone: how PyTorch's tests check
    that a hook does not keep a tensor alive."""

    def __init__(self, tensor: TensorBase) -> None:
        self._ref = weakref.ref(tensor)

    def expired(self) -> bool:
        return self._ref() is None
