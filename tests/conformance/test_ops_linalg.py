"""Matrix products in every rank combination, then copies and dtype conversions, against
real PyTorch: values, the nodes PyTorch records (``DotBackward0``, ``MvBackward0``,
``MmBackward0``, the batch folds ...) and gradients, then the errors."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, upstream, values

MATMUL_SHAPES = [
    ((3,), (3,)),      # 1D . 1D: dot
    ((2, 3), (3,)),    # 2D . 1D: matrix-vector
    ((3,), (3, 4)),    # 1D . 2D
    ((2, 3), (3, 4)),  # 2D . 2D: mm
    ((5, 2, 3), (3, 4)),  # 3D . 2D: batch folded into one mm
    ((5, 2, 3), (3,)),    # 3D . 1D
    ((5, 2, 3), (5, 3, 4)),  # 3D . 3D: bmm
    ((2, 3), (5, 3, 4)),     # 2D . 3D: broadcast batch
    ((3,), (5, 3, 4)),       # 1D . 3D
    ((1, 2, 3), (5, 3, 4)),  # broadcast batch of size 1
    ((2, 1, 2, 3), (5, 3, 4)),  # 4D . 3D
    ((5, 2, 3), (1, 3, 4)),     # a batch of one is squeezed
    ((2, 1, 2, 3), (3, 4)),     # 4D . 2D
    ((2, 3, 2, 3), (2, 3, 3, 4)),  # 4D . 4D
]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, a, b: a @ b, id="@"),
    pytest.param(lambda torch, a, b: torch.matmul(a, b), id="torch.matmul"),
])
def test_matmul(op, shapes):
    a, b = values(shapes[0], seed=1), values(shapes[1], seed=2)
    assert_same_outcome(lambda torch: run(torch, op, a, b), rtol=1e-4)


@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)),
                                    ((5, 2, 3), (3, 4)), ((5, 2, 3), (5, 3, 4))], ids=str)
def test_matmul_with_one_side_not_requiring_grad(shapes):
    def scenario(torch):
        a = leaf(torch, values(shapes[0], seed=3))
        b = leaf(torch, values(shapes[1], seed=4), requires_grad=False)
        out = a @ b
        out.sum().backward()
        return out, graph(out.grad_fn), a.grad

    assert_same_outcome(scenario, rtol=1e-4)


@pytest.mark.parametrize("b_requires_grad", [True, False])
@pytest.mark.parametrize("shapes", [((5, 2, 3), (3, 4)), ((5, 2, 3), (3,)), ((2, 3), (3, 5, 4))],
                         ids=str)
def test_matmul_of_a_non_contiguous_batch(shapes, b_requires_grad):
    def scenario(torch):
        a = leaf(torch, values(shapes[0][::-1], seed=5))
        b = leaf(torch, values(shapes[1], seed=6), requires_grad=b_requires_grad)
        operand = a.permute(*range(a.dim() - 1, -1, -1))
        out = operand @ (b.transpose(0, 1) if b.dim() == 3 else b)
        (out * upstream(torch, out)).sum().backward()
        return out, graph(out.grad_fn), a.grad, b.grad

    assert len(assert_same_outcome(scenario, rtol=1e-4)) == 4


def test_mm_and_addmm():
    def scenario(torch):
        return (run(torch, lambda torch, a, b: a.mm(b), values((2, 3)), values((3, 4))),
                run(torch, lambda torch, a, b: torch.mm(a, b), values((2, 3)), values((3, 4))),
                run(torch, lambda torch, c, a, b: torch.addmm(c, a, b), values((4,)),
                    values((2, 3)), values((3, 4))))

    assert_same_outcome(scenario, rtol=1e-4)


@pytest.mark.parametrize("transpose_a", [False, True], ids=["a", "a.t()"])
@pytest.mark.parametrize("transpose_b", [False, True], ids=["b", "b.t()"])
def test_matrix_product_gradients_are_laid_out_like_their_matrices(transpose_a, transpose_b):
    """PyTorch computes the gradient of a transposed matrix (``weight.t()``) transposed, so
    the leaf's ``.grad`` is contiguous like the leaf itself."""
    def scenario(torch):
        a = leaf(torch, values((3, 2) if transpose_a else (2, 3), seed=7))
        b = leaf(torch, values((4, 3) if transpose_b else (3, 4), seed=8))
        c = leaf(torch, values((4,), seed=9))
        mat1, mat2 = a.t() if transpose_a else a, b.t() if transpose_b else b
        (mat1.mm(mat2) + torch.addmm(c, mat1, mat2)).sum().backward()
        return a.grad, b.grad, a.grad.is_contiguous(), b.grad.is_contiguous()

    assert_same_outcome(scenario, rtol=1e-4)


