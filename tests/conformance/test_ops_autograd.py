"""The autograd rules around the ops, against real PyTorch: in-place operations and their
guards, version counters, saved tensors changed in place, backward twice, ``autograd.grad``,
``requires_grad`` and ``.grad`` rules, grad modes, ``detach`` and ``.data``."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, upstream, values

# -- in-place operations ---------------------------------------------------------------------

IN_PLACE = [
    pytest.param(lambda torch, y: y.add_(1), id="add_(1)"),
    pytest.param(lambda torch, y: y.add_(torch.ones(3), alpha=2), id="add_(t, alpha=2)"),
    pytest.param(lambda torch, y: y.sub_(0.5), id="sub_"),
    pytest.param(lambda torch, y: y.mul_(3), id="mul_(3)"),
    pytest.param(lambda torch, y: y.div_(2), id="div_"),
    pytest.param(lambda torch, y: y.pow_(2), id="pow_"),
    pytest.param(lambda torch, y: y.neg_(), id="neg_"),
    pytest.param(lambda torch, y: y.exp_(), id="exp_"),
    pytest.param(lambda torch, y: y.relu_(), id="relu_"),
    pytest.param(lambda torch, y: y.tanh_(), id="tanh_"),
    pytest.param(lambda torch, y: y.sigmoid_(), id="sigmoid_"),
    pytest.param(lambda torch, y: y.clamp_(-1, 1), id="clamp_"),
    pytest.param(lambda torch, y: y.zero_(), id="zero_"),
    pytest.param(lambda torch, y: y.fill_(2.5), id="fill_"),
    pytest.param(lambda torch, y: y.copy_(torch.tensor([1.0, 2.0, 3.0])), id="copy_"),
    pytest.param(lambda torch, y: y.__iadd__(2), id="+="),
    pytest.param(lambda torch, y: y.__imul__(y), id="*= itself"),
]


@pytest.mark.parametrize("op", IN_PLACE)
def test_an_in_place_op_on_a_non_leaf_is_recorded(op):
    def scenario(torch):
        x = leaf(torch, values((3,), seed=1))
        y = x * 2
        version = y._version
        out = op(torch, y)
        result = (out is y, y, graph(y.grad_fn), version, y._version, y.is_leaf)
        (y * upstream(torch, y)).sum().backward()
        return result, x.grad

    assert_same_outcome(scenario)


def test_an_in_place_op_with_a_tensor_requiring_grad_makes_the_target_require_grad():
    def scenario(torch):
        w = leaf(torch, values((3,), seed=2))
        y = torch.ones(3)
        y.mul_(w)
        y.sum().backward()
        return y.requires_grad, graph(y.grad_fn), w.grad

    assert_same_outcome(scenario)


def test_fill_with_a_tensor_sends_it_the_summed_gradient():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=14))
        value = torch.tensor(2.0, requires_grad=True)
        y = x * 2
        y.fill_(value)
        (y * upstream(torch, y)).sum().backward()
        return y, graph(y.grad_fn), x.grad, value.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, x: x.add_(1), id="add_"),
    pytest.param(lambda torch, x: x.mul_(2), id="mul_"),
    pytest.param(lambda torch, x: x.zero_(), id="zero_"),
    pytest.param(lambda torch, x: x.fill_(1), id="fill_"),
    pytest.param(lambda torch, x: x.copy_(torch.ones(3)), id="copy_"),
    pytest.param(lambda torch, x: x.__iadd__(1), id="+="),
    pytest.param(lambda torch, x: x[0].add_(1), id="a selected view"),
    pytest.param(lambda torch, x: x.view(-1).mul_(2), id="a reshaped view"),
    pytest.param(lambda torch, x: x[1:].zero_(), id="a sliced view"),
    pytest.param(lambda torch, x: x.unsqueeze(0).exp_(), id="an unsqueezed view"),
])
def test_an_in_place_op_on_a_leaf_requiring_grad_or_its_view_is_an_error(op):
    assert_same_outcome(lambda torch: op(torch, torch.ones(3, requires_grad=True)))


def test_an_in_place_op_on_a_leaf_is_allowed_under_no_grad():
    def scenario(torch):
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            x.mul_(3)
            x[0].add_(1)
        return x, x.requires_grad, x.is_leaf, x.grad_fn, x._version

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.arange(3).add_(1.5), id="int add_(1.5)"),
    pytest.param(lambda torch: torch.arange(3).mul_(torch.ones(3)), id="int mul_(float tensor)"),
    pytest.param(lambda torch: torch.arange(3).div_(2), id="int div_(2)"),
    pytest.param(lambda torch: torch.tensor([True]).add_(1), id="bool add_(1)"),
    pytest.param(lambda torch: torch.arange(3).add_(2), id="int add_(2)"),
    pytest.param(lambda torch: torch.ones(3, dtype=torch.float64).add_(torch.ones(3)),
                 id="float64 add_(float32)"),
    pytest.param(lambda torch: torch.ones(3).add_(torch.ones(3, dtype=torch.float64)),
                 id="float32 add_(float64)"),
    pytest.param(lambda torch: torch.ones(3).add_(torch.ones(2, 3)), id="broadcast grows"),
    pytest.param(lambda torch: torch.ones(2, 3).add_(torch.ones(3)), id="broadcast fits"),
    pytest.param(lambda torch: torch.ones(2, 3).add_(torch.ones(4)), id="broadcast fails"),
])
def test_in_place_dtype_and_shape_rules(call):
    assert_same_outcome(call)


def test_in_place_ops_bump_the_version_counter_shared_by_views():
    def scenario(torch):
        x = torch.zeros(2, 3)
        v, d = x[0], x.detach()
        versions = [(x._version, v._version, d._version)]
        x.add_(1)
        versions.append((x._version, v._version, d._version))
        v.mul_(2)
        versions.append((x._version, v._version, d._version))
        d.zero_()
        versions.append((x._version, v._version, d._version))
        x.data.add_(5)  # .data is invisible to the version counter
        versions.append((x._version, v._version, d._version))
        y = x + 1  # a new tensor starts at version 0
        return versions, y._version, x, v

    assert_same_outcome(scenario)


# -- saved tensors changed in place ------------------------------------------------------------

SAVERS = [
    pytest.param(lambda torch, a: a * a, id="a * a (saves its inputs)"),
    pytest.param(lambda torch, a: a * 2, id="a * 2"),
    pytest.param(lambda torch, a: a / 3, id="a / 3"),
    pytest.param(lambda torch, a: a ** 2, id="a ** 2"),
    pytest.param(lambda torch, a: a.log(), id="log"),
    pytest.param(lambda torch, a: a.exp(), id="exp (saves its output)"),
    pytest.param(lambda torch, a: a.tanh(), id="tanh (saves its output)"),
    pytest.param(lambda torch, a: a.sigmoid(), id="sigmoid (saves its output)"),
    pytest.param(lambda torch, a: a.sqrt(), id="sqrt (saves its output)"),
    pytest.param(lambda torch, a: a.relu(), id="relu (saves its output)"),
    pytest.param(lambda torch, a: a @ a, id="dot"),
    pytest.param(lambda torch, a: a.softmax(0), id="softmax (saves its output)"),
]


@pytest.mark.parametrize("modify", ["input", "output"])
@pytest.mark.parametrize("op", SAVERS)
def test_changing_a_saved_tensor_in_place_is_detected_at_backward(op, modify):
    def scenario(torch):
        x = leaf(torch, values((3,), seed=3, low=0.5, high=2))
        a = x * 1
        out = op(torch, a)
        (a if modify == "input" else out).add_(1)
        out.sum().backward()
        return x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, y: y.exp_(), id="exp_"),
    pytest.param(lambda torch, y: y.tanh_(), id="tanh_"),
    pytest.param(lambda torch, y: y.sigmoid_(), id="sigmoid_"),
])
def test_the_output_an_in_place_op_saved_is_the_tensor_it_changed(op):
    def scenario(torch):
        x = leaf(torch, values((3,), seed=13))
        y = x * 2
        op(torch, y)
        (y * 1).sum().backward(retain_graph=True)  # fine: y is at the version saved
        first = x.grad.clone()
        y.add_(1)
        y.sum().backward()
        return first

    assert_same_outcome(scenario)


def test_changing_an_input_that_was_not_saved_is_fine():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=4))
        a = x * 1
        out = a + 2
        a.mul_(10)
        out.sum().backward()
        return x.grad, out

    assert_same_outcome(scenario)


def test_changing_a_saved_tensor_through_a_view_is_detected():
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=5))
        a = x * 1
        out = a * a
        with torch.no_grad():
            a[0].zero_()
        out.sum().backward()

    assert_same_outcome(scenario)


# -- backward twice, retain_graph -------------------------------------------------------------

def test_backward_twice_through_saved_tensors_is_an_error():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        first = x.grad.clone()
        try:
            y.backward()
        except RuntimeError as error:
            return first, str(error)

    assert_same_outcome(scenario)


def test_backward_twice_with_retain_graph_accumulates():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).sum()
        y.backward(retain_graph=True)
        first = x.grad.clone()
        y.backward(retain_graph=True)
        y.backward()
        return first, x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, x: (x + x).sum(), id="add"),
    pytest.param(lambda torch, x: (x - 1).sum(), id="sub"),
    pytest.param(lambda torch, x: x.view(2, 1).expand(2, 3).sum(), id="view and expand"),
    pytest.param(lambda torch, x: (-x).t().sum(), id="neg and t"),
])
def test_a_graph_without_saved_tensors_can_be_backwarded_twice(op):
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = op(torch, x)
        y.backward()
        y.backward()
        return x.grad

    assert_same_outcome(scenario)


def test_a_second_backward_through_a_mul_by_a_number_is_an_error():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * 3).sum()
        y.backward()
        y.backward()

    assert_same_outcome(scenario)


def test_backward_with_a_gradient_argument():
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=6))
        y = x * x
        y.backward(torch.full((2, 3), 0.5))
        return x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch, x: (x * 2).backward(), id="implicit grad of a non-scalar"),
    pytest.param(lambda torch, x: torch.ones(2).sum().backward(), id="no grad required"),
    pytest.param(lambda torch, x: torch.ones(2).backward(torch.ones(2)), id="a plain leaf"),
    pytest.param(lambda torch, x: (x * 2).backward(torch.ones(3)), id="gradient of wrong shape"),
    pytest.param(lambda torch, x: torch.autograd.grad((x * 2).sum(), torch.ones(2)),
                 id="grad wrt a tensor not requiring grad"),
    pytest.param(lambda torch, x: torch.autograd.backward([(x * 2).sum(), torch.ones(1).sum()]),
                 id="second root needs no grad"),
])
def test_backward_errors(call):
    assert_same_outcome(lambda torch: call(torch, torch.ones(2, requires_grad=True)))


def test_autograd_grad_with_an_unused_input():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        unused = torch.ones(3, requires_grad=True)
        y = (x * 3).sum()
        try:
            torch.autograd.grad(y, [x, unused], retain_graph=True)
        except RuntimeError as error:
            message = str(error)
        return message, torch.autograd.grad(y, [x, unused], allow_unused=True), x.grad

    assert_same_outcome(scenario)


def test_autograd_grad_of_several_outputs_and_inputs():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=7))
        w = leaf(torch, values((3,), seed=8))
        y, z = x * w, (x.exp() * w).sum()
        return torch.autograd.grad([y.sum(), z], [x, w])

    assert_same_outcome(scenario)


# -- requires_grad and .grad ------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.arange(3).requires_grad_(), id="int requires_grad_()"),
    pytest.param(lambda torch: torch.tensor([1, 2], requires_grad=True), id="int tensor(...)"),
    pytest.param(lambda torch: torch.ones(2, dtype=torch.bool).requires_grad_(True),
                 id="bool requires_grad_()"),
    pytest.param(lambda torch: (torch.ones(2, requires_grad=True) * 2).requires_grad_(False),
                 id="non-leaf requires_grad_(False)"),
    pytest.param(lambda torch: torch.arange(3).requires_grad_(False),
                 id="int requires_grad_(False)"),
])
def test_requires_grad_rules(call):
    assert_same_outcome(call)


def test_requires_grad_on_leaves_and_non_leaves():
    def scenario(torch):
        x = torch.ones(2)
        states = [(x.requires_grad, x.is_leaf)]
        x.requires_grad_()
        states.append((x.requires_grad, x.is_leaf))
        y = x * 2
        states.append((y.requires_grad, y.is_leaf, y.requires_grad_(True) is y))
        x.requires_grad = False
        states.append((x.requires_grad, (x * 2).requires_grad))
        return states

    assert_same_outcome(scenario)


@pytest.mark.parametrize("grad", [
    pytest.param(lambda torch: torch.ones(3), id="wrong size"),
    pytest.param(lambda torch: torch.ones(2, 3), id="wrong rank"),
    pytest.param(lambda torch: torch.ones(2, dtype=torch.float64), id="wrong dtype"),
    pytest.param(lambda torch: torch.ones(2, dtype=torch.int64), id="int dtype"),
    pytest.param(lambda torch: [1.0, 2.0], id="a list"),
    pytest.param(lambda torch: 3.0, id="a number"),
    pytest.param(lambda torch: torch.full((2,), 7.0), id="right"),
    pytest.param(lambda torch: None, id="None"),
])
def test_assigning_grad(grad):
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        x.grad = grad(torch)
        return x.grad

    assert_same_outcome(scenario)


def test_an_assigned_grad_is_accumulated_into():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        x.grad = torch.full((2,), 10.0)
        (x * 3).sum().backward()
        return x.grad

    assert_same_outcome(scenario)


def test_reading_grad_of_a_non_leaf_warns():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        y.sum().backward()
        return y.grad, x.grad, torch.ones(2).grad

    assert_same_outcome(scenario)


# -- grad modes ---------------------------------------------------------------------------------

def test_grad_modes_as_context_managers():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        seen = [torch.is_grad_enabled()]
        with torch.no_grad():
            a = x * 2
            seen.append(torch.is_grad_enabled())
            with torch.enable_grad():
                b = x * 2
                seen.append(torch.is_grad_enabled())
            c = x * 2
        with torch.set_grad_enabled(False):
            d = x * 2
        with torch.set_grad_enabled(True):
            e = x * 2
        seen.append(torch.is_grad_enabled())
        return seen, [(t.requires_grad, t.grad_fn is None) for t in (a, b, c, d, e)]

    assert_same_outcome(scenario)


def test_grad_modes_as_decorators():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)

        @torch.no_grad()
        def no_grad_double(t):
            return t * 2, torch.is_grad_enabled()

        @torch.enable_grad()
        def enable_grad_double(t):
            return t * 2, torch.is_grad_enabled()

        @torch.set_grad_enabled(False)
        def disabled_double(t):
            return t * 2, torch.is_grad_enabled()

        results = [no_grad_double(x), disabled_double(x), torch.is_grad_enabled()]
        with torch.no_grad():
            results.append(enable_grad_double(x))
            results.append(torch.is_grad_enabled())
        return [(r[0].requires_grad, r[1]) if isinstance(r, tuple) else r for r in results]

    assert_same_outcome(scenario)


def test_set_grad_enabled_as_a_function_call():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        torch.set_grad_enabled(False)
        off = (x * 2).requires_grad, torch.is_grad_enabled()
        torch.set_grad_enabled(True)
        return off, (x * 2).requires_grad, torch.is_grad_enabled()

    assert_same_outcome(scenario)


def test_grad_mode_is_restored_after_an_exception():
    def scenario(torch):
        try:
            with torch.no_grad():
                raise ValueError("inside")
        except ValueError:
            pass
        return torch.is_grad_enabled()

    assert_same_outcome(scenario)


def test_no_grad_results_can_be_used_in_a_later_graph():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=9))
        with torch.no_grad():
            scale = x * 2
        y = (x * scale).sum()
        y.backward()
        return scale.requires_grad, x.grad

    assert_same_outcome(scenario)


# -- detach and .data ----------------------------------------------------------------------------

def test_detach_shares_memory_and_version_but_leaves_the_graph():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=10))
        y = x * 2
        d = y.detach()
        facts = (d.requires_grad, d.is_leaf, d.grad_fn, d._version)
        d.add_(1)  # changes y too, and y's version
        return facts, y, y._version, d._version

    assert_same_outcome(scenario)


def test_a_detached_tensor_changed_in_place_breaks_the_backward_that_saved_it():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=11))
        y = x.exp()
        y.detach().zero_()
        y.sum().backward()

    assert_same_outcome(scenario)


def test_data_shares_memory_without_the_version_counter():
    def scenario(torch):
        x = leaf(torch, values((3,), seed=12))
        y = x.exp()
        data = y.data
        facts = (data.requires_grad, data.is_leaf, data._version)
        data.mul_(0)  # not seen by the version counter: backward uses the changed values
        y.sum().backward()
        return facts, y._version, x.grad

    assert_same_outcome(scenario)


def test_assigning_data_replaces_the_values():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        x.data = torch.full((3,), 2.0)
        (x * x).sum().backward()
        return x, x.grad, x.requires_grad

    assert_same_outcome(scenario)


def test_detach_in_place():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        y.detach_()
        return y.requires_grad, y.is_leaf, y.grad_fn

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", ["sqrt", "log", "reciprocal"])
def test_backward_through_a_division_by_zero_gives_inf_without_a_warning(op):
    def scenario(torch):
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        getattr(x, op)().sum().backward()
        return x.grad

    assert_same_outcome(scenario)


def test_division_by_zero_gives_inf_and_nan_without_a_warning():
    assert_same_outcome(lambda torch: (torch.ones(2) / torch.zeros(2),
                                       torch.zeros(2) / torch.zeros(2), 2 / torch.zeros(1)))
