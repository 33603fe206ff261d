"""The guided tour behind ``minitorch-hooks tour``: PyTorch's hooks, one chapter at a time.

Each chapter is a module in this package that defines ``CHAPTER`` (see :mod:`.chapter`).
The tour runs the chapters in the order of :data:`CHAPTER_MODULES`, so adding a chapter is
writing its module and adding its name below.
"""

from __future__ import annotations

import importlib

from .chapter import Chapter

CHAPTER_MODULES = (
    "package_pattern",
    "leaf_hooks",
    "non_leaf_hooks",
    "post_accumulate_grad_hooks",
    "node_hooks",
    "removing_hooks",
    "forward_pre_hooks",
    "forward_hooks",
    "backward_hooks",
    "global_hooks",
    "removing_module_hooks",
    "legacy_backward_hooks",
    "state_dict_hooks",
    "registration_hooks",
    "saved_tensor_hooks",
    "multi_grad_hooks",
    "optimizer_hooks",
)


def chapters() -> list[Chapter]:
    """The chapters in tour order (chapter 1 first)."""
    return [importlib.import_module(f"{__name__}.{name}").CHAPTER for name in CHAPTER_MODULES]