def test_linear_weight_grad_is_contiguous_like_the_weight():
    def scenario(torch):
        layer = torch.nn.Linear(3, 2)
        layer(torch.ones(4, 3)).sum().backward()
        return layer.weight.grad.is_contiguous()

    assert_same_outcome(scenario)


def test_matmul_of_float64_tensors():
    assert_same_outcome(lambda torch: run(torch, lambda torch, a, b: a @ b,
                                          values((2, 3), dtype="float64"),
                                          values((3, 2), dtype="float64")))


def test_matmul_of_int_tensors():
    assert_same_outcome(lambda torch: torch.arange(6).reshape(2, 3) @ torch.arange(3))


@pytest.mark.parametrize("shapes", [
    ((3,), (4,)), ((2, 3), (4,)), ((3,), (4, 2)), ((2, 3), (4, 2)), ((5, 2, 3), (4, 2)),
    ((5, 2, 3), (5, 4, 2)), ((5, 2, 3), (4, 3, 2)), ((2, 3), (3, 4, 2)), ((3,), (5, 4, 2)),
    ((5, 2, 3), (4,)), ((4,), (5, 2, 3)), ((5, 2, 3), (2, 3)), ((), (3,)), ((3,), ()),
], ids=str)
def test_matmul_shape_mismatch_is_an_error(shapes):
    assert_same_outcome(lambda torch: torch.ones(shapes[0]) @ torch.ones(shapes[1]))


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.ones(2, 3).mm(torch.ones(2, 3)), id="mm sizes"),
    pytest.param(lambda torch: torch.ones(2, 3).mm(torch.ones(3)), id="mm of a vector"),
    pytest.param(lambda torch: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64),
                 id="@ of two dtypes"),
    pytest.param(lambda torch: torch.ones(2) @ torch.ones(2, dtype=torch.float64),
                 id="dot of two dtypes"),
    pytest.param(lambda torch: torch.ones(2, 2) @ [1.0, 2.0], id="@ a list"),
    pytest.param(lambda torch: [1.0, 2.0] @ torch.ones(2, 2), id="a list @"),
    pytest.param(lambda torch: torch.matmul(torch.ones(2, 2), [1.0, 2.0]), id="matmul(list)"),
    pytest.param(lambda torch: torch.ones(2, 2).mm(3.0), id="mm(float)"),
    pytest.param(lambda torch: torch.ones(2, 3, dtype=torch.int64) @ torch.ones(3, 2),
                 id="long @ float"),
    pytest.param(lambda torch: torch.ones(2, 3) @ torch.ones(3, dtype=torch.float64),
                 id="mv of two dtypes"),
    pytest.param(lambda torch: torch.ones(5, 2, 3) @ torch.ones(5, 3, 2, dtype=torch.float64),
                 id="bmm of two dtypes"),
    pytest.param(lambda torch: torch.addmm(torch.ones(2), torch.ones(2, 3, dtype=torch.float64),
                                           torch.ones(3, 2)), id="addmm mat dtypes"),
    pytest.param(lambda torch: torch.addmm(torch.ones(2, dtype=torch.float64), torch.ones(2, 3),
                                           torch.ones(3, 2)), id="addmm self dtype"),
    pytest.param(lambda torch: torch.addmm(torch.ones(3), torch.ones(2, 3), torch.ones(3, 2)),
                 id="addmm bias too long"),
    pytest.param(lambda torch: torch.addmm(torch.ones(5, 1), torch.ones(2, 3),
                                           torch.ones(3, 2)), id="addmm bias of 5 rows"),
    pytest.param(lambda torch: torch.nn.functional.linear(
        torch.ones(2, 3), torch.ones(2, 3), torch.ones(3)), id="linear, bias of in_features"),
    pytest.param(lambda torch: torch.nn.functional.linear(
        torch.ones(3), torch.ones(2, 3), torch.ones(3)), id="linear of a vector, wrong bias"),
    pytest.param(lambda torch: torch.nn.functional.linear(
        torch.ones(4, 2, 3), torch.ones(2, 3), torch.ones(3)), id="linear of a batch, wrong bias"),
])
def test_matrix_product_errors(call):
    assert_same_outcome(call)


