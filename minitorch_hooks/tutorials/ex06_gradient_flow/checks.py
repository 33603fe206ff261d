"""Checks for exercise 6: per-layer gradient flow with full backward hooks."""

from __future__ import annotations

from ..checking import Checks, expect

CHECKS = Checks()


def chain(torch, *weights):
    """Linear(1, 1) layers without bias, with the given weights, one after the other:
    out = w_n * ... * w_1 * x, so every gradient can be worked out by hand."""
    model = torch.nn.Sequential(*(torch.nn.Linear(1, 1, bias=False) for _ in weights))
    set_weights(torch, model, *weights)
    return model


def set_weights(torch, model, *weights):
    with torch.no_grad():
        for layer, weight in zip(model, weights):
            layer.weight.fill_(weight)


def same_records(got, expected):
    return len(got) == len(expected) and all(
        g[0] == e[0] and abs(g[1] - e[1]) < 1e-5 and
        (g[2] is None if e[2] is None else g[2] is not None and abs(g[2] - e[2]) < 1e-5)
        for g, e in zip(got, expected))


@CHECKS(step=1, title="the hook records the name and both gradient norms",
        nudge="a full backward hook gets tuples; the first entry of each is the one to measure, "
              "and grad_input's can be None",
        pointer="GradientFlow._record; Module.register_full_backward_hook's docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html)",
        solution="append (name, grad_output[0].norm().item(), grad_input[0].norm().item()), "
                 "with None in place of the last when grad_input[0] is None")
def hook_records_the_norms(ex, torch):
    # __init__ is step 2, so this check makes a GradientFlow without running it.
    flow = ex.GradientFlow.__new__(ex.GradientFlow)
    flow.records = []
    hook = flow._record("layer")
    layer = torch.nn.Linear(2, 2)
    result = hook(layer, (torch.tensor([3.0, 4.0]),), (torch.tensor([0.0, 2.0]),))
    hook(layer, (None,), (torch.tensor([1.0, 0.0]),))
    expect(result is None, f"the hook returned {result!r}: it would replace grad_input")
    expect(same_records(flow.records, [("layer", 2.0, 5.0), ("layer", 1.0, None)]),
           f"records is {flow.records}, expected [('layer', 2.0, 5.0), ('layer', 1.0, None)]")
    expect(all(isinstance(norm, float) for _, norm, _ in flow.records),
           "store the norms as Python floats (.item())")


@CHECKS(step=2, title="every Linear layer is hooked; backward fires them last to first",
        nudge="hook every module of the given type, and only those, with the backward kind of hook",
        pointer="GradientFlow.__init__; the course's how-to 'Gradient norms'",
        solution="loop over model.named_modules() and call register_full_backward_hook("
                 "self._record(name)) on each isinstance(module, layer_type)")
def layers_fire_in_backward_order(ex, torch):
    model = torch.nn.Sequential(chain(torch, 2.0), torch.nn.ReLU(), chain(torch, 3.0))
    flow = ex.GradientFlow(model)
    expect(len(flow.handles) == 2, f"{len(flow.handles)} handles for 2 Linear layers")
    model(torch.tensor([[1.0]])).sum().backward()
    # The last layer: grad_output 1, grad_input 3 * 1. The first: grad_output 3, and its
    # input needs no gradient, so grad_input is (None,).
    expected = [("2.0", 1.0, 3.0), ("0.0", 3.0, None)]
    expect(same_records(flow.records, expected),
           f"records is {flow.records}, expected {expected}")


@CHECKS(step=3, title="vanishing() names the layers of the last pass with tiny gradients",
        nudge="only the records of the last backward pass count, and backward recorded them last "
              "layer first; compare each with the largest norm",
        pointer="GradientFlow.vanishing; the exercise's text, step 3",
        solution="take the last len(self.handles) records, reverse them into forward order, "
                 "and keep the names whose grad_output norm < ratio * the largest")
def vanishing_layers_are_found(ex, torch):
    model = chain(torch, 1.0, 0.001, 1.0)
    flow = ex.GradientFlow(model)
    model(torch.tensor([[1.0]])).sum().backward()
    # grad_output norms, first layer first: 0.001 * 1, 1, 1.
    expect(flow.vanishing(0.01) == ["0"], f"vanishing(0.01) is {flow.vanishing(0.01)}")
    model(torch.tensor([[1.0]])).sum().backward()
    set_weights(torch, model, 1.0, 1.0, 0.001)  # now the first two layers get 0.001
    model(torch.tensor([[1.0]])).sum().backward()
    expect(flow.vanishing(0.01) == ["0", "1"],
           f"after a third pass vanishing(0.01) is {flow.vanishing(0.01)}, expected "
           "['0', '1']: only the records of the last pass count, in forward order")


@CHECKS(step=4, title="remove() takes the hooks off",
        nudge="each handle removes its own hook",
        pointer="GradientFlow.remove; RemovableHandle.remove",
        solution="call remove() on each handle in self.handles")
def remove_takes_the_hooks_off(ex, torch):
    model = chain(torch, 2.0, 3.0)
    ex.GradientFlow(model).remove()
    expect(not any(layer._backward_hooks for layer in model), "backward hooks are left")
