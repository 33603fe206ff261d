"""The singular value decomposition and the matrix norms built on it, against real PyTorch:
``torch.linalg.svdvals``, ``torch.linalg.svd``, ``torch.svd``, and ``linalg.matrix_norm``,
``linalg.norm``, ``Tensor.norm`` and ``torch.norm`` with the orders 2, -2 and ``'nuc'``:
values, graphs, gradients, what the node saves, the errors.

``U`` and ``Vh`` are unique only up to the signs of their vectors (LAPACK libraries choose
differently), so they are compared through what does not depend on the choice: the
product ``U @ diag(S) @ Vh``, ``U^T U`` and ``Vh Vh^T``, and functions of ``U`` and ``Vh``
that a sign change leaves alone (each ``U[:, i] Vh[i, :]``, the squares of the entries),
whose gradients then go through every term of PyTorch's ``svd_backward``. Values and
gradients are compared within float32's rounding; the graphs, shapes and errors exactly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import caught, graph, layout, leaf, second_order, upstream, values

SHAPES = {"wide": (3, 4), "tall": (4, 3), "square": (3, 3), "a batch": (2, 3, 4)}
NORMS = {"2": 2, "-2": -2, "nuc": "nuc"}
DIMS = {"last two": {}, "(0, 2)": {"dim": (0, 2)}, "(2, 0), keepdim": {"dim": (2, 0),
                                                                        "keepdim": True},
        "keepdim": {"keepdim": True}}


def forward_backward(torch, function, shape, seed=1):
    x = leaf(torch, values(shape, seed=seed))
    out = function(torch, x)
    (out * upstream(torch, out)).sum().backward()
    return {"out": out, "layout": layout(out), "graph": graph(out.grad_fn), "grad": x.grad}


@pytest.mark.parametrize("dims", DIMS.values(), ids=DIMS.keys())
@pytest.mark.parametrize("ord_", NORMS.values(), ids=NORMS.keys())
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_matrix_norm(shape, ord_, dims):
    if len(shape) == 2 and "dim" in dims:
        dims = {"dim": (1, 0), "keepdim": dims.get("keepdim", False)}
    assert_same_outcome(lambda torch: forward_backward(
        torch, lambda torch, x: torch.linalg.matrix_norm(x, ord_, **dims), shape))


CALLS = {
    "linalg.norm(x, 2)": lambda torch, x: torch.linalg.norm(x[0], 2),
    "linalg.norm(x, -2)": lambda torch, x: torch.linalg.norm(x[1], -2),
    "linalg.norm(x, 'nuc')": lambda torch, x: torch.linalg.norm(x[0], "nuc"),
    "linalg.norm(x, 2, dim=(0, 1))": lambda torch, x: torch.linalg.norm(x, 2, dim=(0, 1)),
    "linalg.norm(x, 'nuc', dim=(2, 0))": lambda torch, x: torch.linalg.norm(x, "nuc",
                                                                            dim=(2, 0)),
    "Tensor.norm('nuc')": lambda torch, x: x[0].norm("nuc"),
    "Tensor.norm('nuc', dim=(0, 2), keepdim=True)": lambda torch, x: x.norm(
        "nuc", dim=(0, 2), keepdim=True),
    "torch.norm(x, 'nuc')": lambda torch, x: torch.norm(x[1], "nuc"),
    "matrix_norm float64": lambda torch, x: torch.linalg.matrix_norm(x, 2,
                                                                     dtype=torch.float64),
    "matrix_norm of a transposed view": lambda torch, x: torch.linalg.matrix_norm(
        x.transpose(1, 2), "nuc"),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_norm_calls(call):
    assert_same_outcome(lambda torch: forward_backward(torch, call, (2, 3, 4)))


SVDVALS = {"wide": (3, 5), "tall": (5, 2), "a batch": (2, 2, 3, 3), "one row": (1, 4)}


@pytest.mark.parametrize("shape", SVDVALS.values(), ids=SVDVALS.keys())
def test_svdvals(shape):
    assert_same_outcome(lambda torch: forward_backward(
        torch, lambda torch, x: torch.linalg.svdvals(x), shape))


def test_svdvals_float64_and_without_grad():
    def scenario(torch):
        x = torch.tensor(values((3, 4), seed=2, dtype=np.float64))
        return torch.linalg.svdvals(x), torch.linalg.svdvals(x).requires_grad

    assert_same_outcome(scenario, rtol=1e-12, atol=1e-13)


def reconstruction(torch, u, s, vh):
    """What a decomposition says that its signs cannot change."""
    k = s.shape[-1]
    product = (u[..., :k] * s.unsqueeze(-2)) @ vh[..., :k, :]
    return {"product": product, "U^T U": u.transpose(-2, -1) @ u,
            "Vh Vh^T": vh @ vh.transpose(-2, -1), "S": s,
            "shapes": [tuple(t.shape) for t in (u, s, vh)]}


SVD = {
    "wide": ((3, 5), True), "wide, reduced": ((3, 5), False), "tall": ((5, 3), True),
    "tall, reduced": ((5, 3), False), "a batch": ((2, 3, 3), True),
    "a batch, reduced": ((2, 4, 2), False),
}


@pytest.mark.parametrize(("shape", "full_matrices"), SVD.values(), ids=SVD.keys())
def test_linalg_svd(shape, full_matrices):
    def scenario(torch):
        x = leaf(torch, values(shape, seed=3))
        result = torch.linalg.svd(x, full_matrices=full_matrices)
        u, s, vh = result
        return (reconstruction(torch, u, s, vh), type(result).__name__,
                [graph(t.grad_fn) for t in result])

    assert_same_outcome(scenario)


def sign_free(torch, u, s, vh):
    """A loss of ``U``, ``S`` and ``Vh`` that flipping the sign of a singular pair leaves
    alone, with a different weight on each term, so that its gradient goes through every
    part of the SVD's backward formula."""
    k = s.shape[-1]
    weights = torch.tensor(np.cos(np.arange(k) + 1.0), dtype=s.dtype)
    pairs = (u[..., :, :k] * weights) @ (vh[..., :k, :] * weights.unsqueeze(-1))
    return ((pairs * pairs.detach().cos()).sum() + (u * u * 0.5).sum()
            + (vh * vh * 0.25).sum() + (s * s).sum())


