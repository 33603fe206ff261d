"""In-place view operations (``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``,
``swapdims_``, ``swapaxes_``) and ``swapdims``/``swapaxes`` against real PyTorch: the
tensor itself comes back with its new shape and strides, its version bumped and the
in-place node (``UnsqueezeBackward1``, ...) with its saved attributes; gradients; views;
leaves; errors."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, saved, upstream, values

CALLS = {
    "unsqueeze_(0)": ("unsqueeze_", (0,)),
    "unsqueeze_(-1)": ("unsqueeze_", (-1,)),
    "unsqueeze_(1)": ("unsqueeze_", (1,)),
    "squeeze_()": ("squeeze_", ()),
    "squeeze_(1)": ("squeeze_", (1,)),
    "squeeze_(-3)": ("squeeze_", (-3,)),
    "squeeze_(0) of a size-2 dim": ("squeeze_", (0,)),
    "t_()": ("t_", ()),
    "transpose_(0, -1)": ("transpose_", (0, -1)),
    "swapdims_(2, 1)": ("swapdims_", (2, 1)),
    "swapaxes_(-1, -2)": ("swapaxes_", (-1, -2)),
}


@pytest.mark.parametrize("call", list(CALLS))
def test_in_place_views(call):
    name, args = CALLS[call]

    def scenario(torch):
        x = torch.tensor(values((2, 1, 3) if name != "t_" else (2, 3)), requires_grad=True)
        y = x * 1
        version = y._version
        out = getattr(y, name)(*args)
        node = y.grad_fn
        (y * upstream(torch, y)).sum().backward()
        return (out is y, y.shape, y.stride(), y.is_contiguous(), y._version - version,
                graph(node), saved(node), x.grad)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", list(CALLS))
def test_in_place_views_without_grad(call):
    name, args = CALLS[call]

    def scenario(torch):
        y = torch.arange(6).reshape((2, 1, 3) if name != "t_" else (2, 3))
        out = getattr(y, name)(*args)
        return out is y, y, y.stride(), y._version, y.requires_grad, y.grad_fn

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", ["unsqueeze_(0)", "squeeze_()", "t_()", "transpose_(0, -1)"])
def test_in_place_views_of_a_leaf(call):
    """Refused on a leaf that requires grad while recording; under no_grad the leaf changes
    shape and stays a leaf."""
    name, args = CALLS[call]

    def scenario(torch):
        x = torch.ones(2, 1, requires_grad=True)
        try:
            getattr(x, name)(*args)
        except RuntimeError as error:
            refused = str(error)
        with torch.no_grad():
            getattr(x, name)(*args)
        return refused, x.shape, x.is_leaf, x.requires_grad, x._version

    assert_same_outcome(scenario)


def test_an_in_place_view_of_a_view_keeps_its_base():
    """The view gets the new node; its base is not rebased (no CopySlices), and other views
    of the base, whose version changed, regenerate their grad_fn."""
    def scenario(torch):
        a = torch.tensor(values((2, 3)), requires_grad=True)
        b = a * 1
        v, other = b[0], b[1]
        v.unsqueeze_(0)
        names = (v.grad_fn.name(), b.grad_fn.name(), other.grad_fn.name())
        base_is_b = v._base is b
        (v * upstream(torch, v)).sum().backward()
        b.mul_(2)
        return (names, base_is_b, v.shape, graph(v.grad_fn.next_functions[0][0]), a.grad,
                v.grad_fn.name(), v._is_view())

    assert_same_outcome(scenario)


def test_an_in_place_view_of_a_view_of_a_leaf():
    def scenario(torch):
        a = torch.ones(2, 3, requires_grad=True)
        return a[0].unsqueeze_(0)

    assert_same_outcome(scenario)


def test_an_in_place_view_makes_a_saved_tensor_stale():
    def scenario(torch):
        x = torch.ones(2, 3, requires_grad=True)
        y = x * 1
        z = y.sin()
        y.t_()
        z.sum().backward()

    assert_same_outcome(scenario)


def test_tensor_hooks_and_retain_grad_stay_with_the_old_node():
    """Unlike ``mul_``, an in-place view does not move the tensor's hooks: registered
    before, or after into the same dictionary, they see the old shape's gradient; so does
    ``retain_grad``. A tensor with no hook yet gets its first on the new node."""
    def scenario(torch):
        x = torch.tensor([[1.0, 2.0]], requires_grad=True)
        y = x * 3
        seen = []
        y.register_hook(lambda g: seen.append(("before", g.shape)))
        y.retain_grad()
        y.squeeze_(0)
        y.register_hook(lambda g: seen.append(("after", g.shape)))
        z = x * 2
        z.squeeze_(0)
        z.register_hook(lambda g: seen.append(("only after", g.shape)))
        (y.sum() + z.sum()).backward()
        return seen, x.grad, y.grad.shape

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda x: x.unsqueeze_(4), id="unsqueeze_(4)"),
    pytest.param(lambda x: x.squeeze_(3), id="squeeze_(3)"),
    pytest.param(lambda x: x.transpose_(0, 3), id="transpose_(0, 3)"),
    pytest.param(lambda x: x.t_(), id="t_() of 3-d"),
])
def test_in_place_view_errors_leave_the_tensor_as_it_was(call):
    def scenario(torch):
        x = torch.ones(2, 1, 3)
        try:
            call(x)
        except (RuntimeError, IndexError) as error:
            return type(error).__name__, str(error), x.shape, x._version
        return None

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["swapdims", "swapaxes"])
def test_swapdims_and_swapaxes_are_transpose(name):
    def scenario(torch):
        x = torch.tensor(values((2, 3, 4)), requires_grad=True)
        out = getattr(torch, name)(x, 0, -1)
        method = getattr(x, name)(2, 1)
        (out * upstream(torch, out)).sum().backward()
        return out, out.stride(), graph(out.grad_fn), method.shape, x.grad

    assert_same_outcome(scenario)
