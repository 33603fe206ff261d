"""Bad input, one mistake per row, on minitorch_hooks and on real PyTorch.

``BAD_INPUT`` is the table: each row is a scenario that makes one mistake a learner can
make (a hook with the wrong parameters, a hook that returns the wrong thing or raises, a
second backward, an in-place change autograd cannot allow, a shape, dtype or dimension
that does not fit, a state dict that does not match) and reports what happened. The
harness runs it on both libraries and compares the error's type and message, the
warnings, and every value the scenario returns.

Where the mistake is in a hook, the row goes on after the error: it removes the hook and
runs again, so the table also shows that the module or graph is still usable, that the
hook registry holds what it held, and that no half-set-up backward-hook state from the
failed call changes the next result.

Cases checked elsewhere are not repeated here: hooks of every module kind that raise,
return the wrong thing or cannot be called (``tests/test_module_bad_input.py``), tensor
and node hooks returning a bad replacement (``test_tensor_hooks.py``), in-place changes
to leaves and saved tensors, backward twice and ``.grad`` assignment
(``test_ops_autograd.py``), op-level shape, dtype and dimension errors (the other
``test_ops_*.py``), and ``load_state_dict``'s missing, unexpected and wrongly sized keys
(``test_module_state.py``).
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome
from module_support import grads, modules, reset_global_backward_hook_kind, x2

import minitorch_hooks

BAD_INPUT: dict[str, Callable[[Any], Any]] = {}


def bad_input(scenario: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Add ``scenario`` to the table, under its function name."""
    BAD_INPUT[scenario.__name__] = scenario
    return scenario


def _fail_then_recover(register: Callable[[], Any], run: Callable[[], Any]) -> tuple:
    """Register a hook that breaks ``run`` and run; then remove it and run again.

    Returns the error (type and message) and the clean run's result: both must be
    PyTorch's, so the failure left nothing behind that changes the next run.
    """
    handle = register()
    try:
        failure = ("no error", run())
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        failure = (type(error).__name__, str(error))
    handle.remove()
    return failure, run()


def _module_step(torch: Any, module: Any) -> tuple:
    x = x2(torch)
    module(x).sum().backward()
    return grads([x.grad, module.w.grad])


def _flaky(events: list, label: str) -> Callable[..., None]:
    """A hook that records its call and raises the first time only."""
    def hook(*args: Any) -> None:
        events.append(label)
        if events.count(label) == 1:
            raise ValueError(f"{label} failed")

    return hook


def _chain(torch: Any) -> tuple:
    """Two ``Scale`` modules in a ``Chain``: ``(chain, first, second)``."""
    m = modules(torch)
    first, second = m.Scale(), m.Scale(4.0, 5.0)
    return m.Chain(first, second), first, second


# -- hooks with the wrong parameters: Python's TypeError, raised where PyTorch calls them ----
# Each row: what the hook is registered on (a function of ``torch`` giving the target and
# a run that fires the hook), and how the wrong hook is registered on that target.

def _on_a_leaf(torch: Any) -> tuple:
    x = torch.ones(2, requires_grad=True)

    def run():
        (x * 2).sum().backward()
        return x.grad.clone()

    return x, run


def _on_a_non_leaf(torch: Any) -> tuple:
    x = torch.ones(2, requires_grad=True)
    y = x * 3

    def run():
        y.sum().backward(retain_graph=True)
        return x.grad.clone()

    return y, run


def _on_a_module(torch: Any) -> tuple:
    scale = modules(torch).Scale()
    return scale, lambda: _module_step(torch, scale)


def _on_a_state_dict_round_trip(torch: Any) -> tuple:
    scale = modules(torch).Scale()
    return scale, lambda: repr(scale.load_state_dict(scale.state_dict()))


def _on_module_construction(torch: Any) -> tuple:
    return None, lambda: list(modules(torch).Outer().state_dict())


def _global(torch: Any) -> Any:
    return torch.nn.modules.module


