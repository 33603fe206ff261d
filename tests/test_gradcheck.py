"""Every differentiable operation's backward formula, checked against finite differences.

``autograd.gradcheck`` nudges each input element by ``±eps`` in float64 and compares the
resulting slopes with the Jacobian autograd computes. Hypothesis draws the shapes (and
broadcasting pairs) and the values; values stay away from the points where an operation has
no derivative (``abs`` and ``relu`` at 0, ``clamp`` at its limits, ties of ``max``), since
finite differences straddling a kink measure an average of two slopes.

Then: proof that gradcheck does catch a wrong formula, a 100 000-operation chain, and how
gradients accumulate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch_hooks as mt
from minitorch_hooks._ops._record import record
from minitorch_hooks.autograd import GradcheckError, gradcheck
from minitorch_hooks.autograd.graph import Node

CHECKS = settings(max_examples=12, deadline=None)

ANY = st.floats(-2, 2)
NONZERO = st.floats(0.2, 2) | st.floats(-2, -0.2)  # abs, relu, reciprocal, division
POSITIVE = st.floats(0.2, 3)  # log, sqrt, fractional powers
OFF_THE_LIMITS = st.floats(-2, -1.1) | st.floats(-0.9, 0.9) | st.floats(1.1, 2)  # clamp(-1, 1)
INSIDE_HALF_PI = st.floats(-1.3, 1.3)  # tan, away from its poles
INSIDE_ONE = st.floats(-0.9, 0.9)  # asin and acos, away from the ends of their domain
GRID = st.integers(-20, 20).map(lambda i: i / 10)  # distinct values are 0.1 apart: no near ties

SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)
MATRIX_SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)


def arrays(shape: tuple[int, ...], elements: st.SearchStrategy = ANY,
           unique: bool = False) -> st.SearchStrategy:
    return hnp.arrays(np.float64, shape, elements=elements, unique=unique)


def check(func: Callable[..., Any], *values: np.ndarray, **tolerances: float) -> None:
    """gradcheck ``func`` at float64 leaves requiring grad, made from ``values``."""
    inputs = tuple(mt.tensor(v, requires_grad=True) for v in values)
    assert gradcheck(func, inputs, **tolerances)


# -- element-wise -------------------------------------------------------------------------------

UNARY = {
    "neg": (lambda x: -x, ANY),
    "exp": (lambda x: x.exp(), ANY),
    "log": (lambda x: x.log(), POSITIVE),
    "sqrt": (lambda x: x.sqrt(), POSITIVE),
    "abs": (lambda x: x.abs(), NONZERO),
    "relu": (lambda x: x.relu(), NONZERO),
    "tanh": (lambda x: x.tanh(), ANY),
    "sigmoid": (lambda x: x.sigmoid(), ANY),
    "reciprocal": (lambda x: x.reciprocal(), NONZERO),
    "square": (lambda x: x.square(), ANY),
    "x ** 3": (lambda x: x ** 3, ANY),
    "x ** 0": (lambda x: x ** 0, ANY),
    "x ** 0.5": (lambda x: x ** 0.5, POSITIVE),
    "x ** -2": (lambda x: x ** -2, NONZERO),
    "2 ** x": (lambda x: 2 ** x, ANY),
    "x * 2.5": (lambda x: x * 2.5, ANY),
    "x + 1": (lambda x: x + 1, ANY),
    "x.add(1, alpha=3)": (lambda x: x.add(1, alpha=3), ANY),
    "1 - x": (lambda x: 1 - x, ANY),
    "x - 1": (lambda x: x - 1, ANY),
    "3 / x": (lambda x: 3 / x, NONZERO),
    "x / 3": (lambda x: x / 3, ANY),
    "clamp(min=0)": (lambda x: x.clamp(min=0.0), NONZERO),
    "clamp(max=0)": (lambda x: x.clamp(max=0.0), NONZERO),
    "clamp(-1, 1)": (lambda x: x.clamp(-1.0, 1.0), OFF_THE_LIMITS),
    "where(x > 0, x, 0)": (lambda x: mt.where(x > 0, x, 0.0), NONZERO),
    "clone": (lambda x: x.clone(), ANY),
    "contiguous of a transpose": (lambda x: x.mT.contiguous() if x.dim() > 1 else x * 1, ANY),
    "in-place exp_ on a copy": (lambda x: (x * 1).exp_(), ANY),
    "in-place mul_ on a copy": (lambda x: (x + 0).mul_(x), ANY),
    "in-place tanh_ on a product": (lambda x: (x * 2).tanh_(), ANY),
    "sin": (lambda x: x.sin(), ANY),
    "cos": (lambda x: x.cos(), ANY),
    "tan": (lambda x: x.tan(), INSIDE_HALF_PI),
    "asin": (lambda x: x.asin(), INSIDE_ONE),
    "acos": (lambda x: x.acos(), INSIDE_ONE),
    "atan": (lambda x: x.atan(), ANY),
    "erf": (lambda x: x.erf(), ANY),
    "sinh": (lambda x: x.sinh(), ANY),
    "cosh": (lambda x: x.cosh(), ANY),
    "rsqrt": (lambda x: x.rsqrt(), POSITIVE),
    "in-place sin_ on a copy": (lambda x: (x * 1).sin_(), ANY),
    "x % 2.5": (lambda x: x % 2.5, NONZERO),
    "fmod(x, 2.5)": (lambda x: x.fmod(2.5), ANY),
    "gelu": (lambda x: mt.nn.functional.gelu(x), ANY),
    "gelu tanh": (lambda x: mt.nn.functional.gelu(x, approximate="tanh"), ANY),
    "silu": (lambda x: mt.nn.functional.silu(x), ANY),
    "leaky_relu": (lambda x: mt.nn.functional.leaky_relu(x, 0.2), NONZERO),
    "leaky_relu_ on a copy": (lambda x: mt.nn.functional.leaky_relu_(x * 1, 0.2), NONZERO),
    "softmin": (lambda x: mt.nn.functional.softmin(x, -1), ANY),
}


@pytest.mark.parametrize("name", UNARY)
@CHECKS
@given(data=st.data())
def test_unary(name, data):
    func, elements = UNARY[name]
    check(func, data.draw(arrays(data.draw(SHAPES), elements)))


BINARY = {
    "a + b": (lambda a, b: a + b, ANY, ANY),
    "a - b": (lambda a, b: a - b, ANY, ANY),
    "a.sub(b, alpha=2)": (lambda a, b: a.sub(b, alpha=2), ANY, ANY),
    "a * b": (lambda a, b: a * b, ANY, ANY),
    "a / b": (lambda a, b: a / b, ANY, NONZERO),
    "a ** b": (lambda a, b: a ** b, POSITIVE, ANY),
    "a % b": (lambda a, b: a % b, NONZERO, st.floats(2.5, 3)),  # |a / b| < 1: no jump
    "fmod(a, b)": (lambda a, b: a.fmod(b), ANY, st.floats(2.5, 3)),
}


@pytest.mark.parametrize("name", BINARY)
@CHECKS
@given(data=st.data(), shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3,
                                                                  max_side=3))
def test_binary_with_broadcasting(name, data, shapes):
    func, first, second = BINARY[name]
    a, b = shapes.input_shapes
    check(func, data.draw(arrays(a, first)), data.draw(arrays(b, second)))


@pytest.mark.parametrize("func", [
    pytest.param(lambda a, b: mt.maximum(a, b), id="maximum"),
    pytest.param(lambda a, b: mt.where(a > b, a, b), id="where"),
    pytest.param(lambda a, b: mt.where(a > b, a * b, b - a), id="where of expressions"),
])
@CHECKS
@given(data=st.data(), shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3,
                                                                  max_side=3))
def test_selections_away_from_ties(func, data, shapes):
    a = data.draw(arrays(shapes.input_shapes[0]))
    b = data.draw(arrays(shapes.input_shapes[1]))
    assume(np.all(np.abs(a - b) > 1e-3))  # broadcast comparison: no element at a tie
    check(func, a, b)


# -- reductions -------------------------------------------------------------------------------

def _dims(data: st.DataObject, ndim: int) -> Any:
    """A ``dim`` argument: one index or a tuple of distinct ones (``0`` for a 0-d tensor)."""
    if ndim == 0:
        return 0
    one = st.integers(-ndim, ndim - 1)
    several = st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)
    return data.draw(one | several.map(tuple))


REDUCTIONS = {
    "sum()": lambda t, dim: t.sum(),
    "sum(dim)": lambda t, dim: t.sum(dim),
    "sum(dim, keepdim)": lambda t, dim: t.sum(dim, keepdim=True),
    "mean()": lambda t, dim: t.mean(),
    "mean(dim)": lambda t, dim: t.mean(dim),
    "mean(dim, keepdim)": lambda t, dim: t.mean(dim, keepdim=True),
    "norm()": lambda t, dim: t.norm(),
    # p=2, a vector norm over any dims: the default 'fro' takes at most two, as in PyTorch
    "norm(dim)": lambda t, dim: t.norm(2, dim=dim),
    "norm(dim, keepdim)": lambda t, dim: t.norm(2, dim=dim, keepdim=True),
}


@pytest.mark.parametrize("name", REDUCTIONS)
@CHECKS
@given(data=st.data())
def test_reduction(name, data):
    x = data.draw(arrays(data.draw(SHAPES), NONZERO))  # a norm away from 0
    dim = _dims(data, x.ndim)
    check(lambda t: REDUCTIONS[name](t, dim), x)


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
@CHECKS
@given(data=st.data())
def test_variance_or_deviation_with_the_mean(name, data):
    x = data.draw(arrays(data.draw(SHAPES), GRID, unique=True))  # no ties: std > 0
    dim = _dims(data, x.ndim)

    def both(t):  # one node, two results: both gradients arrive together
        spread, mean = getattr(mt, name)(t, dim, correction=0)
        return spread * 2 + mean

    check(both, x)
    check(lambda t: getattr(mt, name)(t, dim, correction=0)[1], x)


@pytest.mark.parametrize("name", ["max", "min"])
@CHECKS
@given(data=st.data())
def test_max_and_min(name, data):
    x = data.draw(arrays(data.draw(SHAPES), GRID, unique=True))  # no ties
    dim = data.draw(st.integers(-1, 0) if x.ndim == 0 else st.integers(-x.ndim, x.ndim - 1))
    keepdim = data.draw(st.booleans())
    check(lambda t: getattr(t, name)(), x)
    check(lambda t: getattr(t, name)(dim, keepdim=keepdim).values, x)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@CHECKS
@given(data=st.data())
def test_softmax(name, data):
    x = data.draw(arrays(data.draw(SHAPES)))
    dim = data.draw(st.integers(-1, 0) if x.ndim == 0 else st.integers(-x.ndim, x.ndim - 1))
    check(lambda t: getattr(t, name)(dim), x)


# -- shapes, views and indexing -------------------------------------------------------------------

@CHECKS
@given(data=st.data())
def test_shape_ops(data):
    x = data.draw(arrays(data.draw(SHAPES)))
    ndim = x.ndim
    dim = data.draw(st.integers(-ndim - 1, ndim))  # for unsqueeze: one more place
    order = data.draw(st.permutations(range(ndim)))
    check(lambda t: t.reshape(-1), x)
    check(lambda t: t.view(-1, 1), x)
    check(lambda t: t.flatten(), x)
    check(lambda t: t.permute(*order), x)
    check(lambda t: t.unsqueeze(dim), x)
    check(lambda t: t.unsqueeze(0).squeeze(), x)
    check(lambda t: t.unsqueeze(dim).squeeze(dim), x)
    check(lambda t: t.expand(2, *x.shape), x)
    if ndim >= 2:
        check(lambda t: t.transpose(0, -1), x)
        check(lambda t: t.mT, x)
        check(lambda t: t.permute(*order).reshape(-1), x)  # a copying reshape
    if ndim <= 2:
        check(lambda t: t.t(), x)
    if ndim == 2:
        check(lambda t: t.T, x)


@CHECKS
@given(data=st.data())
def test_expand_of_size_one_dimensions(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=1))
    x = data.draw(arrays(shape))
    check(lambda t: t.expand(*(3,) * len(shape)), x)


@CHECKS
@given(data=st.data())
def test_basic_indexing(data):
    x = data.draw(arrays(data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))))
    index = data.draw(hnp.basic_indices(x.shape, allow_newaxis=True, allow_ellipsis=True))
    items = index if isinstance(index, tuple) else (index,)
    assume(items and not any(isinstance(i, slice) and (i.step or 1) < 0 for i in items))
    check(lambda t: t[index], x)


@CHECKS
@given(data=st.data())
def test_integer_array_and_mask_indexing(data):
    x = data.draw(arrays(data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))))
    rows = data.draw(st.lists(st.integers(-x.shape[0], x.shape[0] - 1), min_size=1,
                              max_size=5))  # repeats add up
    mask = data.draw(hnp.arrays(np.bool_, x.shape))
    check(lambda t: t[rows], x)
    check(lambda t: t[mt.tensor(mask)], x)
    if x.ndim >= 2:
        check(lambda t: t[:, [0, -1, 0]], x)
        check(lambda t: t[1:, [0]], x)


@CHECKS
@given(data=st.data())
def test_cat_and_stack(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    grown = list(shape)
    grown[dim] = data.draw(st.integers(1, 3))
    a, b, c = data.draw(arrays(shape)), data.draw(arrays(tuple(grown))), data.draw(arrays(shape))
    check(lambda *ts: mt.cat(ts, dim), a, b, c)
    check(lambda *ts: mt.stack(ts, dim), a, c)


# -- matrix products ---------------------------------------------------------------------------

RANKS = [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (3, 1), (3, 3), (2, 3), (1, 3), (4, 3)]


@pytest.mark.parametrize("ranks", RANKS, ids=str)
@CHECKS
@given(data=st.data())
def test_matmul(ranks, data):
    sizes = st.integers(1, 3)
    n, k, m = data.draw(sizes), data.draw(sizes), data.draw(sizes)
    batch = data.draw(hnp.array_shapes(min_dims=2, max_dims=2, max_side=2))
    a_shape = {1: (k,), 2: (n, k)}.get(ranks[0], batch[-(ranks[0] - 2):] + (n, k))
    b_shape = {1: (k,), 2: (k, m)}.get(ranks[1], batch[-(ranks[1] - 2):] + (k, m))
    check(lambda a, b: a @ b, data.draw(arrays(a_shape)), data.draw(arrays(b_shape)))


@CHECKS
@given(data=st.data())
def test_mm_and_addmm(data):
    n, k, m = (data.draw(st.integers(1, 3)) for _ in range(3))
    a, b = data.draw(arrays((n, k))), data.draw(arrays((k, m)))
    bias = data.draw(arrays(data.draw(st.sampled_from([(m,), (n, m), (1, m)]))))
    check(lambda x, y: x.mm(y), a, b)
    check(lambda c, x, y: mt.addmm(c, x, y), bias, a, b)


# -- normalisation and embeddings ---------------------------------------------------------------

NORMS = {
    "batch_norm": lambda x, w, b: mt.nn.functional.batch_norm(x, None, None, w, b,
                                                             training=True),
    "batch_norm eval": lambda x, w, b: mt.nn.functional.batch_norm(
        x, mt.tensor([-1.0, 0.0, 1.0]).double(), mt.tensor([0.5, 1.0, 2.0]).double(), w, b),
    "layer_norm": lambda x, w, b: mt.nn.functional.layer_norm(x.transpose(1, -1), (3,), w, b),
    "group_norm": lambda x, w, b: mt.nn.functional.group_norm(x, 1, w, b),
    "group_norm no affine": lambda x, w, b: mt.nn.functional.group_norm(x, 1) * w.sum(),
}


@pytest.mark.parametrize("name", NORMS)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_normalisation(name, data):
    """First and second derivatives, over inputs with distinct values (0.1 apart) so that
    no group has a near-zero variance."""
    shape = (data.draw(st.integers(2, 3)), 3, *data.draw(st.sampled_from([(), (2,), (2, 2)])))
    x = data.draw(arrays(shape, GRID, unique=True))
    w, b = data.draw(arrays((3,), NONZERO)), data.draw(arrays((3,)))
    check(NORMS[name], x, w, b)
    inputs = tuple(mt.tensor(v, requires_grad=True) for v in (x, w, b))
    assert mt.autograd.gradgradcheck(NORMS[name], inputs)


@CHECKS
@given(data=st.data())
def test_embedding(data):
    """Without ``padding_idx`` and ``scale_grad_by_freq``, which change the gradient on
    purpose (compared with PyTorch in ``test_nn_embedding.py``)."""
    indices = mt.tensor(data.draw(hnp.arrays(np.int64, data.draw(SHAPES),
                                             elements=st.integers(0, 3))))
    check(lambda w: mt.nn.functional.embedding(indices, w) ** 2, data.draw(arrays((4, 2))))


@CHECKS
@given(data=st.data())
def test_convolution(data):
    """Any stride, padding, dilation and groups: the input, weight and bias gradients, and
    (gradgradcheck) their own gradients, which are convolutions too."""
    groups = data.draw(st.sampled_from([1, 2]))
    stride, padding, dilation = (data.draw(st.tuples(st.integers(lo, hi), st.integers(lo, hi)))
                                 for lo, hi in ((1, 2), (0, 2), (1, 2)))
    kernel = data.draw(st.tuples(st.integers(1, 3), st.integers(1, 3)))
    size = [d * (k - 1) + 1 + data.draw(st.integers(0, 2)) for d, k in zip(dilation, kernel)]
    x = data.draw(arrays((2, 2 * groups, *size)))
    w = data.draw(arrays((2 * groups, 2, *kernel)))
    b = data.draw(arrays((2 * groups,)))

    def conv(*tensors):
        return mt.nn.functional.conv2d(*tensors, stride=stride, padding=padding,
                                       dilation=dilation, groups=groups)

    check(conv, x, w, b)
    leaves = tuple(mt.tensor(v, requires_grad=True) for v in (x, w, b))
    assert mt.autograd.gradgradcheck(conv, leaves)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate"])
@CHECKS
@given(data=st.data())
def test_pad(mode, data):
    x = data.draw(arrays((2, 3, 4)))
    amounts = data.draw(st.lists(st.integers(-1 if mode == "constant" else 0, 2), min_size=4,
                                 max_size=4))
    check(lambda t: mt.nn.functional.pad(t, amounts, mode=mode), x)


POOLS = {
    "max_pool2d": lambda x: mt.nn.functional.max_pool2d(x, 2, 1, padding=1, ceil_mode=True),
    "avg_pool2d": lambda x: mt.nn.functional.avg_pool2d(x, 3, 2, padding=1, ceil_mode=True,
                                                        count_include_pad=False),
    "adaptive_avg_pool2d": lambda x: mt.nn.functional.adaptive_avg_pool2d(x, (2, 3)),
    "interpolate nearest": lambda x: mt.nn.functional.interpolate(x, scale_factor=1.7),
    "interpolate bilinear": lambda x: mt.nn.functional.interpolate(x, size=(5, 2),
                                                                   mode="bilinear"),
}


@pytest.mark.parametrize("name", POOLS)
@CHECKS
@given(data=st.data())
def test_pooling_and_resizing(name, data):
    # distinct values 0.1 apart: no near ties for the maximum
    x = data.draw(arrays((1, 2, 4, 5), GRID, unique=True))
    check(POOLS[name], x)


def test_a_float32_round_trip_passes_with_float32_tolerances():
    check(lambda x: x.float() * 2, np.linspace(-1, 1, 5), eps=1e-3, atol=1e-3)


# -- gradcheck itself ----------------------------------------------------------------------------

class WrongSquareBackward(Node):
    """The derivative of ``x ** 2`` is ``2 x``; this formula forgets the 2."""

    __slots__ = ()

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad * x


def wrong_square(x: mt.Tensor) -> mt.Tensor:
    return record(x._data ** 2, WrongSquareBackward, (x,), saved=(x,))


def test_gradcheck_catches_a_wrong_backward_formula():
    x = mt.tensor([0.5, -1.0, 2.0], dtype=mt.float64, requires_grad=True)
    assert gradcheck(lambda t: t ** 2, (x,))
    assert gradcheck(wrong_square, (x,), raise_exception=False) is False
    with pytest.raises(GradcheckError, match="Jacobian mismatch"):
        gradcheck(wrong_square, (x,))


def test_gradcheck_ignores_inputs_that_need_no_grad():
    x = mt.tensor([0.5, -1.0], dtype=mt.float64, requires_grad=True)
    constant = mt.tensor([3.0, 4.0], dtype=mt.float64)
    assert gradcheck(lambda a, c: a * c, (x, constant))


# -- deep graphs and accumulation --------------------------------------------------------------

def test_a_chain_of_100_000_ops_backpropagates_without_recursion():
    x = mt.tensor([1.0, -2.0], requires_grad=True)
    y = x
    for _ in range(50_000):
        y = (y * 1.0) + 0.0
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    del y  # freeing the chain must not recurse either


def test_a_leaf_used_twice_gets_the_sum_of_both_gradients():
    a = mt.tensor([1.0, 2.0], requires_grad=True)
    (a + a).sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_backward_twice_accumulates_into_grad():
    a = mt.tensor([1.0, 2.0], requires_grad=True)
    b = (a * a).sum()
    b.backward(retain_graph=True)
    assert a.grad.tolist() == [2.0, 4.0]
    b.backward()
    assert a.grad.tolist() == [4.0, 8.0]
    (a * 3).sum().backward()  # a new graph adds on as well
    assert a.grad.tolist() == [7.0, 11.0]


def test_zeroing_grad_between_backwards():
    a = mt.tensor([1.0, 2.0], requires_grad=True)
    (a * a).sum().backward()
    a.grad = None
    (a * 5).sum().backward()
    assert a.grad.tolist() == [5.0, 5.0]
    a.grad.zero_()
    (a * 2).sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]
