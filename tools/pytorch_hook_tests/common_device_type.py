"""The least of PyTorch's ``torch.testing._internal.common_device_type`` that its optimizer
hook tests use: ``instantiate_device_type_tests`` for the CPU, which is the one device
minitorch_hooks has, and the decorators that choose devices."""

from __future__ import annotations

import functools
import unittest
from collections.abc import Callable
from typing import Any

DEVICE = "cpu"


def onlyCPU(fn: Callable) -> Callable:  # noqa: N802 - PyTorch's name
    return fn


def onlyCUDA(fn: Callable) -> Callable:  # noqa: N802 - PyTorch's name
    return unittest.skip("Only runs on cuda")(fn)


def _device_cases(fn: Callable) -> list[tuple[str, dict[str, Any]]]:
    """The names and arguments of a generic test's instances on the CPU: one per
    ``@optims`` case (optimizer and dtype), or one with only the device."""
    cases = getattr(fn, "_device_parametrization", None)
    if cases is None:
        return [(DEVICE, {"device": DEVICE})]
    return [(f"{suffix}_{DEVICE}_{dtype_suffix}", {"device": DEVICE, **arguments})
            for suffix, dtype_suffix, arguments in cases()]


def instantiate_device_type_tests(generic_test_class: type, scope: dict, **kwargs: Any) -> None:
    """Replaces ``TestX`` in ``scope`` by ``TestXCPU`` whose tests are the generic ones
    with ``device='cpu'`` (and each ``@optims`` case) passed, named as PyTorch names them:
    ``test_step_pre_hook_SGD_cpu_float32``."""
    members: dict[str, Any] = {}
    for name, value in vars(generic_test_class).items():
        if not (name.startswith("test") and callable(value)):
            continue
        members[name] = None  # the generic test is not run itself, only its instances
        for suffix, arguments in _device_cases(value):
            def instance(self: unittest.TestCase, _fn: Callable = value,
                         _arguments: dict = arguments, **parametrized: Any) -> Any:
                return _fn(self, **_arguments, **parametrized)  # @parametrize's too

            functools.update_wrapper(instance, value)
            instance.__name__ = f"{name}_{suffix}"
            members[instance.__name__] = instance
    device_class = type(f"{generic_test_class.__name__}CPU", (generic_test_class,), members)
    device_class.__module__ = generic_test_class.__module__
    del scope[generic_test_class.__name__]
    scope[device_class.__name__] = device_class
