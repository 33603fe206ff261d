"""Saved-tensor hooks, against real PyTorch: under
``torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)`` each tensor an
operation saves for backward is handed to ``pack_hook`` (which tensors, in which order, as
which objects), and backward gets it back from ``unpack_hook``. Also the rules around them:
nesting, the hooks in force at saving time, no version check, the errors, custom Functions,
``save_on_cpu`` and ``disable_saved_tensors_hooks``."""

from __future__ import annotations

import gc
import weakref

import pytest
from harness import assert_same_outcome
from ops_support import leaf, upstream, values


def _recorder(torch, inputs, log):
    """Hooks that log what they get: each packed tensor as its shape, dtype, requires_grad,
    grad_fn name, whether it is one of ``inputs`` (which) and whether grad mode was on."""
    def describe(tensor):
        which = next((i for i, x in enumerate(inputs) if tensor is x), None)
        return (tuple(tensor.shape), str(tensor.dtype), tensor.requires_grad,
                tensor.grad_fn and tensor.grad_fn.name(), which, torch.is_grad_enabled())

    def pack_hook(tensor):
        log.append(("pack", describe(tensor)))
        return ("packed", tensor.detach())

    def unpack_hook(packed):
        log.append(("unpack", torch.is_grad_enabled()))
        return packed[1]

    return torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)


OPS = [
    pytest.param(lambda torch, a, b: a * b, id="a * b"),
    pytest.param(lambda torch, a, b: a * b.detach(), id="a * constant"),
    pytest.param(lambda torch, a, b: a.detach() * b, id="constant * b"),
    pytest.param(lambda torch, a, b: a * 2, id="a * 2"),
    pytest.param(lambda torch, a, b: a * 2.5 / 3, id="a * 2.5 / 3"),
    pytest.param(lambda torch, a, b: a / b, id="a / b"),
    pytest.param(lambda torch, a, b: a.abs() ** b, id="a.abs() ** b"),
    pytest.param(lambda torch, a, b: a ** 2, id="a ** 2"),
    pytest.param(lambda torch, a, b: 2 ** a, id="2 ** a"),
    pytest.param(lambda torch, a, b: a + b - 1, id="a + b - 1"),
    pytest.param(lambda torch, a, b: -a, id="neg"),
    pytest.param(lambda torch, a, b: a.exp(), id="exp"),
    pytest.param(lambda torch, a, b: a.abs().log(), id="log"),
    pytest.param(lambda torch, a, b: a.abs().sqrt(), id="sqrt"),
    pytest.param(lambda torch, a, b: a.abs(), id="abs"),
    pytest.param(lambda torch, a, b: a.tanh(), id="tanh"),
    pytest.param(lambda torch, a, b: a.sigmoid(), id="sigmoid"),
    pytest.param(lambda torch, a, b: a.relu(), id="relu"),
    pytest.param(lambda torch, a, b: a.clamp(-0.5, 0.5), id="clamp"),
    pytest.param(lambda torch, a, b: torch.maximum(a, b), id="maximum"),
    pytest.param(lambda torch, a, b: torch.where(a > b, a, b), id="where"),
    pytest.param(lambda torch, a, b: a @ b.t(), id="matmul"),
    pytest.param(lambda torch, a, b: a[0] @ b[0], id="dot"),
    pytest.param(lambda torch, a, b: torch.nn.functional.linear(a, b), id="linear"),
    pytest.param(lambda torch, a, b: torch.nn.functional.linear(a.t(), b.t(), b[0]),
                 id="linear+bias"),
    pytest.param(lambda torch, a, b: torch.nn.functional.linear(a[0], b), id="linear of a vector"),
    pytest.param(lambda torch, a, b: a.unsqueeze(0) @ b.t().expand(4, 3, 2), id="bmm"),
    pytest.param(lambda torch, a, b: a @ b[0], id="mv"),
    pytest.param(lambda torch, a, b: a.sum(), id="sum"),
    pytest.param(lambda torch, a, b: a.mean(1), id="mean"),
    pytest.param(lambda torch, a, b: a.max(), id="max"),
    pytest.param(lambda torch, a, b: a.max(1).values, id="max(dim)"),
    pytest.param(lambda torch, a, b: a.norm(), id="norm"),
    pytest.param(lambda torch, a, b: a.std(), id="std"),
    pytest.param(lambda torch, a, b: a.softmax(1), id="softmax"),
    pytest.param(lambda torch, a, b: a.log_softmax(1), id="log_softmax"),
    pytest.param(lambda torch, a, b: a.reshape(-1).t().unsqueeze(0), id="views"),
    pytest.param(lambda torch, a, b: a[1:, ::2], id="slice"),
    pytest.param(lambda torch, a, b: a[torch.tensor([1, 0, 1])], id="index with a tensor"),
    pytest.param(lambda torch, a, b: a[a > 0], id="boolean mask"),
    pytest.param(lambda torch, a, b: torch.cat([a, b]), id="cat"),
    pytest.param(lambda torch, a, b: a.expand(2, 2, 3), id="expand"),
    pytest.param(lambda torch, a, b: torch.nn.functional.mse_loss(a, b), id="mse_loss"),
    pytest.param(lambda torch, a, b: torch.nn.functional.l1_loss(a, b), id="l1_loss"),
    pytest.param(lambda torch, a, b: torch.nn.functional.cross_entropy(
        a, torch.tensor([2, 0])), id="cross_entropy"),
    pytest.param(lambda torch, a, b: torch.nn.functional.dropout(a, 0.5), id="dropout"),
    pytest.param(lambda torch, a, b: a.masked_fill(b > 0, 0.5), id="masked_fill"),
    pytest.param(lambda torch, a, b: _assigned(a * 1, (0, slice(None)), b[1]), id="x[0] = t"),
    pytest.param(lambda torch, a, b: _assigned(a * 1, torch.tensor([1, 0]), b),
                 id="x[index tensor] = t"),
    pytest.param(lambda torch, a, b: _assigned(a * 1, b > 0, 2.0), id="x[mask] = 2"),
    pytest.param(lambda torch, a, b: torch.nn.functional.nll_loss(
        a, torch.tensor([2, 0]), weight=b[0].detach()), id="nll_loss with weights"),
    pytest.param(lambda torch, a, b: a.var(1) + a.min(), id="var and min"),
    pytest.param(lambda torch, a, b: a.sigmoid().exp_(), id="exp_ of a result"),
]


