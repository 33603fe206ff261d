"""How a trace describes a hook call: its kind, and what the hook received.

The kinds are the hook points of ``utils/hooks.py`` (``HOOK_POINTS``): when each fires,
what it belongs to, what it receives. One table serves both ways of watching hooks (our own
dispatch, and real PyTorch's hooks wrapped as they are registered), so that both describe a
hook call in the same words. A received value is written down by its shape, not its
numbers: a tensor appears as its shape in brackets (``[4, 10]``, and ``[]`` for a single
number), which is what tells a learner *which* gradient or input a hook was handed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..utils.hooks import HOOK_POINTS, HookPoint

GLOBAL = "global "  # the prefix of a global module hook's kind: "global forward hook"


def kind_name(point: HookPoint, is_global: bool) -> str:
    """What a trace calls a hook at ``point``: the point's name, prefixed with "global "
    for a global hook of a kind that also has hooks of one owner (the registration hooks
    exist only globally, so they need no prefix)."""
    return GLOBAL + point.name if is_global and point.register else point.name


def kind_info(kind: str) -> HookPoint:
    """The table entry for ``kind``, global or not."""
    return HOOK_POINTS[kind.removeprefix(GLOBAL)]


def is_tensor(value: Any) -> bool:
    """Duck-typed, so that the same code describes our tensors and PyTorch's."""
    return hasattr(value, "shape") and hasattr(value, "requires_grad")


def is_module(value: Any) -> bool:
    return hasattr(value, "named_modules") and hasattr(value, "forward")


def describe(value: Any) -> str:
    """A short, library-independent description of one value a hook received."""
    if is_tensor(value):
        return "[" + ", ".join(str(size) for size in value.shape) + "]"
    if is_module(value):
        return type(value).__name__
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a namedtuple
        fields = ", ".join(f"{field}={describe(getattr(value, field))}"
                           for field in value._fields)
        return f"{type(value).__name__}({fields})"
    if isinstance(value, tuple):
        items = [describe(item) for item in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(describe(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key!r}: {describe(item)}" for key, item in value.items()) + "}"
    if value is None or isinstance(value, (str, bool, int, float)):
        return repr(value)
    return type(value).__name__


def hook_name(hook: Any) -> str:
    """``__name__`` (``<lambda>`` for a lambda), or the class name of a callable object."""
    return getattr(hook, "__name__", None) or type(hook).__name__
