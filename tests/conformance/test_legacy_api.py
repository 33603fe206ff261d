"""The legacy API that published hook code still calls, against real PyTorch:
``torch.autograd.Variable`` and its engine's ``queue_callback``, the typed tensor classes
(``torch.FloatTensor``, ...) as constructors, in ``isinstance`` and in ``.type(...)``, and
``Tensor.new``."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph

# -- Variable ---------------------------------------------------------------------------------

VARIABLES = {
    "Variable(t)": lambda torch, t: torch.autograd.Variable(t),
    "Variable(t, requires_grad=True)": lambda torch, t: torch.autograd.Variable(
        t, requires_grad=True),
    "Variable(t, True)": lambda torch, t: torch.autograd.Variable(t, True),
    "Variable(t, requires_grad=1)": lambda torch, t: torch.autograd.Variable(t, requires_grad=1),
    "Variable(None)": lambda torch, t: torch.autograd.Variable(None),
    "Variable()": lambda torch, t: torch.autograd.Variable(),
    "Variable(non-leaf)": lambda torch, t: torch.autograd.Variable(
        t.requires_grad_() * 2),
    "Variable(non-leaf, requires_grad=True)": lambda torch, t: torch.autograd.Variable(
        t.requires_grad_() * 2, requires_grad=True),
    "Variable(int tensor, requires_grad=True)": lambda torch, t: torch.autograd.Variable(
        t.long(), requires_grad=True),
    "Variable(list)": lambda torch, t: torch.autograd.Variable([1.0, 2.0]),
    "Variable(number)": lambda torch, t: torch.autograd.Variable(2.0),
    "Variable(t, volatile=True)": lambda torch, t: torch.autograd.Variable(t, volatile=True),
    "Variable(t, True, True)": lambda torch, t: torch.autograd.Variable(t, True, True),
    "Variable(t, _grad_fn=1)": lambda torch, t: torch.autograd.Variable(t, _grad_fn=1),
    "Variable(t, name='w')": lambda torch, t: torch.autograd.Variable(t, name="w"),
    "Variable(t, foo=1)": lambda torch, t: torch.autograd.Variable(t, foo=1),
}


@pytest.mark.parametrize("make", list(VARIABLES))
def test_variable_returns_a_detached_tensor(make):
    """``Variable(t)`` is ``t.detach()`` with the ``requires_grad`` asked for: a plain
    tensor, sharing ``t``'s memory, a leaf whatever ``t`` was."""
    def scenario(torch):
        t = torch.tensor([1.5, -2.0])
        v = VARIABLES[make](torch, t)
        shares = v.numel() > 0 and v.data_ptr() == t.data_ptr()
        return (v, type(v).__name__, v is t, shares, v.requires_grad, v.is_leaf,
                v.grad_fn is None)

    assert_same_outcome(scenario)


def test_every_tensor_is_a_variable():
    def scenario(torch):
        Variable = torch.autograd.Variable  # noqa: N806 - its name

        x = torch.ones(2, requires_grad=True)
        return (isinstance(x, Variable), isinstance(x * 2, Variable),
                isinstance(torch.arange(3), Variable),
                isinstance(torch.nn.Parameter(torch.ones(1)), Variable),
                isinstance(3.0, Variable), isinstance(np.ones(2), Variable),
                issubclass(torch.Tensor, Variable), type(Variable).__name__,
                Variable.__name__, type(Variable._execution_engine).__name__)

    assert_same_outcome(scenario)


def test_a_variable_learns_like_a_tensor():
    """The published idiom: inputs wrapped in Variables, a hook on one, a backward."""
    def scenario(torch):
        Variable = torch.autograd.Variable  # noqa: N806 - its name

        w = Variable(torch.tensor([[0.5, -1.0], [2.0, 0.25]]), requires_grad=True)
        x = Variable(torch.tensor([1.0, 3.0]))
        seen = []
        w.register_hook(lambda grad: seen.append(grad.clone()))
        y = (w @ x).tanh().sum()
        y.backward()
        return w.grad, seen, graph(y.grad_fn), x.grad

    assert_same_outcome(scenario)


# -- the engine's queue_callback -------------------------------------------------------------

def test_queue_callback_outside_backward_is_an_error():
    assert_same_outcome(
        lambda torch: torch.autograd.Variable._execution_engine.queue_callback(lambda: None))


