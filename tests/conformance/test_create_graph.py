"""Gradients of gradients (``create_graph=True``), against real PyTorch: gradient
penalties, Hessian-vector products, ``.grad`` that requires grad and how it accumulates,
``retain_graph`` defaulting to ``create_graph``, hooks in both passes, a hook's returned
tensor differentiated through, ``grad_fn`` names, and custom Functions (with
``once_differentiable``). Second derivatives op by op are in ``test_double_backward.py``."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest
from harness import assert_same_outcome


def _leaf(torch, *values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def test_a_gradient_penalty():
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(),
                                    torch.nn.Linear(3, 1))
        x = torch.tensor([[0.5, -1.0], [1.5, 0.25]], requires_grad=True)
        out = model(x)
        (grad_x,) = torch.autograd.grad(out.sum(), x, create_graph=True)
        penalty = ((grad_x.norm(dim=1) - 1) ** 2).mean()
        (out.mean() + 10 * penalty).backward()
        return grad_x, penalty, [p.grad for p in model.parameters()], x.grad

    assert_same_outcome(scenario)


def test_a_meta_learning_step_through_the_gradients_of_a_model():
    """MAML's inner step: parameters minus the learning rate times their gradients, as a
    function of the parameters; the outer loss is differentiated through it."""
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(),
                                    torch.nn.Linear(4, 2))
        x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.3, -0.5]])
        target = torch.tensor([0, 1])
        loss = torch.nn.functional.cross_entropy(model(x), target)
        grads = torch.autograd.grad(loss, model.parameters(), create_graph=True)
        w1, b1, w2, b2 = (p - 0.1 * g for p, g in zip(model.parameters(), grads))
        out = torch.relu(x @ w1.t() + b1) @ w2.t() + b2
        torch.nn.functional.cross_entropy(out, target).backward()
        return [g.grad_fn.name() for g in grads], [p.grad for p in model.parameters()]

    assert_same_outcome(scenario)


def test_a_hessian_vector_product_differentiable_in_v():
    def scenario(torch):
        x = _leaf(torch, 0.5, -1.0, 2.0)
        v = _leaf(torch, 1.0, 0.5, -0.25)
        loss = (x ** 3).sum() + (x[0] * x[1] * x[2])
        (g,) = torch.autograd.grad(loss, x, create_graph=True)
        (hv,) = torch.autograd.grad(g, x, v, create_graph=True)
        (d_v,) = torch.autograd.grad(hv.sum(), v)
        return g, hv, hv.grad_fn is not None, d_v

    assert_same_outcome(scenario)


def test_backward_with_create_graph_gives_grad_a_graph_and_accumulates_out_of_place():
    """The first gradient is stored as a copy (``CopyBackwards``); the next one is added
    out of place: ``.grad`` becomes a new tensor (``AddBackward0``)."""
    def scenario(torch):
        x = _leaf(torch, 1.0, 2.0)
        (x ** 3).sum().backward(create_graph=True)
        first = x.grad
        info = [first.requires_grad, first.grad_fn.name(), first.is_leaf]
        (x ** 2).sum().backward(create_graph=True)
        info += [x.grad is first, x.grad.grad_fn.name(), first]
        (x * 4).sum().backward()  # no create_graph: added in place into the current .grad
        info += [x.grad._version, x.grad.requires_grad]
        return info, x.grad

    assert_same_outcome(scenario, check_warnings=False)


def test_a_second_backward_through_a_gradient():
    def scenario(torch):
        x = _leaf(torch, 1.0, -2.0, 0.5)
        (x.exp() * x).sum().backward(create_graph=True)
        g = x.grad
        x.grad = None
        g.sum().backward()
        return g, x.grad

    assert_same_outcome(scenario, check_warnings=False)


def test_a_gradient_that_depends_only_on_constants_has_no_graph():
    def scenario(torch):
        x = _leaf(torch, 1.0, -2.0)
        (x * 3).sum().backward(create_graph=True)
        (g,) = torch.autograd.grad((x * 3).sum(), x, create_graph=True)
        return x.grad.requires_grad, x.grad.grad_fn, g.requires_grad, g.grad_fn

    assert_same_outcome(scenario, check_warnings=False)


@pytest.mark.parametrize("call", ["backward", "autograd.grad"])
def test_retain_graph_defaults_to_create_graph(call):
    def scenario(torch):
        x = _leaf(torch, 1.0, 2.0)
        y = (x.tanh() * x).sum()
        if call == "backward":
            y.backward(create_graph=True)
        else:
            torch.autograd.grad(y, x, create_graph=True)
        y.backward()  # the graph is still there
        try:
            y.backward()  # now it was freed
        except RuntimeError as error:
            return x.grad, str(error)[:40]

    assert_same_outcome(scenario, check_warnings=False)


def test_hooks_fire_in_both_passes_in_order():
    def scenario(torch):
        events = []
        x = _leaf(torch, 1.0, 2.0)
        x.register_hook(lambda g: events.append(("x", g.requires_grad, g.grad_fn is None)))
        y = x * x
        y.register_hook(lambda g: events.append(("y", g.requires_grad, g.grad_fn is None)))
        y.grad_fn.register_prehook(lambda go: events.append(("y node pre", len(go))))
        y.grad_fn.register_hook(lambda gi, go: events.append(("y node", len(gi))))
        z = (y * x).sum()
        (g,) = torch.autograd.grad(z, x, create_graph=True)
        events.append("second pass")
        g.sum().backward()
        return events, g, x.grad

    assert_same_outcome(scenario)


def test_a_tensor_returned_by_a_hook_is_differentiated_through():
    def scenario(torch):
        x = _leaf(torch, 1.0, 2.0)
        scale = _leaf(torch, 3.0, -1.0)
        y = x * x
        y.register_hook(lambda g: g * scale)
        (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        g.sum().backward()
        return g, g.grad_fn.name(), x.grad, scale.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", [
    pytest.param(lambda x: x ** 3, id="x ** 3"),
    pytest.param(lambda x: x * x, id="x * x"),
    pytest.param(lambda x: x.exp(), id="exp"),
    pytest.param(lambda x: 1 / x, id="1 / x"),
    pytest.param(lambda x: x.sum() ** 2, id="sum ** 2"),
    pytest.param(lambda x: x.view(2, 1) ** 2, id="view"),
    pytest.param(lambda x: x[0] ** 2, id="select"),
    pytest.param(lambda x: x[1:] ** 2, id="slice"),
    pytest.param(lambda x: x[[0, 0]] ** 2, id="index"),
    pytest.param(lambda x: x.unsqueeze(0) ** 2, id="unsqueeze"),
    pytest.param(lambda x: x.norm() ** 2, id="norm"),
    pytest.param(lambda x: x.var() ** 2, id="var"),
    pytest.param(lambda x: x.abs().sqrt(), id="sqrt of abs"),
    pytest.param(lambda x: x.clamp(0, 1) ** 2, id="clamp"),
])
def test_the_grad_fn_of_a_gradient_has_pytorchs_name(op):
    def scenario(torch):
        x = _leaf(torch, 0.5, 2.0)
        (g,) = torch.autograd.grad(op(x).sum(), x, create_graph=True)
        return g.grad_fn.name(), g

    assert_same_outcome(scenario)


def _cube(torch, once):
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    if once:
        from importlib import import_module
        once_differentiable = import_module(
            torch.__name__ + ".autograd.function").once_differentiable
        Cube.backward = staticmethod(once_differentiable(Cube.backward.__func__))
    return Cube


def test_a_custom_function_supports_create_graph():
    def scenario(torch):
        x = _leaf(torch, 1.0, -2.0)
        cube = _cube(torch, once=False)
        (g,) = torch.autograd.grad((cube.apply(x) * x).sum(), x, create_graph=True)
        (h,) = torch.autograd.grad(g.sum(), x)
        return g, g.grad_fn.name(), h

    assert_same_outcome(scenario)


def test_once_differentiable_raises_when_differentiated_twice():
    def scenario(torch):
        x = _leaf(torch, 1.0, -2.0)
        cube = _cube(torch, once=True)
        (plain,) = torch.autograd.grad(cube.apply(x).sum(), x, create_graph=True)
        (g,) = torch.autograd.grad((cube.apply(x) ** 2).sum(), x, create_graph=True)
        result = [plain.grad_fn, g.grad_fn.name(), repr(g.grad_fn).split(" ")[0],
                  g.requires_grad]
        try:
            g.sum().backward()
        except RuntimeError as error:
            result.append(str(error))
        return result

    assert_same_outcome(scenario)


def test_backward_with_create_graph_warns_about_the_reference_cycle_once(monkeypatch):
    """Both libraries warn once per process, so whichever test runs first sees it: the
    message is compared with the one a fresh PyTorch process gives."""
    from harness import pytorch_answer

    probe = ("import warnings, torch\n"
             "x = torch.ones(2, requires_grad=True)\n"
             "with warnings.catch_warnings(record=True) as caught:\n"
             "    warnings.simplefilter('always')\n"
             "    for _ in range(2):\n"
             "        (x * x).sum().backward(create_graph=True)\n"
             "print(repr([(w.category.__name__, str(w.message)) for w in caught]))\n")
    theirs = pytorch_answer(lambda torch: subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip())

    import minitorch_hooks
    from minitorch_hooks import _warnings

    monkeypatch.setattr(_warnings, "_given", set())
    x = minitorch_hooks.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            (x * x).sum().backward(create_graph=True)
    mine = [(w.category.__name__, str(w.message)) for w in caught]
    # PyTorch adds where in its C++ source the warning came from.
    assert len(eval(theirs)) == len(mine) == 1  # noqa: S307 - our own probe's repr
    assert eval(theirs)[0][1].startswith(mine[0][1])  # noqa: S307
    assert eval(theirs)[0][0] == mine[0][0]  # noqa: S307


def test_backward_with_create_graph_warns_every_time_under_warn_always():
    """``torch.set_warn_always(True)`` turns the once-per-process warning into one per
    call, as PyTorch's own hook test of the reference cycle relies on."""
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        torch.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                for _ in range(2):
                    (x * x).sum().backward(create_graph=True)
        finally:
            torch.set_warn_always(False)
        return [str(w.message).startswith("Using backward() with create_graph=True")
                for w in caught]

    assert_same_outcome(scenario)
