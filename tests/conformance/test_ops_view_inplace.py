"""In-place changes to views, against real PyTorch: the base's history rebased onto
``CopySlices``, the view's and the other views' new ``AsStridedBackward0``, the values,
gradients, versions and hooks that follow, and the views PyTorch refuses to change (made
under ``no_grad``, outputs of ``unbind``/``split``, views of a leaf)."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, upstream, values

VIEWS = [
    pytest.param(lambda y: y[:, 0], id="y[:, 0]"),
    pytest.param(lambda y: y.view(-1), id="y.view(-1)"),
    pytest.param(lambda y: y[1:], id="y[1:]"),
    pytest.param(lambda y: y.t(), id="y.t()"),
    pytest.param(lambda y: y[0], id="y[0]"),
    pytest.param(lambda y: y.unsqueeze(0), id="y.unsqueeze(0)"),
    pytest.param(lambda y: y.transpose(0, 1)[1:], id="a view of a view"),
    pytest.param(lambda y: y[1, 2], id="a 0-d view"),
]

OPS = [
    pytest.param(lambda torch, v, w: v.mul_(2), id="mul_(2)"),
    pytest.param(lambda torch, v, w: v.add_(w[0], alpha=3), id="add_(0-d w, alpha=3)"),
    pytest.param(lambda torch, v, w: v.mul_(w[0]), id="mul_(0-d w)"),
    pytest.param(lambda torch, v, w: v.exp_(), id="exp_"),
    pytest.param(lambda torch, v, w: v.relu_(), id="relu_"),
    pytest.param(lambda torch, v, w: v.sigmoid_(), id="sigmoid_"),
    pytest.param(lambda torch, v, w: v.zero_(), id="zero_"),
    pytest.param(lambda torch, v, w: v.fill_(w[1]), id="fill_(0-d w)"),
    pytest.param(lambda torch, v, w: v.copy_(w[2].expand(v.shape)), id="copy_"),
    pytest.param(lambda torch, v, w: v.__isub__(w[0]), id="-="),
]


def _base_and_arg(torch):
    x = leaf(torch, values((3, 4), seed=21))
    w = leaf(torch, values((3,), seed=22))
    return x, w


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("make_view", VIEWS)
def test_an_in_place_op_on_a_view_rebases_the_base_and_the_view(make_view, op):
    def scenario(torch):
        x, w = _base_and_arg(torch)
        y = x * 2
        v = make_view(y)
        before = graph(v.grad_fn)
        out = op(torch, v, w)
        result = (out is v, y, v, before, graph(y.grad_fn), graph(v.grad_fn),
                  y._version, v._version, y.is_leaf, v.is_leaf, v._is_view())
        loss = (y * upstream(torch, y)).sum() + (v * upstream(torch, v)).sum()
        loss.backward()
        return result, x.grad, w.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("change", [
    pytest.param(lambda torch, y: y[:, 1].mul_(3), id="another view changed"),
    pytest.param(lambda torch, y: y.mul_(3), id="the base changed"),
    pytest.param(lambda torch, y: y.view(-1)[2:5].exp_(), id="a view of a view changed"),
])
def test_the_other_views_of_a_changed_base_get_a_new_grad_fn(change):
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=23))
        y = x * 2
        a, b = y[0], y.view(2, 6)
        change(torch, y)
        graphs = (graph(a.grad_fn), graph(b.grad_fn), a.requires_grad)
        (a * upstream(torch, a)).sum().backward()
        return a, b, graphs, x.grad

    assert_same_outcome(scenario)


def test_a_view_of_a_leaf_changed_under_no_grad_reads_the_leafs_gradient():
    def scenario(torch):
        p = leaf(torch, values((4,), seed=24))
        view = p[1:]
        with torch.no_grad():
            p.mul_(2)
        node = graph(view.grad_fn)
        (view * view).sum().backward()
        return node, view, p.grad

    assert_same_outcome(scenario)


def test_a_view_changed_by_a_tensor_requiring_grad_makes_its_base_require_grad():
    def scenario(torch):
        w = leaf(torch, values((2, 3), seed=25))
        b = torch.zeros(3, 3)
        other = b[:1]
        b[1:].add_(w)
        state = (b.requires_grad, b.is_leaf, graph(b.grad_fn), other.requires_grad,
                 graph(other.grad_fn), b._version)
        (b * upstream(torch, b)).sum().backward(retain_graph=True)
        first = w.grad.clone()
        (other * 2 + b[2:]).sum().backward()
        return state, first, w.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("assign", [
    pytest.param(lambda torch, v, w: v.__setitem__(0, 5.0), id="v[0] = 5.0"),
    pytest.param(lambda torch, v, w: v.__setitem__((slice(None), 1), w[:2]), id="v[:, 1] = w"),
    pytest.param(lambda torch, v, w: v.__setitem__((0, [1, 3]), w[0]), id="v[0, [1, 3]] = w0"),
    pytest.param(lambda torch, v, w: v.__setitem__(Ellipsis, w[1]), id="v[...] = w1"),
])
def test_item_assignment_into_a_view_rebases_its_base(assign):
    def scenario(torch):
        x, w = _base_and_arg(torch)
        y = x * 2
        v = y[1:]
        assign(torch, v, w)
        state = (y, v, graph(y.grad_fn), graph(v.grad_fn), y._version)
        (y * upstream(torch, y)).sum().backward()
        return state, x.grad, w.grad

    assert_same_outcome(scenario)


def test_an_in_place_relu_layer_applied_to_a_view():
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=26))
        y = x * 1
        out = torch.nn.ReLU(inplace=True)(y[:, :2])
        state = (y, graph(y.grad_fn), graph(out.grad_fn))
        (y * upstream(torch, y)).sum().backward()
        return state, x.grad

    assert_same_outcome(scenario)


def test_hooks_on_the_base_and_on_the_view_around_the_change():
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=27))
        y = x * 2
        v = y[:, 1]
        calls = []

        def hook(name):
            return lambda grad: calls.append((name, grad.clone()))

        y.register_hook(hook("base before"))
        v.register_hook(hook("view before"))
        v.retain_grad()
        v.mul_(3)
        y.register_hook(hook("base after"))
        v.register_hook(hook("view after"))
        y.retain_grad()
        y.grad_fn.register_hook(lambda gi, go: calls.append(("CopySlices", gi, go)))
        v.grad_fn.register_prehook(lambda go: calls.append(("AsStrided pre", go)))
        loss = (y * upstream(torch, y)).sum() + (v * v).sum()
        loss.backward()
        return calls, x.grad, y.grad, v.grad

    assert_same_outcome(scenario)


def test_hooks_registered_before_an_in_place_change_stay_with_the_old_value():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=28))
        y = x * 2
        calls = []
        y.register_hook(lambda grad: calls.append(("before", grad.clone())))
        y.mul_(3)
        y.register_hook(lambda grad: calls.append(("after", grad.clone())))
        y.retain_grad()
        (y * upstream(torch, y)).sum().backward()
        return calls, y.grad, x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("change", [
    pytest.param(lambda torch, z, w: w.add_(1), id="the view that was saved"),
    pytest.param(lambda torch, z, w: z[0].add_(1), id="another view of the saved one's base"),
])
@pytest.mark.parametrize("saved", ["view", "base"])
def test_a_saved_view_or_base_changed_through_a_view_names_the_new_node(change, saved):
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=29))
        z = x * 1
        w = z.view(-1)
        s = (w * w) if saved == "view" else (z * z)
        change(torch, z, w)
        s.sum().backward()
        return x.grad

    assert_same_outcome(scenario)


def test_backward_twice_through_copy_slices():
    def scenario(torch):
        x, w = _base_and_arg(torch)
        y = x * 2
        y[0].mul_(w[0])
        y.sum().backward()
        y.sum().backward()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("scenario", [
    pytest.param(lambda torch, y: _no_grad_view(torch, y).add_(1), id="no_grad view, add_"),
    pytest.param(lambda torch, y: _no_grad_view(torch, torch.ones(3, 4, requires_grad=True))
                 .mul_(2), id="no_grad view of a leaf"),
    pytest.param(lambda torch, y: _changed(torch, y, _no_grad_view(torch, y)).grad_fn,
                 id="no_grad view, base changed"),
    pytest.param(lambda torch, y: y.unbind(0)[1].add_(1), id="unbind piece"),
    pytest.param(lambda torch, y: y.split(2, 1)[1].mul_(2), id="split piece"),
    pytest.param(lambda torch, y: y.chunk(2)[0][0].zero_(), id="a view of a chunk piece"),
    pytest.param(lambda torch, y: _changed(torch, y, y.unbind(0)[2]).grad_fn,
                 id="unbind piece, base changed"),
    pytest.param(lambda torch, y: torch.zeros(3).unbind()[0].add_(y[0, 0]),
                 id="unbind piece of a tensor without grad"),
    pytest.param(lambda torch, y: torch.zeros(3).unbind()[0].add_(1),
                 id="nothing to record: allowed"),
    pytest.param(lambda torch, y: torch.ones(3, requires_grad=True)[1:].add_(1),
                 id="a view of a leaf"),
    pytest.param(lambda torch, y: _backward(y, y[0:1].expand(3, 4).fill_(1.0)),
                 id="fill_ an expanded view, then backward"),
    pytest.param(lambda torch, y: _backward(y, y[:, :1].expand(3, 4).zero_()),
                 id="zero_ an expanded view, then backward"),
    pytest.param(lambda torch, y: y.detach()[0:1].expand(3, 4).zero_(),
                 id="zero_ an expanded view, nothing to record"),
])
def test_the_views_that_cannot_be_changed_in_place(scenario):
    def run(torch):
        y = leaf(torch, values((3, 4), seed=30)) * 2
        return scenario(torch, y)

    assert_same_outcome(run)


def _no_grad_view(torch, y):
    with torch.no_grad():
        return y[0]


def _backward(y, view):
    graphs = (graph(y.grad_fn), graph(view.grad_fn), y)
    y.sum().backward()
    return graphs


def _changed(torch, y, view):
    y.add_(1)
    return view


def test_an_input_a_custom_function_returned_cannot_follow_a_change_of_its_base():
    def scenario(torch):
        class Identity(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a

            @staticmethod
            def backward(ctx, grad):
                return grad

        y = leaf(torch, values((3,), seed=31)) * 2
        out = Identity.apply(y)
        y.add_(1)
        return out.grad_fn

    assert_same_outcome(scenario)


def test_a_view_made_under_no_grad_requires_grad_like_its_base():
    # PyTorch's view says requires_grad when its base does, even without a grad_fn; an op
    # on it is then recorded, with edges that lead nowhere.
    def scenario(torch):
        x = torch.ones(3, requires_grad=True)
        y = x * 2
        with torch.no_grad():
            v, w = x.view(-1), y[1:]
        out = v * 2
        result = [(t.requires_grad, t.is_leaf, t.grad_fn) for t in (v, w)]
        result.append((out.requires_grad, graph(out.grad_fn)))
        out.sum().backward()
        (w * 3).sum().backward()
        return result, x.grad, v.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("change", [
    pytest.param(lambda a, v: a.add_(v), id="a.add_(v)"),
    pytest.param(lambda a, v: a.mul_(v), id="a.mul_(v)"),
    pytest.param(lambda a, v: a.copy_(v), id="a.copy_(v)"),
    pytest.param(lambda a, v: a.__setitem__(slice(None), v), id="a[:] = v"),
    pytest.param(lambda a, v: a.__setitem__(0, v[1]), id="a[0] = v[1]"),
])
def test_a_no_grad_view_as_the_other_operand_of_an_in_place_change(change):
    # Such a view requires grad through its base, so the change is recorded: the plain
    # tensor that received it comes to require grad, as it would from any tensor that does.
    def scenario(torch):
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            v = x[:2]
        a = torch.zeros(2)
        change(a, v)
        result = (a.requires_grad, graph(a.grad_fn), a._version)
        a.sum().backward()
        return result, x.grad, v.grad

    assert_same_outcome(scenario)
