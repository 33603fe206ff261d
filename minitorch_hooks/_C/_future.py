"""``torch._C.Future`` (``torch.Future``): the future PyTorch's C++ side makes. ``then``
and ``torch.futures.collect_all`` return one; ``torch.futures.Future``, the class a
program constructs, is a Python subclass of it (``minitorch_hooks/futures``), so
``isinstance(future.then(f), torch.futures.Future)`` is False, as in PyTorch.

See <https://docs.pytorch.org/docs/2.13/futures.html>
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")
S = TypeVar("S")

_NOT_SET: Any = object()


class Future(Generic[T]):
    """A result, or an exception, set once; the callbacks waiting for it run then."""

    __module__ = "minitorch_hooks"  # PyTorch shows torch._C.Future as torch.Future

    def __init__(self, *, devices: list | None = None) -> None:
        self._result: Any = _NOT_SET
        self._exception: BaseException | None = None
        self._callbacks: list[Callable[[Future[T]], None]] = []
        self._completed = threading.Event()

    def done(self) -> bool:
        """Whether the future has a result or an exception (a callback may still run)."""
        return self._completed.is_set()

    def wait(self) -> T:
        """The result, after blocking until the future is complete; raises the exception
        the future was completed with."""
        self._completed.wait()
        return self.value()

    def value(self) -> T:
        """The result of a completed future, without waiting."""
        if not self.done():
            raise RuntimeError("completed() INTERNAL ASSERT FAILED: value() of a Future that "
                               "is not completed")
        if self._exception is not None:
            raise self._exception
        return self._result

    def then(self, callback: Callable[[Future[T]], S]) -> Future[S]:
        """A new future, completed with what ``callback(self)`` returns once ``self`` is
        complete (or with the error it raised, wrapped in a RuntimeError)."""
        following: Future[S] = Future()

        def complete(future: Future[T]) -> None:
            try:
                following.set_result(callback(future))
            except Exception as error:  # noqa: BLE001 - passed on, as PyTorch does
                following.set_exception(RuntimeError(
                    f"Got the following error when running the callback: "
                    f"{type(error).__name__}: {error}"))

        self.add_done_callback(complete)
        return following

    def add_done_callback(self, callback: Callable[[Future[T]], None]) -> None:
        """Run ``callback(self)`` when the future completes (now, if it has); unlike
        ``then``, nothing is made of what it returns."""
        if self.done():
            callback(self)
        else:
            self._callbacks.append(callback)

    def set_result(self, result: T) -> None:
        """Complete the future with ``result`` and run the callbacks waiting for it."""
        self._complete(result, None)

    def set_exception(self, result: BaseException) -> None:
        """Complete the future with an error, raised by ``wait`` and ``value``."""
        assert isinstance(result, Exception), (
            f"{result} is of type {type(result)}, not an Exception.")
        self._complete(_NOT_SET, result)

    def _complete(self, result: Any, exception: BaseException | None) -> None:
        if self.done():
            raise RuntimeError("Attempting to mark a completed Future as complete again. "
                               "Note that a Future can only be marked completed once.")
        self._result, self._exception = result, exception
        self._completed.set()
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)
