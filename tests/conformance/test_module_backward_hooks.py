"""Module backward hooks: full backward pre-hooks and hooks (what ``grad_input`` and
``grad_output`` hold, replacement, errors, the no-input-requires-grad case, the identity
nodes they are built from) and the legacy ``register_backward_hook``. Each scenario runs
on minitorch_hooks and on real PyTorch (see ``harness.py``)."""

from __future__ import annotations

import collections

import pytest
from harness import assert_same_outcome
from module_support import grads, modules, reset_global_backward_hook_kind, x2


def _recording_hooks(module, events):
    """Register a full backward pre-hook and hook that record clones of what they get."""
    module.register_full_backward_pre_hook(
        lambda mod, grad_output: events.append(("pre", grads(grad_output))))
    module.register_full_backward_hook(
        lambda mod, grad_input, grad_output: events.append(
            ("hook", grads(grad_input), grads(grad_output))))


def test_full_backward_hooks_see_grad_output_then_grad_input():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        _recording_hooks(scale, events)
        x = x2(torch)
        (scale(x) * torch.tensor([1.0, 10.0])).sum().backward()
        return events, x.grad, scale.w.grad

    assert_same_outcome(scenario)


def test_grad_input_covers_positional_tensor_arguments_only():
    """``None`` for a non-tensor positional argument; a keyword tensor is not in
    ``grad_input`` although its gradient still flows."""
    def scenario(torch):
        class Mix(torch.nn.Module):
            def forward(self, a, factor, b, *, c):
                return a * factor + b * c

        mix = Mix()
        events = []
        _recording_hooks(mix, events)
        a, b, c = (torch.tensor([1.0, 2.0], requires_grad=True) for _ in range(3))
        mix(a, 3.0, b, c=c).sum().backward()
        return events, a.grad, b.grad, c.grad

    assert_same_outcome(scenario)


def test_grad_input_for_a_tensor_argument_that_does_not_require_grad():
    def scenario(torch):
        pair = modules(torch).Pair()
        events = []
        _recording_hooks(pair, events)
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0])
        out_mul, out_add = pair(a, b)
        (out_mul + out_add).sum().backward()
        return events, a.grad, out_mul.requires_grad

    assert_same_outcome(scenario)


def test_multiple_outputs_with_one_unused():
    def scenario(torch):
        pair = modules(torch).Pair()
        events = []
        _recording_hooks(pair, events)
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        out_mul, _ = pair(a, b)
        out_mul.sum().backward()
        return events, a.grad, b.grad

    assert_same_outcome(scenario)


def test_backward_pre_hook_replaces_grad_output_and_hook_replaces_grad_input():
    def scenario(torch):
        outer = modules(torch).Outer()
        events = []
        outer.inner.register_full_backward_pre_hook(
            lambda mod, grad_output: (grad_output[0] * 10,))
        outer.inner.register_full_backward_pre_hook(
            lambda mod, grad_output: events.append(("pre sees", grads(grad_output))))
        outer.inner.register_full_backward_hook(
            lambda mod, grad_input, grad_output: (grad_input[0] + 1,))
        outer.inner.register_full_backward_hook(
            lambda mod, grad_input, grad_output: events.append(
                ("hook sees", grads(grad_input), grads(grad_output))))
        x = x2(torch)
        outer(x).sum().backward()
        return events, x.grad, outer.inner.w.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("kind", ["pre", "hook"])
def test_returning_the_wrong_number_of_gradients_is_an_error(kind):
    def scenario(torch):
        scale = modules(torch).Scale()
        if kind == "pre":
            scale.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
        else:
            scale.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
        scale(x2(torch)).sum().backward()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["none", "tuple_of_none", "a_gradient"])
