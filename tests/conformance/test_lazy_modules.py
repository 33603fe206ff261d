"""``nn.LazyLinear`` and ``LazyModuleMixin`` against real PyTorch: the forward pre-hook
that initialises the parameters at the first call and then removes itself, the
load-state-dict pre-hook that materialises them from a checkpoint, ``cls_to_become``,
``UninitializedParameter``, state dicts, reprs, and the initial values drawn from the
generator (bit for bit those of ``Linear``)."""

from __future__ import annotations

import copy

import pytest
from harness import assert_same_outcome


def _hooks(module):
    return (len(module._forward_pre_hooks), list(module._forward_pre_hooks_with_kwargs.values()),
            len(module._load_state_dict_pre_hooks), hasattr(module, "_initialize_hook"),
            hasattr(module, "_load_hook"))


def test_before_the_first_call():
    def scenario(torch):
        lazy = torch.nn.LazyLinear(3)
        weight = lazy.weight
        return (repr(lazy), type(lazy).__name__, lazy.in_features, repr(weight),
                type(weight).__name__, weight.requires_grad, weight.dtype, weight.size(),
                lazy.has_uninitialized_params(), _hooks(lazy),
                {k: repr(v) for k, v in lazy.state_dict().items()},
                isinstance(weight, torch.nn.Parameter),
                torch.nn.parameter.is_lazy(weight), torch.nn.parameter.is_lazy(torch.ones(1)),
                isinstance(lazy, torch.nn.modules.lazy.LazyModuleMixin),
                isinstance(lazy, torch.nn.Linear), torch.nn.LazyLinear.cls_to_become.__name__,
                repr(torch.nn.LazyLinear(2, bias=False)), [n for n, _ in lazy.named_parameters()])

    assert_same_outcome(scenario)


def test_the_shape_of_an_uninitialized_parameter_is_an_error():
    assert_same_outcome(lambda torch: torch.nn.LazyLinear(3).weight.shape)


@pytest.mark.parametrize("input_shape", [(2, 4), (4,), (2, 5, 3)], ids=str)
def test_the_first_call_initialises_like_linear_and_becomes_one(input_shape):
    def scenario(torch):
        torch.manual_seed(0)
        lazy = torch.nn.LazyLinear(3)
        torch.manual_seed(0)
        eager = torch.nn.Linear(input_shape[-1], 3)
        x = torch.ones(*input_shape, requires_grad=True)
        out = lazy(x)
        out.sum().backward()
        return (type(lazy).__name__, repr(lazy), lazy.in_features, lazy.weight, lazy.bias,
                torch.equal(lazy.weight, eager.weight), torch.equal(lazy.bias, eager.bias),
                out, x.grad, lazy.weight.grad, type(lazy.weight).__name__, _hooks(lazy),
                lazy.has_uninitialized_params(), list(lazy.state_dict()))

    assert_same_outcome(scenario)


def test_the_initialising_hook_runs_first_and_only_once():
    def scenario(torch):
        lazy = torch.nn.LazyLinear(2)
        events = []
        lazy.register_forward_pre_hook(
            lambda m, args: events.append(("pre", type(m).__name__, m.in_features)))
        lazy.register_forward_hook(
            lambda m, args, out: events.append(("fwd", type(m).__name__, tuple(out.shape))))
        lazy.register_forward_pre_hook(
            lambda m, args: events.append(("prepended", m.in_features)), prepend=True)
        lazy(torch.ones(1, 5))
        lazy(torch.ones(1, 5))
        return events, _hooks(lazy)

    assert_same_outcome(scenario)


def test_a_hook_that_fails_before_initialisation_leaves_the_module_lazy():
    def scenario(torch):
        lazy = torch.nn.LazyLinear(2)

        def fail(module, args):
            raise ValueError("refused")

        handle = lazy.register_forward_pre_hook(fail, prepend=True)
        try:
            lazy(torch.ones(1, 3))
        except ValueError as error:
            failure = str(error)
        state = (type(lazy).__name__, lazy.has_uninitialized_params(), _hooks(lazy))
        handle.remove()
        lazy(torch.ones(1, 3))
        return failure, state, type(lazy).__name__, lazy.in_features

    assert_same_outcome(scenario)


