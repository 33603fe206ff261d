"""``torch.nn.parallel``: running one model on several devices. On a machine without a
GPU there is only one device, so ``DataParallel`` calls the module itself and
``DistributedDataParallel`` cannot start without a process group."""

from .data_parallel import DataParallel, data_parallel
from .distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]
