"""Grad mode during backward, against real PyTorch: the pass runs with grad mode set to
``create_graph`` (off by default) for everything it calls, and the caller's mode comes back
afterwards, also when a hook raises. So an op inside a hook records nothing, an optimiser
step inside a post-accumulate-grad hook may change a leaf in place, and a backward inside a
hook on a graph the hook just built has nothing to differentiate."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from test_custom_function import returning, square


def _seen(torch, events, site):
    """A probe for a hook: grad mode, and what an op on a fresh leaf records there."""
    probe = torch.ones(2, requires_grad=True) * 2
    events.append((site, torch.is_grad_enabled(), probe.requires_grad,
                   probe.grad_fn is not None))


def _every_hook(torch, events, multi_grad=True):
    """A module with every hook that fires during backward; returns the loss.
    (``autograd.grad`` refuses multi-grad hooks on leaves: ``multi_grad=False``.)"""
    class Scale(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.tensor([1.5, -0.5]))

        def forward(self, x):
            return x * self.w

    def double_backward(torch, grad):
        _seen(torch, events, "Function.backward")
        return grad * 2

    module = Scale()
    module.register_full_backward_pre_hook(lambda m, go: _seen(torch, events, "module pre"))
    module.register_full_backward_hook(lambda m, gi, go: _seen(torch, events, "module"))
    module.w.register_post_accumulate_grad_hook(lambda p: _seen(torch, events, "post acc"))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: _seen(torch, events, "leaf tensor hook"))
    y = returning(torch, double_backward).apply(module(x))
    y.register_hook(lambda g: _seen(torch, events, "tensor hook"))
    y.retain_grad()
    y.grad_fn.register_prehook(lambda go: _seen(torch, events, "node pre-hook"))
    y.grad_fn.register_hook(lambda gi, go: _seen(torch, events, "node hook"))
    if multi_grad:
        torch.autograd.graph.register_multi_grad_hook(
            (x, module.w), lambda grads: _seen(torch, events, "multi-grad all"))
        torch.autograd.graph.register_multi_grad_hook(
            (x, y), lambda grad: _seen(torch, events, "multi-grad any"), mode="any")
    return (y * y).sum(), x, y


@pytest.mark.parametrize("create_graph", [False, True])
def test_every_hook_runs_with_grad_mode_set_to_create_graph(create_graph):
    def scenario(torch):
        events = []
        loss, x, y = _every_hook(torch, events)
        loss.backward(create_graph=create_graph)
        return events, torch.is_grad_enabled(), y.grad.requires_grad, x.grad.requires_grad

    assert_same_outcome(scenario, check_warnings=False)


@pytest.mark.parametrize("create_graph", [False, True])
def test_autograd_grad_runs_hooks_with_grad_mode_set_to_create_graph(create_graph):
    def scenario(torch):
        events = []
        loss, x, y = _every_hook(torch, events, multi_grad=False)
        (g,) = torch.autograd.grad(loss, x, create_graph=create_graph)
        return events, torch.is_grad_enabled(), g.requires_grad

    assert_same_outcome(scenario)


def test_backward_under_no_grad_follows_create_graph_and_keeps_the_callers_mode():
    def scenario(torch):
        events = []
        loss, x, _ = _every_hook(torch, events)
        with torch.no_grad():
            loss.backward(create_graph=True)
            inside = torch.is_grad_enabled()
        return events, inside, torch.is_grad_enabled(), x.grad.requires_grad

    assert_same_outcome(scenario, check_warnings=False)


@pytest.mark.parametrize("mode", [True, False])
def test_the_callers_mode_comes_back_when_a_hook_raises(mode):
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3

        def hook(grad):
            raise ValueError(f"grad mode in the hook: {torch.is_grad_enabled()}")

        y.register_hook(hook)
        with torch.set_grad_enabled(mode):
            try:
                y.sum().backward(create_graph=not mode)
            except ValueError as error:
                message = str(error)
            after = torch.is_grad_enabled()
        return message, after, torch.is_grad_enabled()

    assert_same_outcome(scenario, check_warnings=False)


def test_an_optimizer_step_in_a_post_accumulate_grad_hook():
    """The "optimizer step in backward" pattern: each parameter is updated, in place, as
    soon as its gradient is ready, and its gradient freed."""
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(),
                                    torch.nn.Linear(4, 1))
        lr = 0.1

        def step(p):
            p.add_(p.grad, alpha=-lr)
            p.grad = None

        for p in model.parameters():
            p.register_post_accumulate_grad_hook(step)
        x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
        for _ in range(3):
            model(x).pow(2).sum().backward()
        return [p.detach().clone() for p in model.parameters()], \
            [p.grad for p in model.parameters()], [p._version for p in model.parameters()]

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", ["backward", "autograd.grad"])
def test_differentiating_a_graph_built_inside_a_hook_raises(call):
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        w = torch.tensor([3.0, 4.0], requires_grad=True)

        def hook(grad):
            inner = (w * w).sum()  # built with grad mode off: no graph
            if call == "backward":
                inner.backward()
            else:
                torch.autograd.grad(inner, w)

        (x * 2).register_hook(hook)
        y = x * 2
        y.register_hook(hook)
        y.sum().backward()

    assert_same_outcome(scenario)


def test_a_reentrant_backward_on_a_graph_built_earlier_still_works():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        w = torch.tensor([3.0, 4.0], requires_grad=True)
        inner = (w * w * x.detach()).sum()  # built before backward, with grad mode on
        events = []

        def hook(grad):
            events.append(torch.is_grad_enabled())
            inner.backward()
            events.append(torch.is_grad_enabled())
            return grad * 2

        y = x * 2
        y.register_hook(hook)
        y.sum().backward()
        return events, x.grad, w.grad

    assert_same_outcome(scenario)


def test_a_custom_backward_records_only_under_create_graph():
    def scenario(torch):
        recorded = []

        class Probe(square(torch)):
            @staticmethod
            def backward(ctx, grad):
                result = square(torch).backward(ctx, grad)
                recorded.append((torch.is_grad_enabled(), result.requires_grad,
                                 result.grad_fn is None))
                return result

        x = torch.tensor([1.0, -2.0], requires_grad=True)
        Probe.apply(x).sum().backward()
        (g,) = torch.autograd.grad((Probe.apply(x) * x).sum(), x, create_graph=True)
        return recorded, x.grad, g.requires_grad

    assert_same_outcome(scenario)


def test_a_mode_set_by_a_hook_lasts_until_the_next_node():
    """PyTorch restores the pass's grad mode before each node: a hook that switches grad
    mode on without restoring it affects the hooks of its node only."""
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = y * 3
        events = []

        def switch_on(grad):
            torch.set_grad_enabled(True)

        z.register_hook(switch_on)
        z.register_hook(lambda g: events.append(("z", torch.is_grad_enabled())))
        y.register_hook(lambda g: events.append(("y", torch.is_grad_enabled())))
        loss = z.sum()
        with torch.no_grad():
            loss.backward()
            events.append(("after", torch.is_grad_enabled()))
        return events

    assert_same_outcome(scenario)
