"""Tensor hooks, post-accumulate-grad hooks, retain_grad and graph-node hooks, each scenario
run on minitorch_hooks and on real PyTorch and compared (see ``harness.py``)."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome


def test_leaf_hook_runs_before_accumulation_and_replaces_the_grad():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        seen = []

        def double(grad):
            seen.append(("hook", grad.clone(), x.grad))  # .grad is still None here
            return grad * 2

        x.register_hook(double)
        (x * x).sum().backward()
        return seen, x.grad

    assert_same_outcome(scenario)


def test_hooks_run_in_registration_order_each_seeing_the_previous_result():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        events = []
        x.register_hook(lambda g: events.append(("first", g.clone())) or g + 1)
        x.register_hook(lambda g: events.append(("second", g.clone())))
        x.register_hook(lambda g: events.append(("third", g.clone())) or g * 10)
        (x * 3).sum().backward()
        return events, x.grad

    assert_same_outcome(scenario)


def test_non_leaf_hook_fires_when_its_grad_is_computed_and_changes_what_flows_on():
    def scenario(torch):
        x = torch.tensor([1.0, -2.0], requires_grad=True)
        y = x * 3
        z = y.exp()
        events = []
        y.register_hook(lambda g: events.append(("y", g.clone())) or g * 0.5)
        z.register_hook(lambda g: events.append(("z", g.clone())))
        x.register_hook(lambda g: events.append(("x", g.clone())))
        z.sum().backward()
        return events, x.grad, y.grad_fn.name()

    assert_same_outcome(scenario, check_warnings=False)


def test_backward_hooks_dict_is_an_ordered_dict_keyed_by_handle_id():
    def scenario(torch):
        x = torch.rand(1, requires_grad=True)

        def tensor_hook(grad):
            pass

        handle = x.register_hook(tensor_hook)
        hooks = x._backward_hooks
        result = (type(hooks).__name__, list(hooks.keys()) == [handle.id],
                  list(hooks.values()) == [tensor_hook])
        handle.remove()
        handle.remove()  # a second remove does nothing
        return result, len(x._backward_hooks)

    assert_same_outcome(scenario)


def test_removing_a_hook_from_inside_a_hook_does_not_disturb_the_running_backward():
    def scenario(torch):
        x = torch.ones(3, requires_grad=True)
        events = []
        handles = {}

        def first(grad):
            events.append("first")
            handles["second"].remove()

        handles["first"] = x.register_hook(first)
        handles["second"] = x.register_hook(lambda g: events.append("second"))
        (x * 2).sum().backward()
        (x * 2).sum().backward()
        return events, x.grad

    assert_same_outcome(scenario)


def test_handle_as_context_manager_removes_the_hook():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        events = []
        with x.register_hook(lambda g: events.append("inside")):
            (x + 1).sum().backward()
        (x + 1).sum().backward()
        return events, x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["int", "wrong_size", "wrong_dtype", "list"])
def test_a_hook_returning_a_bad_replacement_raises_pytorchs_error(returned):
    def scenario(torch):
        x = torch.ones(3, requires_grad=True)
        bad = {"int": lambda g: 5, "wrong_size": lambda g: torch.ones(2),
               "wrong_dtype": lambda g: g.double(), "list": lambda g: [g]}[returned]
        x.register_hook(bad)
        (x * 2).sum().backward()

    assert_same_outcome(scenario)


def test_a_hook_on_a_tensor_that_does_not_require_grad_is_refused():
    assert_same_outcome(lambda torch: torch.ones(2).register_hook(lambda g: g))


def test_a_hook_that_raises_propagates_and_stays_registered():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        calls = []

        def failing(grad):
            calls.append("called")
            raise ValueError("hook failed")

        x.register_hook(failing)
        try:
            (x * 2).sum().backward()
        except ValueError as error:
            calls.append(str(error))
        return calls, len(x._backward_hooks), x.grad

    assert_same_outcome(scenario)


def test_post_accumulate_grad_hook_sees_the_accumulated_grad():
    def scenario(torch):
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        w.register_hook(lambda g: seen.append(("pre", w.grad)) or g * 2)
        w.register_post_accumulate_grad_hook(lambda t: seen.append(("post", t is w,
                                                                    t.grad.clone())))
        (w * w).sum().backward()
        (w * w).sum().backward()
        return seen, w.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["non_leaf", "no_grad", "returns_value"])
def test_post_accumulate_grad_hook_errors(case):
    def scenario(torch):
        w = torch.ones(2, requires_grad=True)
        if case == "non_leaf":
            (w * 2).register_post_accumulate_grad_hook(lambda t: None)
        elif case == "no_grad":
            torch.ones(2).register_post_accumulate_grad_hook(lambda t: None)
        else:
            w.register_post_accumulate_grad_hook(lambda t: t.grad)
            (w * 2).sum().backward()

    assert_same_outcome(scenario)


def test_a_post_accumulate_grad_hooks_return_value_reaches_the_next_hook_then_fails():
    """PyTorch runs these hooks like tensor hooks: a returned tensor is checked like a
    gradient and handed to the next hook in place of the leaf; the "should return None"
    error comes only after the last hook ran."""
    def scenario(torch):
        w = torch.ones(2, requires_grad=True)
        seen = []
        w.register_post_accumulate_grad_hook(lambda t: seen.append(("first", t is w)) or t * 3)
        w.register_post_accumulate_grad_hook(lambda t: seen.append(("second", t is w, t)))
        w.register_post_accumulate_grad_hook(lambda t: seen.append("third") or t)
        try:
            (w * 2).sum().backward()
        except RuntimeError as error:
            seen.append(str(error))
        return seen, w.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["wrong_size", "wrong_dtype"])
def test_a_post_accumulate_grad_hook_returning_a_bad_tensor_gets_the_tensor_hook_error(
        returned):
    def scenario(torch):
        w = torch.ones(2, requires_grad=True)

        def bad(t):
            return torch.ones(3) if returned == "wrong_size" else t.double()

        w.register_post_accumulate_grad_hook(bad)
        (w * 2).sum().backward()

    assert_same_outcome(scenario)


def test_retain_grad_keeps_a_non_leaf_grad_and_reading_without_it_warns():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        y = x * 3
        z = y * 2
        y.retain_grad()
        z.sum().backward()
        return y.retains_grad, z.retains_grad, y.grad, z.grad, x.retains_grad

    assert_same_outcome(scenario)


def test_retain_grad_runs_after_the_tensors_own_hooks():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        y = x * 3
        y.retain_grad()
        y.register_hook(lambda g: g * 100)
        y.sum().backward()
        return y.grad, x.grad

    assert_same_outcome(scenario)


def test_node_hooks_receive_grad_inputs_and_grad_outputs():
    def scenario(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        c = a * b
        events = []
        c.grad_fn.register_prehook(lambda go: events.append(("pre", go)))
        c.grad_fn.register_hook(lambda gi, go: events.append(("post", gi, go)))
        c.register_hook(lambda g: events.append(("tensor", g)))
        c.sum().backward()
        return events, a.grad, b.grad

    assert_same_outcome(scenario)


def test_node_metadata_is_a_dict_of_the_nodes_own():
    def scenario(torch):
        a = torch.ones(2, requires_grad=True)
        y = a * 2
        node, accumulator = y.grad_fn, y.grad_fn.next_functions[0][0]
        node.metadata["made by"] = "a test"
        seen = []
        node.register_prehook(lambda grads: seen.append(dict(node.metadata)))
        y.sum().backward()
        refused = None
        try:
            node.metadata = {}
        except AttributeError:
            refused = "AttributeError"
        return (node.metadata, node.metadata is node.metadata, accumulator.metadata,
                (y * 3).grad_fn.metadata, seen, refused)

    assert_same_outcome(scenario)


def test_node_hooks_can_replace_gradients():
    def scenario(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        c = a * b
        c.grad_fn.register_prehook(lambda go: (go[0] * 10,))
        c.grad_fn.register_hook(lambda gi, go: (gi[0], gi[1] * 0))
        c.sum().backward()
        return a.grad, b.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["pre_not_tuple", "pre_wrong_count", "post_not_tuple",
                                  "post_wrong_count", "post_replaces_none", "post_wrong_size"])
def test_node_hook_return_errors(case):
    def scenario(torch):
        a = torch.ones(3, requires_grad=True)
        b = torch.ones(3, requires_grad=case != "post_replaces_none")
        c = a * b
        hooks = {
            "pre_not_tuple": ("pre", lambda go: 5),
            "pre_wrong_count": ("pre", lambda go: (go[0], go[0])),
            "post_not_tuple": ("post", lambda gi, go: gi[0]),
            "post_wrong_count": ("post", lambda gi, go: (gi[0],)),
            "post_replaces_none": ("post", lambda gi, go: (gi[0], torch.ones(3))),
            "post_wrong_size": ("post", lambda gi, go: (torch.ones(2), gi[1])),
        }
        kind, hook = hooks[case]
        (c.grad_fn.register_prehook if kind == "pre" else c.grad_fn.register_hook)(hook)
        c.sum().backward()

    assert_same_outcome(scenario)


def test_firing_order_across_a_graph_with_every_hook_kind():
    def scenario(torch):
        events = []

        def log(name):
            return lambda *args: events.append(name)

        x = torch.tensor([0.5, -1.0], requires_grad=True)
        w = torch.tensor([2.0, 3.0], requires_grad=True)
        y = x * w
        z = y.tanh() + y
        out = (z * z).sum()
        for name, t in [("x", x), ("w", w), ("y", y), ("z", z), ("out", out)]:
            t.register_hook(log("tensor " + name))
        for t in (y, z, out):
            t.grad_fn.register_prehook(log("prehook " + t.grad_fn.name()))
            t.grad_fn.register_hook(log("posthook " + t.grad_fn.name()))
        x.register_post_accumulate_grad_hook(log("post-accumulate x"))
        w.register_post_accumulate_grad_hook(log("post-accumulate w"))
        out.backward()
        return events, x.grad, w.grad

    assert_same_outcome(scenario)


def test_a_leaf_used_twice_gets_both_gradients_before_its_hook_runs():
    def scenario(torch):
        a = torch.tensor([2.0], requires_grad=True)
        seen = []
        a.register_hook(lambda g: seen.append(g.clone()))
        (a + a).sum().backward()
        (a * a).sum().backward()
        return seen, a.grad

    assert_same_outcome(scenario)


def test_hooks_run_during_autograd_grad_and_nothing_accumulates():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        events = []
        y.register_hook(lambda g: events.append(("y", g.clone())))
        x.register_hook(lambda g: events.append(("x", g.clone())) or g * 3)
        (gx,) = torch.autograd.grad(y.sum(), x)
        return events, gx, x.grad

    assert_same_outcome(scenario)


# -- only the part of the graph that leads to ``inputs`` runs -----------------------------------

def _branching_graph(torch, log):
    """``f = (a * b * 3 + b * 5).sum()`` with a hook on every tensor and on ``c``'s node."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    e = b * 5
    for name, tensor in {"a": a, "b": b, "c": c, "e": e}.items():
        tensor.register_hook(lambda grad, name=name: log.append((name, grad)))
    a.register_post_accumulate_grad_hook(lambda t: log.append(("a accumulated", t.grad)))
    c.grad_fn.register_hook(lambda grad_inputs, grad_outputs: log.append(("c node", grad_inputs)))
    return a, b, c, e, (c * 3 + e).sum()