BACKWARD = {
    "wide": ((3, 5), False), "tall": ((5, 3), False), "square": ((4, 4), False),
    "wide, full matrices": ((2, 4), True), "tall, full matrices": ((4, 2), True),
    "a batch": ((2, 3, 4), False),
}


@pytest.mark.parametrize(("shape", "full_matrices"), BACKWARD.values(), ids=BACKWARD.keys())
def test_svd_backward_through_u_s_and_vh(shape, full_matrices):
    def scenario(torch):
        x = leaf(torch, values(shape, seed=4))
        u, s, vh = torch.linalg.svd(x, full_matrices=full_matrices)
        loss = sign_free(torch, u, s, vh)
        loss.backward()
        return loss, x.grad

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_svd_backward_through_u_only_and_vh_only():
    def scenario(torch):
        grads = []
        for pick in (0, 2):
            x = leaf(torch, values((3, 4), seed=5))
            part = torch.linalg.svd(x, full_matrices=False)[pick]
            (part * part * torch.arange(float(part.numel())).reshape(part.shape)).sum().backward()
            grads.append(x.grad)
        return grads

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_torch_svd():
    def scenario(torch):
        x = leaf(torch, values((4, 3), seed=6))
        u, s, v = torch.svd(x)
        full = torch.svd(x, some=False)
        values_only = torch.svd(x, compute_uv=False)
        (s.sum() + values_only.S.sum()).backward()
        return (reconstruction(torch, u, s, v.transpose(-2, -1)),
                reconstruction(torch, full.U, full.S, full.V.mT),
                type(full).__name__, graph(v.grad_fn), values_only, x.grad,
                x.detach().svd().S)

    assert_same_outcome(scenario)


def test_what_the_node_saves():
    def scenario(torch):
        x = leaf(torch, values((3, 5), seed=7))
        node = torch.linalg.svd(x).S.grad_fn
        reduced = torch.linalg.svdvals(x).grad_fn
        return (node.name(), node._saved_full_matrices, node._saved_S,
                node._saved_S_sym_argsize_minus_1, tuple(node._saved_U.shape),
                tuple(node._saved_Vh.shape), reduced._saved_full_matrices,
                tuple(reduced._saved_Vh.shape))

    assert_same_outcome(scenario)


def test_empty_matrices():
    def scenario(torch):
        empty = torch.ones(0, 3)
        return (torch.linalg.svdvals(empty), torch.linalg.matrix_norm(empty, 2),
                torch.linalg.matrix_norm(empty, "nuc"), torch.linalg.matrix_norm(
                    torch.ones(0, 2, 2), 2),
                [tuple(t.shape) for t in torch.linalg.svd(empty)],
                [tuple(t.shape) for t in torch.linalg.svd(torch.ones(3, 0),
                                                          full_matrices=False)])

    assert_same_outcome(scenario)