@pytest.mark.parametrize("create_graph", [False, True])
def test_queued_callbacks_run_in_order_after_the_whole_backward(create_graph):
    """A callback runs once every node has run (the leaf's ``.grad`` is complete), with the
    pass's grad mode, in the order queued; one queued by a callback runs too."""
    def scenario(torch):
        engine = torch.autograd.Variable._execution_engine
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        log = []

        def first():
            log.append(("first", torch.is_grad_enabled(), x.grad.clone()))
            engine.queue_callback(lambda: log.append("queued by a callback"))

        def hook(grad):
            log.append("hook")
            engine.queue_callback(first)
            engine.queue_callback(lambda: log.append("second"))

        y = x * x
        y.register_hook(hook)
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: log.append("node hook"))
        x.register_post_accumulate_grad_hook(lambda t: log.append("accumulated"))
        y.sum().backward(create_graph=create_graph)
        return log

    assert_same_outcome(scenario, check_warnings=False)


def test_queue_callback_during_autograd_grad():
    def scenario(torch):
        engine = torch.autograd.Variable._execution_engine
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        log = []
        y = x * 3
        y.register_hook(lambda grad: engine.queue_callback(lambda: log.append("callback")))
        (grad,) = torch.autograd.grad(y.sum(), x)
        log.append("returned")
        return log, grad

    assert_same_outcome(scenario)


def test_a_callback_queued_in_a_nested_backward_runs_at_its_end():
    def scenario(torch):
        engine = torch.autograd.Variable._execution_engine
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        a = torch.tensor([3.0], requires_grad=True)
        log = []

        def outer_hook(grad):
            with torch.enable_grad():
                inner = (a * 3).sum()
            handle = a.register_hook(
                lambda g: engine.queue_callback(lambda: log.append("inner callback")))
            inner.backward()
            handle.remove()
            log.append("inner backward returned")
            engine.queue_callback(lambda: log.append("outer callback"))

        x.register_hook(outer_hook)
        (x * 2).sum().backward()
        return log, a.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("callback", [
    pytest.param("raises", id="a callback that raises"),
    pytest.param("not callable", id="a callback that is not callable"),
])
def test_an_error_in_a_callback_reaches_the_caller_of_backward(callback):
    def scenario(torch):
        engine = torch.autograd.Variable._execution_engine
        x = torch.tensor([1.0, 2.0], requires_grad=True)

        def boom():
            raise ValueError("boom")

        x.register_hook(lambda g: engine.queue_callback(boom if callback == "raises" else 1))
        (x * 2).sum().backward()

    assert_same_outcome(scenario)


def test_a_callback_queued_before_backward_failed_never_runs():
    def scenario(torch):
        engine = torch.autograd.Variable._execution_engine
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        log = []

        def hook(grad):
            engine.queue_callback(lambda: log.append("callback"))
            raise KeyError("in the hook")

        handle = x.register_hook(hook)
        try:
            (x * 2).sum().backward()
        except KeyError as error:
            log.append(str(error))
        handle.remove()
        (x * 2).sum().backward()
        return log, x.grad

    assert_same_outcome(scenario)


# -- the typed tensor classes ---------------------------------------------------------------

TYPES = ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ByteTensor",
         "BoolTensor"]

CONSTRUCTIONS = {
    "()": lambda cls, torch: cls(),
    "(2, 3) shape": lambda cls, torch: cls(2, 3).shape,
    "(0,) shape": lambda cls, torch: cls(0).shape,
    "(Size) shape": lambda cls, torch: cls(torch.Size([4, 1])).shape,
    "([1, 0, 2])": lambda cls, torch: cls([1, 0, 2]),
    "((1, 2),)": lambda cls, torch: cls((1, 2)),
    "([[1.7], [-0.2]])": lambda cls, torch: cls([[1.7], [-0.2]]),
    "([])": lambda cls, torch: cls([]),
    "(array)": lambda cls, torch: cls(np.array([2.5, 1.0])),
    "([one-element tensors])": lambda cls, torch: cls([torch.tensor(1), torch.tensor(0)]),
    "(device='cpu')": lambda cls, torch: cls([1], device="cpu"),
    "(-1)": lambda cls, torch: cls(-1),
    "(2.5)": lambda cls, torch: cls(2.5),
    "('ab')": lambda cls, torch: cls("ab"),
    "(2, 'a')": lambda cls, torch: cls(2, "a"),
    "(float32 tensor)": lambda cls, torch: cls(torch.ones(2)),
    "(int64 tensor)": lambda cls, torch: cls(torch.ones(2, dtype=torch.long)),
}


@pytest.mark.parametrize("make", list(CONSTRUCTIONS))
@pytest.mark.parametrize("name", TYPES)
def test_typed_tensor_constructors(name, make):
    assert_same_outcome(lambda torch: CONSTRUCTIONS[make](getattr(torch, name), torch))


