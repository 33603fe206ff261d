"""``DistributedDataParallel``, mirroring the start of
``torch/nn/parallel/distributed.py``: importable, so that model code that names it in an
``isinstance`` check loads, but it cannot be made here. PyTorch needs a process group
(``torch.distributed.init_process_group``) first; minitorch_hooks has no
``torch.distributed``, so there never is one.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.parallel.DistributedDataParallel.html>
"""

from __future__ import annotations

from typing import Any

from ..modules.module import Module


class DistributedDataParallel(Module):
    """A module replicated across processes, each with its own data."""

    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None,
                 dim: int = 0, broadcast_buffers: bool = True, process_group: Any = None,
                 **kwargs: Any) -> None:
        super().__init__()
        # PyTorch looks for the default process group when none is given.
        raise ValueError("Default process group has not been initialized, please make sure "
                         "to call init_process_group.")