def test_no_input_requires_grad_the_hook_fires_at_the_outputs(returned):
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []

        def hook(mod, grad_input, grad_output):
            events.append(("hook", grad_input, grads(grad_output)))
            return {"none": None, "tuple_of_none": (None,),
                    "a_gradient": (torch.ones(2),)}[returned]

        scale.register_full_backward_pre_hook(
            lambda mod, go: events.append(("pre", grads(go))))
        scale.register_full_backward_hook(hook)
        scale(x2(torch, requires_grad=False)).sum().backward()
        return events, scale.w.grad

    assert_same_outcome(scenario)


def test_no_output_requires_grad_the_hooks_do_not_fire():
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.forward = lambda x: (x * 2).detach()
        events = []
        _recording_hooks(scale, events)
        x = x2(torch)
        out = scale(x)
        return events, out.requires_grad, out.grad_fn is None

    assert_same_outcome(scenario)


def test_hooked_module_output_prints_its_identity_node():
    def scenario(torch):
        pair = modules(torch).Pair()
        pair.register_full_backward_hook(lambda *a: None)
        out = pair(x2(torch), torch.tensor([3.0, 4.0]))
        return (repr(out[0]), out[0].grad_fn.name(), out[0].grad_fn.next_functions[0][0].name(),
                type(out).__name__)

    assert assert_same_outcome(scenario)[0] == (
        "tensor([ 3., -8.], grad_fn=<BackwardHookFunctionBackward>)")


def test_forward_receives_views_of_its_inputs_and_in_place_on_them_is_an_error():
    def scenario(torch):
        scale = modules(torch).Scale()
        seen = []

        def forward(x):
            seen.append((x.grad_fn.name(), x._base is not None))
            return x.mul_(2)

        scale.forward = forward
        scale.register_full_backward_hook(lambda *a: None)
        try:
            scale(x2(torch) * 1)
        except RuntimeError as error:
            seen.append(str(error))
        return seen

    assert_same_outcome(scenario)


def test_in_place_on_a_hooked_modules_output_is_pytorchs_custom_function_view_error():
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.register_full_backward_pre_hook(lambda *a: None)
        out = scale(x2(torch))
        out.add_(1)

    assert_same_outcome(scenario)


def test_a_namedtuple_output_keeps_its_type_through_the_identity_node():
    def scenario(torch):
        Result = collections.namedtuple("Result", ["prod", "total"])
        pair = modules(torch).Pair()
        pair.forward = lambda a, b: Result(a * b, a + b)
        events = []
        _recording_hooks(pair, events)
        out = pair(x2(torch), torch.tensor([3.0, 4.0]))
        out.prod.sum().backward()
        return type(out).__name__, out.total, events

    assert_same_outcome(scenario)


@pytest.mark.parametrize("output", ["list", "dict"])
def test_a_module_output_that_is_not_a_tensor_or_tuple_warns(output):
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.forward = (lambda x: [x * 2]) if output == "list" else (lambda x: {"y": x * 2})
        events = []
        _recording_hooks(scale, events)
        out = scale(x2(torch))
        (out[0] if output == "list" else out["y"]).sum().backward()
        return events

    assert_same_outcome(scenario)


def test_hooks_fire_on_every_backward_through_a_retained_graph_and_each_call():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        _recording_hooks(scale, events)
        x = x2(torch)
        y = scale(x)
        z = scale(y)  # the same module twice: two calls, two pairs of identity nodes
        z.sum().backward(retain_graph=True)
        events.append("again")
        z.sum().backward()
        return events, x.grad

    assert_same_outcome(scenario)


def test_backward_hooks_are_fixed_when_forward_runs():
    """A hook removed after forward still fires for that graph; one added after forward
    does not."""
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        handle = scale.register_full_backward_hook(lambda *a: events.append("registered"))
        out = scale(x2(torch))
        handle.remove()
        scale.register_full_backward_hook(lambda *a: events.append("added later"))
        scale.register_full_backward_pre_hook(lambda *a: events.append("pre added later"))
        out.sum().backward()
        return events

    assert_same_outcome(scenario)


