"""The least of PyTorch's ``torch.testing._internal.common_optimizers`` that its optimizer
hook tests use: ``optim_db``, ``optims`` and ``_get_optim_inputs_including_global_cliquey_
kwargs``.

``optim_db`` has the optimizers minitorch_hooks has, each with the configurations
(``optim_inputs_func``) PyTorch 2.13's has for the CPU. ``supported_impls`` says, as in
PyTorch's, which of the flags ``foreach``, ``fused`` and ``differentiable`` the optimizer
accepts, here of minitorch_hooks: ``foreach`` (it computes the same as the loop), not
``fused`` nor ``differentiable``, which it refuses; and ``foreach`` is not tried on the CPU,
where PyTorch has no foreach kernels either.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

import torch  # minitorch_hooks, installed as torch by the runner

FOREACH_DEVICES = ("cuda", "xpu", "mtia")  # PyTorch's _get_foreach_kernels_supported_devices


@dataclass
class OptimizerInput:
    params: Any
    kwargs: dict[str, Any]
    desc: str = ""


def _inputs(*configurations: tuple[str, dict[str, Any]]) -> Any:
    def optim_inputs_func(device: str, dtype: Any = None) -> list[OptimizerInput]:
        return [OptimizerInput(None, deepcopy(kwargs), desc) for desc, kwargs in configurations]
    return optim_inputs_func


def _tensor_lr() -> Any:
    return torch.tensor(0.001)


_ADAM = _inputs(("default", {}), ("non-default lr", {"lr": 0.01}),
                ("nonzero weight_decay", {"weight_decay": 0.1}),
                ("maximize", {"weight_decay": 0.1, "maximize": True}),
                ("amsgrad", {"weight_decay": 0.1, "amsgrad": True}))


def _with_tensor_lr(func: Any, desc: str) -> Any:
    def optim_inputs_func(device: str, dtype: Any = None) -> list[OptimizerInput]:
        return func(device, dtype) + [OptimizerInput(None, {"lr": _tensor_lr()}, desc)]
    return optim_inputs_func


@dataclass
class OptimizerInfo:
    optim_cls: type
    optim_inputs_func: Any
    supported_impls: tuple[str, ...] = ("foreach",)
    supports_fused_on: tuple[str, ...] = ()
    step_requires_closure: bool = False
    only_supports_sparse_grads: bool = False
    optim_error_inputs_func: Any = None
    scheduler_inputs: list = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.optim_cls.__name__


optim_db = [
    OptimizerInfo(torch.optim.Adagrad, _with_tensor_lr(_inputs(
        ("default", {}), ("nonzero weight_decay", {"weight_decay": 0.1}),
        ("maximize", {"weight_decay": 0.1, "maximize": True}),
        ("non-default lr", {"lr": 0.1}),
        ("initial_accumulator_value", {"initial_accumulator_value": 0.1, "weight_decay": 0.1}),
        ("lr_decay", {"lr": 0.1, "lr_decay": 0.5, "weight_decay": 0.1})), "Tensor lr")),
    OptimizerInfo(torch.optim.Adam, _ADAM),
    OptimizerInfo(torch.optim.AdamW, _ADAM),
    OptimizerInfo(torch.optim.RMSprop, _inputs(
        ("default", {}), ("non-default lr", {"lr": 1e-3}),
        ("nonzero weight_decay", {"weight_decay": 0.1}), ("maximize", {"maximize": True}),
        ("centered", {"weight_decay": 0.1, "centered": True}),
        ("maximize, weight_decay", {"maximize": True, "weight_decay": 0.1}),
        ("momentum", {"weight_decay": 0.1, "centered": True, "momentum": 0.1}),
        ("maximize, centered, weight_decay, w/ momentum",
         {"weight_decay": 0.1, "centered": True, "momentum": 0.1, "maximize": True}))),
    OptimizerInfo(torch.optim.SGD, _inputs(
        ("default", {}), ("non-default lr", {"lr": 1e-2}), ("tensor lr", {"lr": _tensor_lr()}),
        ("non-zero weight_decay", {"weight_decay": 0.5}), ("momentum", {"momentum": 0.9}),
        ("maximize", {"weight_decay": 0.1, "maximize": True}),
        ("dampening", {"momentum": 0.9, "dampening": 0.5}),
        ("weight_decay w/ momentum", {"momentum": 0.9, "weight_decay": 0.1}),
        ("nesterov", {"momentum": 0.9, "nesterov": True, "weight_decay": 0.1}))),
]


def _get_device_type(device: Any) -> str:
    return str(device).split(":")[0]


def _get_optim_inputs_including_global_cliquey_kwargs(
        device: str, dtype: Any, optim_info: OptimizerInfo, skip: tuple = ()
) -> list[OptimizerInput]:
    """Each configuration with every supported flag False, then with each one True, as
    PyTorch's does."""
    supported = [flag for flag in optim_info.supported_impls if flag not in skip
                 and (flag != "fused" or _get_device_type(device) in optim_info.supports_fused_on)
                 and (flag != "foreach" or _get_device_type(device) in FOREACH_DEVICES)]
    all_inputs = []
    for optim_input in optim_info.optim_inputs_func(device):
        base = deepcopy(optim_input.kwargs)
        base.update(dict.fromkeys(supported, False))
        all_inputs.append(OptimizerInput(None, base, optim_input.desc))
        for flag in supported:
            all_inputs.append(OptimizerInput(None, {**deepcopy(base), flag: True},
                                             f"{optim_input.desc} & {flag}"))
    return all_inputs


class optims:  # noqa: N801 - PyTorch's name
    """``@optims(optim_db, dtypes=[torch.float32])``: one test instance per optimizer and
    dtype, named ``test_x_SGD_cpu_float32`` by ``instantiate_device_type_tests``."""

    def __init__(self, optim_info_iterable: Any, dtypes: Any = None) -> None:
        self.optim_infos = list(optim_info_iterable)
        self.dtypes = list(dtypes) if dtypes is not None else [None]

    def __call__(self, fn: Any) -> Any:
        def cases() -> list[tuple[str, str, dict[str, Any]]]:
            return [(info.name, str(dtype).removeprefix("torch."),
                     {"dtype": dtype, "optim_info": info})
                    for info in self.optim_infos for dtype in self.dtypes]

        fn._device_parametrization = cases
        return fn
