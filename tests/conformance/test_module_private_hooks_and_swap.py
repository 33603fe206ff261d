"""The hook APIs PyTorch's own tests use beyond the public ones: the private
``_register_load_state_dict_pre_hook(hook, with_module)`` and ``_register_state_dict_hook``,
``nn.Buffer``, and the ``torch.__future__`` switches that make ``Module._apply`` and
``load_state_dict`` swap a parameter's content (``torch.utils.swap_tensors``) or replace
it. Each scenario runs on minitorch_hooks and on real PyTorch (see ``harness.py``)."""

from __future__ import annotations

import copy
import gc
import pickle
import weakref

import pytest
from harness import assert_same_outcome
from module_support import modules


def _record(events, name):
    return lambda *args: events.append((name, len(args), [type(a).__name__ for a in args[:2]]))


# -- the private load-state-dict pre-hook ---------------------------------------------------------

@pytest.mark.parametrize("with_module", [False, True, None])
def test_private_load_pre_hook_gets_the_module_only_with_module(with_module):
    def scenario(torch):
        outer = modules(torch).Outer()
        events = []

        def hook(*args):  # (module,) state_dict, prefix, metadata, strict, missing, ...
            state_dict, prefix = args[-7], args[-6]
            events.append((len(args), args[0] is outer.inner, list(state_dict), prefix))
        if with_module is None:  # the argument left out: no module
            outer.inner._register_load_state_dict_pre_hook(hook)
        else:
            outer.inner._register_load_state_dict_pre_hook(hook, with_module)
        outer.load_state_dict(outer.state_dict())
        return events

    assert_same_outcome(scenario)


def test_private_and_public_load_pre_hooks_fire_in_registration_order():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        scale._register_load_state_dict_pre_hook(_record(events, "private"))
        scale.register_load_state_dict_pre_hook(_record(events, "public"))
        scale._register_load_state_dict_pre_hook(_record(events, "private+module"), True)
        handle = scale._register_load_state_dict_pre_hook(_record(events, "removed"))
        handle.remove()
        scale.load_state_dict(scale.state_dict())
        return events

    assert_same_outcome(scenario)


def test_a_failing_private_load_pre_hook_leaves_the_module_loadable():
    def scenario(torch):
        scale = modules(torch).Scale()

        def fail(*args):
            raise ValueError("refused")
        handle = scale._register_load_state_dict_pre_hook(fail)
        outcome = []
        try:
            scale.load_state_dict({"w": torch.tensor([5.0, 6.0])})
        except ValueError as error:
            outcome.append(str(error))
        handle.remove()
        scale.load_state_dict({"w": torch.tensor([5.0, 6.0])})
        return outcome, scale.w

    assert_same_outcome(scenario)


@pytest.mark.parametrize("with_module", [False, True])
def test_private_load_pre_hook_survives_pickle_and_deepcopy(with_module):
    def scenario(torch):
        scale = torch.nn.Linear(2, 2)
        scale._register_load_state_dict_pre_hook(_module_level_hook, with_module)
        revived = pickle.loads(pickle.dumps(scale))
        copied = copy.deepcopy(scale)
        _module_level_hook.seen.clear()
        revived.load_state_dict(scale.state_dict())
        copied.load_state_dict(scale.state_dict())
        return [(n, first is revived, first is copied) for n, first in _module_level_hook.seen]

    assert_same_outcome(scenario)


def _module_level_hook(*args):
    _module_level_hook.seen.append((len(args), args[0]))


_module_level_hook.seen = []


def test_private_load_pre_hook_keeps_no_reference_to_its_module():
    def scenario(torch):
        gc.disable()
        try:
            linear = torch.nn.Linear(2, 2)
            linear._register_load_state_dict_pre_hook(_module_level_hook, True)
            ref = weakref.ref(linear)
            del linear
            return ref() is None
        finally:
            gc.enable()

    assert_same_outcome(scenario)


# -- the private state-dict post-hook -------------------------------------------------------------

def test_private_state_dict_hook_may_return_a_new_dict_at_the_root_only():
    def scenario(torch):
        outer = modules(torch).Outer()
        outer._register_state_dict_hook(lambda m, sd, prefix, meta: {"root": len(sd)})
        outer.inner._register_state_dict_hook(lambda m, sd, prefix, meta: {"dropped": 1})
        at_root = outer.state_dict()
        from_child = outer.inner.state_dict()
        return at_root, from_child

    assert_same_outcome(scenario)


