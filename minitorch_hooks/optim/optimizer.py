"""``Optimizer``: what every optimiser shares.

An optimiser holds the parameters it updates in *parameter groups*: dicts with a
``"params"`` list and the options (``lr``, ``momentum``...) that apply to them, so that
parts of a model can train with different settings. What it remembers between steps
(momentum buffers, running averages) lives in ``state``, one dict per parameter.
``step()`` reads each parameter's ``.grad`` and changes the parameter in place, under
``no_grad``: an update is not part of any graph.

PyTorch runs each update with one of several implementations: a loop over the parameters,
``foreach`` (one batched call per operation over all of them) or ``fused`` (one kernel for
the whole update). The first two compute the same thing, so ``foreach`` is accepted and
this loop runs. ``fused``, ``capturable`` (steps safe to record in a CUDA graph) and
``differentiable`` (steps recorded by autograd) ask for more than a result, and are refused
with ``NotImplementedError``.
See <https://docs.pytorch.org/docs/2.13/optim.html>
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad, no_grad
from ..nn.modules.module import _typename

# The options minitorch_hooks cannot honour, and why (Optimizer._check_implementation_options).
_NOT_IMPLEMENTED = {
    "fused": "minitorch_hooks has no fused kernels (nor the GradScaler support that comes "
             "with them); leave fused at None or False",
    "capturable": "it makes steps safe to capture in a CUDA graph, and minitorch_hooks runs "
                  "on the CPU only",
    "differentiable": "minitorch_hooks never records an optimiser step in the autograd graph",
}


class Optimizer:
    """Subclasses pass their options as ``defaults`` and implement ``_update``."""

    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]],
                 defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + _typename(params))
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group; the options it does not set are taken from ``defaults``."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        param_group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            # PyTorch lets a differentiable optimiser update non-leaf tensors; here it is
            # refused anyway, with an error that says why (_check_implementation_options).
            if not self.defaults.get("differentiable") and not (param.is_leaf
                                                                or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        if any(id(p) in seen for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients before the next ``backward`` (which would add to them).

        ``set_to_none`` (the default) drops them: less memory, and a parameter that gets no
        gradient next time is skipped by ``step`` instead of updated with zeros.
        """
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is None:
                    continue
                if set_to_none:
                    param.grad = None
                else:
                    if param.grad.grad_fn is not None:
                        param.grad.detach_()
                    else:
                        param.grad.requires_grad_(False)
                    param.grad.zero_()

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a ``.grad``. ``closure``, if given, recomputes
        the loss (with gradients enabled) and its result is returned."""
        for group in self.param_groups:  # before any change, for any group added since
            self._refuse_what_is_not_implemented(group)
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is not None:
                    self._update(param, group)
        return loss

    def _update(self, param: Tensor, group: dict[str, Any]) -> None:
        """One parameter's update: what each optimiser defines."""
        raise NotImplementedError

    def _check_implementation_options(self) -> None:
        """The end of a subclass's ``__init__``: PyTorch's checks of ``fused``, which it makes
        once the groups are built, then the refusal of what minitorch_hooks cannot do.

        Refused after PyTorch's own checks, so that every error PyTorch raises is raised
        here too, with its type and message; the ``NotImplementedError`` replaces only what
        PyTorch would have accepted.
        """
        if self.defaults.get("fused"):
            if self.defaults.get("differentiable"):
                raise RuntimeError("`fused` does not support `differentiable`")
            if self.defaults.get("foreach"):
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        for group in self.param_groups:
            self._refuse_what_is_not_implemented(group)

    def _refuse_what_is_not_implemented(self, group: dict[str, Any]) -> None:
        """A group's options are read at every step, so one can ask for ``fused`` after the
        optimiser was made (``add_param_group``, or by editing ``param_groups``)."""
        for name, reason in _NOT_IMPLEMENTED.items():
            if group.get(name):
                raise NotImplementedError(
                    f"{type(self).__name__}({name}=True) is not implemented: {reason}")

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(f"    {key}: {group[key]}\n" for key in sorted(group)
                            if key != "params")
        return text + ")"