@pytest.mark.parametrize("inputs", ["a", "b", "c", "a and c", "e"])
def test_autograd_grad_runs_neither_the_nodes_nor_the_hooks_that_lead_elsewhere(inputs):
    def scenario(torch):
        log = []
        a, b, c, e, f = _branching_graph(torch, log)
        chosen = [{"a": a, "b": b, "c": c, "e": e}[name] for name in inputs.split(" and ")]
        grads = torch.autograd.grad(f, chosen)
        return grads, log, a.grad, b.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("inputs", ["a", "b", "c", "a and c", "e", "a, twice"])
def test_backward_with_inputs_accumulates_into_those_only(inputs):
    def scenario(torch):
        log = []
        a, b, c, e, f = _branching_graph(torch, log)
        named = {"a": a, "b": b, "c": c, "e": e}
        chosen = [named[name] for name in inputs.split(",")[0].split(" and ")]
        f.backward(inputs=chosen, retain_graph=True)
        if inputs.endswith("twice"):
            f.backward(inputs=chosen)
        return (log, a.grad, b.grad, c.retains_grad, c.grad if c.retains_grad else None,
                e.grad if e.retains_grad else None)

    assert_same_outcome(scenario)


def test_backward_with_inputs_makes_a_non_leaf_input_retain_its_grad():
    def scenario(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        c = a * 2
        d = c * 3
        d.sum().backward(inputs=c, retain_graph=True)  # a single tensor is fine too
        first = c.grad.clone()
        d.sum().backward()  # no inputs: c keeps its gradient from now on
        return first, c.retains_grad, c.grad, a.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("inputs", [
    pytest.param(lambda torch, a: [], id="empty"),
    pytest.param(lambda torch, a: [torch.ones(2)], id="does not require grad"),
    pytest.param(lambda torch, a: [torch.ones(2, requires_grad=True)], id="not in the graph"),
])
def test_backward_with_odd_inputs(inputs):
    def scenario(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        (a * 2).sum().backward(inputs=inputs(torch, a))
        return a.grad

    assert_same_outcome(scenario)
