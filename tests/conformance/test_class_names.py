"""Every public class says where it lives as PyTorch's does, against real PyTorch:
``type(t)`` is ``<class 'minitorch_hooks.Tensor'>`` where PyTorch prints ``<class
'torch.Tensor'>``, and ``nn.Linear`` is ``minitorch_hooks.nn.modules.linear.Linear`` as
PyTorch's is ``torch.nn.modules.linear.Linear``. The package's name is the one difference
(the left-out page says so); the comparison reads it as ``torch``.

A class's module and qualified name are also how ``pickle`` finds it again, so each
class must still be importable from the module it names: the round trip is checked too.
"""

from __future__ import annotations

import importlib
import inspect
import pickle

import pytest
from harness import assert_same_outcome

import minitorch_hooks

NAMESPACES = ["", ".nn", ".nn.modules", ".nn.utils", ".nn.parallel", ".optim", ".utils.data",
              ".return_types", ".distributions", ".distributions.constraints", "._C"]
# Modules whose public names are not all PyTorch's (our own helpers, not underscored, sit
# beside them): PyTorch's classes there.
CLASSES = {
    ".nn.parameter": ["Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter"],
    ".autograd": ["Function", "enable_grad", "no_grad", "set_grad_enabled"],
    ".autograd.graph": ["Node", "save_on_cpu", "saved_tensors_hooks",
                        "disable_saved_tensors_hooks"],
    ".autograd.function": ["Function", "FunctionCtx", "BackwardCFunction"],
    ".utils.hooks": ["BackwardHook", "RemovableHandle"],
}


def public_classes(namespace: str) -> list[str]:
    """The public classes minitorch_hooks has in ``namespace`` (its ``__all__``, where it
    has one), each of which must be PyTorch's too."""
    module = importlib.import_module("minitorch_hooks" + namespace)
    names = CLASSES.get(namespace) or getattr(module, "__all__", [
        n for n in dir(module) if not n.startswith("_")])
    return sorted(name for name in names if inspect.isclass(getattr(module, name))
                  and getattr(module, name).__module__.startswith("minitorch_hooks"))


def as_torch(name: str) -> str:
    return name.replace("minitorch_hooks", "torch", 1)


@pytest.mark.parametrize("namespace", NAMESPACES + list(CLASSES))
def test_a_public_class_names_its_public_module(namespace):
    names = public_classes(namespace)

    def scenario(torch):
        module = importlib.import_module(torch.__name__ + namespace)
        return {name: as_torch(f"{cls.__module__}.{cls.__qualname__}")
                for name in names for cls in [getattr(module, name)]}

    assert_same_outcome(scenario)


def test_the_types_of_everyday_values_print_as_pytorchs():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        values = [x, x.shape, x.dtype, x.device, torch.Generator(), torch.nn.Parameter(x),
                  x.max(0), torch.nn.Linear(1, 1), torch.nn.MultiheadAttention(4, 2),
                  torch.autograd.graph.saved_tensors_hooks(id, id), x.register_hook(id)]
        return [as_torch(repr(type(value))) for value in values] + [
            as_torch(repr(torch._C.TensorBase))]

    assert_same_outcome(scenario)


@pytest.mark.parametrize("namespace", NAMESPACES + list(CLASSES))
def test_each_class_is_found_where_it_says_it_lives(namespace):
    """What ``pickle`` does with a class: import its module, look its name up. A class that
    PyTorch binds only under another name is not found there, as PyTorch's is not
    (``test_the_engine_is_bound_under_another_name_than_its_own``)."""
    for name in public_classes(namespace):
        cls = getattr(importlib.import_module("minitorch_hooks" + namespace), name)
        home = importlib.import_module(cls.__module__)
        if (namespace, name) in BOUND_UNDER_ANOTHER_NAME:
            assert not hasattr(home, cls.__qualname__), (name, cls.__module__)
            with pytest.raises(pickle.PicklingError):
                pickle.dumps(cls)
            continue
        assert getattr(home, cls.__qualname__) is cls, (name, cls.__module__)
        assert pickle.loads(pickle.dumps(cls)) is cls


# PyTorch's C++ engine class calls itself torch._C._EngineBase, but torch._C binds it as
# _ImperativeEngine only.
BOUND_UNDER_ANOTHER_NAME = {("._C", "_ImperativeEngine")}


def test_the_engine_is_bound_under_another_name_than_its_own():
    def scenario(torch):
        engine = torch.autograd.Variable._execution_engine
        try:
            pickled = pickle.loads(pickle.dumps(type(engine))) is type(engine)
        except pickle.PicklingError as error:
            pickled = str(error).replace("minitorch_hooks", "torch")
        return (as_torch(repr(type(engine))), type(engine) is torch._C._ImperativeEngine,
                hasattr(torch._C, "_EngineBase"), pickled)

    assert_same_outcome(scenario)


def test_values_of_the_renamed_classes_survive_a_pickle_round_trip():
    x = minitorch_hooks.ones(2)
    for value in (x.shape, x.dtype, x.device, minitorch_hooks.nn.MultiheadAttention(4, 2)):
        assert type(pickle.loads(pickle.dumps(value))) is type(value)
