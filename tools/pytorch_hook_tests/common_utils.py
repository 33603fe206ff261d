"""The least of PyTorch's ``torch.testing._internal.common_utils`` that its hook tests use.

PyTorch's test files import their ``TestCase`` and a few decorators from this module,
which is PyTorch's own test infrastructure, not part of its API, and so not part of
minitorch_hooks. The runner puts this file in its place, under the same name, while it
runs those tests with minitorch_hooks installed as ``torch``. What is here behaves as the
original does for what the hook tests ask of it; a name that is not here is reported as
unavailable by the runner, at the test that uses it.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import itertools
import math
import numbers
import random
import sys
import unittest
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import torch  # minitorch_hooks, installed as torch by the runner before this import

IS_WINDOWS = sys.platform == "win32"
IS_MACOS = sys.platform == "darwin"
TEST_WITH_TORCHDYNAMO = False
SEED = 1234

# torch.testing's default tolerances (rtol, atol) by dtype, for tensors compared with
# assertEqual; a Python float compares as float64.
_TOLERANCES = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
}


def _unchanged(*args: Any, **kwargs: Any) -> Any:
    """A decorator (or decorator factory) that PyTorch uses to skip a test on a
    configuration that is not this one (Dynamo, MPS, XPU, slow runs...): the test runs."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda fn: fn


# PyTorch's names.
skipIfTorchDynamo = slowTest = skipIfMPS = skipIfXpu = skipIfNoLapack = _unchanged  # noqa: N816
skipIfSlowGradcheckEnv = skipIfWindows = skipCUDANonDefaultStreamIf = _unchanged  # noqa: N816
markDynamoStrictTest = xfailIfS390X = _unchanged  # noqa: N816


def set_rng_seed(seed: int | None = None) -> None:
    seed = SEED if seed is None else seed
    torch.manual_seed(seed)
    random.seed(seed)


@contextlib.contextmanager
def disable_gc() -> Iterator[None]:
    if gc.isenabled():
        try:
            gc.disable()
            yield
        finally:
            gc.enable()
    else:
        yield


@contextlib.contextmanager
def set_warn_always_context(new_val: bool) -> Iterator[None]:
    old_val = torch.is_warn_always_enabled()
    torch.set_warn_always(new_val)
    try:
        yield
    finally:
        torch.set_warn_always(old_val)


class parametrize:  # noqa: N801 - PyTorch's name
    """``@parametrize("x", [1, 2])``: expanded by :func:`instantiate_parametrized_tests`."""

    def __init__(self, arg_str: str, arg_values: Sequence[Any],
                 name_fn: Callable[..., str] | None = None) -> None:
        self.arg_names = [name.strip() for name in arg_str.split(",") if name.strip()]
        self.arg_values = list(arg_values)
        self.name_fn = name_fn

    def __call__(self, fn: Callable) -> Callable:
        fn.__dict__.setdefault("_parametrizations", []).append(self)
        return fn

    def cases(self) -> Iterator[tuple[str, dict[str, Any]]]:
        for values in self.arg_values:
            values = values if len(self.arg_names) > 1 else (values,)
            if self.name_fn is not None:
                name = self.name_fn(*values)
            else:
                name = "_".join(f"{arg}_{_formatted(value)}"
                                for arg, value in zip(self.arg_names, values))
            yield name, dict(zip(self.arg_names, values))


def _formatted(value: Any) -> str:
    if isinstance(value, torch.dtype):
        return str(value).split(".")[-1]
    return str(value).replace(".", "_")


def instantiate_parametrized_tests(cls: type) -> type:
    """Replaces each parametrized ``test_x`` by one ``test_x_<case>`` per combination."""
    for name, fn in list(vars(cls).items()):
        parametrizations = getattr(fn, "_parametrizations", None)
        if not name.startswith("test") or not parametrizations:
            continue
        delattr(cls, name)
        for combination in itertools.product(*(p.cases() for p in reversed(parametrizations))):
            suffix = "_".join(case_name for case_name, _ in combination if case_name)
            kwargs = {k: v for _, case_kwargs in combination for k, v in case_kwargs.items()}

            def case(self: unittest.TestCase, _fn: Callable = fn, _kwargs: dict = kwargs) -> Any:
                return _fn(self, **_kwargs)

            functools.update_wrapper(case, fn)
            case.__name__ = f"{name}_{suffix}" if suffix else name
            del case.__dict__["_parametrizations"]
            setattr(cls, case.__name__, case)
    return cls


def run_tests() -> None:
    unittest.main(module="__main__")


