"""Warnings that PyTorch gives only the first time in a process.

PyTorch's C++ raises some warnings with ``TORCH_WARN_ONCE``: a deprecation, or a caution
that would be noise if repeated at every call. Python's own filters would repeat them once
per calling line, so the set of messages already given is kept here.
``torch.set_warn_always(True)`` makes them all repeat, for debugging.
See <https://docs.pytorch.org/docs/2.13/generated/torch.set_warn_always.html>
"""

from __future__ import annotations

import warnings

_given: set[str] = set()
warn_always = False  # ``torch.set_warn_always``


def warn_once(message: str) -> None:
    """A UserWarning with ``message``, unless this process has already had it. Under
    ``warn_always`` it is always given, and, as in PyTorch, not counted: the first one
    after switching back is given again."""
    if warn_always or message not in _given:
        if not warn_always:
            _given.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)  # at the caller of our caller
