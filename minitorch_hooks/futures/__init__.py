"""``torch.futures``: a value that will be there later, and callbacks run when it is.

PyTorch uses futures for asynchronous work (RPC, DDP's communication hooks, which return
one: ``register_comm_hook``), and libraries built on hooks import the type to annotate or
check what such work returns (Captum does, as it loads). On one CPU thread nothing here is
asynchronous: a future is completed by ``set_result`` (or ``set_exception``), and the
callbacks registered with ``then`` and ``add_done_callback`` run then, in the order they
were added, or at once if the future is already complete. ``wait`` blocks until another
thread completes it, as PyTorch's does.

See <https://docs.pytorch.org/docs/2.13/futures.html>
"""

from __future__ import annotations

from typing import TypeVar

from .._C._future import Future as _CFuture

T = TypeVar("T")

__all__ = ["Future", "collect_all", "wait_all"]


class Future(_CFuture[T]):
    """The future a program makes: a Python subclass of ``torch._C.Future``, as in PyTorch
    (the futures ``then`` and ``collect_all`` return are of the C++ class)."""


def collect_all(futures: list[Future]) -> _CFuture[list[Future]]:
    """A future completed, with the list ``futures`` itself, once every one of them is."""
    collected: _CFuture[list[Future]] = _CFuture()
    remaining = [len(futures)]

    def one_done(_: Future) -> None:
        remaining[0] -= 1
        if remaining[0] == 0:
            collected.set_result(futures)

    if not futures:
        collected.set_result(futures)
    for future in futures:
        future.add_done_callback(one_done)
    return collected


def wait_all(futures: list[Future]) -> list:
    """The results of ``futures``, waiting for each in turn."""
    return [future.wait() for future in futures]
