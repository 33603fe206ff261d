"""``torch.autograd.graph.register_multi_grad_hook``, against real PyTorch: one call per
backward, after the gradients of all the tensors that backward computes (``mode="all"``,
None for the others) or at the first of them (``mode="any"``); where it fires among the
tensor hooks; removal through its handle; and the errors."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import leaf, values


def _described(grads):
    return [None if g is None else (tuple(g.shape), g.sum().item()) for g in grads]


def _graph(torch):
    a = leaf(torch, values((2, 3), seed=1))
    b = leaf(torch, values((2, 3), seed=2))
    return a, b, a * b, a * b  # the last one is left out of the loss


def test_all_mode_waits_for_every_gradient_this_backward_computes():
    def scenario(torch):
        a, b, c, d = _graph(torch)
        log = []
        handle = torch.autograd.graph.register_multi_grad_hook(
            (a, b, c, d), lambda grads: log.append(_described(grads)))
        c.sum().backward(retain_graph=True)
        (c * 2).sum().backward(retain_graph=True)  # a second run: a second call
        c.sum().backward(inputs=(a,), retain_graph=True)  # b's gradient is not computed
        handle.remove()
        c.sum().backward()  # removed: nothing
        return log, type(handle).__name__, isinstance(handle, torch.utils.hooks.RemovableHandle)

    assert_same_outcome(scenario)


def test_all_mode_under_autograd_grad():
    def scenario(torch):
        a, b, c, _ = _graph(torch)
        e = c * b
        log = []
        torch.autograd.graph.register_multi_grad_hook(
            (c, e), lambda grads: log.append(_described(grads)))
        torch.autograd.grad(e.sum(), (c,), retain_graph=True)
        results = [log[:]]
        torch.autograd.graph.register_multi_grad_hook((a, c), lambda grads: None)
        try:  # a leaf input of autograd.grad: PyTorch cannot tell whether it "runs"
            torch.autograd.grad(e.sum(), (a,))
        except RuntimeError as error:
            results.append(str(error))
        return results

    assert_same_outcome(scenario)


def test_it_fires_among_the_tensor_hooks_in_registration_order():
    def scenario(torch):
        a, b, c, _ = _graph(torch)
        log = []
        a.register_hook(lambda g: log.append("a: registered before"))
        torch.autograd.graph.register_multi_grad_hook((a, c), lambda grads: log.append("all"))
        torch.autograd.graph.register_multi_grad_hook(
            (b, c), lambda grad: log.append(("any", tuple(grad.shape))), mode="any")
        a.register_hook(lambda g: log.append("a: registered after"))
        c.register_hook(lambda g: log.append("c"))
        c.sum().backward(retain_graph=True)
        c.sum().backward()
        return log

    assert_same_outcome(scenario)


def test_a_tensor_outside_the_graph_is_not_waited_for():
    def scenario(torch):
        a, b, c, _ = _graph(torch)
        outside = leaf(torch, values((2,), seed=3))
        log = []
        torch.autograd.graph.register_multi_grad_hook(
            (a, outside), lambda grads: log.append(_described(grads)))
        torch.autograd.graph.register_multi_grad_hook(
            (outside, b), lambda grad: log.append(_described([grad])), mode="any")
        c.sum().backward()
        return log, a.grad

    assert_same_outcome(scenario)


def test_what_the_hook_returns_is_ignored():
    def scenario(torch):
        a, b, c, _ = _graph(torch)
        torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: [g * 0 for g in grads])
        c.sum().backward()
        return a.grad, b.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch, a, x: torch.autograd.graph.register_multi_grad_hook(
        (a,), print, mode="some"), id="unknown mode"),
    pytest.param(lambda torch, a, x: torch.autograd.graph.register_multi_grad_hook(
        (a, x), print), id="all: a tensor that does not require grad"),
    pytest.param(lambda torch, a, x: torch.autograd.graph.register_multi_grad_hook(
        (a, x), print, mode="any").remove(), id="any: a tensor that does not require grad"),
    pytest.param(lambda torch, a, x: torch.autograd.graph.register_multi_grad_hook(
        (), print).remove(), id="no tensors"),
])
def test_registration_errors(call):
    def scenario(torch):
        a = leaf(torch, values((2,), seed=4))
        call(torch, a, torch.ones(2))

    assert_same_outcome(scenario)


def test_the_tensor_hooks_it_registers_carry_pytorch_s_names():
    """What a tensor's hook dictionary (and so a trace) shows: in "any" mode the hook is
    wrapped with functools.wraps(fn) and takes fn's name; in "all" mode it is inner_hook."""
    def scenario(torch):
        a, b, _, _ = _graph(torch)

        def on_all(grads):
            pass

        def on_any(grad):
            pass

        torch.autograd.graph.register_multi_grad_hook((a, b), on_all)
        torch.autograd.graph.register_multi_grad_hook((a, b), on_any, mode="any")
        return [hook.__name__ for hook in a._backward_hooks.values()]

    assert_same_outcome(scenario)
