"""Switching gradient recording off and on: ``no_grad``, ``enable_grad``, ``set_grad_enabled``.

While recording is off, operations build no graph: their results have no ``grad_fn`` and do
not require grad. That is how optimisers update weights in place and how evaluation avoids
keeping intermediate values. Each works as a context manager and as a decorator.
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#locally-disabling-gradient-computation>
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _State:
    """The one global switch that every operation reads before recording a node."""

    enabled = True


def is_grad_enabled() -> bool:
    """Whether operations currently record the backward graph."""
    return _State.enabled


class _GradModeContext:
    """Base for the three switches: set a mode on entry, restore the previous one on exit."""

    _mode: bool

    def __enter__(self) -> None:
        self._previous = _State.enabled
        _State.enabled = self._mode

    def __exit__(self, *exc_info: object) -> None:
        _State.enabled = self._previous

    def __call__(self, func: F) -> F:
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with set_grad_enabled(mode):
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


class no_grad(_GradModeContext):  # noqa: N801 - torch's name
    """Stop recording the graph inside the block (or the decorated function)."""

    _mode = False


class enable_grad(_GradModeContext):  # noqa: N801 - torch's name
    """Record the graph inside the block, even within ``no_grad``."""

    _mode = True


class set_grad_enabled(_GradModeContext):  # noqa: N801 - torch's name
    """Set recording on or off. Like PyTorch, it takes effect at once, even as a plain call,
    and a ``with`` block restores the previous mode on exit."""

    def __init__(self, mode: bool) -> None:
        self._previous = _State.enabled
        self._mode = bool(mode)
        _State.enabled = self._mode

    def __enter__(self) -> None:
        pass

    def __call__(self, func: F) -> F:
        # Used as a decorator, the mode applies only while the function runs.
        _State.enabled = self._previous
        return super().__call__(func)


class inference_mode:  # noqa: N801 - torch's name
    """``no_grad``, and more: the tensors made inside are *inference tensors*, which autograd
    never records, then or later. PyTorch can then skip the version counter and view
    tracking it keeps for autograd, which makes pure inference a little faster. The cost is
    that such a tensor cannot join a graph afterwards: ``requires_grad_()`` on it, an
    in-place change to it or saving it for a backward pass fail outside the block, so a
    hook on what was computed inside can never be added later (``clone()`` it first).
    ``inference_mode(False)`` turns it off, and grad mode on, inside. Works as a context
    manager and as a decorator, with or without parentheses.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.autograd.grad_mode.inference_mode.html>
    """

    def __new__(cls, mode: bool | Callable = True) -> Any:
        if callable(mode):  # @torch.inference_mode, without parentheses
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self._mode = mode

    def __enter__(self) -> None:
        from .._tensor import InferenceState

        self._previous = _State.enabled, InferenceState.enabled
        # PyTorch's guard sets both: inference on and grad off, or (``False``, say inside
        # an inference block) inference off and grad on.
        _State.enabled, InferenceState.enabled = not self._mode, bool(self._mode)

    def __exit__(self, *exc_info: object) -> None:
        from .._tensor import InferenceState

        _State.enabled, InferenceState.enabled = self._previous

    def __call__(self, func: F) -> F:
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with inference_mode(mode):
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


class _force_original_view_tracking:  # noqa: N801 - torch's name
    """Whether autograd regenerates the ``grad_fn`` of a view changed in place by replaying
    the chain of views from its base (``True``, "view replay") or with one ``as_strided``
    (``False``, PyTorch's default).

    minitorch_hooks has only the second way (``AsStridedBackward0``, in
    ``_ops.view_history``), so ``False`` is what it always does and ``True`` is refused.
    PyTorch's own autograd tests set ``False`` after every test. Like PyTorch's, it takes
    effect when made, and works as a context manager and as a decorator.
    See PyTorch's ``torch/autograd/grad_mode.py`` (a private name, without a docs page).
    """

    def __init__(self, mode: bool) -> None:
        if mode:
            from .._missing import TorchFeatureNotImplementedError, not_implemented

            raise TorchFeatureNotImplementedError(
                not_implemented("torch.autograd._force_original_view_tracking(True)"))
        self.mode = False

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info: object) -> None:
        pass

    def __call__(self, func: F) -> F:
        return func  # view replay is off everywhere: nothing to switch around ``func``


def is_inference_mode_enabled() -> bool:
    """Whether ``inference_mode()`` is on."""
    from .._tensor import InferenceState

    return InferenceState.enabled