def test_a_public_post_hook_cannot_be_registered_privately_and_must_return_none():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []

        def hook(module, sd, prefix, meta):
            events.append(list(sd))

        scale.register_state_dict_post_hook(hook)
        try:
            scale._register_state_dict_hook(hook)
        except RuntimeError as error:
            events.append(str(error))

        def returns(module, sd, prefix, meta):
            return {}
        scale._register_state_dict_hook(returns)
        events.append(dict(scale.state_dict()))
        scale.register_state_dict_post_hook(returns)  # now marked: returning is refused
        try:
            scale.state_dict()
        except RuntimeError as error:
            events.append(str(error))
        return events

    assert_same_outcome(scenario)


def test_public_post_hook_refuses_a_bound_method():
    def scenario(torch):
        class WithHook(torch.nn.Module):
            def hook(self, module, sd, prefix, meta):
                pass
        module = WithHook()
        module.register_state_dict_post_hook(module.hook)

    assert_same_outcome(scenario)


# -- nn.Buffer ------------------------------------------------------------------------------------

def test_buffer_is_a_marked_detached_tensor():
    def scenario(torch):
        source = torch.tensor([1.0, 2.0], requires_grad=True)
        buffer = torch.nn.Buffer(source, persistent=False)
        empty = torch.nn.Buffer()
        return (type(buffer).__name__, buffer.persistent, buffer.requires_grad, buffer.is_leaf,
                buffer.grad_fn, isinstance(buffer, torch.nn.Buffer),
                isinstance(source, torch.nn.Buffer), isinstance(source, torch.nn.Parameter),
                torch.nn.parameter.Buffer is torch.nn.Buffer, empty, repr(buffer))

    assert_same_outcome(scenario)


def test_assigning_a_buffer_registers_it_with_its_persistence():
    def scenario(torch):
        module = torch.nn.Module()
        events = []
        torch.nn.modules.module.register_module_buffer_registration_hook(
            lambda m, name, value: events.append(name))
        try:
            module.kept = torch.nn.Buffer(torch.ones(1))
            module.scratch = torch.nn.Buffer(torch.zeros(2), persistent=False)
            module.plain = torch.ones(3)  # a plain tensor is only an attribute
            module.register_buffer("explicit", torch.nn.Buffer(torch.ones(1), persistent=False))
            module.scratch = torch.ones(2)  # stays non-persistent
        finally:
            torch.nn.modules.module._global_buffer_registration_hooks.clear()
        return (events, list(module.state_dict()), [n for n, _ in module.named_buffers()],
                module.scratch)

    assert_same_outcome(scenario)


def test_a_buffer_cannot_replace_a_plain_attribute():
    def scenario(torch):
        module = torch.nn.Module()
        module.taken = 1
        module.taken = torch.nn.Buffer(torch.ones(1))

    assert_same_outcome(scenario)


# -- torch.__future__: swap and overwrite ----------------------------------------------------------

def _with_switch(torch, name, body):
    setter = getattr(torch.__future__, f"set_{name}_module_params_on_conversion")
    getter = getattr(torch.__future__, f"get_{name}_module_params_on_conversion")
    before = getter()
    setter(True)
    try:
        return before, getter(), body()
    finally:
        setter(False)


def _trained_linear(torch):
    linear = torch.nn.Linear(2, 2)
    with torch.no_grad():
        linear.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        linear.bias.copy_(torch.tensor([0.5, -0.5]))
    linear(torch.ones(1, 2)).sum().backward()
    return linear


