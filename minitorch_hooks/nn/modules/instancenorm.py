"""``nn.InstanceNorm1d``, ``InstanceNorm2d``, ``InstanceNorm3d``: each sample's channels
normalised over their own positions (style transfer and GAN generators use them: the
statistics of one image do not depend on the others in its batch).

Unlike batch norm, they have no affine parameters and keep no running statistics unless
asked (``affine=True``, ``track_running_stats=True``). With a wrong number of channels they
raise when ``affine`` (the weight would not fit) and otherwise warn, since
``num_features`` is then unused. An unbatched input is normalised as a batch of one.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.InstanceNorm2d.html>
"""

from __future__ import annotations

import warnings
from typing import Any

from ... import _dtype
from ..._tensor import Tensor
from .. import functional as F
from .batchnorm import _BatchNorm

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


class _InstanceNorm(_BatchNorm):
    """``_no_batch_dim``: the rank of an unbatched input."""

    _no_batch_dim = 0

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device: Any = None,
                 dtype: _dtype.dtype | None = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _check_input_dim(self, input: Tensor) -> None:
        low = self._no_batch_dim
        if input.dim() not in (low, low + 1):
            raise ValueError(f"expected {low}D or {low + 1}D input (got {input.dim()}D input)")

    def _apply_instance_norm(self, input: Tensor) -> Tensor:
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict,
                              strict: bool, missing_keys: list, unexpected_keys: list,
                              error_msgs: list) -> None:
        """Checkpoints from before PyTorch 0.4 hold running statistics that the layer no
        longer tracks by default: they are dropped, with an error message that says so."""
        version = local_metadata.get("version", None)
        if version is None and not self.track_running_stats:
            keys = [prefix + name for name in ("running_mean", "running_var")
                    if prefix + name in state_dict]
            if keys:
                klass = self.__class__.__name__
                names = " and ".join(f'"{k}"' for k in keys)
                error_msgs.append(
                    f"Unexpected running stats buffer(s) {names} for {klass} with "
                    "track_running_stats=False. If state_dict is a checkpoint saved before "
                    f"0.4.0, this may be expected because {klass} does not track running "
                    "stats by default since 0.4.0. Please remove these keys from state_dict. "
                    "If the running stats are actually needed, instead set "
                    f"track_running_stats=True in {klass} to enable them. See the "
                    f"documentation of {klass} for details.")
                for key in keys:
                    state_dict.pop(key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. "
                          "You can silence this warning by not passing in num_features, "
                          "which is not used because affine=False", stacklevel=2)
        if input.dim() == self._no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """For ``(N, C, L)`` inputs (or ``(C, L)``)."""

    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """For ``(N, C, H, W)`` images (or ``(C, H, W)``)."""

    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """For ``(N, C, D, H, W)`` volumes (or ``(C, D, H, W)``)."""

    _no_batch_dim = 4
