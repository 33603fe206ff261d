"""Functions hook code calls around its hooks, against real PyTorch: ``linspace``, the
stacks (``vstack``, ``hstack``, ``dstack``, ``column_stack``, ``atleast_*d``), ``triu``,
``tril``, ``diag``, ``nan_to_num``, ``bmm``/``baddbmm``, ``is_floating_point``,
``is_sparse``/``is_cuda``, ``copy_(..., non_blocking=...)`` and
``nn.utils.clip_grad_value_``: values, dtypes, graphs, saved attributes, gradients and
errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, saved, values

LINSPACE = {
    "(0, 1, 5)": lambda torch: torch.linspace(0, 1, 5),
    "(-1, 1, 1)": lambda torch: torch.linspace(-1, 1, 1),
    "(0, 1, 0)": lambda torch: torch.linspace(0, 1, 0),
    "(0.1, 0.7, 7)": lambda torch: torch.linspace(0.1, 0.7, 7),
    "(3, -2.5, steps=12)": lambda torch: torch.linspace(3, -2.5, steps=12),
    "(0, 10, 3, long)": lambda torch: torch.linspace(0, 10, 3, dtype=torch.long),
    "(0, 10, 4, long)": lambda torch: torch.linspace(0, 10, 4, dtype=torch.int64),
    "(-7, 7, 6, int32)": lambda torch: torch.linspace(-7, 7, 6, dtype=torch.int32),
    "(0, 1, 11, float64)": lambda torch: torch.linspace(0, 1, 11, dtype=torch.float64),
    "(1e-3, 1e3, 9, float16)": lambda torch: torch.linspace(1e-3, 1e3, 9, dtype=torch.float16),
    "tensor bounds": lambda torch: torch.linspace(torch.tensor(0.0), torch.tensor(2.0), 3),
    "requires_grad": lambda torch: torch.linspace(0, 1, 4, requires_grad=True),
    "(0, 1, -1)": lambda torch: torch.linspace(0, 1, -1),
}


@pytest.mark.parametrize("call", list(LINSPACE))
def test_linspace(call):
    def scenario(torch):
        out = LINSPACE[call](torch)
        return out, out.requires_grad, out.is_leaf

    assert_same_outcome(scenario, rtol=0, atol=0)


STACKS = ["vstack", "hstack", "dstack", "column_stack", "row_stack"]
SHAPES = {
    "vectors": ((3,), (3,)),
    "0-d": ((), ()),
    "matrices": ((2, 3), (2, 3)),
    "3-d": ((2, 3, 1), (2, 3, 1)),
}


@pytest.mark.parametrize("shapes", list(SHAPES))
@pytest.mark.parametrize("name", STACKS)
def test_stacks(name, shapes):
    first, second = SHAPES[shapes]

    def scenario(torch):
        def op(torch, a, b):
            return getattr(torch, name)([a, b * 2])

        return run(torch, op, values(first, seed=1), values(second, seed=2))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast(name):
    def scenario(torch):
        function = getattr(torch, name)
        tensors = [torch.tensor(1.5, requires_grad=True), torch.ones(2, requires_grad=True),
                   torch.ones(2, 3, requires_grad=True), torch.ones(1, 2, 3)]
        outs = [function(t) for t in tensors]
        return ([(o.shape, o is t, graph(o.grad_fn)) for o, t in zip(outs, tensors)],
                [o.shape for o in function(*tensors)], [o.shape for o in function(tensors)])

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.vstack([]), id="vstack([])"),
    pytest.param(lambda torch: torch.hstack([]), id="hstack([])"),
    pytest.param(lambda torch: torch.dstack(torch.ones(2)), id="dstack(tensor)"),
    pytest.param(lambda torch: torch.vstack([torch.ones(2), 1]), id="vstack([tensor, 1])"),
    pytest.param(lambda torch: torch.vstack([torch.ones(2), torch.ones(3)]),
                 id="vstack of different lengths"),
])
def test_stack_errors(call):
    assert_same_outcome(call)


TRIANGLES = {
    "triu()": lambda torch, x: x.triu(),
    "triu(1)": lambda torch, x: torch.triu(x, 1),
    "triu(-1)": lambda torch, x: x.triu(diagonal=-1),
    "tril()": lambda torch, x: torch.tril(x),
    "tril(-2)": lambda torch, x: x.tril(-2),
    "tril(5)": lambda torch, x: x.tril(5),
}


@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (2, 3, 3)])
@pytest.mark.parametrize("op", list(TRIANGLES))
def test_triu_and_tril(op, shape):
    def scenario(torch):
        result = run(torch, TRIANGLES[op], values(shape, seed=3))
        out = TRIANGLES[op](torch, leaf(torch, values(shape)))
        return result, saved(out.grad_fn), TRIANGLES[op](torch, torch.arange(12).reshape(3, 4))

    assert_same_outcome(scenario)


def test_triu_of_a_vector_and_masks_built_with_triu():
    def scenario(torch):
        causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
        scores = torch.zeros(3, 3).masked_fill(causal, float("-inf"))
        try:
            torch.ones(3).triu()
        except RuntimeError as error:
            refused = str(error)
        return causal, scores, refused

    assert_same_outcome(scenario)


DIAG = {
    "diag(vector)": ((3,), 0),
    "diag(vector, 1)": ((3,), 1),
    "diag(vector, -2)": ((3,), -2),
    "diag(square)": ((3, 3), 0),
    "diag(wide, 1)": ((3, 4), 1),
    "diag(tall, -1)": ((4, 3), -1),
    "diag(square, 5)": ((3, 3), 5),
}


@pytest.mark.parametrize("case", list(DIAG))
def test_diag(case):
    shape, diagonal = DIAG[case]

    def scenario(torch):
        result = run(torch, lambda torch, x: torch.diag(x, diagonal), values(shape, seed=4))
        out = leaf(torch, values(shape)).diag(diagonal)
        return result, saved(out.grad_fn), out._is_view(), out.is_contiguous()

    assert_same_outcome(scenario)


def test_diag_of_3d_is_an_error():
    assert_same_outcome(lambda torch: torch.diag(torch.ones(2, 2, 2)))


SPECIAL = np.array([1.5, np.nan, np.inf, -np.inf, -2.0], dtype=np.float32)


@pytest.mark.parametrize("kwargs", [{}, {"nan": 0.5}, {"nan": 0.5, "posinf": 1e3, "neginf": -1e3},
                                    {"posinf": 2.0}])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_nan_to_num(kwargs, dtype):
    def scenario(torch):
        x = torch.tensor(SPECIAL, dtype=getattr(torch, dtype), requires_grad=True)
        out = torch.nan_to_num(x, **kwargs)
        (out * torch.arange(5.0, dtype=out.dtype)).sum().backward()
        y = x.detach().clone()
        same = y.nan_to_num_(**kwargs) is y
        return out, graph(out.grad_fn), saved(out.grad_fn), x.grad, y, same

    assert_same_outcome(scenario)


def test_nan_to_num_of_integers_and_a_gradient_hook():
    """The NaN-guard pattern: a tensor hook that replaces nan in a gradient."""
    def scenario(torch):
        x = torch.tensor([1.0, 0.0, 4.0], requires_grad=True)
        x.register_hook(lambda grad: torch.nan_to_num(grad, nan=0.0))
        (x.sqrt() * 0).sum().backward()  # 0 * inf in the gradient at x = 0
        return x.grad, torch.nan_to_num(torch.tensor([1, 2])), torch.tensor([1, 2]).nan_to_num()

    assert_same_outcome(scenario)


def test_bmm():
    def scenario(torch):
        result = run(torch, lambda torch, a, b: torch.bmm(a, b), values((2, 3, 4), seed=5),
                     values((2, 4, 5), seed=6))
        out = leaf(torch, values((2, 3, 4))).bmm(torch.ones(2, 4, 1))
        return result, saved(out.grad_fn)[0], out.grad_fn._saved_mat2 is None

    assert_same_outcome(scenario)


@pytest.mark.parametrize("kwargs", [{}, {"beta": 0.5, "alpha": 2.0}, {"beta": 0},
                                    {"alpha": 0.0}])
@pytest.mark.parametrize("input_shape", [(5,), (2, 3, 5), (3, 1)])
def test_baddbmm(kwargs, input_shape):
    def scenario(torch):
        result = run(torch, lambda torch, c, a, b: torch.baddbmm(c, a, b, **kwargs),
                     values(input_shape, seed=7), values((2, 3, 4), seed=8),
                     values((2, 4, 5), seed=9))
        node = torch.baddbmm(leaf(torch, values(input_shape)), torch.ones(2, 3, 4),
                             leaf(torch, values((2, 4, 5))), **kwargs).grad_fn
        return result, node._saved_alpha, node._saved_beta, node._saved_batch2 is None

    assert_same_outcome(scenario)


def test_baddbmm_with_beta_0_ignores_nan_in_the_input():
    def scenario(torch):
        c = torch.full((5,), float("nan"), requires_grad=True)
        a, b = leaf(torch, values((2, 3, 4))), leaf(torch, values((2, 4, 5)))
        out = c.baddbmm(a, b, beta=0)
        out.sum().backward()
        return out, c.grad, a.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.bmm(torch.ones(3, 4), torch.ones(2, 4, 5)), id="2-d batch1"),
    pytest.param(lambda torch: torch.bmm(torch.ones(2, 3, 4), torch.ones(4, 5)), id="2-d batch2"),
    pytest.param(lambda torch: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 5)),
                 id="batch sizes"),
    pytest.param(lambda torch: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 3, 5)),
                 id="inner sizes"),
    pytest.param(lambda torch: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 4, 5).double()),
                 id="dtypes"),
    pytest.param(lambda torch: torch.baddbmm(torch.ones(3), torch.ones(2, 3, 4),
                                             torch.ones(2, 4, 5)), id="baddbmm input shape"),
    pytest.param(lambda torch: torch.baddbmm(torch.ones(5).double(), torch.ones(2, 3, 4),
                                             torch.ones(2, 4, 5)), id="baddbmm input dtype"),
    pytest.param(lambda torch: torch.bmm(torch.ones(2, 3, 4), None), id="None"),
])
def test_bmm_errors(call):
    assert_same_outcome(call)


def test_is_floating_point_is_sparse_is_cuda():
    def scenario(torch):
        tensors = [torch.ones(1), torch.ones(1).double(), torch.ones(1).half(),
                   torch.ones(1).long(), torch.ones(1).bool(), torch.ones(1, dtype=torch.uint8)]
        answers = [(torch.is_floating_point(t), t.is_floating_point(), t.is_sparse, t.is_cuda)
                   for t in tensors]
        try:
            torch.is_floating_point(1.0)
        except TypeError as error:
            answers.append(str(error))
        return answers

    assert_same_outcome(scenario)


@pytest.mark.parametrize("non_blocking", [False, True])
def test_copy_with_non_blocking(non_blocking):
    def scenario(torch):
        x = leaf(torch, values((2, 3)))
        target = torch.zeros(2, 3) * 1
        out = target.copy_(x * 2, non_blocking=non_blocking)
        out.sum().backward()
        plain = torch.zeros(3, dtype=torch.long).copy_(torch.tensor([1.7, 2.2, -3.5]),
                                                      non_blocking)
        return out is target, out, graph(out.grad_fn), x.grad, plain

    assert_same_outcome(scenario)


@pytest.mark.parametrize("foreach", [None, False, True])
def test_clip_grad_value(foreach):
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Linear(3, 2)
        out = model(torch.tensor(values((4, 3), seed=10)) * 5)
        (out ** 2).sum().backward()
        before = [p.grad.clone() for p in model.parameters()]
        returned = torch.nn.utils.clip_grad_value_(model.parameters(), 1.5, foreach=foreach)
        p = torch.nn.Parameter(torch.ones(3))
        p.grad = torch.tensor([3.0, float("nan"), -0.5])
        torch.nn.utils.clip_grad_value_(p, 1)
        return returned, before, [p.grad for p in model.parameters()], p.grad

    assert_same_outcome(scenario)


def test_clip_grad_value_of_nothing():
    assert_same_outcome(lambda torch: torch.nn.utils.clip_grad_value_(
        [torch.nn.Parameter(torch.ones(2))], 1.0))


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch, x: x.sum(axis=1, keepdims=True), id="x.sum(axis, keepdims)"),
    pytest.param(lambda torch, x: torch.sum(x, axis=0), id="torch.sum(axis)"),
    pytest.param(lambda torch, x: torch.argmax(x, axis=-1), id="torch.argmax(axis)"),
    pytest.param(lambda torch, x: x.mean(axis=0), id="x.mean(axis)"),
    pytest.param(lambda torch, x: torch.max(x, axis=1), id="torch.max(axis)"),
    pytest.param(lambda torch, x: x.amax(axis=(0, 1), keepdims=True), id="x.amax(axis)"),
    pytest.param(lambda torch, x: x.softmax(axis=1), id="x.softmax(axis)"),
    pytest.param(lambda torch, x: x.std(axis=1), id="x.std(axis)"),
    pytest.param(lambda torch, x: x.cumsum(axis=1), id="x.cumsum(axis)"),
    pytest.param(lambda torch, x: x.unsqueeze(axis=0).shape, id="x.unsqueeze(axis)"),
])
def test_numpy_names_for_dim_and_keepdim(call):
    """PyTorch's argument parser takes ``axis`` for ``dim`` and ``keepdims`` for
    ``keepdim``, NumPy's names, as library code written for both uses them."""
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=11))
        out = call(torch, x)
        return out, graph(out.grad_fn) if hasattr(out, "grad_fn") else None

    assert_same_outcome(scenario)
