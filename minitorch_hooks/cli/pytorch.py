"""Finding real PyTorch, and saying how to install the right build when it is missing.

Every message, skip reason and page says it the same way, :data:`INSTALL_PYTORCH`:
from a clone of the repository, the ``conformance`` extra (``torch==2.13.0``, the release
the package mirrors) with PyTorch's CPU index added, so that pip takes the CPU build
rather than a CUDA build of several gigabytes.
"""

from __future__ import annotations

import importlib.util

INSTALL_PYTORCH = ('pip install -e ".[conformance]" '
                   "--extra-index-url https://download.pytorch.org/whl/cpu")

MISSING = f"real PyTorch is not installed; from a clone: {INSTALL_PYTORCH}"

INSTALL_HINT = f"""\
real PyTorch is not installed. minitorch_hooks mirrors PyTorch 2.13.0; from a clone of
this repository, install that release's CPU build with

    {INSTALL_PYTORCH}

(never an unpinned torch, which pulls the newest release, on Linux a CUDA build of
several gigabytes)."""


def pytorch_installed() -> bool:
    """Whether ``import torch`` can find real PyTorch, without the cost of importing it."""
    return importlib.util.find_spec("torch") is not None
