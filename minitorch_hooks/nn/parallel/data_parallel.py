"""``nn.DataParallel`` as PyTorch runs it without a GPU, mirroring
``torch/nn/parallel/data_parallel.py``.

On GPUs, ``DataParallel`` splits each batch across the devices, copies the module to
each, runs the copies and gathers their outputs. Without an accelerator PyTorch skips all
of that: the wrapper keeps the module as ``self.module`` and its forward calls it with the
same arguments. So code written for several GPUs runs on a CPU unchanged, and hooks see
exactly this: the wrapper's own forward hooks around the module's, and every parameter
and state-dict key under the prefix ``module.`` (which is why checkpoints saved from a
``DataParallel`` model have keys like ``module.fc.weight``).
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.DataParallel.html>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..modules.module import Module


class DataParallel(Module):
    """Wraps ``module``; with no GPU, calling the wrapper calls the module."""

    def __init__(self, module: Any, device_ids: Sequence[Any] | None = None,
                 output_device: Any = None, dim: int = 0) -> None:
        super().__init__()
        # No accelerator: PyTorch keeps the module and an empty list of devices, and sets
        # nothing else (no ``output_device``, no ``dim``), whatever was passed.
        self.module = module
        self.device_ids: list[Any] = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)


def data_parallel(module: Module, inputs: Any, device_ids: Sequence[Any] | None = None,
                  output_device: Any = None, dim: int = 0,
                  module_kwargs: Any = None) -> Any:
    """The functional form of :class:`DataParallel`. Unlike the class, PyTorch's function
    refuses to run without an accelerator."""
    raise RuntimeError("device type could not be determined")
