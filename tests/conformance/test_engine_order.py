"""The engine's own behaviours that hooks make visible: post-hooks on a leaf's
AccumulateGrad node, hooks on outputs that get no gradient, and the order of the ready
queue, ties included. Each scenario runs on minitorch_hooks and on real PyTorch and is
compared (see ``harness.py``); ``test_hook_order_fuzz.py`` checks random graphs."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome


def grad_accumulator(torch, leaf):
    """The leaf's AccumulateGrad node, reached through a graph that uses the leaf."""
    return (leaf * 1).grad_fn.next_functions[0][0]


def logger(events, name):
    """A hook of any kind that records its name and the values it received."""
    def hook(*args):
        events.append((name, *args))
    return hook


# -- post-hooks on an AccumulateGrad node ---------------------------------------------------

def test_a_leaf_nodes_post_hook_fires_last_given_no_grad_inputs_and_the_grad():
    def scenario(torch):
        events = []
        x = torch.tensor([1.0, -2.0], requires_grad=True)
        y = (x * 3).sum()
        node = y.grad_fn.next_functions[0][0].next_functions[0][0]
        node.register_hook(logger(events, "node post-hook"))  # registered first, runs last
        node.register_prehook(logger(events, "node pre-hook"))
        x.register_post_accumulate_grad_hook(lambda t: events.append(("post-accumulate",
                                                                      t.grad.clone())))
        x.retain_grad()  # a leaf keeps its .grad anyway: nothing changes
        x.register_hook(logger(events, "tensor hook"))
        y.backward()
        return events, x.grad, node.name()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["None", "()", "(grad,)", "(None,)", "[]", "grad"])
def test_a_leaf_nodes_post_hook_may_return_none_or_an_empty_tuple(returned):
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        node = grad_accumulator(torch, x)
        y = (x * x).sum()
        fired = []

        def hook(grad_inputs, grad_outputs):
            fired.append(grad_inputs)
            return {"None": None, "()": (), "(grad,)": (grad_outputs[0] * 2,), "(None,)": (None,),
                    "[]": [], "grad": grad_outputs[0]}[returned]

        node.register_hook(hook)
        y.backward()
        return fired, x.grad

    assert_same_outcome(scenario)


def test_a_leaf_nodes_hooks_fire_with_backward_inputs_but_not_in_autograd_grad():
    def scenario(torch):
        events = []
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        node = grad_accumulator(torch, x)
        node.register_prehook(logger(events, "pre"))
        node.register_hook(logger(events, "post"))
        grads = torch.autograd.grad(y, x, retain_graph=True)
        events.append("-- backward(inputs=x)")
        y.backward(inputs=[x])
        return events, grads, x.grad

    assert_same_outcome(scenario)


# -- outputs that get no gradient ----------------------------------------------------------------

