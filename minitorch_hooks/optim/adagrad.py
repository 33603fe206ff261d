"""Adagrad: each element's step divided by the root of the sum of all its squared gradients.

For each parameter ``p`` with gradient ``g``, at step ``t`` (counted from 1), in PyTorch's
order:

1. ``maximize``: ``g = -g``; then weight decay (L2): ``g = g + weight_decay * p``;
2. the step size decays with the step count: ``clr = lr / (1 + (t - 1) * lr_decay)``;
3. ``sum = sum + g * g``, never forgotten (RMSprop is Adagrad with a forgetting average);
4. ``p = p - clr * g / (sqrt(sum) + eps)``.

Unlike the other optimisers, Adagrad makes its state in ``__init__``, for every parameter,
before any step: ``step`` (0) and ``sum``, filled with ``initial_accumulator_value``. So a
state dict saved before training already holds both, and ``foreach`` is the last
positional option, the others keyword-only, as in PyTorch.
See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.Adagrad.html>
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .._creation import full_like
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, _new_step_count


class Adagrad(Optimizer):
    _OPTIONS_ADDED_SINCE = {"foreach": None, "maximize": False, "differentiable": False,
                            "fused": None}
    _COUNTS_STEPS = True

    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]], lr: float = 1e-2,
                 lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10,
                 foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError("Invalid initial_accumulator_value value: "
                             f"{initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        self._check_implementation_options()
        for group in self.param_groups:
            for param in group["params"]:
                state = self.state[param]
                state["step"] = _new_step_count()
                state["sum"] = full_like(param, initial_accumulator_value)

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a ``.grad`` (see ``Optimizer._update_each``)."""
        return self._update_each(closure)

    def _update(self, param: Tensor, group: dict[str, Any]) -> None:
        state = self.state[param]
        step = self._count_step(state)
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state["sum"].add_(grad * grad)  # PyTorch: addcmul_(grad, grad, value=1)
        std = state["sum"].sqrt().add_(group["eps"])
        param.add_(grad / std, alpha=-clr)  # PyTorch: addcdiv_(grad, std, value=-clr)