def test_removing_a_backward_hook_inside_a_running_one():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        handles = {}

        def first(mod, grad_input, grad_output):
            events.append("first")
            handles["second"].remove()

        scale.register_full_backward_hook(first)
        handles["second"] = scale.register_full_backward_hook(lambda *a: events.append("2nd"))
        scale(x2(torch)).sum().backward()
        scale(x2(torch)).sum().backward()
        return events

    assert_same_outcome(scenario)


def test_backward_hooks_inside_autograd_grad():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        _recording_hooks(scale, events)
        x = x2(torch)
        (gx,) = torch.autograd.grad(scale(x).sum(), x)
        return events, gx, scale.w.grad

    assert_same_outcome(scenario)


def test_autograd_grad_returns_the_replaced_grad_input_and_skips_unneeded_hooks():
    """A replaced ``grad_input`` is what reaches the input; asking for the gradient of the
    module's output itself never runs the module's backward hooks."""
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        scale.register_full_backward_pre_hook(lambda mod, go: events.append("pre"))
        scale.register_full_backward_hook(
            lambda mod, gi, go: events.append("hook") or (gi[0] * 100,))
        x = x2(torch)
        out = scale(x)
        gx, gw = torch.autograd.grad(out.sum(), [x, scale.w], retain_graph=True)
        events.append("at the output")
        (gout,) = torch.autograd.grad((out * 2).sum(), out)
        return events, gx, gw, gout

    assert_same_outcome(scenario)


def test_backward_hooks_under_no_grad_are_not_set_up():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        _recording_hooks(scale, events)
        with torch.no_grad():
            out = scale(x2(torch))
        return events, out.grad_fn is None, out

    assert_same_outcome(scenario)


# -- the legacy register_backward_hook -------------------------------------------------------

def test_legacy_backward_hook_sees_the_last_operations_gradients():
    """On ``x * w + b`` the hook sits on the ``+`` node: its ``grad_input`` is the
    gradient of ``x * w`` and of ``b``, not of ``x``."""
    def scenario(torch):
        affine = modules(torch).Affine()
        events = []
        affine.register_backward_hook(
            lambda mod, grad_input, grad_output: events.append(
                (type(mod).__name__, grads(grad_input), grads(grad_output))))
        x = x2(torch)
        (affine(x) * torch.tensor([1.0, 10.0])).sum().backward()
        return events, x.grad

    assert_same_outcome(scenario)


def test_legacy_backward_hook_on_a_single_operation_module_and_replacement():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        scale.register_backward_hook(
            lambda mod, grad_input, grad_output: events.append(grads(grad_input)))
        scale.register_backward_hook(lambda mod, gi, go: (gi[0] * 0, gi[1]))
        x = x2(torch)
        scale(x).sum().backward()
        return events, x.grad, scale.w.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["two_outputs", "non_tensor_input", "nested_output",
                                  "single_node"])
def test_legacy_backward_hook_future_warnings(case):
    def scenario(torch):
        m = modules(torch)
        module = m.Pair() if case == "two_outputs" else m.Scale()
        if case == "non_tensor_input":
            module.forward = lambda x, factor: x * factor
        elif case == "nested_output":
            module.forward = lambda x: [x * 2]
        events = []
        module.register_backward_hook(lambda *a: events.append("legacy"))
        args = {"two_outputs": (x2(torch), x2(torch)), "non_tensor_input": (x2(torch), 3.0)}
        out = module(*args.get(case, (x2(torch),)))
        first = out if case == "single_node" or case == "non_tensor_input" else out[0]
        first.sum().backward()
        return events

    assert_same_outcome(scenario)


@pytest.mark.parametrize("order", ["legacy_first", "full_first"])
def test_mixing_legacy_and_full_backward_hooks_on_one_module_is_an_error(order):
    def scenario(torch):
        scale = modules(torch).Scale()
        if order == "legacy_first":
            scale.register_backward_hook(lambda *a: None)
            scale.register_full_backward_hook(lambda *a: None)
        else:
            scale.register_full_backward_hook(lambda *a: None)
            scale.register_backward_hook(lambda *a: None)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("order", ["legacy_first", "full_first"])