def _difference(actual: Any, expected: Any, atol: float | None, rtol: float | None,
                exact_dtype: bool, path: str = "") -> str | None:
    """Why ``actual`` and ``expected`` are not equal as PyTorch's ``assertEqual`` sees
    it, or None when they are."""
    where = f" at {path}" if path else ""
    if isinstance(actual, torch.Tensor) or isinstance(expected, torch.Tensor):
        return _tensor_difference(actual, expected, atol, rtol, exact_dtype, where)
    if actual is None or expected is None:
        return None if actual is expected else f"{actual!r} != {expected!r}{where}"
    if isinstance(actual, bool) or isinstance(expected, bool):
        same = isinstance(actual, bool) and isinstance(expected, bool) and actual == expected
        return None if same else f"{actual!r} != {expected!r}{where}"
    if isinstance(actual, numbers.Number) and isinstance(expected, numbers.Number):
        if isinstance(actual, numbers.Integral) and isinstance(expected, numbers.Integral):
            return None if actual == expected else f"{actual!r} != {expected!r}{where}"
        default_rtol, default_atol = _TOLERANCES["float64"]
        rtol = default_rtol if rtol is None else rtol
        atol = default_atol if atol is None else atol
        if (math.isnan(abs(actual)) and math.isnan(abs(expected))) or \
                abs(actual - expected) <= atol + rtol * abs(expected):
            return None
        return f"{actual!r} != {expected!r} (rtol={rtol}, atol={atol}){where}"
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        if set(actual) != set(expected):
            return f"keys {sorted(map(str, actual))} != {sorted(map(str, expected))}{where}"
        for key in actual:
            problem = _difference(actual[key], expected[key], atol, rtol, exact_dtype,
                                  f"{path}[{key!r}]")
            if problem:
                return problem
        return None
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            return f"lengths {len(actual)} != {len(expected)}{where}"
        for index, (a, e) in enumerate(zip(actual, expected)):
            problem = _difference(a, e, atol, rtol, exact_dtype, f"{path}[{index}]")
            if problem:
                return problem
        return None
    return None if actual == expected else f"{actual!r} != {expected!r}{where}"


def _dtype_name(tensor: Any) -> str:
    return str(tensor.dtype).removeprefix("torch.")


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _tensor_difference(actual: Any, expected: Any, atol: float | None, rtol: float | None,
                       exact_dtype: bool, where: str) -> str | None:
    tensors = []
    for value in (actual, expected):
        if isinstance(value, torch.Tensor):
            tensors.append(value)
        elif isinstance(value, numbers.Number) or _is_sequence(value):
            # A number or a list compared with a tensor: PyTorch compares values only.
            exact_dtype = False
            tensors.append(torch.tensor(value))
        else:
            return f"cannot compare {type(actual).__name__} with {type(expected).__name__}"
    # A sparse tensor compares by its values, as PyTorch's assertEqual does.
    a, e = (t.detach().to_dense() if getattr(t, "is_sparse", False) else t.detach()
            for t in tensors)
    if a.numel() == 1 and e.numel() == 1 and (a.dim() == 0 or e.dim() == 0):
        a, e = a.reshape(()), e.reshape(())  # a number against a one-element tensor
    if tuple(a.shape) != tuple(e.shape):
        return f"shapes {tuple(a.shape)} != {tuple(e.shape)}{where}"
    if exact_dtype and a.dtype != e.dtype:
        return f"dtypes {a.dtype} != {e.dtype}{where}"
    default_rtol, default_atol = max(_TOLERANCES.get(_dtype_name(a), (0.0, 0.0)),
                                     _TOLERANCES.get(_dtype_name(e), (0.0, 0.0)))
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    a_values, e_values = a.numpy().astype("float64"), e.numpy().astype("float64")
    import numpy

    close = numpy.isclose(a_values, e_values, rtol=rtol, atol=atol, equal_nan=True)
    if close.all():
        return None
    worst = numpy.abs(a_values - e_values)[~close].max()
    return (f"tensor values differ{where}: {int((~close).sum())} of {close.size} elements, "
            f"greatest difference {worst} (rtol={rtol}, atol={atol})\n{a}\n{e}")


class TestCase(unittest.TestCase):
    """PyTorch's TestCase as far as hook tests need it: ``assertEqual`` compares tensors,
    numbers, sequences and mappings as PyTorch's does (tolerances by dtype, dtypes exact
    unless ``exact_dtype=False``), and each test starts from seed 1234."""

    def setUp(self) -> None:
        set_rng_seed()

    def assertEqual(self, x: Any, y: Any, msg: Any = None, *, atol: float | None = None,  # noqa: N802
                    rtol: float | None = None, exact_dtype: bool = True,
                    exact_device: bool = False, equal_nan: bool = True) -> None:
        problem = _difference(x, y, atol, rtol, exact_dtype)
        if problem:
            self.fail(f"{problem}\n{msg}" if msg else problem)

    def assertNotEqual(self, x: Any, y: Any, msg: Any = None, *,  # noqa: N802
                       atol: float | None = None, rtol: float | None = None,
                       exact_dtype: bool = True, **kwargs: Any) -> None:
        if _difference(x, y, atol, rtol, exact_dtype) is None:
            self.fail(msg or f"{x!r} == {y!r}")
