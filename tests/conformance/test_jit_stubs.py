"""``torch.jit`` as Python code meets it without compiling, against real PyTorch: the
decorators return the function itself, marked; ``is_scripting``/``is_tracing`` are False;
no module is a ``ScriptModule``. (``script`` and ``trace`` themselves, which compile, are
checked in ``test_script_and_trace_are_not_implemented_deviation``.)"""

from __future__ import annotations

import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome

import minitorch_hooks


def _function():
    def add_one(x):
        return x + 1

    return add_one


def test_not_scripting_and_not_tracing():
    def scenario(torch):
        return torch.jit.is_scripting(), torch.jit.is_tracing()

    assert_same_outcome(scenario)


DECORATORS = {
    "ignore": lambda torch: torch.jit.ignore,
    "ignore()": lambda torch: torch.jit.ignore(),
    "ignore(drop=False)": lambda torch: torch.jit.ignore(drop=False),
    "ignore(drop=True)": lambda torch: torch.jit.ignore(drop=True),
    "ignore(True)": lambda torch: torch.jit.ignore(True),
    "ignore(drop_on_export=True)": lambda torch: torch.jit.ignore(drop_on_export=True),
    "unused": lambda torch: torch.jit.unused,
    "export": lambda torch: torch.jit.export,
}


@pytest.mark.parametrize("decorator", DECORATORS.values(), ids=DECORATORS.keys())
def test_a_decorator_returns_the_function_itself_marked(decorator):
    def scenario(torch):
        fn = _function()
        decorated = decorator(torch)(fn)
        return decorated is fn, fn._torchscript_modifier, decorated(torch.ones(2))

    assert_same_outcome(scenario)


def test_decorated_methods_run_as_python_and_keep_hooks():
    def scenario(torch):
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(2, 2)

            @torch.jit.ignore
            def debug(self, x):
                return x.sum()

            @torch.jit.unused
            def slow_path(self, x):
                return x * 2

            @torch.jit.export
            def forward(self, x):
                if torch.jit.is_scripting():
                    return self.fc(x)
                return self.slow_path(self.fc(x)) + self.debug(x)

        calls = []
        net = Net()
        net.fc.register_forward_hook(lambda m, i, o: calls.append(tuple(o.shape)))
        out = net(torch.ones(1, 2))
        return calls, tuple(out.shape), isinstance(net, torch.jit.ScriptModule)

    assert_same_outcome(scenario)


def test_unused_on_a_property_marks_its_getter_and_setter():
    def scenario(torch):
        def get(self):
            return 1

        def put(self, value):
            pass

        prop = property(get, put)
        return (torch.jit.unused(prop) is prop, get._torchscript_modifier,
                put._torchscript_modifier)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("argument", [1, "x", None])
def test_ignore_refuses_a_non_bool_argument(argument):
    assert_same_outcome(lambda torch: torch.jit.ignore(argument))


def test_script_module_classes_for_isinstance():
    def scenario(torch):
        return (issubclass(torch.jit.ScriptModule, torch.nn.Module),
                issubclass(torch.jit.RecursiveScriptModule, torch.jit.ScriptModule),
                isinstance(torch.nn.Linear(1, 1), torch.jit.ScriptModule),
                isinstance(_function(), torch.jit.ScriptFunction),
                torch.jit.annotate(list, [1]), torch.jit.Final.__module__)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("compile_it", ["script", "trace"])
def test_script_and_trace_are_not_implemented_deviation(compile_it):
    """DEVIATION: minitorch_hooks has no TorchScript compiler. ``torch.jit.script`` and
    ``torch.jit.trace`` give PyTorch 2.13's DeprecationWarning, then raise
    NotImplementedError naming what is missing, where PyTorch compiles the module."""
    def scenario(torch):
        model = torch.nn.Linear(2, 1)
        if compile_it == "script":
            return type(torch.jit.script(model)).__name__
        return type(torch.jit.trace(model, torch.ones(1, 2))).__name__

    theirs, their_warnings = pytorch_outcome(scenario)
    ours, our_warnings = outcome(scenario, minitorch_hooks)
    assert theirs in ("RecursiveScriptModule", "TopLevelTracedModule")
    assert tuple(our_warnings[0]) == tuple(their_warnings[0]) == (
        "DeprecationWarning",
        f"`torch.jit.{compile_it}` is deprecated. Please switch to `torch.compile` or "
        "`torch.export`.")
    assert (ours.type, ours.message) == (
        "NotImplementedError",
        f"torch.jit.{compile_it} is not implemented by minitorch_hooks: there is no "
        f"TorchScript {'compiler' if compile_it == 'script' else 'tracer'}; call the module "
        "itself")
