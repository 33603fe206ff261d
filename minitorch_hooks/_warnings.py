"""Warnings that PyTorch gives only the first time in a process.

PyTorch's C++ raises some warnings with ``TORCH_WARN_ONCE``: a deprecation, or a caution
that would be noise if repeated at every call. Python's own filters would repeat them once
per calling line, so the set of messages already given is kept here.
"""

from __future__ import annotations

import warnings

_given: set[str] = set()


def warn_once(message: str) -> None:
    """A UserWarning with ``message``, unless this process has already had it."""
    if message not in _given:
        _given.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)  # at the caller of our caller