def _assigned(tensor, index, value):
    tensor[index] = value
    return tensor


@pytest.mark.parametrize("op", OPS)
def test_what_each_operation_packs_and_unpacks(op):
    def scenario(torch):
        torch.manual_seed(0)
        a = leaf(torch, values((2, 3), seed=1))
        b = leaf(torch, values((2, 3), seed=2))
        log = []
        with _recorder(torch, (a, b), log):
            out = op(torch, a, b)
        outputs = [entry for entry in log if entry[1][4] is None]
        log.append(("output", [out is not None and e[1][:4] == (
            tuple(out.shape), str(out.dtype), out.requires_grad,
            out.grad_fn and out.grad_fn.name()) for e in outputs]))
        (out * upstream(torch, out)).sum().backward()
        return log, a.grad, b.grad

    assert_same_outcome(scenario)


def _logging_hooks(torch, log, name="hooks"):
    """Hooks that note each call and keep a detached tensor (no reference cycle)."""
    return torch.autograd.graph.saved_tensors_hooks(
        lambda tensor: (log.append(f"{name}: pack"), tensor.detach())[1],
        lambda packed: (log.append(f"{name}: unpack"), packed)[1])


def test_the_hooks_in_force_when_a_tensor_is_saved_are_the_ones_used():
    def scenario(torch):
        a = leaf(torch, values((3,), seed=1))
        log = []
        with _logging_hooks(torch, log, "outer"):
            y = a * a
            with _logging_hooks(torch, log, "inner"):  # nested: only the innermost packs
                z = y.exp()
            w = z.tanh()
        v = w.sigmoid()  # no hooks: kept as it is
        with _logging_hooks(torch, log, "at backward"):  # too late to matter
            v.sum().backward()
        return log, a.grad

    assert_same_outcome(scenario)


