"""Finding real PyTorch, and saying how to install the right build when it is missing."""

from __future__ import annotations

import importlib.util

INSTALL_HINT = """\
real PyTorch is not installed. minitorch_hooks mirrors PyTorch 2.13.0; install that
release's CPU build (never an unpinned torch, which pulls the newest release, on Linux a
CUDA build of several gigabytes):

    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu

or, from a clone of this repository: pip install -e '.[conformance]'"""


def pytorch_installed() -> bool:
    """Whether ``import torch`` can find real PyTorch, without the cost of importing it."""
    return importlib.util.find_spec("torch") is not None