# -- copies and conversions ---------------------------------------------------------------------

CONVERSIONS = [
    pytest.param(lambda torch, x: x.clone(), id="clone"),
    pytest.param(lambda torch, x: torch.clone(x), id="torch.clone"),
    pytest.param(lambda torch, x: x.contiguous(), id="contiguous (already)"),
    pytest.param(lambda torch, x: x.t().contiguous(), id="contiguous of t()"),
    pytest.param(lambda torch, x: x.t().clone(), id="clone of t()"),
    pytest.param(lambda torch, x: x.to(torch.float64), id="to(float64)"),
    pytest.param(lambda torch, x: x.to(dtype=torch.float64), id="to(dtype=float64)"),
    pytest.param(lambda torch, x: x.to(torch.float32), id="to(float32) (same)"),
    pytest.param(lambda torch, x: x.to("cpu"), id="to('cpu')"),
    pytest.param(lambda torch, x: x.to(torch.ones(1, dtype=torch.float64)), id="to(tensor)"),
    pytest.param(lambda torch, x: x.float(), id="float (same)"),
    pytest.param(lambda torch, x: x.double(), id="double"),
    pytest.param(lambda torch, x: x.double().float(), id="double().float()"),
    pytest.param(lambda torch, x: x.half().float(), id="half().float()"),
    pytest.param(lambda torch, x: x.long(), id="long"),
    pytest.param(lambda torch, x: x.int(), id="int"),
    pytest.param(lambda torch, x: x.bool(), id="bool"),
    pytest.param(lambda torch, x: x.to(torch.int64), id="to(int64)"),
    pytest.param(lambda torch, x: x.type_as(torch.ones(1, dtype=torch.float64)), id="type_as"),
]


@pytest.mark.parametrize("op", CONVERSIONS)
def test_copies_and_conversions(op):
    def scenario(torch):
        result = run(torch, op, values((2, 3), seed=5))
        out = op(torch, leaf(torch, values((2, 3), seed=5)))
        return result, out.is_contiguous()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", CONVERSIONS)
def test_a_conversion_to_the_same_dtype_is_the_tensor_itself(op):
    def scenario(torch):
        x = torch.ones(2, 3)
        out = op(torch, x)
        return out is x

    assert_same_outcome(scenario)


@pytest.mark.parametrize("target", ["float32", "float64", "int64", "int32", "bool", "uint8"])
@pytest.mark.parametrize("source", ["float32", "int64", "bool"])
def test_converting_values_between_dtypes(source, target):
    def scenario(torch):
        x = torch.tensor([-2.7, -0.5, 0.0, 0.5, 3.9]).to(getattr(torch, source))
        return x.to(getattr(torch, target))

    assert_same_outcome(scenario)


def test_clone_is_a_copy_and_to_is_a_copy():
    def scenario(torch):
        x = torch.ones(3)
        cloned, converted = x.clone(), x.double()
        x.add_(1)
        return cloned, converted, cloned._version, x._version

    assert_same_outcome(scenario)
