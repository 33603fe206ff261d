"""``torch.multiprocessing``: Python's :mod:`multiprocessing`, under PyTorch's name.

PyTorch's module is a wrapper: it re-exports every name of :mod:`multiprocessing`
(``Pool``, ``Process``, ``Queue``, ``get_context``...), so that ``import
torch.multiprocessing as mp`` can replace ``import multiprocessing``, and registers
reducers that move a tensor sent to another process into shared memory instead of
copying it. Libraries import it as they load (Captum's TCAV keeps a ``Pool`` in it).

This module is the same re-export, plus PyTorch's choice of how tensors would be shared
(``get_sharing_strategy``...). It registers no reducers: a tensor of minitorch_hooks is
an array of NumPy and pickles by value, so a tensor sent through a ``Queue`` or to a
``Pool`` arrives as a copy, and changes made to it in the other process do not come
back. ``spawn`` and ``start_processes`` (PyTorch's helpers to start and watch a group of
processes) are left out, and say so.
See <https://docs.pytorch.org/docs/2.13/multiprocessing.html>
"""

from __future__ import annotations

import multiprocessing
import sys
from multiprocessing import *  # noqa: F403 - PyTorch's module re-exports all of them

from .. import _missing

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies"]
__all__ += multiprocessing.__all__

# Where file descriptors can be passed between processes (Linux), PyTorch shares a tensor's
# memory through one; elsewhere, through a named file.
if sys.platform in ("darwin", "win32"):
    _sharing_strategy = "file_system"
    _all_sharing_strategies = {"file_system"}
else:
    _sharing_strategy = "file_descriptor"
    _all_sharing_strategies = {"file_descriptor", "file_system"}


def set_sharing_strategy(new_strategy: str) -> None:
    """Choose how tensors would be shared: one of :func:`get_all_sharing_strategies`.
    Kept for the programs that set it; our tensors are copied either way."""
    global _sharing_strategy
    if new_strategy not in _all_sharing_strategies:
        raise AssertionError(f"invalid sharing strategy {new_strategy!r}, "
                             f"expected one of {_all_sharing_strategies}")
    _sharing_strategy = new_strategy


def get_sharing_strategy() -> str:
    """The strategy chosen, ``"file_descriptor"`` on Linux unless set."""
    return _sharing_strategy


def get_all_sharing_strategies() -> set[str]:
    """The strategies this system supports."""
    return _all_sharing_strategies


__getattr__ = _missing.module_getattr(__name__, "torch.multiprocessing")  # spawn... say so