def two_outputs_passing_none(torch):
    """A custom Function with two outputs that passes None on where no gradient came."""
    class TwoOutputs(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.set_materialize_grads(False)
            return a * 2, b * 3

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            return (None if grad_a is None else grad_a * 2,
                    None if grad_b is None else grad_b * 3)

    return TwoOutputs


MULTI_OUTPUT = {
    "unbind": lambda torch, x, y: x.view(2, 3).unbind(0),
    "split": lambda torch, x, y: x.split(2),
    "chunk": lambda torch, x, y: x.chunk(3),
    "unequal split": lambda torch, x, y: x.split([1, 5]),
    "custom Function": lambda torch, x, y: two_outputs_passing_none(torch).apply(x, y),
}


@pytest.mark.parametrize("op", sorted(MULTI_OUTPUT))
def test_hooks_of_an_output_that_gets_no_gradient_are_called_with_none(op):
    def scenario(torch):
        events = []
        x = torch.arange(6.0, requires_grad=True)
        y = torch.ones(6, requires_grad=True)
        outputs = MULTI_OUTPUT[op](torch, x, y)
        for i, out in enumerate(outputs):
            out.register_hook(logger(events, f"tensor hook {i}"))
            out.retain_grad()
        node = outputs[0].grad_fn
        node.register_prehook(logger(events, "node pre-hook"))
        node.register_hook(logger(events, "node post-hook"))
        for name, leaf in (("x", x), ("y", y)):
            leaf.register_hook(logger(events, f"tensor hook {name}"))
            leaf.register_post_accumulate_grad_hook(lambda t, name=name: events.append(
                f"post-accumulate {name}"))
        (outputs[0] * 5).sum().backward()
        return events, [out.grad for out in outputs], x.grad, y.grad

    assert_same_outcome(scenario)


def test_a_leaf_that_gets_no_gradient_runs_every_hook_and_keeps_no_grad():
    def scenario(torch):
        events = []
        x = torch.ones(2, requires_grad=True)
        y = torch.ones(2, requires_grad=True)
        a, _ = two_outputs_passing_none(torch).apply(x, y)
        node = a.grad_fn.next_functions[1][0]  # y's AccumulateGrad
        y.register_hook(logger(events, "tensor hook"))
        node.register_prehook(logger(events, "node pre-hook"))
        node.register_hook(logger(events, "node post-hook"))
        y.register_post_accumulate_grad_hook(lambda t: events.append(("post-accumulate",
                                                                      t.grad)))
        a.sum().backward()
        return events, x.grad, y.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["a tensor", "a number"])
def test_a_hook_cannot_replace_a_none_gradient(returned):
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        first, second = x.split(1)
        second.register_hook(lambda grad: torch.zeros(1) if returned == "a tensor" else 5)
        first.sum().backward()
        return x.grad

    assert_same_outcome(scenario)


# -- the ready queue is a heap: ties come out in heap order, not FIFO ----------------------------

@pytest.mark.parametrize("how", ["stack", "cat"])
@pytest.mark.parametrize("count", [5, 12])
def test_leaves_ready_together_fire_their_hooks_in_pytorchs_heap_order(how, count):
    def scenario(torch):
        events = []
        leaves = [torch.full((2,), float(i), requires_grad=True) for i in range(count)]
        for i, leaf in enumerate(leaves):
            leaf.register_hook(lambda grad, i=i: events.append(("leaf", i)))
            grad_accumulator(torch, leaf).register_hook(lambda *args, i=i: events.append(
                ("node", i)))
        getattr(torch, how)(leaves).sum().backward()
        return events

    assert_same_outcome(scenario)


@pytest.mark.parametrize("how", ["autograd.grad", "backward(inputs=...)"])
def test_only_nodes_that_run_enter_the_ready_queue(how):
    """Nodes that lead to none of the inputs never enter the heap in PyTorch, so they do
    not move the ties that do."""
    def scenario(torch):
        events = []
        leaves = [torch.full((2,), float(i), requires_grad=True) for i in range(10)]
        for i, leaf in enumerate(leaves):
            leaf.register_hook(lambda grad, i=i: events.append(i))
        total = torch.stack(leaves).sum()
        chosen = leaves[1::3] + leaves[::4]  # 0, 1, 4 (twice), 7 and 8
        if how == "autograd.grad":
            return torch.autograd.grad(total, chosen), events
        total.backward(inputs=chosen)
        return events, [leaf.grad for leaf in leaves]

    assert_same_outcome(scenario)


def test_autograd_grad_runs_a_single_roots_tensor_hooks_even_if_it_leads_nowhere():
    def scenario(torch):
        events = []
        x = torch.ones(2, requires_grad=True)
        w = torch.ones(2, requires_grad=True)
        y = (x * 2).sum()
        y.register_hook(logger(events, "root tensor hook"))
        y.grad_fn.register_prehook(logger(events, "root pre-hook"))
        grads = torch.autograd.grad(y, [w], allow_unused=True)
        a, b = (x * 3).sum(), (w * 3).sum()
        a.register_hook(logger(events, "a"))
        b.register_hook(logger(events, "b"))
        return grads, torch.autograd.grad([a, b], [w]), events

    assert_same_outcome(scenario)


