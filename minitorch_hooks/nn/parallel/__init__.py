"""``torch.nn.parallel``: running one model on several devices. On a machine without a
GPU there is only one device, so ``DataParallel`` calls the module itself,
``DistributedDataParallel`` cannot start without a process group, and ``scatter`` and
``gather`` handle everything but tensors, which need GPU kernels."""

from ... import _missing
from .data_parallel import DataParallel, data_parallel
from .distributed import DistributedDataParallel
from .scatter_gather import gather, scatter

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel", "gather", "scatter"]

__getattr__ = _missing.module_getattr(__name__, "torch.nn.parallel")  # replicate... say so