def test_torch_tensor_is_the_untyped_legacy_constructor():
    def scenario(torch):
        return (torch.Tensor(), torch.Tensor(2, 1).shape, torch.Tensor([1, 2]),
                torch.Tensor(torch.ones(2, dtype=torch.long)), torch.Tensor(torch.Size([3])).shape)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make", [
    pytest.param(lambda torch, x: torch.Tensor(x), id="Tensor(x)"),
    pytest.param(lambda torch, x: torch.FloatTensor(x), id="FloatTensor(x)"),
    pytest.param(lambda torch, x: x.new(x), id="x.new(x)"),
])
def test_a_legacy_constructor_given_a_tensor_makes_an_alias(make):
    """The same memory in a new tensor object, recorded as ``AliasBackward0`` when the
    tensor requires grad: a view of it."""
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = make(torch, x)
        y.register_hook(lambda g: g * 10)
        (y * y).sum().backward()
        plain = make(torch, torch.tensor([3.0, 4.0]))
        return (y is x, y.data_ptr() == x.data_ptr(), y._is_view(), y._base is x,
                graph(y.grad_fn), x.grad, plain.grad_fn, plain.requires_grad)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", TYPES)
def test_isinstance_of_a_typed_tensor_class_compares_dtypes(name):
    def scenario(torch):
        cls = getattr(torch, name)
        tensors = [torch.ones(1), torch.ones(1, dtype=torch.float64),
                   torch.ones(1, dtype=torch.float16), torch.ones(1, dtype=torch.long),
                   torch.ones(1, dtype=torch.int32), torch.ones(1, dtype=torch.uint8),
                   torch.ones(1, dtype=torch.bool), torch.nn.Parameter(torch.ones(1)),
                   torch.ones(1, requires_grad=True) * 2]
        return ([isinstance(t, cls) for t in tensors], isinstance(1.0, cls),
                isinstance(np.ones(1), cls), issubclass(cls, torch.Tensor),
                cls.dtype, cls.is_cuda, cls.is_sparse, repr(cls), str(cls), cls.__name__,
                cls.__module__, type(cls).__name__)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", TYPES)
def test_type_converts_to_a_typed_tensor_class(name):
    def scenario(torch):
        x = torch.tensor([1.5, -2.0, 0.0], requires_grad=True)
        out = x.type(getattr(torch, name))
        by_name = x.type(f"torch.{name}")
        return (out, out.type(), by_name, out.requires_grad, graph(out.grad_fn),
                torch.nn.Linear(2, 1).type(getattr(torch, name)).weight.dtype
                if name in ("FloatTensor", "DoubleTensor") else None)

    assert_same_outcome(scenario)


# -- Tensor.new ----------------------------------------------------------------------------

NEW = {
    "new()": lambda x, torch: x.new(),
    "new(2, 3) shape": lambda x, torch: (x.new(2, 3).shape, x.new(2, 3).dtype),
    "new(Size) shape": lambda x, torch: x.new(torch.Size([1, 2])).shape,
    "new([1, 2.7])": lambda x, torch: x.new([1, 2.7]),
    "new((True, False))": lambda x, torch: x.new((True, False)),
    "new(array)": lambda x, torch: x.new(np.arange(3)),
    "new(same dtype)": lambda x, torch: x.new(x.clone()),
    "new(other dtype)": lambda x, torch: x.new(torch.ones(1, dtype=torch.float16)),
    "new(2.5)": lambda x, torch: x.new(2.5),
    "new(-2)": lambda x, torch: x.new(-2),
    "new(device='cpu')": lambda x, torch: x.new([1], device="cpu"),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("make", list(NEW))
def test_new_is_the_legacy_constructor_with_the_dtype_of_self(make, dtype):
    def scenario(torch):
        x = torch.ones(2, dtype=getattr(torch, dtype))
        out = NEW[make](x, torch)
        return out if not isinstance(out, tuple) else tuple(out)

    assert_same_outcome(scenario)


def test_float_of_a_tensor_that_requires_grad_warns():
    """``float(t)`` takes the value out of the graph; PyTorch 2.13 cautions (once per
    process; every time under ``set_warn_always``). ``int``, ``item`` and ``bool`` do not."""
    def scenario(torch):
        torch.set_warn_always(True)
        try:
            x = torch.tensor(2.5, requires_grad=True)
            return float(x), float(x * 2), float(x.detach()), int(x), x.item(), bool(x)
        finally:
            torch.set_warn_always(False)

    assert_same_outcome(scenario)
