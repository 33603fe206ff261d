"""Bad input at module level: hooks that cannot be called, hooks that raise, hooks that
return the wrong thing. Where PyTorch's behaviour is the reference the scenario runs on
both libraries (see ``conformance/harness.py``); the one documented deviation, refusing a
non-callable hook at registration, is asserted explicitly."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome, outcome, pytorch_answer
from module_support import grads, modules, reset_global_backward_hook_kind, x2

import minitorch_hooks


def _global(torch):
    return torch.nn.modules.module


def _call_and_backward(torch, module):
    x = x2(torch)
    module(x).sum().backward()
    return x.grad


def _round_trip(torch, module):
    return repr(module.load_state_dict(module.state_dict()))


def _register_parameter(torch, module):
    module.extra = torch.nn.Parameter(torch.ones(1))


# Every way to register a hook: how to register ``hook`` on a module (``mod``), and what
# makes it fire. Global hooks are registered on the ``nn.modules.module`` namespace.
HOOK_KINDS = {
    "forward_pre": (lambda torch, mod, hook: mod.register_forward_pre_hook(hook),
                    _call_and_backward),
    "forward_pre_kwargs": (lambda torch, mod, hook: mod.register_forward_pre_hook(
        hook, with_kwargs=True), _call_and_backward),
    "forward": (lambda torch, mod, hook: mod.register_forward_hook(hook), _call_and_backward),
    "forward_always": (lambda torch, mod, hook: mod.register_forward_hook(
        hook, always_call=True), _call_and_backward),
    "backward_pre": (lambda torch, mod, hook: mod.register_full_backward_pre_hook(hook),
                     _call_and_backward),
    "backward": (lambda torch, mod, hook: mod.register_full_backward_hook(hook),
                 _call_and_backward),
    "legacy_backward": (lambda torch, mod, hook: mod.register_backward_hook(hook),
                        _call_and_backward),
    "state_dict_pre": (lambda torch, mod, hook: mod.register_state_dict_pre_hook(hook),
                       _round_trip),
    "state_dict_post": (lambda torch, mod, hook: mod.register_state_dict_post_hook(hook),
                        _round_trip),
    "load_pre": (lambda torch, mod, hook: mod.register_load_state_dict_pre_hook(hook),
                 _round_trip),
    "load_post": (lambda torch, mod, hook: mod.register_load_state_dict_post_hook(hook),
                  _round_trip),
    "private_state_dict_post": (lambda torch, mod, hook: mod._register_state_dict_hook(hook),
                                _round_trip),
    "private_load_pre": (lambda torch, mod, hook: mod._register_load_state_dict_pre_hook(
        hook, with_module=True), _round_trip),
    "global_forward_pre": (lambda torch, mod, hook: _global(torch).
                           register_module_forward_pre_hook(hook), _call_and_backward),
    "global_forward": (lambda torch, mod, hook: _global(torch).
                       register_module_forward_hook(hook), _call_and_backward),
    "global_backward_pre": (lambda torch, mod, hook: _global(torch).
                            register_module_full_backward_pre_hook(hook), _call_and_backward),
    "global_backward": (lambda torch, mod, hook: _global(torch).
                        register_module_full_backward_hook(hook), _call_and_backward),
    "global_legacy_backward": (lambda torch, mod, hook: _global(torch).
                               register_module_backward_hook(hook), _call_and_backward),
    "global_module_registration": (lambda torch, mod, hook: _global(torch).
                                   register_module_module_registration_hook(hook),
                                   lambda torch, mod: mod.add_module("sub", torch.nn.Module())),
    "global_parameter_registration": (lambda torch, mod, hook: _global(torch).
                                      register_module_parameter_registration_hook(hook),
                                      _register_parameter),
    "global_buffer_registration": (lambda torch, mod, hook: _global(torch).
                                   register_module_buffer_registration_hook(hook),
                                   lambda torch, mod: mod.register_buffer("b", torch.ones(1))),
}


# -- non-callable hooks --------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(HOOK_KINDS))
def test_a_non_callable_hook_is_refused_at_registration_deviation(kind):
    """DEVIATION (documented in ``utils/hooks.py: check_callable``): PyTorch accepts a
    non-callable hook and raises ``TypeError: 'int' object is not callable`` only when it
    fires (``register_state_dict_post_hook`` fails at once, with an AttributeError from
    marking the hook). minitorch_hooks raises TypeError at registration, pointing at the
    mistake, and the module is left as it was."""
    register, trigger = HOOK_KINDS[kind]

    def scenario(torch):
        module = modules(torch).Scale()
        events = []
        reset_global_backward_hook_kind(torch)
        try:
            handle = register(torch, module, 5)
        except (TypeError, AttributeError) as error:
            events.append(("at registration", type(error).__name__, str(error)))
            trigger(torch, module)
            return events
        try:
            trigger(torch, module)
        except TypeError as error:
            events.append(("when fired", str(error)))
        finally:
            handle.remove()
            reset_global_backward_hook_kind(torch)
        return events

    torch_events = pytorch_answer(lambda torch: outcome(scenario, torch)[0])
    our_events, _ = outcome(scenario, minitorch_hooks)
    if kind == "state_dict_post":
        assert torch_events == [["at registration", "AttributeError",
                                 "'int' object has no attribute '_from_public_api'"]]
    else:
        assert torch_events == [["when fired", "'int' object is not callable"]]
    assert our_events == [("at registration", "TypeError",
                           "hook must be callable, but got 'int'")]


# -- hooks that raise -----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(HOOK_KINDS))
def test_a_hook_that_raises_leaves_the_module_usable(kind):
    """The error propagates; the next call runs every hook again, gives correct gradients
    and leaves no backward-hook state from the failed call behind."""
    register, trigger = HOOK_KINDS[kind]

    def scenario(torch):
        module = modules(torch).Scale()
        events = []
        failures = []

        def flaky(*args):
            events.append(("flaky", len(args)))
            if not failures:
                failures.append("once")
                raise ValueError(f"{kind} hook failed")
            return None

        reset_global_backward_hook_kind(torch)
        legacy = "legacy" in kind
        recorder = (module.register_backward_hook if legacy
                    else module.register_full_backward_hook)
        recorder(lambda mod, gi, go: events.append(("recorder", grads(gi))))
        module.register_forward_hook(lambda *a: events.append("forward hook"))
        handle = register(torch, module, flaky)
        try:
            for attempt in ("first", "second"):
                try:
                    events.append((attempt, trigger(torch, module)))
                except ValueError as error:
                    events.append((attempt, "raised", str(error)))
            handle.remove()
            events.append(("without the hook", trigger(torch, module)))
        finally:
            handle.remove()
            reset_global_backward_hook_kind(torch)
        hook_counts = [len(getattr(module, name)) for name in (
            "_forward_pre_hooks", "_forward_hooks", "_backward_pre_hooks", "_backward_hooks")]
        return events, module.w.grad, hook_counts

    assert_same_outcome(scenario, check_warnings=False)


def test_a_forward_pre_hook_raising_with_backward_hooks_then_a_clean_call():
    def scenario(torch):
        m = modules(torch)
        outer = m.Outer()
        events = []
        outer.inner.register_full_backward_pre_hook(
            lambda mod, go: events.append(("pre", grads(go))))
        outer.inner.register_full_backward_hook(
            lambda mod, gi, go: events.append(("hook", grads(gi), grads(go))))

        def fail(mod, args):
            raise ValueError("pre-hook failed")

        handle = outer.inner.register_forward_pre_hook(fail)
        x = x2(torch)
        try:
            outer(x)
        except ValueError as error:
            events.append(str(error))
        handle.remove()
        outer(x, shift=1.0).sum().backward()
        return events, x.grad, outer.inner.w.grad

    assert_same_outcome(scenario)


def test_forward_raising_after_its_inputs_were_wrapped_then_a_clean_call():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        scale.register_full_backward_hook(lambda mod, gi, go: events.append(grads(gi)))
        calls = []

        def forward(x):
            calls.append(x.grad_fn.name())
            if len(calls) == 1:
                raise ValueError("forward failed")
            return x * scale.w

        scale.forward = forward
        x = x2(torch)
        try:
            scale(x)
        except ValueError as error:
            events.append(str(error))
        scale(x).sum().backward()
        return events, calls, x.grad

    assert_same_outcome(scenario)


# -- hooks that return the wrong thing --------------------------------------------------------

RETURNS = {
    "forward_pre_int": ("forward_pre", lambda torch, x: 5),
    "forward_pre_kwargs_pair_list": ("forward_pre_kwargs", lambda torch, x: [(x,), {}]),
    "forward_pre_kwargs_triple": ("forward_pre_kwargs", lambda torch, x: ((x,), {}, {})),
    "forward_pre_kwargs_none_kwargs": ("forward_pre_kwargs", lambda torch, x: ((x,), None)),
    "forward_pre_kwargs_bad_kwarg": ("forward_pre_kwargs", lambda torch, x: ((x,), {"y": 1})),
    "forward_string": ("forward", lambda torch, x: "not a tensor"),
    "backward_pre_int": ("backward_pre", lambda torch, g: 5),
    "backward_pre_tensor": ("backward_pre", lambda torch, g: g),
    "backward_pre_too_many": ("backward_pre", lambda torch, g: (g, g)),
    "backward_pre_empty": ("backward_pre", lambda torch, g: ()),
    "backward_pre_int_entry": ("backward_pre", lambda torch, g: (5,)),
    "backward_pre_wrong_shape": ("backward_pre", lambda torch, g: (torch.ones(3),)),
    "backward_pre_wrong_dtype": ("backward_pre", lambda torch, g: (g.double(),)),
    "backward_int": ("backward", lambda torch, g: 5),
    "backward_tensor": ("backward", lambda torch, g: g),
    "backward_too_many": ("backward", lambda torch, g: (g, g)),
    "backward_string_entry": ("backward", lambda torch, g: ("grad",)),
    "backward_wrong_shape": ("backward", lambda torch, g: (torch.ones(1, 2),)),
    "backward_list": ("backward", lambda torch, g: [g * 2]),
    "legacy_backward_tensor": ("legacy_backward", lambda torch, g: g),
    "legacy_backward_too_few": ("legacy_backward", lambda torch, g: (g,)),
    "legacy_backward_int": ("legacy_backward", lambda torch, g: 3),
    "state_dict_pre_value": ("state_dict_pre", lambda torch, x: 5),
    "state_dict_post_value": ("state_dict_post", lambda torch, x: {}),
    "load_pre_value": ("load_pre", lambda torch, x: 5),
    "load_post_value": ("load_post", lambda torch, x: []),
    "global_forward_pre_tuple": ("global_forward_pre", lambda torch, x: (x * 0,)),
    "global_forward_int": ("global_forward", lambda torch, x: 7),
}


@pytest.mark.parametrize("case", sorted(RETURNS))
def test_a_hook_returning_the_wrong_thing(case):
    kind, returned = RETURNS[case]
    register, trigger = HOOK_KINDS[kind]

    def scenario(torch):
        module = modules(torch).Scale()

        def hook(mod, first=None, *rest):
            # ``first`` is the args, grad_output or grad_input, where the kind has one
            value = first[0] if isinstance(first, tuple) and first else first
            return returned(torch, value)

        handle = register(torch, module, hook)
        try:
            return trigger(torch, module), module.w.grad
        finally:
            handle.remove()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["tensor", "tuple_of_tensor"])
def test_a_backward_hook_of_a_module_without_input_grads_must_return_none(returned):
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.register_full_backward_hook(
            lambda mod, gi, go: go[0] if returned == "tensor" else (go[0],))
        scale(x2(torch, requires_grad=False)).sum().backward()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("value", ["tensor", "int", "string_module"])
def test_registration_hooks_may_return_any_value_unchecked(value):
    """PyTorch stores what a registration hook returns without checking its type."""
    def scenario(torch):
        g = _global(torch)
        replacement = {"tensor": torch.ones(1), "int": 5, "string_module": "text"}[value]
        with g.register_module_parameter_registration_hook(lambda m, n, p: replacement), \
                g.register_module_buffer_registration_hook(lambda m, n, b: replacement), \
                g.register_module_module_registration_hook(lambda m, n, s: replacement):
            outer = modules(torch).Outer()
            outer.register_buffer("b", torch.ones(1))
        return ({k: type(v).__name__ for k, v in outer.inner._parameters.items()},
                {k: type(v).__name__ for k, v in outer._buffers.items()},
                {k: type(v).__name__ for k, v in outer._modules.items()})

    assert_same_outcome(scenario)