def test_a_packed_tensor_is_not_checked_for_in_place_changes():
    # The hook decided what to keep; here a detached tensor sharing memory, so backward
    # sees the new values instead of raising "modified by an inplace operation".
    def scenario(torch):
        a = leaf(torch, values((3,), seed=2))
        b = a * 1
        with _logging_hooks(torch, []):
            y = b * b
        b.add_(1)
        y.sum().backward()
        return a.grad

    assert_same_outcome(scenario)


def test_the_unpacked_values_are_what_backward_uses():
    def scenario(torch):
        a, b = leaf(torch, values((3,), seed=3)), leaf(torch, values((3,), seed=4))
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach(),
                                                      lambda t: t * 10):
            y = (a * b).tanh()
        y.sum().backward()
        return a.grad, b.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("hooks", [
    pytest.param((lambda t: t.add_(1), lambda p: p), id="pack changes its input in place"),
    pytest.param((lambda t: t.detach(), lambda p: 3), id="unpack returns a number"),
    pytest.param((lambda t: t.detach(), lambda p: p.numpy()), id="unpack returns an array"),
    pytest.param((lambda t: 1 / 0, lambda p: p), id="pack raises"),
    pytest.param((lambda t: t.detach(), lambda p: 1 / 0), id="unpack raises"),
])
def test_hooks_that_break_the_rules_raise_and_leave_nothing_behind(hooks):
    def scenario(torch):
        a = leaf(torch, values((3,), seed=5))
        b = a * 1
        results = []
        try:
            with torch.autograd.graph.saved_tensors_hooks(*hooks):
                y = b * b
            y.sum().backward()
        except Exception as error:  # noqa: BLE001 - compared with PyTorch's
            results.append((type(error).__name__, str(error)))
        log = []
        with _logging_hooks(torch, log):  # the failed context is gone: these hooks work
            z = (a * a).exp()
        z.sum().backward()
        return results, log, a.grad, b._version

    assert_same_outcome(scenario)


def test_each_backward_unpacks_and_the_last_one_lets_go_of_the_packed_objects():
    def scenario(torch):
        class Packed:
            def __init__(self, tensor):
                self.tensor = tensor.detach()

        a = leaf(torch, values((3,), seed=6))
        log, alive = [], []

        def pack(tensor):
            packed = Packed(tensor)
            alive.append(weakref.ref(packed))
            return packed

        def unpack(packed):
            log.append("unpack")
            return packed.tensor

        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = (a * a).exp().sum()
        y.backward(retain_graph=True)
        after_first = [ref() is not None for ref in alive]
        y.backward()
        gc.collect()
        return log, after_first, [ref() is not None for ref in alive], a.grad

    assert_same_outcome(scenario)


def test_a_custom_function_packs_after_forward_and_gets_stand_ins_back():
    def scenario(torch):
        log = []

        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                log.append("forward")
                out = x * y
                ctx.save_for_backward(x, out)
                log.append("saved")
                return out

            @staticmethod
            def backward(ctx, grad):
                x, out = ctx.saved_tensors
                log.append(("x", x.requires_grad, x.is_leaf, x.grad_fn and x.grad_fn.name(),
                            "out", out.requires_grad, type(out.grad_fn).__name__))
                return grad * 2, grad * x

        a = leaf(torch, values((3,), seed=7))
        b = a * 3
        with _logging_hooks(torch, log):
            out = Scale.apply(b, a)
        out.sum().backward()
        return log, a.grad

    assert_same_outcome(scenario)


def test_nothing_is_packed_when_nothing_is_recorded():
    def scenario(torch):
        a = leaf(torch, values((3,), seed=8))
        log = []
        with _logging_hooks(torch, log):
            with torch.no_grad():
                (a * a).exp()
            a.detach().tanh()
        return log

    assert_same_outcome(scenario)


def test_pack_runs_with_grad_mode_off_and_unpack_with_backwards_grad_mode():
    """Pack always runs with grad mode off, even in forward; unpack runs in backward, whose
    grad mode is ``create_graph``, so an unpack hook may compute a differentiable value."""
    def scenario(torch):
        log = []

        def pack(tensor):
            log.append(("pack", torch.is_grad_enabled()))
            return tensor

        def unpack(tensor):
            log.append(("unpack", torch.is_grad_enabled()))
            return tensor

        x = leaf(torch, values((2,), seed=9))
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = (x * x.exp()).sum()
        (first,) = torch.autograd.grad(y, x, retain_graph=True)
        (second,) = torch.autograd.grad(y, x, create_graph=True)
        return log, first, second.requires_grad

    assert_same_outcome(scenario)


