"""Weight normalisation, the legacy way: a forward pre-hook recomputes the weight.

``weight_norm(module, "weight", dim=0)`` replaces the parameter ``weight`` by two
parameters, ``weight_g`` (the magnitude of each slice along ``dim``, shaped to broadcast:
``(out_features, 1)`` for a Linear) and ``weight_v`` (the direction, the old weight's
values), registered in that order after the module's other parameters. ``module.weight``
becomes a plain attribute, ``torch._weight_norm(weight_v, weight_g, dim)``, and the
``WeightNorm`` object itself is registered as a forward pre-hook that recomputes it before
every forward: so each forward's graph goes through ``weight_g`` and ``weight_v``, which
are what the optimiser trains. ``dim=None`` takes one norm over the whole tensor.

``remove_weight_norm`` computes the weight once more, deletes both parameters and makes
``weight`` a parameter again (now last in ``_parameters``); the hook stays registered on
the module until then, so a state dict holds ``weight_g`` and ``weight_v``, not ``weight``.

PyTorch 2.13 deprecates this in favour of ``torch.nn.utils.parametrizations.weight_norm``
(a FutureWarning at each ``weight_norm``), which loads these state dicts too.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.weight_norm.html>
"""

from __future__ import annotations

import warnings
from typing import Any, TypeVar

from ..._ops.weight_norm import _weight_norm, norm_except_dim
from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["WeightNorm", "remove_weight_norm", "weight_norm"]


class WeightNorm:
    """The forward pre-hook: ``module.<name> = _weight_norm(<name>_v, <name>_g, dim)``."""

    name: str
    dim: int

    def __init__(self, name: str, dim: int | None) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Any:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int | None) -> WeightNorm:
        """Re-parametrise ``module.<name>``, as described at the top of this file."""
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning,
                      stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError(
                "The module passed to `WeightNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2,
                                                                         fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


ModuleType = TypeVar("ModuleType", bound=Module)


def weight_norm(module: ModuleType, name: str = "weight", dim: int | None = 0) -> ModuleType:
    """Split ``module.<name>`` into ``<name>_g`` and ``<name>_v``, recombined by a forward
    pre-hook; returns the module.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.weight_norm.html>
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: ModuleType, name: str = "weight") -> ModuleType:
    """Make ``module.<name>`` a parameter again, with its current value, and drop the hook.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.remove_weight_norm.html>
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