@pytest.mark.parametrize("switch", ["swap", "overwrite", None])
def test_conversion_keeps_or_replaces_parameters_and_their_hooks(switch):
    def scenario(torch):
        def body():
            linear = _trained_linear(torch)
            weight, grad = linear.weight, linear.weight.grad
            fired = []
            weight.register_hook(lambda g: fired.append("tensor hook"))
            weight.register_post_accumulate_grad_hook(lambda p: fired.append("post-acc"))
            linear.double()
            same = (linear.weight is weight, linear.weight.grad is grad, weight.dtype,
                    linear.weight.dtype, linear.weight.grad.dtype, grad.dtype,
                    type(linear.weight).__name__, linear.weight.requires_grad,
                    linear.weight.is_leaf)
            linear(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
            return same, fired, linear.weight.grad

        if switch is None:
            return body()
        return _with_switch(torch, switch, body)

    assert_same_outcome(scenario)


def test_swap_poisons_a_graph_recorded_before_the_conversion():
    def scenario(torch):
        def body():
            linear = torch.nn.Linear(2, 2)
            y = (linear.bias * 2).sum()
            linear.double()
            y.backward()
        return _with_switch(torch, "swap", body)

    assert_same_outcome(scenario)


def test_swap_refuses_a_weakly_referenced_parameter_and_leaves_it_intact():
    def scenario(torch):
        def body():
            linear = _trained_linear(torch)
            ref = weakref.ref(linear.bias)
            try:
                linear.double()
            except RuntimeError as error:
                failure = (str(error), repr(error.__cause__))
            return (failure, linear.weight.dtype, ref().dtype, ref().grad, ref() is linear.bias)
        return _with_switch(torch, "swap", body)

    assert_same_outcome(scenario)


def test_swap_tensors_exchanges_everything_but_identity():
    def scenario(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.zeros(3, dtype=torch.float64)
        a.note = "a's"
        first, second = a, b
        torch.utils.swap_tensors(a, b)
        return (a is first, b is second, a, b, a.requires_grad, b.requires_grad, b.note,
                hasattr(a, "note"))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("assign", [False, True])
def test_load_state_dict_swaps_when_the_switch_is_on(assign):
    def scenario(torch):
        def body():
            linear = torch.nn.Linear(2, 2)
            linear.register_buffer("count", torch.tensor([1.0]))
            weight, count = linear.weight, linear.count
            weight.requires_grad_(False)
            checkpoint = {"weight": torch.ones(2, 2, dtype=torch.float64),
                          "bias": torch.nn.Parameter(torch.zeros(2)),
                          "count": torch.tensor([7.0], dtype=torch.float64)}
            linear.load_state_dict(checkpoint, assign=assign)
            return (linear.weight is weight, linear.count is count, linear.weight,
                    linear.weight.requires_grad, type(linear.weight).__name__,
                    linear.bias is checkpoint["bias"], linear.count,
                    type(linear.count).__name__)
        return _with_switch(torch, "swap", body)

    assert_same_outcome(scenario)


def test_load_state_dict_reports_a_failed_swap_as_an_error_message():
    def scenario(torch):
        def body():
            linear = torch.nn.Linear(2, 2)
            keep = weakref.ref(linear.bias)
            linear.load_state_dict({"weight": torch.ones(2, 2), "bias": torch.ones(2)})
            return keep
        return _with_switch(torch, "swap", body)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("hold", [
    pytest.param(lambda torch, m: m(torch.ones(1, 2, requires_grad=True)), id="forward kept"),
    pytest.param(lambda torch, m: m.weight[0], id="a view of the weight"),
    pytest.param(lambda torch, m: m.bias[0], id="a view of the bias"),
    pytest.param(lambda torch, m: m.weight.t(), id="a transpose"),
    pytest.param(lambda torch, m: (m.bias * m.bias).sum(), id="the bias saved twice"),
    pytest.param(lambda torch, m: (m.bias * torch.ones(2, requires_grad=True)).sum(),
                 id="the bias saved once"),
    pytest.param(lambda torch, m: m.weight.detach(), id="a detached alias"),
    pytest.param(lambda torch, m: m(torch.ones(1, 2)).sum().backward(), id="after backward"),
])
def test_swap_refuses_a_parameter_that_a_graph_or_a_view_holds(hold):
    def scenario(torch):
        def body():
            linear = torch.nn.Linear(2, 2)
            kept = hold(torch, linear)  # noqa: F841 - what holds the parameter stays alive
            try:
                linear.double()
                outcome = "converted"
            except RuntimeError as error:
                outcome = (str(error), repr(error.__cause__))
            return outcome, linear.weight.dtype, linear.bias.dtype
        return _with_switch(torch, "swap", body)

    assert_same_outcome(scenario)


def test_swap_tensors_of_a_tensor_with_a_view_and_no_grad():
    def scenario(torch):
        a, b = torch.ones(2), torch.zeros(2)
        view = a[0]  # noqa: F841 - kept alive
        torch.utils.swap_tensors(a, b)

    assert_same_outcome(scenario)


def test_load_state_dict_reports_a_parameter_it_cannot_swap():
    def scenario(torch):
        def body():
            linear = torch.nn.Linear(2, 2)
            view = linear.weight[0]  # noqa: F841 - kept alive
            linear.load_state_dict({"weight": torch.ones(2, 2), "bias": torch.ones(2)})
        return _with_switch(torch, "swap", body)

    assert_same_outcome(scenario)