def test_save_on_cpu_gives_the_same_gradients():
    def scenario(torch):
        a = leaf(torch, values((2, 3), seed=9))
        b = leaf(torch, values((3, 2), seed=10))
        with torch.autograd.graph.save_on_cpu():
            y = (a @ b).tanh().sum()
        y.backward()
        return y, a.grad, b.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("order", ["disable, then hooks", "hooks, then disable",
                                   "nested disables"])
def test_disable_saved_tensors_hooks(order):
    def scenario(torch):
        graph = torch.autograd.graph
        log, errors = [], []

        def attempt(action):
            try:
                action()
            except RuntimeError as error:
                errors.append(str(error))

        def enter_hooks():
            with _logging_hooks(torch, log):
                pass

        def enter_disable():
            with graph.disable_saved_tensors_hooks("no hooks here"):
                pass

        if order == "disable, then hooks":
            with graph.disable_saved_tensors_hooks("no hooks here"):
                attempt(enter_hooks)
        elif order == "hooks, then disable":
            with _logging_hooks(torch, log):
                attempt(enter_disable)
        else:
            with graph.disable_saved_tensors_hooks("outer"):
                with graph.disable_saved_tensors_hooks("inner"):
                    attempt(enter_hooks)
                attempt(enter_hooks)  # the outer message is back
        attempt(enter_hooks)  # and after all of them, hooks work again
        return errors, log

    assert_same_outcome(scenario)


# -- what a node saved, by name: ``grad_fn._saved_self`` and ``_raw_saved_self`` -------------

def _saved_by_name(torch, node, inputs, output):
    """Every ``_saved_*`` tensor of ``node`` and the nodes before it, described: which
    names, whether each is one of ``inputs`` or ``output`` itself, and its values."""
    seen, found = set(), []
    stack = [node]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(child for child, _ in node.next_functions)
        for name in sorted(n[len("_raw_saved_"):] for n in dir(node)
                           if n.startswith("_raw_saved_")):
            value = getattr(node, "_saved_" + name)
            for tensor in value if isinstance(value, tuple) else (value,):
                found.append((node.name(), name, None if tensor is None else (
                    [i for i, x in enumerate(inputs) if tensor is x], tensor is output,
                    tensor.requires_grad, tensor.grad_fn and tensor.grad_fn.name(), tensor)))
    return sorted(found, key=lambda entry: (entry[0], entry[1]))


@pytest.mark.parametrize("op", OPS)
def test_what_each_operation_saved_by_name(op):
    def scenario(torch):
        torch.manual_seed(0)
        a = leaf(torch, values((2, 3), seed=1))
        b = leaf(torch, values((2, 3), seed=2))
        out = op(torch, a, b)
        return _saved_by_name(torch, out.grad_fn, (a, b), out)

    assert_same_outcome(scenario)


def test_the_saved_tensors_tutorial():
    # https://pytorch.org/tutorials/intermediate/autograd_saved_tensors_hooks_tutorial.html
    def scenario(torch):
        torch.manual_seed(0)
        x = torch.randn(5, requires_grad=True)
        y = x.pow(2)
        z = x.exp()
        facts = [x.equal(y.grad_fn._saved_self), x is y.grad_fn._saved_self,
                 y.grad_fn._saved_exponent, z.equal(z.grad_fn._saved_result),
                 z is z.grad_fn._saved_result]
        log = []
        raw = y.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: (log.append("pack"), t.detach() * 1)[1],
                           lambda p: (log.append("unpack"), p)[1])
        facts.append(list(log))
        facts.append(y.grad_fn._saved_self is x)  # now what unpack returns, in x's place
        facts.append(list(log))
        try:
            raw.register_hooks(lambda t: t, lambda p: p)
        except RuntimeError as error:
            facts.append(str(error))
        y.sum().backward()
        facts.append(list(log))
        try:
            facts.append(y.grad_fn._saved_self)  # freed by backward: an error
        except RuntimeError as error:
            facts.append(str(error))
        return facts, x.grad

    assert_same_outcome(scenario)
