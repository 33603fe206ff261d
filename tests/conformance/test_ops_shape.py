"""Views, indexing, ``cat`` and ``stack`` against real PyTorch: values, graphs and gradients,
whether the result shares memory and version counter with its input, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_close, assert_same_outcome, normalise, outcome, pytorch_outcome
from ops_support import graph, leaf, run, upstream, values

import minitorch_hooks

SHAPE_OPS = [
    pytest.param(lambda torch, x: x.reshape(4, 6), id="reshape(4, 6)"),
    pytest.param(lambda torch, x: x.reshape((6, 4)), id="reshape((6, 4))"),
    pytest.param(lambda torch, x: x.reshape(-1), id="reshape(-1)"),
    pytest.param(lambda torch, x: x.reshape(2, -1, 3), id="reshape(2, -1, 3)"),
    pytest.param(lambda torch, x: torch.reshape(x, (3, 8)), id="torch.reshape"),
    pytest.param(lambda torch, x: x.view(24), id="view(24)"),
    pytest.param(lambda torch, x: x.view(-1, 4), id="view(-1, 4)"),
    pytest.param(lambda torch, x: x.view((2, 12)), id="view((2, 12))"),
    pytest.param(lambda torch, x: x.view(2, 3, 4), id="view(same shape)"),
    pytest.param(lambda torch, x: x.view_as(torch.ones(6, 4)), id="view_as"),
    pytest.param(lambda torch, x: x.flatten(), id="flatten()"),
    pytest.param(lambda torch, x: x.flatten(1), id="flatten(1)"),
    pytest.param(lambda torch, x: x.flatten(0, 1), id="flatten(0, 1)"),
    pytest.param(lambda torch, x: x.flatten(1, 1), id="flatten(1, 1)"),
    pytest.param(lambda torch, x: torch.flatten(x, start_dim=-2), id="torch.flatten(-2)"),
    pytest.param(lambda torch, x: x.transpose(0, 2), id="transpose(0, 2)"),
    pytest.param(lambda torch, x: x.transpose(-1, 1), id="transpose(-1, 1)"),
    pytest.param(lambda torch, x: torch.transpose(x, 0, 1), id="torch.transpose"),
    pytest.param(lambda torch, x: x.permute(2, 0, 1), id="permute(2, 0, 1)"),
    pytest.param(lambda torch, x: x.permute((1, 2, 0)), id="permute((1, 2, 0))"),
    pytest.param(lambda torch, x: torch.permute(x, (0, -1, 1)), id="torch.permute"),
    pytest.param(lambda torch, x: x.mT, id="mT"),
    pytest.param(lambda torch, x: x.unsqueeze(0), id="unsqueeze(0)"),
    pytest.param(lambda torch, x: x.unsqueeze(-1), id="unsqueeze(-1)"),
    pytest.param(lambda torch, x: torch.unsqueeze(x, 2), id="torch.unsqueeze(2)"),
    pytest.param(lambda torch, x: x.transpose(0, 1).reshape(-1), id="reshape of a transpose"),
    pytest.param(lambda torch, x: x.transpose(0, 1).flatten(), id="flatten of a transpose"),
    pytest.param(lambda torch, x: x.transpose(0, 1).contiguous().view(-1),
                 id="view of a contiguous transpose"),
]


@pytest.mark.parametrize("op", SHAPE_OPS)
def test_shape_op(op):
    assert_same_outcome(lambda torch: run(torch, op, values((2, 3, 4))))


MATRIX_OPS = [
    pytest.param(lambda torch, x: x.t(), id="t()"),
    pytest.param(lambda torch, x: torch.t(x), id="torch.t"),
    pytest.param(lambda torch, x: x.T, id="T"),
    pytest.param(lambda torch, x: x.t().t(), id="t().t()"),
    pytest.param(lambda torch, x: x.t().reshape(6), id="reshape of t()"),
]


@pytest.mark.parametrize("op", MATRIX_OPS)
def test_matrix_transpose(op):
    assert_same_outcome(lambda torch: run(torch, op, values((2, 3))))


@pytest.mark.parametrize("shape", [(), (4,)], ids=str)
@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, x: x.t(), id="t()"),
    pytest.param(lambda torch, x: x.T, id="T"),
    pytest.param(lambda torch, x: x.flatten(), id="flatten()"),
    pytest.param(lambda torch, x: x.reshape(-1), id="reshape(-1)"),
    pytest.param(lambda torch, x: x.unsqueeze(0), id="unsqueeze(0)"),
])
@pytest.mark.usefixtures("warnings_every_time")  # x.T of a 0-d or 1-d tensor warns once
def test_shape_op_on_low_dimensional_tensors(op, shape):
    assert_same_outcome(lambda torch: run(torch, op, values(shape)))


@pytest.mark.usefixtures("warnings_every_time")
def test_T_of_a_3d_tensor_warns_and_reverses_the_dimensions():
    assert_same_outcome(lambda torch: run(torch, lambda torch, x: x.T, values((2, 3, 4))))


SQUEEZES = [
    pytest.param(lambda torch, x: x.squeeze(), id="squeeze()"),
    pytest.param(lambda torch, x: x.squeeze(0), id="squeeze(0)"),
    pytest.param(lambda torch, x: x.squeeze(-1), id="squeeze(-1)"),
    pytest.param(lambda torch, x: x.squeeze(1), id="squeeze(1) of a size-3 dim"),
    pytest.param(lambda torch, x: torch.squeeze(x, 2), id="torch.squeeze(2)"),
    pytest.param(lambda torch, x: torch.squeeze(x), id="torch.squeeze()"),
]


@pytest.mark.parametrize("op", SQUEEZES)
def test_squeeze(op):
    assert_same_outcome(lambda torch: run(torch, op, values((1, 3, 1, 1))))


def test_squeeze_of_a_0d_tensor():
    assert_same_outcome(lambda torch: (run(torch, lambda torch, x: x.squeeze(), values(())),
                                       run(torch, lambda torch, x: x.squeeze(0), values(()))))


EXPANDS = [
    pytest.param((3, 1), lambda torch, x: x.expand(3, 4), id="(3, 1) -> (3, 4)"),
    pytest.param((3, 1), lambda torch, x: x.expand(2, 3, 4), id="(3, 1) -> (2, 3, 4)"),
    pytest.param((3, 1), lambda torch, x: x.expand(-1, 5), id="(3, 1) -> (-1, 5)"),
    pytest.param((3, 1), lambda torch, x: x.expand((2, -1, 2)), id="(3, 1) -> ((2, -1, 2))"),
    pytest.param((), lambda torch, x: x.expand(2, 2), id="() -> (2, 2)"),
    pytest.param((1, 3), lambda torch, x: x.expand(1, 3), id="(1, 3) -> (1, 3)"),
]


@pytest.mark.parametrize(("shape", "op"), EXPANDS)
def test_expand(shape, op):
    assert_same_outcome(lambda torch: run(torch, op, values(shape)))


@pytest.mark.parametrize(("shape", "sizes"), [
    ((3, 2), (3, 4)), ((2, 3), (4, 3)), ((3,), (2,)), ((2, 3), (3,)), ((2, 3), (-1, -1, 3)),
    ((2, 3), (5, 2, 3)), ((2, 3), (2, -1, 3)),
], ids=str)
def test_expand_errors_and_edge_cases(shape, sizes):
    assert_same_outcome(lambda torch: torch.ones(shape).expand(*sizes))


@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, x: x.view(2, 3, 4), id="view"),
    pytest.param(lambda torch, x: x.view_as(x), id="view_as"),
    pytest.param(lambda torch, x: x.reshape(4, 6), id="reshape"),
    pytest.param(lambda torch, x: x.transpose(0, 1), id="transpose"),
    pytest.param(lambda torch, x: x.permute(2, 1, 0), id="permute"),
    pytest.param(lambda torch, x: x.unsqueeze(1), id="unsqueeze"),
    pytest.param(lambda torch, x: x[0], id="select"),
    pytest.param(lambda torch, x: x[:, 1:], id="slice"),
    pytest.param(lambda torch, x: x[..., None], id="None"),
    pytest.param(lambda torch, x: x.flatten(), id="flatten"),
    pytest.param(lambda torch, x: x.transpose(0, 1).reshape(-1), id="copying reshape"),
    pytest.param(lambda torch, x: x[[0, 1]], id="integer-array index"),
    pytest.param(lambda torch, x: x.clone(), id="clone"),
    pytest.param(lambda torch, x: x[:0], id="empty slice"),
    pytest.param(lambda torch, x: x[:, 2:2].transpose(0, 1), id="empty slice, transposed"),
])
def test_a_view_shares_memory_and_version_counter_with_its_base(op):
    def scenario(torch):
        base = torch.zeros(2, 3, 4)
        out = op(torch, base)
        out_version = out._version
        base.add_(1)
        return out, out_version, out._version, base._version, out._is_view()

    assert_same_outcome(scenario)


# -- indexing -------------------------------------------------------------------------------

BASIC_INDICES = [
    pytest.param(lambda x: x[1], id="[1]"),
    pytest.param(lambda x: x[-1], id="[-1]"),
    pytest.param(lambda x: x[1:3], id="[1:3]"),
    pytest.param(lambda x: x[:], id="[:]"),
    pytest.param(lambda x: x[::2], id="[::2]"),
    pytest.param(lambda x: x[1::2, ::3], id="[1::2, ::3]"),
    pytest.param(lambda x: x[-3:-1], id="[-3:-1]"),
    pytest.param(lambda x: x[2:100], id="[2:100]"),
    pytest.param(lambda x: x[3:1], id="[3:1] (empty)"),
    pytest.param(lambda x: x[None], id="[None]"),
    pytest.param(lambda x: x[:, None], id="[:, None]"),
    pytest.param(lambda x: x[...], id="[...]"),
    pytest.param(lambda x: x[..., 1], id="[..., 1]"),
    pytest.param(lambda x: x[1, ...], id="[1, ...]"),
    pytest.param(lambda x: x[1, 2], id="[1, 2]"),
    pytest.param(lambda x: x[1, 2, 3], id="[1, 2, 3]"),
    pytest.param(lambda x: x[:, 1], id="[:, 1]"),
    pytest.param(lambda x: x[1:, -1], id="[1:, -1]"),
    pytest.param(lambda x: x[..., None, :2], id="[..., None, :2]"),
    pytest.param(lambda x: x[1][2], id="[1][2]"),
    pytest.param(lambda x: x[1, :, ::2][0], id="[1, :, ::2][0]"),
    pytest.param(lambda x: x[np.int64(1)], id="[np.int64(1)]"),
]

ADVANCED_INDICES = [
    pytest.param(lambda x: x[[0, 2]], id="[[0, 2]]"),
    pytest.param(lambda x: x[[2, 0, 2]], id="[[2, 0, 2]] (repeated)"),
    pytest.param(lambda x: x[[0, 1], [1, 2]], id="[[0, 1], [1, 2]]"),
    pytest.param(lambda x: x[:, [0, 3]], id="[:, [0, 3]]"),
    pytest.param(lambda x: x[[[0], [2]], [1, 3]], id="[[[0], [2]], [1, 3]] (broadcast)"),
    pytest.param(lambda x: x[x > 0], id="[x > 0]"),
    pytest.param(lambda x: x[x[:, 0, 0] > 0], id="[mask on dim 0]"),
    pytest.param(lambda x: x[..., [1, 0]], id="[..., [1, 0]]"),
    pytest.param(lambda x: x[1:, [0, 2]], id="[1:, [0, 2]]"),
    pytest.param(lambda x: x[[0, 1], 2], id="[[0, 1], 2]"),
    pytest.param(lambda x: x[[-1, 0]], id="[[-1, 0]]"),
]


@pytest.mark.parametrize("index", BASIC_INDICES + ADVANCED_INDICES)
def test_indexing(index):
    assert_same_outcome(lambda torch: run(torch, lambda torch, x: index(x), values((3, 4, 5))))


def test_none_after_a_select_has_numpys_stride_deviation():
    """DEVIATION: ``x[None, 1, ..., None, 1:3]`` has PyTorch's values, graph and gradient,
    but the first of its size-1 dimensions steps 20 elements where PyTorch's steps 60.
    PyTorch gives a new dimension the stride ``size * stride`` of the one it goes before;
    NumPy's ``expand_dims`` gives a size-1 dimension whatever stride it likes, and NumPy
    lets no view choose its strides without cutting it off from the memory it shares. A
    dimension of size 1 is never stepped along, so no result depends on its stride."""
    def scenario(torch):
        return run(torch, lambda torch, x: x[None, 1, ..., None, 1:3], values((3, 4, 5)))

    theirs, _ = pytorch_outcome(scenario)
    ours, _ = outcome(scenario, minitorch_hooks)
    assert theirs["layout"] == [[60, 5, 5, 1], False]
    assert ours["layout"] == ((20, 5, 5, 1), False)
    del theirs["layout"], ours["layout"]
    assert_close(normalise(ours), theirs, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("index_dtype", ["int64", "int32", "bool"])
def test_indexing_with_a_tensor(index_dtype):
    def scenario(torch):
        index = torch.tensor([1, 0, 1], dtype=getattr(torch, index_dtype))
        return run(torch, lambda torch, x: x[index], values((3, 2)))

    assert_same_outcome(scenario)


def test_indexing_with_a_0d_int_tensor_selects():
    assert_same_outcome(lambda torch: run(torch, lambda torch, x: x[torch.tensor(1)],
                                          values((3, 2))))


def test_indexing_a_vector_down_to_a_0d_tensor():
    assert_same_outcome(lambda torch: run(torch, lambda torch, x: x[2], values((4,))))


@pytest.mark.parametrize("index", [
    pytest.param(lambda x: x[3], id="[3]"),
    pytest.param(lambda x: x[-4], id="[-4]"),
    pytest.param(lambda x: x[:, 4], id="[:, 4]"),
    pytest.param(lambda x: x[0, 0, 0], id="too many indices"),
    pytest.param(lambda x: x[[0, 3]], id="[[0, 3]]"),
    pytest.param(lambda x: x[:, [5]], id="[:, [5]]"),
])
def test_an_index_out_of_range_is_an_index_error(index):
    assert_same_outcome(lambda torch: index(torch.ones(3, 4)))


def test_indexing_a_0d_tensor_is_an_index_error():
    assert_same_outcome(lambda torch: torch.tensor(1.0)[0])


# -- cat and stack ------------------------------------------------------------------------

@pytest.mark.parametrize(("shapes", "dim"), [
    (((2, 3), (4, 3)), 0),
    (((2, 3), (2, 1), (2, 2)), 1),
    (((2, 3), (2, 5)), -1),
    (((2,), (3,)), 0),
])
def test_cat(shapes, dim):
    arrays = [values(shape, seed=i) for i, shape in enumerate(shapes)]

    def scenario(torch):
        return (run(torch, lambda torch, *xs: torch.cat(xs, dim), *arrays),
                run(torch, lambda torch, *xs: torch.cat(list(xs), dim=dim), *arrays))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
def test_stack(dim):
    arrays = [values((2, 3), seed=i) for i in range(3)]
    assert_same_outcome(lambda torch: run(torch, lambda torch, *xs: torch.stack(xs, dim),
                                          *arrays))


@pytest.mark.parametrize("name", ["cat", "stack"])
def test_joining_a_tensor_that_needs_no_grad(name):
    def scenario(torch):
        return run(torch, lambda torch, x: getattr(torch, name)([x, torch.ones(2, 3), x]),
                   values((2, 3)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dtypes", [("float32", "int64"), ("int64", "int32"),
                                    ("float32", "float64"), ("bool", "int64")], ids=str)
@pytest.mark.parametrize("name", ["cat", "stack"])
def test_joining_promotes_dtypes(name, dtypes):
    def scenario(torch):
        parts = [torch.ones(2, dtype=getattr(torch, d)) for d in dtypes]
        return getattr(torch, name)(parts)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]), id="cat sizes"),
    pytest.param(lambda torch: torch.cat([torch.ones(2, 3), torch.ones(3, 3)], 1),
                 id="cat sizes along dim 1"),
    pytest.param(lambda torch: torch.cat([torch.ones(2, 3), torch.ones(2)]), id="cat ranks"),
    pytest.param(lambda torch: torch.cat([torch.ones(2, 3)], 2), id="cat dim out of range"),
    pytest.param(lambda torch: torch.cat([]), id="cat nothing"),
    pytest.param(lambda torch: torch.stack([torch.ones(2, 3), torch.ones(3, 2)]),
                 id="stack sizes"),
    pytest.param(lambda torch: torch.stack([torch.ones(2)], 2), id="stack dim out of range"),
    pytest.param(lambda torch: torch.stack([]), id="stack nothing"),
])
def test_joining_errors(call):
    assert_same_outcome(call)


# -- errors of views ------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    pytest.param(lambda x: x.view(5, 5), id="view(5, 5)"),
    pytest.param(lambda x: x.reshape(7, -1), id="reshape(7, -1)"),
    pytest.param(lambda x: x.view(-1, -1), id="view(-1, -1)"),
    pytest.param(lambda x: x.reshape(5), id="reshape(5)"),
    pytest.param(lambda x: x.view(2, -2, 3), id="view(2, -2, 3)"),
    pytest.param(lambda x: x.transpose(0, 1).view(-1), id="view of a transpose"),
    pytest.param(lambda x: x[:, ::2].view(6), id="view of a strided slice"),
    pytest.param(lambda x: x.permute(0, 1), id="permute with too few dims"),
    pytest.param(lambda x: x.permute(0, 0, 1), id="permute with a repeated dim"),
    pytest.param(lambda x: x.transpose(0, 3), id="transpose(0, 3)"),
    pytest.param(lambda x: x.unsqueeze(4), id="unsqueeze(4)"),
    pytest.param(lambda x: x.squeeze(3), id="squeeze(3)"),
    pytest.param(lambda x: x.flatten(2, 0), id="flatten(2, 0)"),
    pytest.param(lambda x: x.t(), id="t() of a 3d tensor"),
])
def test_view_errors(call):
    assert_same_outcome(lambda torch: call(torch.ones(2, 3, 4)))


def test_expanded_view_has_the_memory_of_its_input():
    def scenario(torch):
        x = torch.zeros(3, 1)
        y = x.expand(3, 4)
        x.add_(2)
        return y, y.is_contiguous(), x.is_contiguous(), x.t().is_contiguous()

    assert_same_outcome(scenario)


def test_indexing_results_are_leaves_without_grad():
    def scenario(torch):
        x = leaf(torch, values((3,)), requires_grad=False)
        return x[1], x[1].requires_grad, x[1].is_leaf, x[[0]].grad_fn

    assert_same_outcome(scenario)


# -- split, chunk, unbind: several views from one node ---------------------------------------

SPLITS = {
    "split(2)": lambda torch, x: x.split(2),
    "split(3), uneven": lambda torch, x: x.split(3),
    "split(5), one piece": lambda torch, x: x.split(5),
    "split(2, dim=1)": lambda torch, x: x.split(2, dim=1),
    "split([1, 3])": lambda torch, x: x.split([1, 3]),
    "split((1, 0, 1), -1)": lambda torch, x: x.split((1, 0, 1), -1),
    "torch.split(x, 1, 1)": lambda torch, x: torch.split(x, 1, 1),
    "torch.split(x, [3, 1])": lambda torch, x: torch.split(x, [3, 1]),
    "chunk(2)": lambda torch, x: x.chunk(2),
    "chunk(3), fewer pieces": lambda torch, x: x.chunk(3),
    "chunk(2, dim=-1)": lambda torch, x: x.chunk(2, dim=-1),
    "torch.chunk(x, 4)": lambda torch, x: torch.chunk(x, 4),
    "unbind()": lambda torch, x: x.unbind(),
    "unbind(1)": lambda torch, x: x.unbind(1),
    "torch.unbind(x, -1)": lambda torch, x: torch.unbind(x, -1),
}


@pytest.mark.parametrize("use", ["all", "some"])
@pytest.mark.parametrize("name", list(SPLITS))
def test_split_chunk_unbind(name, use):
    """Values, the one shared node and each piece's output number, views of the input, and
    the gradient (zeros for pieces that were not used)."""
    def scenario(torch):
        x = leaf(torch, values((4, 3, 2), seed=9))
        pieces = SPLITS[name](torch, x * 1)
        used = pieces if use == "all" else pieces[::2]
        sum(((p * upstream(torch, p)).sum() for p in used), torch.tensor(0.0)).backward()
        return (pieces, type(pieces).__name__, [graph(p.grad_fn) for p in pieces],
                [p.grad_fn is pieces[0].grad_fn for p in pieces], [p.output_nr for p in pieces],
                [p._base is not None for p in pieces], x.grad)

    assert_same_outcome(scenario)


def test_split_pieces_share_memory_and_version_with_the_input():
    def scenario(torch):
        x = torch.arange(6.0)
        a, b = x.split(3)
        c, *_ = x.unbind()
        b.mul_(10)
        return x, a._version, c._version, x.chunk(2)[1].storage_offset()

    assert_same_outcome(scenario)


def test_a_hook_on_one_piece():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        first, second = x.chunk(2)
        second.register_hook(lambda grad: grad * 100)
        (first * second).sum().backward()
        return x.grad

    assert_same_outcome(scenario)


def test_split_and_chunk_of_an_empty_dimension():
    def scenario(torch):
        x = torch.ones(0, 2, requires_grad=True)
        pieces = [x.split(0), x.split(2), x.chunk(3), x.unbind()]
        return [[(tuple(p.shape), p.grad_fn.name()) for p in group] for group in pieces]

    assert_same_outcome(scenario)


SPLIT_ERRORS = {
    "chunk(0)": lambda torch: torch.ones(4).chunk(0),
    "chunk(-1)": lambda torch: torch.ones(4).chunk(-1),
    "chunk of a 0-d tensor": lambda torch: torch.tensor(1.0).chunk(2),
    "split(0)": lambda torch: torch.ones(4).split(0),
    "split(-1)": lambda torch: torch.ones(4).split(-1),
    "split of a 0-d tensor": lambda torch: torch.tensor(1.0).split(1),
    "split sizes that do not sum": lambda torch: torch.ones(4, 3).split([1, 3], 1),
    "split sizes that do not sum, dim=-1": lambda torch: torch.ones(4, 3).split([1, 3], -1),
    "a negative split size": lambda torch: torch.ones(4).split([1, -1, 4]),
    "split along a missing dim": lambda torch: torch.ones(4).split(2, 1),
    "unbind of a 0-d tensor": lambda torch: torch.tensor(1.0).unbind(),
    "unbind along a missing dim": lambda torch: torch.ones(2, 3).unbind(2),
}


@pytest.mark.parametrize("name", list(SPLIT_ERRORS))
def test_split_errors(name):
    assert_same_outcome(SPLIT_ERRORS[name])