def test_a_backward_inside_a_hook_runs_first_and_leaves_the_outer_ties_as_in_pytorch():
    """PyTorch's nested backward shares the ready queue, ranked ahead of the outer one; the
    nodes it pushes and pops (and those a failing one drops) move the outer ties."""
    def scenario(torch):
        events = []
        leaves = [torch.ones(1, requires_grad=True) for _ in range(12)]
        others = [torch.ones(1, requires_grad=True) for _ in range(5)]
        first = torch.stack(others).sum() * 2
        second = (others[0] * 3).sum()
        for i, other in enumerate(others):
            other.register_hook(lambda grad, i=i: events.append(f"inner {i}"))

        def boom(grad):
            raise ValueError("boom")

        def hook(grad, i):
            events.append(i)
            if i == 0:
                torch.autograd.backward([first, second], retain_graph=True)
            if i == 6:
                handle = others[2].register_hook(boom)
                try:
                    first.backward(retain_graph=True)
                except ValueError as error:
                    events.append(f"caught {error}")
                handle.remove()

        for i, leaf in enumerate(leaves):
            leaf.register_hook(lambda grad, i=i: hook(grad, i))
        torch.stack(leaves).sum().backward()
        return events

    assert_same_outcome(scenario)


@pytest.mark.parametrize("input_node", ["runs on", "runs no further"])
def test_autograd_grad_picks_up_a_gradient_before_the_hooks_of_a_node_that_runs_on(input_node):
    """PyTorch hands back the gradient as it arrived when the input's node must still run
    (to reach another input), and the hooks' replacement when the node runs no further."""
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.register_hook(lambda grad: grad * 10)
        inputs = [y, x] if input_node == "runs on" else [y]
        return torch.autograd.grad((y * y).sum(), inputs)

    assert_same_outcome(scenario)


def test_autograd_grad_leaves_a_custom_functions_gradients_for_other_inputs_in_its_post_hook():
    """A built-in node computes no gradient for an input that leads nowhere needed (its
    post-hook sees None there); a custom Function computes what its backward returns."""
    def scenario(torch):
        events = []
        x = torch.ones(2, requires_grad=True)
        w = torch.ones(2, requires_grad=True)
        a, _ = two_outputs_passing_none(torch).apply(x, w)
        b = a * w
        for node in (a.grad_fn, b.grad_fn):
            node.register_hook(logger(events, node.name()))
        return torch.autograd.grad(b.sum(), [w]), events

    assert_same_outcome(scenario)


def test_a_leaf_s_first_gradient_is_kept_without_a_copy_when_nothing_else_holds_it():
    """PyTorch's AccumulateGrad makes a fresh gradient ``.grad`` itself, so the node's
    post-hook sees what a post-accumulate-grad hook changed in place; a gradient that a
    hook kept, or that went to two leaves, is copied, so the kept one stays as it was."""
    def scenario(torch):
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        node = x.view_as(x).grad_fn.next_functions[0][0]
        seen = []
        x.register_hook(lambda grad: grad - 2)
        node.register_prehook(lambda grad_outputs: (grad_outputs[0] / 5,))

        def add_half(leaf):
            leaf.grad.add_(0.5)

        x.register_post_accumulate_grad_hook(add_half)
        node.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_outputs[0] * 1))
        (x * 1).sum().backward()

        kept = []
        y = torch.tensor([1.0, 2.0], requires_grad=True)
        y.register_hook(lambda grad: kept.append(grad))
        (y * 3).sum().backward()
        y.grad.add_(100)

        a = torch.tensor([1.0], requires_grad=True)
        b = torch.tensor([1.0], requires_grad=True)
        (a * 2 + b * 2).sum().backward()
        a.grad.add_(1)
        return seen, x.grad, kept, y.grad, a.grad, b.grad

    assert_same_outcome(scenario)