def test_second_derivatives():
    def op(torch, x):
        return torch.linalg.matrix_norm(x, "nuc", keepdim=True) * torch.linalg.svdvals(x)

    assert_same_outcome(lambda torch: second_order(torch, op, values((3, 4), seed=8)),
                        rtol=1e-8, atol=1e-10)


INF, NAN = math.inf, math.nan
ERRORS = {
    "integers": lambda torch: torch.linalg.svdvals(torch.ones(2, 2, dtype=torch.int64)),
    "a vector": lambda torch: torch.linalg.svdvals(torch.ones(2)),
    "half precision": lambda torch: torch.linalg.svdvals(torch.ones(2, 2,
                                                                    dtype=torch.float16)),
    "torch.svd of half precision": lambda torch: torch.svd(torch.ones(2, 2,
                                                                      dtype=torch.float16)),
    "svd of a vector": lambda torch: torch.linalg.svd(torch.ones(2)),
    "torch.svd of a vector": lambda torch: torch.svd(torch.ones(2)),
    "a NaN": lambda torch: torch.linalg.svdvals(torch.tensor([[1.0, NAN], [0.0, 1.0]])),
    "a NaN in the second matrix": lambda torch: torch.linalg.svd(
        torch.tensor([[[1.0, 2.0], [0.0, 1.0]], [[1.0, NAN], [0.0, 1.0]]])),
    "a driver": lambda torch: torch.linalg.svd(torch.ones(2, 2), driver="gesvd"),
    "an inf gives NaN": lambda torch: torch.linalg.svdvals(torch.tensor([[1.0, INF],
                                                                         [0.0, 1.0]])),
    "matrix_norm(2) of integers": lambda torch: torch.linalg.matrix_norm(
        torch.ones(2, 2, dtype=torch.int64), 2),
    "matrix_norm('nuc') of a vector": lambda torch: torch.linalg.matrix_norm(torch.ones(2),
                                                                            "nuc"),
    "matrix_norm(3) of a vector": lambda torch: torch.linalg.matrix_norm(torch.ones(2), 3),
    "matrix_norm('foo')": lambda torch: torch.linalg.matrix_norm(torch.ones(2, 2), "foo"),
    "matrix_norm(2) of half precision": lambda torch: torch.linalg.matrix_norm(
        torch.ones(2, 2, dtype=torch.float16), 2),
    "matrix_norm(1) of half precision": lambda torch: torch.linalg.matrix_norm(
        torch.ones(2, 2, dtype=torch.float16), 1),
    "the same dim twice": lambda torch: torch.linalg.matrix_norm(torch.ones(2, 2), 2,
                                                                 dim=(0, 0)),
    "the same dim, wrapped": lambda torch: torch.linalg.matrix_norm(torch.ones(2, 2), "nuc",
                                                                    dim=(1, -1)),
    "three dims": lambda torch: torch.linalg.matrix_norm(torch.ones(2, 2), 2, dim=(0, 1, 1)),
    "one dim": lambda torch: torch.linalg.matrix_norm(torch.ones(2, 2), -2, dim=(0,)),
    "a dim out of range": lambda torch: torch.linalg.matrix_norm(torch.ones(2, 2), 2,
                                                                 dim=(0, 2)),
    "-2 of an empty matrix": lambda torch: torch.linalg.matrix_norm(torch.ones(0, 2), -2),
    "linalg.norm(2) of a 3-d tensor": lambda torch: torch.linalg.norm(torch.ones(2, 2, 2), 2),
    "Tensor.norm('nuc') of a 3-d tensor": lambda torch: torch.ones(2, 2, 2).norm("nuc"),
    "Tensor.norm() over three dims": lambda torch: torch.ones(2, 2, 2).norm(dim=(0, 1, 2)),
    "Tensor.norm('fro') over the same dim twice": lambda torch: torch.ones(2, 2).norm(
        "fro", dim=(1, -1)),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_errors(call):
    assert_same_outcome(lambda torch: caught(lambda: call(torch)))


def test_linalg_error_is_a_runtime_error():
    def scenario(torch):
        try:
            torch.linalg.svdvals(torch.tensor([[NAN]]))
        except RuntimeError as error:
            return type(error).__name__, isinstance(error, torch.linalg.LinAlgError)
        return None

    assert_same_outcome(scenario)
