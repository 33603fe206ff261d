"""RMSprop: each element's step divided by a running root mean square of its gradients.

For each parameter ``p`` with gradient ``g``, in PyTorch's order:

1. ``maximize``: ``g = -g``; then weight decay (L2): ``g = g + weight_decay * p``;
2. ``square_avg = alpha * square_avg + (1 - alpha) * g * g``, an average of the squared
   gradient that forgets old steps at the rate ``1 - alpha``;
3. ``centered``: ``grad_avg = lerp(grad_avg, g, 1 - alpha)`` and the denominator is
   ``sqrt(square_avg - grad_avg ** 2)``, the gradient's running standard deviation instead
   of its root mean square; otherwise ``sqrt(square_avg)``; ``eps`` is added after the root;
4. with ``momentum``: ``buf = momentum * buf + g / denominator`` and ``p = p - lr * buf``;
   else ``p = p - lr * g / denominator``.

There is no bias correction (unlike Adam), so the first steps are large: ``square_avg``
starts at 0. The state, made at a parameter's first step, holds ``step``, ``square_avg``,
then ``momentum_buffer`` (only with ``momentum > 0``) and ``grad_avg`` (only ``centered``).
All of RMSprop's options are positional, as in PyTorch.
See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.RMSprop.html>
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .._creation import zeros_like
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, _new_step_count


class RMSprop(Optimizer):
    _OPTIONS_ADDED_SINCE = {"momentum": 0, "centered": False, "foreach": None,
                            "maximize": False, "differentiable": False, "capturable": False}
    _COUNTS_STEPS = True

    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]], lr: float = 1e-2,
                 alpha: float = 0.99, eps: float = 1e-8, weight_decay: float = 0,
                 momentum: float = 0, centered: bool = False, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)
        self._check_implementation_options()

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a ``.grad`` (see ``Optimizer._update_each``)."""
        return self._update_each(closure)

    def _update(self, param: Tensor, group: dict[str, Any]) -> None:
        alpha, momentum = group["alpha"], group["momentum"]
        state = self.state[param]
        if not state:  # created lazily, at a parameter's first step
            state["step"] = _new_step_count()
            state["square_avg"] = zeros_like(param)
            if momentum > 0:
                state["momentum_buffer"] = zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = zeros_like(param)
        grad = -param.grad if group["maximize"] else param.grad
        self._count_step(state)
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)  # addcmul_(grad, grad, ...)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.add_(grad - grad_avg, alpha=1 - alpha)  # PyTorch: grad_avg.lerp_(grad, ...)
            avg = square_avg.add(grad_avg * grad_avg, alpha=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(group["eps"])
        if momentum > 0:
            buf = state["momentum_buffer"]
            buf.mul_(momentum).add_(grad / avg)  # PyTorch: buf.addcdiv_(grad, avg)
            param.add_(buf, alpha=-group["lr"])
        else:
            param.add_(grad / avg, alpha=-group["lr"])  # PyTorch: addcdiv_(grad, avg, ...)
