"""Custom operations, ``torch.autograd.Function`` subclasses, against real PyTorch: what
``apply`` records, what ``forward`` and ``backward`` receive through ``ctx``, what
``backward`` may return and how the engine checks it, the node a Function leaves in the
graph and the hooks on it.

Every scenario defines its Functions inside itself, on the ``torch`` it is given, so the
same class statement runs on both libraries. ``create_graph`` and ``once_differentiable``
are in ``test_create_graph.py``. Left out, as the rest of the library leaves them out:
forward-mode AD (``jvp``), ``vmap`` and ``mark_dirty``.
"""

from __future__ import annotations

from typing import Any

import pytest
from harness import assert_same_outcome
from ops_support import graph, upstream, values


def leaf(torch: Any, seed: int = 0, shape: tuple = (3,)) -> Any:
    return torch.tensor(values(shape, seed=seed), requires_grad=True)


def exp(torch: Any) -> Any:
    """``exp``, whose backward needs its own output: a Function that saves an output."""
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad):
            (result,) = ctx.saved_tensors
            return grad * result

    return Exp


def square(torch: Any) -> Any:
    """The textbook Function: ``x * x``, with ``x`` saved for ``backward``."""
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    return Square


def returning(torch: Any, gradients: Any) -> Any:
    """``x * 2`` (any further arguments unused) whose backward returns
    ``gradients(torch, grad)``, right or wrong."""
    class Returns(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, *rest):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return gradients(torch, grad)

    return Returns


