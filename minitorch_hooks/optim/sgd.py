"""Stochastic gradient descent, with PyTorch's momentum, dampening, Nesterov and weight decay.

For each parameter ``p`` with gradient ``g``, in this order (the order changes results):

1. ``maximize``: ``g = -g``, so that the step climbs the objective instead of descending;
   everything below sees the negated gradient;
2. weight decay: ``g = g + weight_decay * p``;
3. momentum: ``buf = momentum * buf + (1 - dampening) * g``, except on the first step,
   where ``buf = g`` (no dampening); then ``g = g + momentum * buf`` with Nesterov, else
   ``g = buf``;
4. ``p = p - lr * g``.

This is PyTorch's formulation, which puts ``lr`` outside the momentum buffer (some papers
put it inside; the two differ when ``lr`` changes during training). The options after
``nesterov`` are keyword-only, as in PyTorch; ``foreach`` chooses how PyTorch loops over
the parameters, not what it computes (see ``optimizer.py`` for it and the options refused).
See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.SGD.html>
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer


class SGD(Optimizer):
    _OPTIONS_ADDED_SINCE = {"nesterov": False, "maximize": False, "foreach": None,
                            "differentiable": False, "fused": False}

    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]], lr: float = 1e-3,
                 momentum: float = 0, dampening: float = 0, weight_decay: float = 0,
                 nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        self._check_implementation_options()

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a ``.grad`` (see ``Optimizer._update_each``)."""
        return self._update_each(closure)

    def _update(self, param: Tensor, group: dict[str, Any]) -> None:
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[param]
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.detach().clone()
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        param.add_(grad, alpha=-group["lr"])
