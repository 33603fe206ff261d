"""AdamW: Adam with decoupled weight decay, as its own class.

PyTorch 2.13 makes ``AdamW`` a thin subclass of ``Adam``: the same update with
``decoupled_weight_decay=True`` (the weights shrink by ``lr * weight_decay`` before the
Adam step, instead of the decay being added to the gradient and averaged with it), and a
default ``weight_decay`` of ``1e-2`` instead of 0. Because the option is always on, AdamW's
constructor has no ``decoupled_weight_decay`` argument, and loading a state dict (or
unpickling) forces it back to ``True`` in every group, whatever the checkpoint said.
See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.AdamW.html>
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._tensor import Tensor
from .adam import Adam


class AdamW(Adam):
    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None,
                 capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """An AdamW always decouples its weight decay, even from an old checkpoint."""
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