def two_outputs(torch: Any, seen: list, materialize: bool = True) -> Any:
    """``(x * 2, x * 3)``; backward records the two gradients it is given."""
    class Split(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(materialize)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            seen.append((grad_a, grad_b))
            total = 0 if grad_a is None else grad_a * 2
            return total if grad_b is None else total + grad_b * 3

    return Split


def identity(torch: Any) -> Any:
    """Returns its input as it is; backward doubles the gradient, to show it ran."""
    class Identity(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    return Identity


def gradient_reversal(torch: Any) -> Any:
    """The domain-adaptation layer: identity forward, gradient times ``-alpha`` backward."""
    class GradientReversal(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, alpha):
            ctx.alpha = alpha
            return x.view_as(x)

        @staticmethod
        def backward(ctx, grad):
            return grad.neg() * ctx.alpha, None

    return GradientReversal


# -- forward and backward --------------------------------------------------------------------

def forward_and_backward(torch):
    x = leaf(torch)
    out = square(torch).apply(x)
    (out * upstream(torch, out)).sum().backward()
    return out, out.requires_grad, out.is_leaf, x.grad


def two_inputs_saved(torch):
    class Mul(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, grad):
            x, y = ctx.saved_tensors
            return grad * y, grad * x

    x, y = leaf(torch, 1), leaf(torch, 2)
    out = Mul.apply(x, y)
    (out * upstream(torch, out)).sum().backward()
    return out, x.grad, y.grad


def used_twice(torch):
    x = leaf(torch, 3)
    apply = square(torch).apply
    out = apply(apply(x)) + apply(x)
    out.sum().backward()
    return out, x.grad, graph(out.grad_fn)


def on_a_non_leaf(torch):
    x = leaf(torch, 4)
    out = square(torch).apply(x * 3)
    out.sum().backward()
    return x.grad, graph(out.grad_fn)


def grad_mode_inside(torch):
    modes = []

    class Probe(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2  # recorded nowhere: forward runs under no_grad
            modes.append(("forward", torch.is_grad_enabled(), y.requires_grad, y.grad_fn))
            return y

        @staticmethod
        def backward(ctx, grad):
            modes.append(("backward", torch.is_grad_enabled(), grad.requires_grad))
            return grad

    Probe.apply(leaf(torch)).sum().backward()
    return modes


def no_input_requires_grad(torch):
    out = square(torch).apply(torch.ones(3))
    return out, out.requires_grad, out.grad_fn


def under_no_grad(torch):
    x = leaf(torch)
    with torch.no_grad():
        out = square(torch).apply(x)
    return out, out.requires_grad, out.grad_fn


def autograd_grad(torch):
    x, y = leaf(torch, 5), leaf(torch, 6)
    out = square(torch).apply(x) * y
    return torch.autograd.grad(out.sum(), x), x.grad


def integer_output(torch):
    class Round(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return (x * 10).long()  # silently not differentiable: no error, no grad_fn

        @staticmethod
        def backward(ctx, grad):
            return grad

    out = Round.apply(leaf(torch))
    return out, out.requires_grad, out.grad_fn


def list_output(torch):
    class Pair(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return [x * 2, x * 3]  # a list is not unpacked: it comes back as it is

        @staticmethod
        def backward(ctx, grad):
            return grad

    out = Pair.apply(leaf(torch))
    return type(out).__name__, [t.grad_fn for t in out]


def non_tensor_outputs(torch):
    class WithCount(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 3, None

        @staticmethod
        def backward(ctx, grad, grad_count, grad_none):
            return grad * 2

    x = leaf(torch)
    out, count, nothing = WithCount.apply(x)
    out.sum().backward()
    return count, nothing, out.grad_fn.name(), x.grad


@pytest.mark.parametrize("scenario", [
    forward_and_backward, two_inputs_saved, used_twice, on_a_non_leaf, grad_mode_inside,
    no_input_requires_grad, under_no_grad, autograd_grad, integer_output, list_output,
    non_tensor_outputs])
def test_forward_and_backward_values_and_grads(scenario):
    """Values and gradients; forward and backward run without recording; what apply
    returns when nothing requires grad, under no_grad, and for integer, list and non-
    tensor outputs."""
    assert_same_outcome(scenario)


# -- ctx: saved tensors -----------------------------------------------------------------------

def saved_input_changed_in_place(torch):
    a = leaf(torch) * 1
    out = square(torch).apply(a)
    a.add_(1)
    out.sum().backward()


def saved_leaf_changed_under_no_grad(torch):
    x = leaf(torch)
    out = square(torch).apply(x)
    with torch.no_grad():
        x.mul_(2)
    out.sum().backward()


def saved_output_changed_in_place(torch):
    out = exp(torch).apply(leaf(torch))
    out.mul_(2)
    out.sum().backward()


def saved_second_output_changed_in_place(torch):
    class ExpToo(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            doubled, result = x * 2, x.exp()
            ctx.save_for_backward(result)
            return doubled, result

        @staticmethod
        def backward(ctx, grad_doubled, grad_result):
            (result,) = ctx.saved_tensors
            return grad_doubled * 2 + grad_result * result

    doubled, result = ExpToo.apply(leaf(torch))
    result.mul_(2)
    (doubled + result).sum().backward()


def saved_tensors_after_backward(torch):
    out = square(torch).apply(leaf(torch))
    out.sum().backward()
    return out.grad_fn.saved_tensors


def backward_twice(torch):
    out = square(torch).apply(leaf(torch))
    out.sum().backward()
    out.sum().backward()


def backward_twice_with_nothing_saved(torch):
    # Nothing saved, nothing freed: PyTorch lets this graph run backward a second time.
    x = leaf(torch)
    out = returning(torch, lambda torch, g: g * 2).apply(x)
    out.sum().backward()
    out.sum().backward()
    return x.grad


def retain_graph(torch):
    x = leaf(torch)
    out = square(torch).apply(x)
    out.sum().backward(retain_graph=True)
    first, saved = x.grad.clone(), out.grad_fn.saved_tensors
    out.sum().backward()
    return first, saved, x.grad


def saved_tensors_inside_forward(torch):
    class Peek(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 1, ctx.saved_tensors  # PyTorch gives () here: nothing is packed yet

        @staticmethod
        def backward(ctx, grad, grad_saved):
            return grad

    return Peek.apply(leaf(torch))[1]


def saving_none_and_an_intermediate(torch):
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x2 = x * x
            ctx.save_for_backward(None, x2)
            return x2 * x

        @staticmethod
        def backward(ctx, grad):
            nothing, x2 = ctx.saved_tensors
            return 3 * x2 * grad if nothing is None else None

    x = leaf(torch)
    Cube.apply(x).sum().backward()
    return x.grad


def saving_a_number(torch):
    class SavesNumber(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            return grad

    SavesNumber.apply(leaf(torch))


def attributes_on_ctx(torch):
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.k, None

    x = leaf(torch)
    out = Scale.apply(x, 2.5)
    out.sum().backward()
    return x.grad, out.grad_fn.k


def ctx_is_the_node(torch):
    kept = []

    class Keep(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            kept.append(ctx)
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            kept.append(ctx)
            return grad

    out = Keep.apply(leaf(torch))
    out.sum().backward()
    names = [type(c).__name__ for c in kept]
    return names, kept[0] is out.grad_fn, kept[1] is out.grad_fn


def what_saved_tensors_gives_back(torch):
    """A saved input is the tensor itself; a saved output is produced by the node."""
    seen = []

    class Product(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            out = x * y
            ctx.save_for_backward(x, y, out, (x + 1).exp())
            return out

        @staticmethod
        def backward(ctx, grad):
            x, y, out, extra = ctx.saved_tensors
            seen.append([(t.requires_grad, t.is_leaf, t.grad_fn is ctx, t.output_nr)
                         for t in (x, y, out, extra)])
            seen.append((x is inputs[0], y is inputs[1]))
            return grad * y, grad * x

    inputs = (leaf(torch, 1), leaf(torch, 2) * 3)
    Product.apply(*inputs).sum().backward()
    return seen, inputs[0].grad


@pytest.mark.parametrize("scenario", [
    what_saved_tensors_gives_back,
    saved_input_changed_in_place, saved_leaf_changed_under_no_grad,
    saved_output_changed_in_place, saved_second_output_changed_in_place,
    saved_tensors_after_backward, backward_twice,
    backward_twice_with_nothing_saved, retain_graph, saved_tensors_inside_forward,
    saving_none_and_an_intermediate, saving_a_number, attributes_on_ctx, ctx_is_the_node])
def test_ctx_saved_tensors_and_attributes(scenario):
    """save_for_backward and saved_tensors: in-place changes caught at backward, freed
    after it unless retain_graph, only tensors and None saved; ctx is the node,
    out.grad_fn."""
    assert_same_outcome(scenario)


# -- ctx.needs_input_grad and arguments that are not tensors ----------------------------------

def needs_input_grad(torch):
    seen = []

    class Probe(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k, nothing, mode):
            seen.append(("forward", ctx.needs_input_grad))
            return x * y * k

        @staticmethod
        def backward(ctx, grad):
            seen.append(("backward", ctx.needs_input_grad))
            x_needs, y_needs = ctx.needs_input_grad[:2]
            return (grad * 2 if x_needs else None, grad * 2 if y_needs else None,
                    None, None, None)

    x, y = leaf(torch, 1), torch.ones(3)
    Probe.apply(x, y, 2.0, None, "mode").sum().backward()
    return seen, x.grad, y.grad


def needs_input_grad_under_no_grad(torch):
    # Under no_grad nothing is recorded, yet needs_input_grad still says True for x.
    seen = []

    class Probe(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            seen.append((ctx.needs_input_grad, type(ctx).__name__))
            return x * y

    with torch.no_grad():
        out = Probe.apply(leaf(torch), torch.ones(3))
    return seen, out.grad_fn


def mixed_arguments(torch):
    class Affine(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale, shift, mode, bias):
            ctx.scale = scale
            out = x * scale + shift
            return out if bias is None else out + bias

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.scale, None, None, None, grad

    x, bias = leaf(torch, 1), leaf(torch, 2)
    out = Affine.apply(x, 3, 0.5, "linear", bias)
    out.sum().backward()
    without = Affine.apply(x, 2, 1, "linear", None)
    return out, x.grad, bias.grad, without, graph(out.grad_fn)


@pytest.mark.parametrize("scenario", [
    needs_input_grad, needs_input_grad_under_no_grad, mixed_arguments])
def test_needs_input_grad_and_non_tensor_arguments(scenario):
    """ctx.needs_input_grad, and numbers, None and strings among the arguments."""
    assert_same_outcome(scenario)


# -- what backward returns ---------------------------------------------------------------------

@pytest.mark.parametrize("gradients, extra", [
    pytest.param(lambda torch, g: g * 3, (), id="one tensor, not a tuple"),
    pytest.param(lambda torch, g: (None,), (), id="None for the input"),
    pytest.param(lambda torch, g: (g * 3, None, None), (), id="extra Nones are dropped"),
    pytest.param(lambda torch, g: (g, g), (), id="too many gradients"),
    pytest.param(lambda torch, g: (g,), ("ones",), id="too few gradients"),
    pytest.param(lambda torch, g: [g], (), id="a list"),
    pytest.param(lambda torch, g: 1.0, (), id="a float"),
    pytest.param(lambda torch, g: g.numpy(), (), id="a NumPy array"),
    pytest.param(lambda torch, g: torch.ones(2), (), id="the wrong shape"),
    # Not summed: the input's shape must expand to the gradient's, not the other way round.
    pytest.param(lambda torch, g: torch.ones(1), (), id="a shape that expands to the input's"),
    pytest.param(lambda torch, g: torch.tensor(2.0), (), id="a scalar"),
    pytest.param(lambda torch, g: torch.ones(2, 3), (), id="a shape the input expands to"),
    pytest.param(lambda torch, g: torch.ones(3, dtype=torch.float64), (), id="float64"),
    pytest.param(lambda torch, g: torch.arange(3), (), id="int64"),
    pytest.param(lambda torch, g: (g, g), (3,), id="a gradient for a number"),
    pytest.param(lambda torch, g: (g, g), (None,), id="a gradient for None"),
    pytest.param(lambda torch, g: (g, 1.0), ("mode",), id="a float for a string"),
    pytest.param(lambda torch, g: (g, torch.ones(5)), ("ones",),
                 id="the wrong shape for an input that needs no gradient"),
    # The index counts tensor inputs only (the node's edges), not forward's arguments.
    pytest.param(lambda torch, g: (g, None, torch.ones(5)), (2.0, "leaf"),
                 id="the wrong shape for the second tensor"),
])
def test_what_backward_returns_is_checked_cast_or_reduced(gradients, extra):
    """The number of gradients, None for non-tensor arguments, tensors only; a shape the
    input expands to is summed, another is an error; a dtype is cast."""
    def scenario(torch):
        x = leaf(torch)
        made = {"ones": torch.ones(3), "leaf": leaf(torch, 1)}
        args = [made.get(a, a) if isinstance(a, str) else a for a in extra]
        returning(torch, gradients).apply(x, *args).sum().backward()
        return x.grad

    assert_same_outcome(scenario)


def test_a_gradient_for_an_input_that_needs_none_is_passed_on_unchecked():
    # PyTorch's validate_outputs checks shapes and dtypes only on edges that lead somewhere:
    # the wrong-shaped float64 gradient for ``y`` reaches the node's post-hook as it is.
    def scenario(torch):
        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x * 2 + y.sum()

            @staticmethod
            def backward(ctx, grad):
                return grad * 2, torch.ones(7, dtype=torch.float64)

        x = torch.ones(3, requires_grad=True)
        out = Scale.apply(x, torch.ones(3))
        seen = []
        out.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs))
        out.sum().backward()
        return seen, x.grad

    assert_same_outcome(scenario)


# -- several outputs ---------------------------------------------------------------------------

def both_outputs_used(torch):
    seen = []
    x = leaf(torch)
    a, b = two_outputs(torch, seen).apply(x)
    (a * upstream(torch, a) + b).sum().backward()
    return seen, x.grad, a.output_nr, b.output_nr, a.grad_fn is b.grad_fn


def one_output_unused(torch):
    seen = []
    x = leaf(torch)
    a, b = two_outputs(torch, seen).apply(x)
    b.sum().backward()  # a's gradient reaches backward as zeros
    return seen, x.grad


def one_output_unused_not_materialized(torch):
    seen = []
    x = leaf(torch)
    a, b = two_outputs(torch, seen, materialize=False).apply(x)
    b.sum().backward()  # ... or as None, after set_materialize_grads(False)
    return seen, x.grad


def non_differentiable_output(torch):
    seen = []

    class MaxWithIndex(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            index = x.argmax()
            doubled = x * 2
            ctx.mark_non_differentiable(index, doubled)
            ctx.save_for_backward(x, index)
            return x.max(), index, doubled

        @staticmethod
        def backward(ctx, grad, grad_index, grad_doubled):
            seen.append((grad, grad_index, grad_doubled))
            x, index = ctx.saved_tensors
            result = torch.zeros(x.shape)
            result[index] = grad
            return result

    x = leaf(torch)
    top, index, doubled = MaxWithIndex.apply(x)
    top.backward()
    flags = [(t.requires_grad, t.grad_fn is None) for t in (top, index, doubled)]
    return seen, x.grad, index, flags


@pytest.mark.parametrize("scenario", [
    both_outputs_used, one_output_unused, one_output_unused_not_materialized,
    non_differentiable_output])
def test_several_outputs(scenario):
    """output_nr, materialized zeros (or None) for an unused output,
    mark_non_differentiable."""
    assert_same_outcome(scenario)


# -- an input returned as it is ----------------------------------------------------------------

def returned_input_is_a_view(torch):
    x = leaf(torch)
    out = identity(torch).apply(x)
    out.sum().backward()
    return (out is x, out._base is x, out.is_leaf, out.grad_fn.name(), out._version, x.grad,
            x.grad_fn)


def returned_input_changed_in_place(torch):
    out = identity(torch).apply(leaf(torch))
    out.add_(1)


def returned_input_that_needs_no_grad(torch):
    class PassY(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * 2, y

        @staticmethod
        def backward(ctx, grad_x, grad_y):
            return grad_x * 2, grad_y

    x, y = leaf(torch), torch.ones(3)
    a, b = PassY.apply(x, y)
    return b is y, b.requires_grad, b.grad_fn is a.grad_fn, b.output_nr


def gradient_reversal_layer(torch):
    x = leaf(torch)
    hidden = x * 3
    reversed_ = gradient_reversal(torch).apply(hidden, 0.5)
    (reversed_ * upstream(torch, reversed_)).sum().backward()
    return reversed_, x.grad, graph(reversed_.grad_fn)


@pytest.mark.parametrize("scenario", [
    returned_input_is_a_view, returned_input_changed_in_place,
    returned_input_that_needs_no_grad, gradient_reversal_layer])
def test_an_input_returned_as_it_is(scenario):
    """It comes back as a view carrying the Function's node, which refuses in-place
    changes; the gradient-reversal layer."""
    assert_same_outcome(scenario)


# -- the node in the graph ---------------------------------------------------------------------

def node_names(torch):
    out = square(torch).apply(leaf(torch) * 2)
    node = out.grad_fn
    return (node.name(), type(node).__name__, type(node).__module__,
            repr(node).split(" object")[0], graph(node))


def node_of_non_tensor_arguments(torch):
    out = gradient_reversal(torch).apply(leaf(torch), 1.0)
    return graph(out.grad_fn), out.grad_fn.needs_input_grad


def node_is_a_backward_c_function(torch):
    node = square(torch).apply(leaf(torch)).grad_fn
    return (isinstance(node, torch.autograd.function.BackwardCFunction),
            isinstance(node, torch.autograd.function.FunctionCtx),
            isinstance(node, torch.autograd.graph.Node))


@pytest.mark.parametrize("scenario", [
    node_names, node_of_non_tensor_arguments, node_is_a_backward_c_function])
def test_the_node_a_function_leaves(scenario):
    """Its name, type, module, repr and next_functions (tensor arguments only)."""
    assert_same_outcome(scenario)


# -- hooks ---------------------------------------------------------------------------------------

def node_hooks(torch):
    events = []
    x = leaf(torch)
    out = square(torch).apply(x)
    node = out.grad_fn
    node.register_prehook(lambda grad_outputs: events.append(("pre", grad_outputs)))
    node.register_hook(lambda grad_inputs, grad_outputs:
                       events.append(("post", grad_inputs, grad_outputs)))
    (out * upstream(torch, out)).sum().backward()
    return events, x.grad


def node_hooks_that_replace(torch):
    x = leaf(torch)
    out = square(torch).apply(x)
    out.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
    out.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] + 1,))
    out.sum().backward()
    return x.grad


def tensor_hooks_around_a_function(torch):
    events = []
    x = leaf(torch)
    x.register_hook(lambda grad: events.append(("input", grad)))
    out = square(torch).apply(x)
    out.register_hook(lambda grad: events.append(("output", grad)) or grad * 2)
    out.grad_fn.register_prehook(lambda grad_outputs: events.append(("pre", grad_outputs)))
    out.retain_grad()
    out.sum().backward()
    return events, out.grad, x.grad


def hooks_on_a_non_tensor_argument_node(torch):
    events = []
    x = leaf(torch)
    out = gradient_reversal(torch).apply(x, 2.0)
    out.grad_fn.register_hook(lambda grad_inputs, grad_outputs:
                              events.append((grad_inputs, grad_outputs)))
    out.sum().backward()
    return events, x.grad


def inside_a_module_with_hooks(torch):
    events = []

    class Squash(torch.nn.Module):
        def forward(self, x):
            return square(torch).apply(x).tanh()

    module = torch.nn.Sequential(torch.nn.Linear(3, 2), Squash())
    torch.manual_seed(0)
    module[0].reset_parameters()
    module[1].register_forward_hook(lambda m, args, out: events.append(
        ("forward", out.grad_fn.next_functions[0][0].name())))
    module[1].register_full_backward_hook(lambda m, grad_input, grad_output:
                                          events.append(("backward", grad_input, grad_output)))
    out = module(leaf(torch, shape=(2, 3)))
    out.sum().backward()
    return events, module[0].weight.grad


@pytest.mark.parametrize("scenario", [
    node_hooks, node_hooks_that_replace, tensor_hooks_around_a_function,
    hooks_on_a_non_tensor_argument_node, inside_a_module_with_hooks])
def test_hooks_on_and_around_a_function(scenario):
    """Node pre-hooks and hooks, tensor hooks and retain_grad on its output, and a
    Function inside a module with forward and full backward hooks."""
    assert_same_outcome(scenario)


# -- errors --------------------------------------------------------------------------------------

def forward_raises(torch):
    class Fails(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            raise ValueError("forward failed")

    Fails.apply(leaf(torch))


def backward_raises(torch):
    class Fails(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("backward failed")

    x = leaf(torch)
    out = Fails.apply(x)
    try:
        out.sum().backward()
    except ValueError as error:
        return str(error), x.grad


def forward_not_implemented(torch):
    class Nothing(torch.autograd.Function):
        pass

    Nothing.apply(leaf(torch))


def backward_not_implemented(torch):
    class ForwardOnly(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    out = ForwardOnly.apply(leaf(torch))
    result = out, out.grad_fn.name()
    out.sum().backward()
    return result


def called_on_an_instance(torch):
    # PyTorch warns on the instance, then refuses the call as a "legacy" Function.
    square(torch)()(leaf(torch))


@pytest.mark.parametrize("scenario", [
    forward_raises, backward_raises, forward_not_implemented, backward_not_implemented,
    called_on_an_instance])
def test_errors_in_and_around_a_function(scenario):
    """Errors raised by forward or backward, missing forward or backward, and the legacy
    call on an instance."""
    assert_same_outcome(scenario)


# -- forward without ctx, and setup_context ---------------------------------------------------

def setup_context_style(torch):
    calls = []

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(x, k):
            calls.append(("forward", torch.is_grad_enabled()))
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            calls.append(("setup_context", type(inputs).__name__, len(inputs), output))
            x, k = inputs
            ctx.k = k
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * ctx.k + x, None

    x = leaf(torch)
    out = Scale.apply(x, 3.0)
    out.sum().backward()
    return calls, out, x.grad, out.grad_fn.name()


def setup_context_with_several_outputs(torch):
    class Split(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2, x.argmax()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.mark_non_differentiable(output[1])

        @staticmethod
        def backward(ctx, grad, grad_index):
            return grad * 2

    x = leaf(torch)
    doubled, index = Split.apply(x)
    doubled.sum().backward()
    return index.requires_grad, x.grad


def setup_context_not_implemented(torch):
    torch.autograd.Function.setup_context(None, (), None)


@pytest.mark.parametrize("scenario", [
    setup_context_style, setup_context_with_several_outputs, setup_context_not_implemented])
def test_forward_without_ctx_and_setup_context(scenario):
    """The style PyTorch's documentation recommends: forward(*args) and
    setup_context(ctx, inputs, output)."""
    assert_same_outcome(scenario)


def test_saving_lets_go_of_the_tensors_so_the_graph_is_freed_without_the_collector():
    # An output saved with save_for_backward would hold its grad_fn, the node, in a cycle.
    def scenario(torch):
        import gc
        import weakref

        x = leaf(torch)
        out = exp(torch).apply(x)
        to_save = out.grad_fn.to_save
        node = weakref.ref(out.grad_fn)
        enabled = gc.isenabled()
        gc.disable()
        try:
            out.sum().backward()
            del out
            freed = node() is None
        finally:
            if enabled:
                gc.enable()
        return to_save, freed, x.grad

    assert_same_outcome(scenario)
