"""``torch.jit.trace`` and ``is_tracing``, mirroring ``torch/jit/_trace.py``."""

from __future__ import annotations

import warnings
from typing import Any


def is_tracing() -> bool:
    """True only while ``torch.jit.trace`` records a function; nothing records here.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.jit.is_tracing.html>
    """
    return False


def trace(func: Any, *args: Any, **kwargs: Any) -> Any:
    """Record a function's operations as TorchScript: not implemented. It warns first, as
    PyTorch 2.13 does."""
    warnings.warn("`torch.jit.trace` is deprecated. Please switch to `torch.compile` or "
                  "`torch.export`.", DeprecationWarning, stacklevel=2)
    raise NotImplementedError("torch.jit.trace is not implemented by minitorch_hooks: "
                              "there is no TorchScript tracer; call the module itself")
