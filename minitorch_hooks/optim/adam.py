"""Adam: per-element step sizes from running averages of the gradient and its square.

For each parameter ``p`` with gradient ``g``, at step ``t`` (counted from 1):

1. ``maximize``: ``g = -g``, so that the step climbs the objective instead of descending;
2. weight decay, one of two kinds:
   - L2, added to the gradient (the default): ``g = g + weight_decay * p``, so the decay
     goes through the running averages and is scaled by them like the gradient;
   - decoupled (``decoupled_weight_decay=True``, which makes this AdamW):
     ``p = p * (1 - lr * weight_decay)``, the weights shrunk directly, ``g`` left alone;
3. ``m = beta1 * m + (1 - beta1) * g`` and ``v = beta2 * v + (1 - beta2) * g * g``;
4. ``amsgrad``: ``v_max = max(v_max, v)``, and ``v_max`` takes the place of ``v`` below,
   so the denominator never shrinks and a step never grows back after a large gradient;
5. both averages start at 0 and so are biased towards it early on; dividing by
   ``1 - beta ** t`` corrects that:
   ``p = p - lr / (1 - beta1 ** t) * m / (sqrt(v) / sqrt(1 - beta2 ** t) + eps)``.

The operations are PyTorch's, in PyTorch's order (``eps`` is added after the bias
correction of ``sqrt(v)``), so the results agree to float32 rounding. The options after
``amsgrad`` are keyword-only, as in PyTorch; ``foreach`` chooses how PyTorch loops over the
parameters, not what it computes (see ``optimizer.py`` for it and the options refused).
See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.Adam.html>
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .._creation import zeros_like
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, _new_step_count


class Adam(Optimizer):
    _OPTIONS_ADDED_SINCE = {"amsgrad": False, "maximize": False, "foreach": None,
                            "capturable": False, "differentiable": False,
                            "decoupled_weight_decay": False, "fused": None}
    _COUNTS_STEPS = True

    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None, decoupled_weight_decay: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable,
                    "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        self._check_implementation_options()

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a ``.grad`` (see ``Optimizer._update_each``)."""
        return self._update_each(closure)

    def _update(self, param: Tensor, group: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        lr, weight_decay = group["lr"], group["weight_decay"]
        state = self.state[param]
        if not state:  # created lazily, at a parameter's first step
            state["step"] = _new_step_count()
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(param)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        step = self._count_step(state)
        grad = -param.grad if group["maximize"] else param.grad
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.add_(grad - exp_avg, alpha=1 - beta1)  # PyTorch: exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)  # addcmul_(grad, grad, ...)
        step_size = lr / (1 - beta1**step)
        bias_correction2_sqrt = (1 - beta2**step) ** 0.5
        second_moment = exp_avg_sq
        if group["amsgrad"]:
            second_moment = state["max_exp_avg_sq"]
            second_moment.copy_(second_moment.maximum(exp_avg_sq))  # PyTorch: maximum(out=)
        denom = (second_moment.sqrt() / bias_correction2_sqrt).add_(group["eps"])
        param.add_(exp_avg / denom, alpha=-step_size)  # PyTorch: addcdiv_(exp_avg, denom, ...)