WRONG_ARITY = {
    "tensor_hook_taking_two": (_on_a_leaf, lambda torch, x: x.register_hook(
        lambda grad, extra: None)),
    "non_leaf_tensor_hook_taking_none": (_on_a_non_leaf, lambda torch, y: y.register_hook(
        lambda: None)),
    "post_accumulate_grad_hook_taking_two": (
        _on_a_leaf, lambda torch, x: x.register_post_accumulate_grad_hook(
            lambda tensor, grad: None)),
    "node_pre_hook_taking_two": (_on_a_non_leaf, lambda torch, y: y.grad_fn.register_prehook(
        lambda grad_outputs, extra: None)),
    "node_hook_taking_one": (_on_a_non_leaf, lambda torch, y: y.grad_fn.register_hook(
        lambda grad_inputs: None)),
    "forward_pre_hook_taking_the_module_only": (
        _on_a_module, lambda torch, m: m.register_forward_pre_hook(lambda mod: None)),
    "forward_hook_forgetting_the_output": (
        _on_a_module, lambda torch, m: m.register_forward_hook(lambda mod, args: None)),
    "forward_hook_with_kwargs_forgetting_the_kwargs": (
        _on_a_module, lambda torch, m: m.register_forward_hook(
            lambda mod, args, out: None, with_kwargs=True)),
    "forward_pre_hook_with_kwargs_forgetting_the_kwargs": (
        _on_a_module, lambda torch, m: m.register_forward_pre_hook(
            lambda mod, args: None, with_kwargs=True)),
    "full_backward_hook_forgetting_grad_output": (
        _on_a_module, lambda torch, m: m.register_full_backward_hook(lambda mod, gi: None)),
    "full_backward_pre_hook_taking_three": (
        _on_a_module, lambda torch, m: m.register_full_backward_pre_hook(
            lambda mod, go, extra: None)),
    "legacy_backward_hook_forgetting_grad_output": (
        _on_a_module, lambda torch, m: m.register_backward_hook(lambda mod, gi: None)),
    "state_dict_pre_hook_taking_the_module_only": (
        _on_a_state_dict_round_trip, lambda torch, m: m.register_state_dict_pre_hook(
            lambda mod: None)),
    "state_dict_post_hook_forgetting_the_prefix": (
        _on_a_state_dict_round_trip, lambda torch, m: m.register_state_dict_post_hook(
            lambda mod, state_dict: None)),
    "load_state_dict_pre_hook_taking_two": (
        _on_a_state_dict_round_trip, lambda torch, m: m.register_load_state_dict_pre_hook(
            lambda mod, state_dict: None)),
    "load_state_dict_post_hook_forgetting_the_keys": (
        _on_a_state_dict_round_trip, lambda torch, m: m.register_load_state_dict_post_hook(
            lambda mod: None)),
    "global_forward_hook_forgetting_the_output": (
        _on_a_module, lambda torch, m: _global(torch).register_module_forward_hook(
            lambda mod, args: None)),
    "global_full_backward_pre_hook_taking_the_module_only": (
        _on_a_module, lambda torch, m: _global(torch).register_module_full_backward_pre_hook(
            lambda mod: None)),
    "global_full_backward_hook_forgetting_grad_output": (
        _on_a_module, lambda torch, m: _global(torch).register_module_full_backward_hook(
            lambda mod, gi: None)),
    "parameter_registration_hook_taking_two": (
        _on_module_construction,
        lambda torch, _: _global(torch).register_module_parameter_registration_hook(
            lambda module, name: None)),
    "module_registration_hook_taking_four": (
        _on_module_construction,
        lambda torch, _: _global(torch).register_module_module_registration_hook(
            lambda module, name, submodule, extra: None)),
}


def _wrong_arity(subject: Callable[[Any], tuple], register: Callable[[Any, Any], Any]
                 ) -> Callable[[Any], Any]:
    def scenario(torch):
        reset_global_backward_hook_kind(torch)
        target, run = subject(torch)
        result = _fail_then_recover(lambda: register(torch, target), run)
        reset_global_backward_hook_kind(torch)
        return result

    return scenario


