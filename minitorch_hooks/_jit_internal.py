"""The TorchScript decorators, as they behave outside the compiler: ``torch._jit_internal``.

``@torch.jit.ignore``, ``@torch.jit.unused`` and ``@torch.jit.export`` are notes to the
TorchScript compiler about a function. Run as Python, as every program runs here (and as
PyTorch runs a model it was not asked to script), they change nothing: each marks the
function with a ``_torchscript_modifier`` attribute and returns the very same function.
Model code keeps them, so they must import and decorate without complaint.
See <https://docs.pytorch.org/docs/2.13/jit.html>
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any


class FunctionModifiers:
    """What the compiler is told to do with a function, stored on it as
    ``_torchscript_modifier``."""

    UNUSED = "unused (ignored and replaced with raising of an exception)"
    IGNORE = "ignore (leave as a call to Python, cannot be torch.jit.save'd)"
    EXPORT = "export (compile this function even if nothing calls it)"


def is_scripting() -> bool:
    """True only inside code that TorchScript compiled; Python code never is, so this is
    always False here. Code uses it to keep a Python-only branch out of TorchScript.
    See <https://docs.pytorch.org/docs/2.13/jit_language_reference.html>
    """
    return False


def export(fn: Callable) -> Callable:
    """Compile ``fn`` even if ``forward`` never calls it: a mark, nothing more, in Python."""
    fn._torchscript_modifier = FunctionModifiers.EXPORT
    return fn


def unused(fn: Any) -> Any:
    """Leave ``fn`` out of the compiled model (a call to it raises there). In Python the
    function runs as usual. A property is marked through its getter and setter."""
    if isinstance(fn, property):
        fn.fget._torchscript_modifier = FunctionModifiers.UNUSED
        if fn.fset:
            fn.fset._torchscript_modifier = FunctionModifiers.UNUSED
        return fn
    fn._torchscript_modifier = FunctionModifiers.UNUSED
    return fn


def ignore(drop: Any = False, **kwargs: Any) -> Any:
    """Leave ``fn`` as a call to Python inside a compiled model. Used bare
    (``@torch.jit.ignore``) it marks the function; called (``@torch.jit.ignore(drop=True)``)
    it returns the decorator, and ``drop=True`` (deprecated: it means :func:`unused`) warns
    as in PyTorch. Either way the function itself is returned unchanged.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.jit.ignore.html>
    """
    if callable(drop):  # used bare: ``drop`` is the function
        drop._torchscript_modifier = FunctionModifiers.IGNORE
        return drop
    if not isinstance(drop, bool):
        raise RuntimeError(
            f"Argument to @torch.jit.ignore must be a bool or a function but got {drop}")
    drop_on_export = kwargs.pop("drop_on_export", None)
    if drop_on_export:
        warnings.warn("ignore(drop_on_export=True) has been deprecated. TorchScript will now "
                      "drop the function call on compilation. Use torch.jit.unused now. {}",
                      FutureWarning, stacklevel=2)
        drop = drop_on_export
    elif drop:
        warnings.warn("ignore(True) has been deprecated. TorchScript will now drop the "
                      "function call on compilation. Use torch.jit.unused now. {}",
                      FutureWarning, stacklevel=2)
    modifier = FunctionModifiers.UNUSED if drop else FunctionModifiers.IGNORE

    def decorator(fn: Callable) -> Callable:
        fn._torchscript_modifier = modifier
        return fn

    return decorator
