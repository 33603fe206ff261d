"""``torch._C._autograd``: the switch behind ``disable_saved_tensors_hooks`` and the stack
of saved-tensor hooks, as the context managers in ``autograd/saved_tensors.py`` use them."""

from __future__ import annotations

from collections.abc import Callable

from .._tensor import Tensor
from ..autograd import saved_tensors


def _saved_tensors_hooks_is_enabled() -> bool:
    """False inside ``disable_saved_tensors_hooks``."""
    return saved_tensors._disabled_message is None


def _saved_tensors_hooks_get_disabled_error_message() -> str | None:
    return saved_tensors._disabled_message


def _saved_tensors_hooks_disable(error_message: str, fail_if_non_empty: bool = True) -> None:
    """Refuse saved-tensor hooks from now on, with ``error_message``; refused at once if
    some are in force (unless ``fail_if_non_empty`` is False)."""
    if not isinstance(error_message, str):
        raise TypeError("_saved_tensors_hooks_disable(): incompatible function arguments. The "
                        "following argument types are supported:\n    1. (error_message: str, "
                        "fail_if_non_empty: bool = True) -> None\n\nInvoked with: "
                        f"{error_message!r}")
    if fail_if_non_empty and saved_tensors._hooks_stack:
        raise RuntimeError(error_message)
    saved_tensors._disabled_message = error_message


def _saved_tensors_hooks_enable() -> None:
    saved_tensors._disabled_message = None


def _top_saved_tensors_default_hooks(ignore_is_tracing: bool = False
                                     ) -> tuple[Callable, Callable] | None:
    """The innermost pair of saved-tensor hooks in force, or None."""
    return saved_tensors._hooks_stack[-1] if saved_tensors._hooks_stack else None


def _make_saved_tensor(tensor: Tensor, is_output: bool,
                       is_inplace_on_view: bool = False) -> saved_tensors.SavedTensor:
    """A saved tensor made by hand, as an op's node makes one (with the hooks in force)."""
    return saved_tensors.SavedTensor(tensor, is_output=is_output)
