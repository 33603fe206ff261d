"""``nn.BatchNorm1d``, ``BatchNorm2d``, ``BatchNorm3d`` (and ``SyncBatchNorm``): normalise each
channel over the batch.

In training a layer normalises with the statistics of the batch it sees, and keeps running
estimates of them in buffers (``running_mean``, ``running_var``, ``num_batches_tracked``);
after ``eval()`` it uses those estimates instead, so that one sample's output no longer
depends on the others in its batch. The buffers are in ``state_dict`` but are not
parameters: an optimiser never changes them.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.BatchNorm1d.html>
"""

from __future__ import annotations

from typing import Any

from ... import _dtype
from ..._creation import ones, tensor, zeros
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from .. import functional as F
from .module import Module
from .normalization import _affine_parameters, _reset_affine


class _BatchNorm(Module):
    """The layer without its input check; ``momentum=None`` makes the running statistics a
    plain average of every batch so far instead of an exponential one."""

    # Version 2 added ``num_batches_tracked``: an older checkpoint gets it (see below).
    _version = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: _dtype.dtype | None = None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _affine_parameters(self, num_features, affine, bias, device, dtype)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked",
                                 tensor(0, dtype=_dtype.long, device=device))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """Running statistics back to mean 0 and variance 1; weight 1, bias 0."""
        self.reset_running_stats()
        _reset_affine(self)

    def _check_input_dim(self, input: Tensor) -> None:
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked)
        # Evaluation uses the running statistics, unless the layer keeps none.
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        pass_buffers = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if pass_buffers else None,
                            self.running_var if pass_buffers else None, self.weight, self.bias,
                            use_batch, factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict,
                              strict: bool, missing_keys: list, unexpected_keys: list,
                              error_msgs: list) -> None:
        """A checkpoint saved before version 2 has no ``num_batches_tracked``: the layer
        keeps its own (0 in a new one) instead of reporting a missing key."""
        version = local_metadata.get("version", None)
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats \
                and key not in state_dict:
            state_dict[key] = (self.num_batches_tracked if self.num_batches_tracked is not None
                               else tensor(0, dtype=_dtype.long))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)


class BatchNorm1d(_BatchNorm):
    """For ``(N, C)`` or ``(N, C, L)`` inputs."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """For ``(N, C, H, W)`` inputs: one mean and variance per channel, over the batch and
    every pixel.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.BatchNorm2d.html>
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """For ``(N, C, D, H, W)`` volumes: one mean and variance per channel.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.BatchNorm3d.html>
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch norm whose statistics are gathered across the processes of a distributed
    run. It synchronises only in training within an initialised ``torch.distributed``
    process group, which minitorch_hooks never has (nor has PyTorch's CPU build, without
    ``init_process_group``): so it is ``BatchNorm`` for any input of 2 or more dimensions,
    as PyTorch is then. ``convert_sync_batchnorm`` swaps it in for every batch-norm layer of
    a model, sharing their parameters and buffers.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.SyncBatchNorm.html>
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True,
                 process_group: Any | None = None, device: Any = None,
                 dtype: _dtype.dtype | None = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")
        return super().forward(input)

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any | None = None
                               ) -> Module:
        """``module`` with each batch-norm layer (itself included) replaced by a
        ``SyncBatchNorm`` holding the same parameters and buffers."""
        module_output = module
        if isinstance(module, _BatchNorm):
            module_output = SyncBatchNorm(module.num_features, module.eps, module.momentum,
                                          module.affine, module.track_running_stats,
                                          process_group, bias=module.bias is not None)
            if module.affine:
                with no_grad():
                    module_output.weight = module.weight
                    module_output.bias = module.bias
            module_output.running_mean = module.running_mean
            module_output.running_var = module.running_var
            module_output.num_batches_tracked = module.num_batches_tracked
            module_output.training = module.training
            if hasattr(module, "qconfig"):
                module_output.qconfig = module.qconfig
        for name, child in module.named_children():
            module_output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return module_output