def test_a_lazy_module_loads_a_checkpoint_without_a_forward():
    def scenario(torch):
        torch.manual_seed(1)
        trained = torch.nn.Linear(4, 2)
        lazy = torch.nn.LazyLinear(2)
        events = []
        lazy.register_load_state_dict_post_hook(
            lambda m, keys: events.append((type(m).__name__, m.has_uninitialized_params())))
        keys = lazy.load_state_dict(trained.state_dict())
        first = (repr(keys), events, type(lazy).__name__, lazy.weight, _hooks(lazy),
                 repr(lazy))
        lazy(torch.ones(1, 4))
        return first, type(lazy).__name__, repr(lazy), _hooks(lazy)

    assert_same_outcome(scenario)


def test_an_uninitialised_checkpoint_cannot_load_into_a_linear():
    assert_same_outcome(
        lambda torch: torch.nn.Linear(4, 3).load_state_dict(torch.nn.LazyLinear(3).state_dict()))


def test_materialize_and_copies_of_uninitialized_tensors():
    def scenario(torch):
        parameter = torch.nn.UninitializedParameter(requires_grad=False)
        copied = copy.deepcopy(parameter)
        buffer = torch.nn.UninitializedBuffer()
        shown = (repr(parameter), repr(copied), type(copied).__name__, copied.requires_grad,
                 repr(buffer), buffer.requires_grad)
        parameter.materialize((2, 3))
        buffer.materialize(4, dtype=torch.float64)
        lazy_copy = copy.deepcopy(torch.nn.LazyLinear(2))
        return (shown, type(parameter).__name__, parameter.shape, parameter.requires_grad,
                type(buffer).__name__, buffer.shape, buffer.dtype, type(lazy_copy).__name__,
                lazy_copy.has_uninitialized_params(), _hooks(lazy_copy))

    assert_same_outcome(scenario)


def test_lazy_linear_inside_a_model_with_a_trace_of_its_hook():
    def scenario(torch):
        from minitorch_hooks import hook_trace
        torch.manual_seed(0)
        with hook_trace(torch=torch) as recorded:
            model = torch.nn.Sequential(torch.nn.LazyLinear(2), torch.nn.GELU())
            model(torch.ones(1, 3)).sum().backward()
            model(torch.ones(1, 3))
        return [event.line() for event in recorded.events], repr(model)

    assert_same_outcome(scenario)


def test_an_input_that_does_not_fit_the_loaded_checkpoint():
    def scenario(torch):
        lazy = torch.nn.LazyLinear(2)
        lazy.load_state_dict(torch.nn.Linear(4, 2).state_dict())
        try:
            lazy(torch.ones(1, 3))
        except AssertionError as error:
            return str(error), type(lazy).__name__, _hooks(lazy)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda module: module(1, b=2), id="keyword"),
    pytest.param(lambda module: module(a=1), id="all keywords"),
    pytest.param(lambda module: module(1, 2), id="positional"),
])
def test_a_custom_lazy_module_gets_the_call_s_keyword_arguments(call):
    def scenario(torch):
        class Lazy(torch.nn.modules.lazy.LazyModuleMixin, torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.c = 100

            def initialize_parameters(self, a, b=1):
                self.c = 100 if b == 1 else 200

            def forward(self, a, b=1):
                return a + b + self.c

        module = Lazy()
        return call(module), type(module).__name__, _hooks(module)

    assert_same_outcome(scenario)


def test_a_lazy_module_without_initialize_parameters():
    def scenario(torch):
        class Lazy(torch.nn.modules.lazy.LazyModuleMixin, torch.nn.Module):
            def forward(self, x):
                return x

        module = Lazy()
        try:
            module(torch.ones(1))
        except NotImplementedError as error:
            return str(error), _hooks(module)

    assert_same_outcome(scenario)
