"""``torch.backends.cudnn``: the switches for NVIDIA's cuDNN library, as a PyTorch built
without CUDA has them.

Training scripts set them at the top (``torch.backends.cudnn.benchmark = True`` for speed,
``deterministic = True`` for reproducibility) before they know whether a GPU is there.
Without cuDNN the switches are still there, with their defaults, and can be set; they
change nothing, since no convolution runs on cuDNN.
See <https://docs.pytorch.org/docs/2.13/backends.html#module-torch.backends.cudnn>
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

enabled = True
benchmark = False
benchmark_limit = None  # only a build with cuDNN has a limit
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    """Whether cuDNN can be used: not without CUDA."""
    return False


def version() -> int | None:
    """The cuDNN version: None, as there is no cuDNN."""
    return None


def is_acceptable(tensor: Any) -> bool:
    """Whether cuDNN could compute with ``tensor``: only with a CUDA tensor, and there is
    none here."""
    return False


@contextlib.contextmanager
def flags(enabled: bool = False, benchmark: bool = False, benchmark_limit: int = 10,
          deterministic: bool = False, allow_tf32: bool = True) -> Iterator[None]:
    """Set the switches for the block, and put the old values back after it.
    ``benchmark_limit`` is ignored, as in PyTorch without cuDNN."""
    names = ("enabled", "benchmark", "deterministic", "allow_tf32")
    module = globals()
    previous = {name: module[name] for name in names}
    module.update(zip(names, (enabled, benchmark, deterministic, allow_tf32)))
    try:
        yield
    finally:
        module.update(previous)