for _name, (_subject, _register) in WRONG_ARITY.items():
    BAD_INPUT[f"arity_{_name}"] = _wrong_arity(_subject, _register)


# -- hooks that raise: the error propagates, what ran before it stays done, and the next run
#    gives PyTorch's results (module kinds: tests/test_module_bad_input.py) ------------------

def _fail_then_backward_again(loss: Any, events: list, *watched: Any) -> tuple:
    """Backward through ``loss`` while a hook raises (``_flaky``), then again.

    Returns the hook events with the error, the gradients of ``watched`` that the failed
    run left (what ran before the error stays done), and those after the second run.
    """
    try:
        loss.backward(retain_graph=True)
    except ValueError as error:
        events.append(str(error))
    after_failure = grads([t.grad for t in watched])
    loss.backward()
    return events, after_failure, grads([t.grad for t in watched])


@bad_input
def raises_in_a_leaf_tensor_hook_before_other_leaves_accumulate(torch):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    events = []
    b.register_hook(_flaky(events, "b's hook"))
    loss = (a * 2 + b * 3).sum()
    return _fail_then_backward_again(loss, events, a, b), len(b._backward_hooks)


@bad_input
def raises_in_a_non_leaf_tensor_hook(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    events = []
    y.register_hook(_flaky(events, "y's hook"))
    return _fail_then_backward_again(y.sum(), events, x), len(y._backward_hooks)


@bad_input
def raises_in_a_tensor_hook_before_retain_grad_keeps_anything(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    events = []
    y.register_hook(_flaky(events, "y's hook"))
    return _fail_then_backward_again((y * y).sum(), events, x, y)


@bad_input
def raises_in_a_post_accumulate_grad_hook_after_accumulating(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.tensor([3.0, 4.0], requires_grad=True)
    events = []
    w.register_post_accumulate_grad_hook(_flaky(events, "post-accumulate hook"))
    return (_fail_then_backward_again((w * v).sum(), events, w, v),
            len(w._post_accumulate_grad_hooks))


def _raise_in_a_node_hook(torch: Any, register: str) -> tuple:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    events = []
    getattr(y.grad_fn, register)(_flaky(events, register))
    return _fail_then_backward_again((y * 2).sum(), events, x)


@bad_input
def raises_in_a_node_pre_hook(torch):
    return _raise_in_a_node_hook(torch, "register_prehook")


@bad_input
def raises_in_a_node_hook(torch):
    return _raise_in_a_node_hook(torch, "register_hook")


@bad_input
def raises_in_an_outer_modules_backward_pre_hook(torch):
    chain, first, second = _chain(torch)
    events = []
    second.register_full_backward_pre_hook(_flaky(events, "outer pre-hook"))
    first.register_full_backward_hook(lambda mod, gi, go: events.append(("inner", grads(gi))))
    second.register_full_backward_hook(lambda mod, gi, go: events.append(("outer", grads(gi))))
    x = x2(torch)
    return _fail_then_backward_again(chain(x).sum(), events, x, first.w, second.w)


@bad_input
def raises_in_an_outer_modules_backward_hook_after_its_weight_got_its_gradient(torch):
    chain, first, second = _chain(torch)
    events = []
    second.register_full_backward_hook(_flaky(events, "outer hook"))
    first.register_full_backward_pre_hook(
        lambda mod, go: events.append(("inner pre", grads(go))))
    x = x2(torch)
    return _fail_then_backward_again(chain(x).sum(), events, x, first.w, second.w)


@bad_input
def raises_in_a_global_backward_hook_for_one_of_two_modules(torch):
    reset_global_backward_hook_kind(torch)
    chain, first, second = _chain(torch)
    events = []
    x = x2(torch)
    with torch.nn.modules.module.register_module_full_backward_hook(
            _flaky(events, "global hook")):
        result = _fail_then_backward_again(chain(x).sum(), events, x, first.w, second.w)
    reset_global_backward_hook_kind(torch)
    return result


@bad_input
def raises_in_a_legacy_backward_hook(torch):
    scale = modules(torch).Scale()
    events = []
    scale.register_backward_hook(_flaky(events, "legacy hook"))
    x = x2(torch)
    return _fail_then_backward_again(scale(x).sum(), events, x, scale.w)


@bad_input
def raises_in_a_forward_hook_after_an_inner_module_set_up_backward_hooks(torch):
    chain, first, second = _chain(torch)
    events = []
    first.register_full_backward_hook(lambda mod, gi, go: events.append(("inner", grads(gi))))
    second.register_forward_hook(_flaky(events, "outer forward hook"))
    x = x2(torch)
    try:
        chain(x)
    except ValueError as error:
        events.append(str(error))
    chain(x).sum().backward()
    return events, x.grad, first.w.grad, len(second._forward_hooks)


@bad_input
def raises_in_a_module_backward_hook_inside_autograd_grad(torch):
    scale = modules(torch).Scale()
    events = []
    scale.register_full_backward_hook(_flaky(events, "backward hook"))
    x = x2(torch)
    out = scale(x).sum()
    try:
        torch.autograd.grad(out, x, retain_graph=True)
    except ValueError as error:
        events.append(str(error))
    return events, torch.autograd.grad(out, x), scale.w.grad


# -- hooks that return the wrong thing (module kinds: tests/test_module_bad_input.py) -------

def _replace_non_leaf_grad(torch: Any, replacement: Callable[[Any], Any]) -> Any:
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(replacement)
    y.sum().backward()
    return x.grad


@bad_input
def returns_a_double_grad_from_a_non_leaf_hook(torch):
    return _replace_non_leaf_grad(torch, lambda grad: grad.double())


@bad_input
def returns_a_smaller_grad_from_a_non_leaf_hook(torch):
    return _replace_non_leaf_grad(torch, lambda grad: grad[:1])


@bad_input
def returns_a_tuple_from_a_non_leaf_hook(torch):
    return _replace_non_leaf_grad(torch, lambda grad: (grad,))


@bad_input
def returns_a_numpy_array_from_a_tensor_hook(torch):
    return _replace_non_leaf_grad(torch, lambda grad: np.ones(2, dtype=np.float32))


@bad_input
def returns_a_numpy_scalar_from_a_tensor_hook(torch):
    return _replace_non_leaf_grad(torch, lambda grad: np.float32(1.0))


@bad_input
def returns_a_numpy_array_from_a_post_accumulate_grad_hook(torch):
    x = torch.ones(2, requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda tensor: np.ones(2))
    (x * 2).sum().backward()


def _replace_at_a_node(torch: Any, kind: str, hook: Callable[..., Any]) -> Any:
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    (y.grad_fn.register_prehook if kind == "pre" else y.grad_fn.register_hook)(hook)
    y.sum().backward()
    return x.grad


@bad_input
def returns_a_numpy_array_from_a_node_pre_hook(torch):
    return _replace_at_a_node(torch, "pre", lambda go: np.ones(2))


@bad_input
def returns_a_list_from_a_node_pre_hook(torch):
    return _replace_at_a_node(torch, "pre", lambda go: [go[0]])


@bad_input
def returns_a_double_grad_from_a_node_pre_hook(torch):
    return _replace_at_a_node(torch, "pre", lambda go: (go[0].double(),))


@bad_input
def returns_an_ordered_dict_from_a_node_hook(torch):
    return _replace_at_a_node(torch, "post", lambda gi, go: collections.OrderedDict())


@bad_input
def returns_too_few_grads_from_a_node_hook(torch):
    return _replace_at_a_node(torch, "post", lambda gi, go: (None,))


@bad_input
def returns_a_double_grad_input_from_a_full_backward_hook(torch):
    scale = modules(torch).Scale()
    scale.register_full_backward_hook(lambda mod, gi, go: (gi[0].double(),))
    return _module_step(torch, scale)


@bad_input
def returns_none_for_grad_output_from_a_full_backward_pre_hook(torch):
    """Allowed: a ``None`` gradient stops the flow, and the input gets zeros."""
    scale = modules(torch).Scale()
    scale.register_full_backward_pre_hook(lambda mod, go: (None,))
    return _module_step(torch, scale)


@bad_input
def returns_none_for_grad_input_from_a_full_backward_hook(torch):
    """Allowed: the input gets no gradient, the weight still does."""
    scale = modules(torch).Scale()
    scale.register_full_backward_hook(lambda mod, gi, go: (None,))
    return _module_step(torch, scale)


@bad_input
def returns_a_wrongly_sized_grad_from_a_legacy_backward_hook(torch):
    scale = modules(torch).Scale()
    scale.register_backward_hook(lambda mod, gi, go: (torch.ones(3), gi[1]))
    return _module_step(torch, scale)


@bad_input
def returns_a_list_of_args_from_a_forward_pre_hook(torch):
    """A list is not a tuple of arguments: it becomes the one argument, and ``forward``
    multiplies a list by a tensor."""
    scale = modules(torch).Scale()
    scale.register_forward_pre_hook(lambda mod, args: [args[0] * 2])
    return scale(x2(torch))


@bad_input
def returns_one_argument_too_many_from_a_forward_pre_hook(torch):
    scale = modules(torch).Scale()
    scale.register_forward_pre_hook(lambda mod, args: (args[0], args[0]))
    return scale(x2(torch))


# -- backward twice without retain_graph ----------------------------------------------------

_TWICE = "Trying to backward through the graph a second time"


@bad_input
def backward_twice_runs_the_hooks_before_the_freed_node(torch):
    """The sum saved nothing, so the second backward gets past it, and ``y``'s hook fires
    again, before the product finds its saved tensors gone."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    events = []
    y.register_hook(lambda grad: events.append(grad.clone()))
    loss = y.sum()
    loss.backward()
    try:
        loss.backward()
    except RuntimeError as error:
        events.append(str(error).startswith(_TWICE))
    return events, x.grad


@bad_input
def backward_twice_through_a_linear_layer(torch):
    torch.manual_seed(0)
    loss = torch.nn.Linear(3, 2)(torch.ones(4, 3)).sum()
    loss.backward()
    loss.backward()


@bad_input
def backward_twice_through_a_module_with_backward_hooks(torch):
    scale = modules(torch).Scale()
    events = []
    scale.register_full_backward_pre_hook(lambda mod, go: events.append(("pre", grads(go))))
    scale.register_full_backward_hook(lambda mod, gi, go: events.append(("hook", grads(gi))))
    x = x2(torch)
    loss = (scale(x) * 1).sum()
    loss.backward()
    try:
        loss.backward()
    except RuntimeError as error:
        events.append(str(error).startswith(_TWICE))
    return events, x.grad, scale.w.grad


@bad_input
def backward_after_autograd_grad_freed_the_graph(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    torch.autograd.grad(y, x)
    y.backward()


# -- in-place changes that autograd cannot allow --------------------------------------------

@bad_input
def in_place_on_a_weight_between_forward_and_backward(torch):
    """An optimiser step (a change under ``no_grad``) before ``backward``: the product
    saved the weight, whose version has moved on."""
    w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    x = torch.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).sum()
    with torch.no_grad():
        w.sub_(0.1)
    loss.backward()


@bad_input
def in_place_on_a_saved_input_that_needs_no_grad(torch):
    x = torch.ones(3)
    w = torch.ones(3, requires_grad=True)
    loss = (x * w).sum()
    x.add_(1)
    loss.backward()


@bad_input
def in_place_in_a_forward_hook_on_an_output_the_forward_saved(torch):
    sigmoid = torch.nn.Sigmoid()
    sigmoid.register_forward_hook(lambda mod, args, out: out.mul_(2))
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    sigmoid(x).sum().backward()


@bad_input
def in_place_in_a_forward_hook_on_an_output_nothing_saved(torch):
    """Allowed: ``x * w`` saves its inputs, not its output."""
    scale = modules(torch).Scale()
    scale.register_forward_hook(lambda mod, args, out: out.mul_(2))
    return _module_step(torch, scale)


@bad_input
def in_place_in_a_forward_pre_hook_on_a_leaf_input(torch):
    scale = modules(torch).Scale()
    scale.register_forward_pre_hook(lambda mod, args: args[0].mul_(2))
    return scale(x2(torch))


def _edit_grad_in_place(torch: Any, loss: Callable[[Any], Any]) -> tuple:
    """A tensor hook that doubles its gradient in place: fine when the gradient is a tensor
    of its own, PyTorch's memory-overlap error when it is ``sum``'s expanded one."""
    x = torch.ones(2, 3, requires_grad=True)
    seen = []
    x.register_hook(lambda grad: seen.append(grad.is_contiguous()) or grad.mul_(2))
    try:
        loss(x).backward()
    except RuntimeError as error:
        seen.append(str(error))
    return seen, x.grad


@bad_input
def in_place_in_a_tensor_hook_on_a_gradient_of_its_own(torch):
    return _edit_grad_in_place(torch, lambda x: (x * 3).sum())


@bad_input
def in_place_in_a_tensor_hook_on_the_expanded_gradient_of_sum(torch):
    return _edit_grad_in_place(torch, lambda x: x.sum())


@bad_input
def in_place_in_a_tensor_hook_on_the_expanded_gradient_of_sum_over_a_dim(torch):
    return _edit_grad_in_place(torch, lambda x: x.sum(1).sum())


@bad_input
def in_place_in_a_tensor_hook_on_an_expanded_gradient_passed_through_add(torch):
    return _edit_grad_in_place(torch, lambda x: (x + 1).sum())


@bad_input
def in_place_in_a_tensor_hook_on_the_gradient_of_mean(torch):
    """Allowed: mean divides the expanded gradient, which makes a tensor of its own."""
    return _edit_grad_in_place(torch, lambda x: x.mean())


@bad_input
def in_place_in_a_node_pre_hook_on_an_expanded_gradient(torch):
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda go: go[0].mul_(2))
    y.sum().backward()


@bad_input
def in_place_in_a_module_backward_pre_hook_on_an_expanded_gradient(torch):
    scale = modules(torch).Scale()
    scale.register_full_backward_pre_hook(lambda mod, go: go[0].mul_(2))
    return _module_step(torch, scale)


@bad_input
def in_place_arithmetic_on_an_expanded_tensor(torch):
    torch.zeros(3, 1).expand(3, 4).add_(1)


@bad_input
def in_place_copy_into_an_expanded_tensor(torch):
    torch.zeros(3, 1).expand(3, 4).copy_(torch.ones(3, 4))


@bad_input
def in_place_random_fill_of_an_expanded_tensor(torch):
    torch.zeros(3, 1).expand(3, 4).uniform_()


@bad_input
def in_place_fill_of_an_expanded_tensor_writes_through(torch):
    """Allowed: ``fill_`` and ``zero_`` write one value, so every element may share it."""
    base = torch.zeros(3, 1)
    expanded = base.expand(3, 4)
    expanded.fill_(2.0)
    filled = base.clone()
    expanded.zero_()
    return filled, base, expanded, base._version


@bad_input
def in_place_on_an_expand_that_repeats_nothing(torch):
    """Allowed: expanding (1, 3) to (1, 3) makes no element share memory."""
    base = torch.zeros(1, 3)
    base.expand(1, 3).add_(1)
    return base


@bad_input
def in_place_detach_of_a_view(torch):
    x = torch.ones(3, 2, requires_grad=True)
    x[0].detach_()


# -- shapes, dtypes and dimensions that do not fit, at module level -----------------------

def _linear(torch: Any) -> Any:
    torch.manual_seed(0)
    return torch.nn.Linear(3, 2)


@bad_input
def shape_linear_given_the_wrong_number_of_features(torch):
    return _linear(torch)(torch.ones(4, 5))


@bad_input
def shape_linear_given_a_0d_input(torch):
    return _linear(torch)(torch.tensor(1.0))


@bad_input
def shape_mismatch_in_the_second_layer_after_the_first_layers_hooks(torch):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(5, 2))
    events = []
    for layer in net:
        layer.register_forward_hook(lambda mod, args, out: events.append(type(mod).__name__))
    try:
        net(torch.ones(2, 3))
    except RuntimeError as error:
        events.append(str(error))
    return events


@bad_input
def shape_mse_loss_target_that_broadcasts(torch):
    return torch.nn.functional.mse_loss(torch.tensor([[1.0], [2.0]]), torch.tensor([1.0, 3.0]))


@bad_input
def shape_grad_outputs_that_do_not_fit(torch):
    x = torch.ones(2, requires_grad=True)
    return torch.autograd.grad(x * 2, x, grad_outputs=torch.ones(3))


@bad_input
def dim_out_of_range_in_a_softmax_module(torch):
    return torch.nn.Softmax(dim=2)(torch.ones(2, 3))


@bad_input
def dim_out_of_range_in_a_flatten_module(torch):
    return torch.nn.Flatten(start_dim=3)(torch.ones(2, 3))


@bad_input
def dtype_double_input_to_a_float_linear(torch):
    return _linear(torch)(torch.ones(4, 3, dtype=torch.float64))


@bad_input
def dtype_integer_input_to_a_linear(torch):
    return _linear(torch)(torch.ones(4, 3, dtype=torch.int64))


@bad_input
def dtype_float_class_targets_for_cross_entropy(torch):
    return torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.ones(2))


@bad_input
def dtype_class_target_out_of_range_for_cross_entropy(torch):
    return torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3]))


@bad_input
def dtype_integer_parameter(torch):
    return torch.nn.Parameter(torch.ones(2, dtype=torch.int64))


@bad_input
def dtype_double_gradient_for_a_float_backward(torch):
    """Allowed: the gradient is cast to the output's dtype."""
    x = torch.ones(2, requires_grad=True)
    (x * 2).backward(torch.ones(2, dtype=torch.float64))
    return x.grad


@bad_input
def dtype_double_target_for_mse_loss(torch):
    """Allowed: the loss is computed in the promoted dtype."""
    return torch.nn.functional.mse_loss(torch.ones(2), torch.zeros(2, dtype=torch.float64))


@bad_input
def type_tensor_plus_a_string(torch):
    return torch.ones(2) + "a"


@bad_input
def type_tensor_plus_none(torch):
    return torch.ones(2) + None


@bad_input
def type_tensor_compared_with_none(torch):
    """``==`` and ``!=`` fall back to identity, as for any Python object."""
    return torch.ones(2) == None, torch.ones(2) != None  # noqa: E711 - the point of the test


@bad_input
def type_tensor_ordered_against_a_string(torch):
    return torch.ones(2) < "a"


@bad_input
def type_tensor_times_a_list(torch):
    """Python tries the list's repetition, which needs the tensor as an index."""
    return torch.ones(2) * [1.0, 2.0]


@bad_input
def type_list_times_an_integer_tensor(torch):
    """Allowed: a one-element integer tensor is an index, so the list repeats."""
    return [1] * torch.tensor(2)


@bad_input
def type_in_place_add_of_a_string(torch):
    t = torch.ones(2)
    t += "a"


# -- load_state_dict that does not fit: what is loaded anyway, and the hooks ------------------
#    (each kind of mismatch on its own: test_module_state.py)

def _net(torch: Any) -> Any:
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))


@bad_input
def load_missing_key_loads_the_others_before_raising(torch):
    net = _net(torch)
    state = {k: torch.full_like(v, 7.0) for k, v in net.state_dict().items() if k != "2.bias"}
    try:
        net.load_state_dict(state)
    except RuntimeError as error:
        return str(error), net.state_dict()


@bad_input
def load_wrong_shape_loads_the_others_before_raising(torch):
    net = _net(torch)
    state = {k: torch.full_like(v, 7.0) for k, v in net.state_dict().items()}
    state["0.weight"] = torch.ones(4, 2)
    try:
        net.load_state_dict(state, strict=False)
    except RuntimeError as error:
        return str(error), net.state_dict()


@bad_input
def load_missing_unexpected_and_wrong_shape_at_once(torch):
    net = _net(torch)
    state = dict(net.state_dict())
    del state["0.bias"]
    state["2.weight"] = torch.ones(1, 4)
    state["3.weight"] = torch.ones(1)
    net.load_state_dict(state)


@bad_input
def load_wrong_shape_with_assign(torch):
    net = _net(torch)
    state = dict(net.state_dict())
    state["0.weight"] = torch.ones(4, 2)
    net.load_state_dict(state, assign=True)


@bad_input
def load_post_hook_runs_before_the_strict_error(torch):
    net = _net(torch)
    events = []
    net.register_load_state_dict_post_hook(
        lambda mod, keys: events.append((list(keys.missing_keys), list(keys.unexpected_keys))))
    state = dict(net.state_dict())
    del state["0.bias"]
    state["extra"] = torch.ones(1)
    try:
        net.load_state_dict(state)
    except RuntimeError as error:
        events.append(str(error))
    return events


@bad_input
def load_double_and_integer_values_into_float_parameters(torch):
    """Allowed: values are copied into the parameters, which keep their dtype."""
    net = _net(torch)
    state = {k: torch.ones(v.shape, dtype=torch.float64 if "weight" in k else torch.int64)
             for k, v in net.state_dict().items()}
    net.load_state_dict(state)
    return net.state_dict()


@bad_input
def load_a_missing_buffer_but_not_a_non_persistent_one(torch):
    module = torch.nn.Module()
    module.register_buffer("running", torch.zeros(2))
    module.register_buffer("scratch", torch.zeros(2), persistent=False)
    module.load_state_dict({})


@bad_input
def load_a_non_persistent_buffer_is_unexpected(torch):
    module = torch.nn.Module()
    module.register_buffer("running", torch.zeros(2))
    module.register_buffer("scratch", torch.zeros(2), persistent=False)
    return repr(module.load_state_dict({"running": torch.ones(2), "scratch": torch.ones(2)},
                                       strict=False))


@pytest.mark.parametrize("case", list(BAD_INPUT))
def test_bad_input_gets_pytorchs_error(case):
    """Each row of ``BAD_INPUT``: the same error (type and message), warnings and
    values as PyTorch, and the same state after it."""
    assert_same_outcome(BAD_INPUT[case])


# -- the one deviation ------------------------------------------------------------------------

NON_CALLABLE = {
    "tensor hook": lambda x, y: x.register_hook(5),
    "non-leaf tensor hook": lambda x, y: y.register_hook(5),
    "post-accumulate-grad hook": lambda x, y: x.register_post_accumulate_grad_hook(5),
    "node pre-hook": lambda x, y: y.grad_fn.register_prehook(5),
    "node hook": lambda x, y: y.grad_fn.register_hook(5),
}


@pytest.mark.parametrize("kind", list(NON_CALLABLE))
def test_a_non_callable_tensor_or_node_hook_is_refused_at_registration_deviation(kind):
    """DEVIATION (``utils/hooks.py: check_callable``), as for module hooks: PyTorch
    registers a tensor or node hook that cannot be called and raises ``TypeError: 'int'
    object is not callable`` only in backward, far from the mistake. minitorch_hooks
    raises TypeError at registration, and the graph is left as it was."""
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        try:
            NON_CALLABLE[kind](x, y)
        except TypeError as error:
            y.sum().backward()
            return "at registration", str(error), x.grad
        try:
            y.sum().backward()
        except TypeError as error:
            return "when fired", str(error), x.grad

    torch_result, _ = pytorch_outcome(scenario)
    our_result, _ = outcome(scenario, minitorch_hooks)
    assert torch_result[:2] == ["when fired", "'int' object is not callable"]
    assert our_result[:2] == ("at registration", "hook must be callable, but got 'int'")
    np.testing.assert_array_equal(our_result[2].numpy(), [2.0, 2.0])