def test_mixing_legacy_and_full_global_backward_hooks_is_an_error(order):
    def scenario(torch):
        g = torch.nn.modules.module
        first, second = (g.register_module_backward_hook, g.register_module_full_backward_hook)
        if order == "full_first":
            first, second = second, first
        reset_global_backward_hook_kind(torch)
        with first(lambda *a: None):
            second(lambda *a: None)

    assert_same_outcome(scenario)


def test_legacy_global_backward_hook_fires_for_every_module():
    def scenario(torch):
        g = torch.nn.modules.module
        chain = modules(torch).Chain(modules(torch).Scale(), modules(torch).Scale(4.0, 5.0))
        events = []
        reset_global_backward_hook_kind(torch)
        with g.register_module_backward_hook(
                lambda mod, gi, go: events.append((type(mod).__name__, grads(gi)))):
            chain(x2(torch)).sum().backward()
        reset_global_backward_hook_kind(torch)  # let later scenarios use full global hooks
        return events

    assert_same_outcome(scenario)


def test_the_flag_stays_after_the_hooks_are_removed():
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.register_backward_hook(lambda *a: None).remove()
        flag = scale._is_full_backward_hook
        try:
            scale.register_full_backward_hook(lambda *a: None)
        except RuntimeError as error:
            return flag, str(error)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("kind", ["pre", "hook"])
@pytest.mark.parametrize("returned", ["wrong_size", "wrong_dtype", "list", "none_entry"])
def test_replacement_gradients_are_checked_like_node_hook_results(kind, returned):
    """The module hooks run inside a post-hook of an identity node, so a bad replacement
    gets the node-hook errors, naming PyTorch's inner function ``hook``."""
    def scenario(torch):
        scale = modules(torch).Scale()

        def replace(grads_in):
            return {"wrong_size": (torch.ones(3),), "wrong_dtype": (grads_in[0].double(),),
                    "list": [grads_in[0] * 2], "none_entry": (None,)}[returned]

        if kind == "pre":
            scale.register_full_backward_pre_hook(lambda mod, go: replace(go))
        else:
            scale.register_full_backward_hook(lambda mod, gi, go: replace(gi))
        x = x2(torch)
        scale(x).sum().backward()
        return x.grad, scale.w.grad

    assert_same_outcome(scenario)


def test_the_same_tensor_passed_twice_gets_one_grad_input_entry_each():
    def scenario(torch):
        pair = modules(torch).Pair()
        events = []
        _recording_hooks(pair, events)
        a = x2(torch)
        prod, total = pair(a, a)
        (prod + total).sum().backward()
        return events, a.grad

    assert_same_outcome(scenario)


def test_a_tensor_passed_only_by_keyword_is_ignored_and_the_hook_fires_at_the_outputs():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        _recording_hooks(scale, events)
        x = x2(torch)
        scale(x=x).sum().backward()
        return events, x.grad

    assert_same_outcome(scenario)


def test_an_output_that_does_not_depend_on_the_inputs_never_reaches_the_hook():
    """The backward hook runs at the input identity node; if no gradient flows back to the
    inputs it does not run at all, though the pre-hook did."""
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.forward = lambda x: scale.w * 2
        events = []
        _recording_hooks(scale, events)
        x = x2(torch)
        scale(x).sum().backward()
        return events, x.grad, scale.w.grad

    assert_same_outcome(scenario)


def test_an_input_the_output_ignores_gets_a_zero_gradient_through_the_identity_node():
    """The identity node is a custom Function: it materialises a missing gradient as
    zeros, so an ignored input gets ``grad_input`` zeros and ``.grad`` zeros, not None."""
    def scenario(torch):
        pair = modules(torch).Pair()
        pair.forward = lambda a, b: a * 2
        events = []
        _recording_hooks(pair, events)
        a, b = x2(torch), x2(torch)
        pair(a, b).sum().backward()
        return events, a.grad, b.grad

    assert_same_outcome(scenario)
