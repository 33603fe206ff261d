"""The tensor functions that published hook programs call around their hooks, against
real PyTorch: ``clamp_min``/``clamp_max``, ``minimum``, ``threshold``/``elu``/``softplus``,
``lerp``/``addcmul``/``addcdiv``, the norms (``Tensor.norm`` of every order and
``torch.linalg``), ``F.normalize``, ``F.cosine_similarity`` and ``F.one_hot``.

Each is compared as the op tables compare (``ops_support.run``): values, dtype, strides and
contiguity, the graph, the gradients; then the second derivatives (``create_graph``, in
float64), what the node saves, and the places where formulas differ: ties, zeros, limits
reached exactly, inf and NaN, and the errors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import caught, layout, leaf, run, saved, second_order, values

# Ties, zeros and elements exactly on the limits used below (0.25, -0.5, 1.0).
EDGES = np.array([[0.0, 0.25, -0.5, 1.0], [1.0, -1.0, 0.25, 0.0], [2.0, -2.0, 0.5, -0.5]],
                 dtype=np.float32)
DATA = {"random": values((3, 4), seed=21), "edges": EDGES}




ONE_INPUT = {
    "clamp_min(0.25)": lambda torch, x: torch.clamp_min(x, 0.25),
    "x.clamp_min(-0.5)": lambda torch, x: x.clamp_min(-0.5),
    "clamp_max(1.0)": lambda torch, x: torch.clamp_max(x, 1.0),
    "x.clamp_max(0)": lambda torch, x: x.clamp_max(0),
    "clamp_min(tensor)": lambda torch, x: x.clamp_min(torch.full((4,), 0.25)),
    "minimum(x, 0.25)": lambda torch, x: torch.minimum(x, torch.full_like(x, 0.25)),
    "x.min(x.flip(0))": lambda torch, x: x.min(x.flip(0)),
    "threshold(0.25, -1)": lambda torch, x: torch.nn.functional.threshold(x, 0.25, -1.0),
    "nn.Threshold(0, 2)": lambda torch, x: torch.nn.Threshold(0.0, 2.0)(x),
    "elu": lambda torch, x: torch.nn.functional.elu(x),
    "nn.ELU(0.5)": lambda torch, x: torch.nn.ELU(0.5)(x),
    "softplus": lambda torch, x: torch.nn.functional.softplus(x),
    "softplus(beta=2, threshold=1)": lambda torch, x: torch.nn.functional.softplus(
        x, beta=2, threshold=1),
    "nn.Softplus(3)": lambda torch, x: torch.nn.Softplus(3.0)(x),
    "lerp(x, 2x, 0.3)": lambda torch, x: torch.lerp(x, x * 2, 0.3),
    "lerp(x, -x, 0.75)": lambda torch, x: x.lerp(-x, 0.75),
    "addcmul": lambda torch, x: torch.addcmul(x, x, x.flip(0), value=0.5),
    "addcdiv": lambda torch, x: torch.addcdiv(x, x, x.exp(), value=-2),
    "norm()": lambda torch, x: x.norm(),
    "norm(1)": lambda torch, x: x.norm(1),
    "norm(inf)": lambda torch, x: x.norm(float("inf")),
    "norm(-inf, 1)": lambda torch, x: x.norm(-math.inf, 1),
    "norm(3, dim=0)": lambda torch, x: torch.norm(x, 3, dim=0),
    "norm(1.5, 1, keepdim)": lambda torch, x: x.norm(1.5, 1, True),
    "norm(0.5, 1)": lambda torch, x: x.norm(0.5, 1),
    "norm('fro', (0, 1))": lambda torch, x: x.norm("fro", (0, 1)),
    "norm(p=None, dim=-1)": lambda torch, x: torch.norm(x, p=None, dim=-1),
    "vector_norm(4)": lambda torch, x: torch.linalg.vector_norm(x, 4),
    "vector_norm(2, (0,), keepdim)": lambda torch, x: torch.linalg.vector_norm(
        x, 2, (0,), True),
    "matrix_norm()": lambda torch, x: torch.linalg.matrix_norm(x),
    "matrix_norm(1)": lambda torch, x: torch.linalg.matrix_norm(x, 1),
    "matrix_norm(-inf)": lambda torch, x: torch.linalg.matrix_norm(x, -math.inf),
    "matrix_norm(inf, keepdim)": lambda torch, x: torch.linalg.matrix_norm(
        x, math.inf, keepdim=True),
    "linalg.norm()": lambda torch, x: torch.linalg.norm(x),
    "linalg.norm(1)": lambda torch, x: torch.linalg.norm(x, 1),
    "linalg.norm(3, dim=1)": lambda torch, x: torch.linalg.norm(x, 3, dim=1),
    "linalg.norm(x[0], -inf)": lambda torch, x: torch.linalg.norm(x[0], -math.inf),
    "normalize": lambda torch, x: torch.nn.functional.normalize(x),
    "normalize(p=1, dim=0)": lambda torch, x: torch.nn.functional.normalize(x, 1, 0),
    "cosine_similarity": lambda torch, x: torch.nn.functional.cosine_similarity(x, x.exp()),
    "cosine_similarity(dim=0)": lambda torch, x: torch.nn.functional.cosine_similarity(
        x, x.flip(1), dim=0),
    "cosine_similarity broadcast": lambda torch, x: torch.nn.functional.cosine_similarity(
        x, x[0] + 1, dim=-1),
}


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("op", list(ONE_INPUT))
def test_values_gradients_and_layout(op, data):
    assert_same_outcome(lambda torch: run(torch, ONE_INPUT[op], DATA[data]))


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("op", list(ONE_INPUT))
def test_second_derivatives(op, data):
    assert_same_outcome(lambda torch: second_order(torch, ONE_INPUT[op], DATA[data]))


SAVES = {
    "clamp_min": lambda torch, x: torch.clamp_min(x, 0.25),
    "clamp_max(tensor)": lambda torch, x: torch.clamp_max(x, x.detach() * 0 + 0.5),
    "minimum": lambda torch, x: torch.minimum(x, x.detach()),
    "threshold": lambda torch, x: torch.nn.functional.threshold(x, 0.1, 20.0),
    "elu": lambda torch, x: torch.nn.functional.elu(x, 0.5),
    "softplus": lambda torch, x: torch.nn.functional.softplus(x, 2, 10),
    "lerp number": lambda torch, x: torch.lerp(x, x.detach(), 0.3),
    "lerp tensor": lambda torch, x: torch.lerp(x.detach(), x.detach() + 1, x),
    "addcmul": lambda torch, x: torch.addcmul(x, x.detach(), x, value=2),
    "addcdiv": lambda torch, x: torch.addcdiv(x, x, x.detach() + 3, value=2),
    "norm(inf, 1)": lambda torch, x: x.norm(math.inf, 1),
    "norm(3, (0, 1), keepdim)": lambda torch, x: x.norm(3, (0, 1), True),
    "norm()": lambda torch, x: x.norm(),
    "norm(None)": lambda torch, x: x.norm(None),
    "vector_norm(-1)": lambda torch, x: torch.linalg.vector_norm(x, -1, -1),
}


@pytest.mark.parametrize("op", list(SAVES))
def test_what_the_node_saves(op):
    assert_same_outcome(lambda torch: saved(SAVES[op](torch, leaf(torch, values((3, 4))))
                                            .grad_fn))


def test_lerp_weight_as_a_tensor():
    def scenario(torch):
        return run(torch, lambda torch, a, b, w: torch.lerp(a, b, w), values((2, 3), seed=1),
                   values((2, 3), seed=2), values((3,), seed=3, low=0, high=1)), \
            second_order(torch, lambda torch, a, b, w: torch.lerp(a, b, w),
                         values((2, 3), seed=1), values((2, 3), seed=2),
                         values((3,), seed=3, low=0, high=1))

    assert_same_outcome(scenario)


def test_lerp_ends_exactly():
    """``weight = 1`` gives ``end`` exactly: PyTorch computes from the nearer end."""
    def scenario(torch):
        start = torch.tensor([0.1, 1e8, -3.3])
        end = torch.tensor([0.7, 1.0, 2.9])
        return [torch.lerp(start, end, w) for w in (0.0, 0.25, 0.5, 0.9, 1.0, 1.5, -0.5)]

    assert_same_outcome(scenario)


def test_in_place_forms():
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=4))
        outs = []
        for call in (lambda y: y.clamp_min_(0.1), lambda y: y.clamp_max_(0.5),
                     lambda y: torch.clamp_min_(y, -0.2), lambda y: y.clip_(-1, 1),
                     lambda y: y.lerp_(y.detach() * 3, 0.5),
                     lambda y: y.addcmul_(y.detach(), y.detach(), value=2),
                     lambda y: y.addcdiv_(y.detach(), y.detach() + 5),
                     lambda y: torch.nn.functional.threshold(y, 0.0, 3.0, inplace=True),
                     lambda y: torch.nn.functional.elu(y, inplace=True),
                     lambda y: torch.nn.functional.elu_(y, 2.0),
                     lambda y: torch.nn.ELU(inplace=True)(y),
                     lambda y: torch.nn.Threshold(0.2, -1.0, True)(y)):
            y = x * 1
            out = call(y)
            outs.append((out is y, out, saved(out.grad_fn),
                         torch.autograd.grad((out * out).sum(), x)))
        return outs

    assert_same_outcome(scenario)


def test_dtypes_and_promotion():
    def scenario(torch):
        ints = torch.arange(-2, 3)
        return [torch.clamp_min(ints, 1), torch.clamp_min(ints, 1.5), ints.clamp_max(0.5),
                torch.clamp(ints, 0.5), torch.clamp(ints, -1, 1),
                torch.clamp_min(ints, torch.tensor([0.5])), torch.minimum(ints, ints.flip(0)),
                torch.minimum(ints.float(), ints), torch.minimum(ints, torch.tensor(0.5)),
                torch.nn.functional.threshold(ints, 0, 7),
                torch.nn.functional.threshold(ints, 0.5, 7.5),
                torch.nn.functional.threshold(ints.double(), 0, 7),
                torch.addcmul(ints, ints, ints), torch.addcmul(ints.float(), ints, ints),
                torch.addcdiv(ints.double(), ints.float(), ints.float() + 5),
                torch.lerp(ints.half(), ints.half() * 2, 0.5),
                torch.linalg.vector_norm(ints.double(), 1),
                torch.linalg.vector_norm(ints.half(), 2),
                torch.linalg.vector_norm(ints.float(), 2, dtype=torch.float64),
                torch.nn.functional.elu(ints.double()),
                torch.nn.functional.softplus(ints.half())]

    assert_same_outcome(scenario)


def test_inf_and_nan():
    def scenario(torch):
        x = leaf(torch, np.array([math.inf, -math.inf, math.nan, 0.0, 1.0, -1.0],
                                 dtype=np.float32))
        results = []
        for op in (lambda x: x.clamp_min(0.0), lambda x: x.clamp_max(0.0),
                   lambda x: torch.minimum(x, torch.zeros_like(x)),
                   lambda x: torch.nn.functional.threshold(x, 0.0, 5.0),
                   lambda x: torch.nn.functional.elu(x), lambda x: torch.nn.functional.softplus(x),
                   lambda x: torch.lerp(x, torch.ones_like(x), 0.5),
                   lambda x: torch.addcmul(x, x, x), lambda x: torch.addcdiv(x, x, x),
                   lambda x: x.norm(), lambda x: x.norm(1), lambda x: x.norm(math.inf),
                   lambda x: x.norm(-math.inf), lambda x: x.norm(0), lambda x: x.norm(3),
                   lambda x: x[3:].norm(0.5), lambda x: x[3:].norm(math.inf),
                   lambda x: torch.nn.functional.normalize(x, dim=0)):
            out = op(x)
            results.append((out, torch.autograd.grad(out.sum(), x, allow_unused=True)))
        return results

    assert_same_outcome(scenario)


def test_norms_at_zero_and_at_ties():
    """The subgradients: 0 for the 2-norm and the 1-norm at 0, the gradient of the inf-norm
    shared among ties (also between ``2`` and ``-2``), none for the 0-norm."""
    def scenario(torch):
        results = []
        for data in ([0.0, 0.0, 0.0], [2.0, -2.0, 1.0], [0.0, 3.0, -3.0], [1.0, 1.0, 1.0]):
            for order in (2, 1, math.inf, -math.inf, 0, 3, 0.5, 1.5):
                x = torch.tensor(data, requires_grad=True)
                out = x.norm(order)
                out.backward()
                results.append((order, out, x.grad))
        return results

    assert_same_outcome(scenario)


def test_normalize_and_cosine_similarity_of_zero_vectors():
    def scenario(torch):
        x = torch.zeros(2, 3, requires_grad=True)
        y = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], requires_grad=True)
        outs = [torch.nn.functional.normalize(x), torch.nn.functional.normalize(y, eps=0.1),
                torch.nn.functional.cosine_similarity(x, y),
                torch.nn.functional.cosine_similarity(y, y, eps=1e-3)]
        return [(out, torch.autograd.grad(out.sum(), (x, y), allow_unused=True))
                for out in outs]

    assert_same_outcome(scenario)


ONE_HOT = {
    "inferred": lambda torch: torch.nn.functional.one_hot(torch.tensor([0, 2, 1, 2])),
    "5 classes": lambda torch: torch.nn.functional.one_hot(torch.tensor([0, 2]), 5),
    "2-d": lambda torch: torch.nn.functional.one_hot(torch.tensor([[1], [0]]), 3),
    "0-d": lambda torch: torch.nn.functional.one_hot(torch.tensor(1), 3),
    "empty with classes": lambda torch: torch.nn.functional.one_hot(
        torch.tensor([], dtype=torch.long), 3),
    "float": lambda torch: torch.nn.functional.one_hot(torch.tensor([0.0, 2.0])),
    "int32": lambda torch: torch.nn.functional.one_hot(torch.tensor([1], dtype=torch.int32)),
    "negative": lambda torch: torch.nn.functional.one_hot(torch.tensor([0, -2])),
    "too large": lambda torch: torch.nn.functional.one_hot(torch.tensor([0, 3]), 3),
    "empty inferred": lambda torch: torch.nn.functional.one_hot(
        torch.tensor([], dtype=torch.long)),
    "0 classes": lambda torch: torch.nn.functional.one_hot(torch.tensor([1]), 0),
    "-2 classes": lambda torch: torch.nn.functional.one_hot(torch.tensor([0]), -2),
}


@pytest.mark.parametrize("call", ONE_HOT.values(), ids=ONE_HOT.keys())
def test_one_hot(call):
    def scenario(torch):
        out = caught(lambda: call(torch))
        return out if isinstance(out, tuple) else (out, layout(out))

    assert_same_outcome(scenario)


ERRORS = {
    "vector_norm of integers": lambda torch: torch.linalg.vector_norm(torch.arange(3), 1),
    "norm of integers": lambda torch: torch.arange(3).norm(),
    "inf-norm of nothing": lambda torch: torch.linalg.vector_norm(torch.ones(0), math.inf),
    "-1-norm of nothing": lambda torch: torch.ones(0, 2).norm(-1, 0),
    "1-norm of nothing": lambda torch: torch.ones(0).norm(1),
    "inf-norm along a non-empty dim": lambda torch: torch.ones(0, 3).norm(math.inf, 1),
    "matrix_norm of a vector": lambda torch: torch.linalg.matrix_norm(torch.ones(3)),
    "matrix_norm(3)": lambda torch: torch.linalg.matrix_norm(torch.ones(3, 3), 3),
    "matrix_norm('abc')": lambda torch: torch.norm(torch.ones(3, 3), p="abc"),
    "linalg.norm(3-d, 1)": lambda torch: torch.linalg.norm(torch.ones(3, 3, 3), 1),
    "clamp_min(None)": lambda torch: torch.clamp_min(torch.ones(2), None),
    "clamp_max_ of ints with a float": lambda torch: torch.arange(3).clamp_max_(1.5),
    "minimum(x, 1)": lambda torch: torch.minimum(torch.ones(2), 1),
    "minimum shapes": lambda torch: torch.minimum(torch.ones(2), torch.ones(3)),
    "lerp dtypes": lambda torch: torch.lerp(torch.ones(2), torch.ones(2).double(), 0.5),
    "addcdiv of ints": lambda torch: torch.addcdiv(torch.ones(2), torch.arange(2),
                                                   torch.arange(2)),
    "addcmul shapes": lambda torch: torch.addcmul(torch.ones(2), torch.ones(3), torch.ones(2)),
    "elu of ints": lambda torch: torch.nn.functional.elu(torch.arange(3)),
    "softplus of ints": lambda torch: torch.nn.functional.softplus(torch.arange(3)),
    "cosine of ints": lambda torch: torch.nn.functional.cosine_similarity(
        torch.arange(3), torch.arange(3), dim=0),
    "cosine shapes": lambda torch: torch.nn.functional.cosine_similarity(
        torch.ones(2, 3), torch.ones(2)),
    "normalize of ints": lambda torch: torch.nn.functional.normalize(torch.arange(3)),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_errors(call):
    assert_same_outcome(lambda torch: caught(lambda: call(torch)))


def test_module_reprs():
    def scenario(torch):
        return [repr(m) for m in (torch.nn.ELU(), torch.nn.ELU(0.5, True),
                                  torch.nn.Threshold(0.1, 20), torch.nn.Threshold(0.1, 20, True),
                                  torch.nn.Softplus(), torch.nn.Softplus(2, 10))]

    assert_same_outcome(scenario)


def test_a_gradient_clipping_hook_with_norms():
    """The pattern of gradient-monitoring code: a tensor hook measures each gradient's norms
    and clips it by value before it reaches the parameter."""
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ELU(), torch.nn.Linear(3, 2))
        seen = []

        def measure(grad):
            seen.append((grad.norm(), grad.norm(1), grad.norm(math.inf),
                         torch.linalg.vector_norm(grad, 0)))
            return grad.clamp_min(-0.1).clamp_max(0.1)

        for p in model.parameters():
            p.register_hook(measure)
        out = model(torch.tensor(values((5, 4), seed=22)))
        torch.nn.functional.softplus(out).sum().backward()
        return seen, [p.grad for p in model.parameters()]

    assert_same_outcome(scenario)
