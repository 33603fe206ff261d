"""Reductions (``sum``, ``mean``, ``max``/``min``, ``norm``) and ``softmax``/``log_softmax``
against real PyTorch: values, dtypes, graphs and gradients, then their errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome
from ops_support import graph, leaf, run, upstream, values

import minitorch_hooks

DIMS = [
    pytest.param({}, id="all"),
    pytest.param({"dim": 0}, id="dim=0"),
    pytest.param({"dim": -1}, id="dim=-1"),
    pytest.param({"dim": (0, 2)}, id="dim=(0, 2)"),
    pytest.param({"dim": (-1, 1)}, id="dim=(-1, 1)"),
    pytest.param({"dim": [1]}, id="dim=[1]"),
    pytest.param({"dim": 1, "keepdim": True}, id="dim=1 keepdim"),
    pytest.param({"dim": (0, 1), "keepdim": True}, id="dim=(0, 1) keepdim"),
]


@pytest.mark.parametrize("kwargs", DIMS)
@pytest.mark.parametrize("name", ["sum", "mean"])
def test_sum_and_mean(name, kwargs):
    def scenario(torch):
        return (run(torch, lambda torch, x: getattr(x, name)(**kwargs), values((2, 3, 4))),
                run(torch, lambda torch, x: getattr(torch, name)(x, **kwargs), values((2, 3, 4))))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["sum", "mean"])
def test_sum_and_mean_of_a_0d_tensor(name):
    def scenario(torch):
        return (run(torch, lambda torch, x: getattr(x, name)(), np.float32(1.5)),
                run(torch, lambda torch, x: getattr(x, name)(0), np.float32(1.5)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "float64"])
def test_sum_dtype(dtype):
    assert_same_outcome(lambda torch: (
        torch.ones(2, 3, dtype=getattr(torch, dtype)).sum(),
        torch.ones(2, 3, dtype=getattr(torch, dtype)).sum(1),
        torch.ones(2, 3, dtype=getattr(torch, dtype)).sum(dtype=torch.float64)))


def test_mean_of_an_int_tensor_is_an_error():
    assert_same_outcome(lambda torch: torch.arange(4).mean())


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_and_min_of_all_elements(name):
    assert_same_outcome(lambda torch: run(torch, lambda torch, x: getattr(x, name)(),
                                          values((3, 4), seed=1)))


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_and_min_of_all_elements_share_the_gradient_among_ties(name):
    data = np.array([[1.0, 3.0, -2.0], [3.0, -2.0, 0.5]], dtype=np.float32)
    assert_same_outcome(lambda torch: run(torch, lambda torch, x: getattr(torch, name)(x), data))


@pytest.mark.parametrize("kwargs", [
    pytest.param({"dim": 0}, id="dim=0"),
    pytest.param({"dim": 1}, id="dim=1"),
    pytest.param({"dim": -1, "keepdim": True}, id="dim=-1 keepdim"),
])
@pytest.mark.parametrize("name", ["max", "min"])
def test_max_and_min_along_a_dim_return_values_and_indices(name, kwargs):
    def scenario(torch):
        x = leaf(torch, values((3, 4, 2), seed=2))
        result = getattr(x, name)(**kwargs)
        values_, indices = result
        (values_ * upstream(torch, values_)).sum().backward()
        return (type(result).__name__, result.values, result.indices, indices,
                graph(values_.grad_fn), indices.requires_grad, x.grad)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_and_min_of_an_empty_tensor_need_a_dim(name):
    assert_same_outcome(lambda torch: getattr(torch.ones(0), name)())


def test_argmax():
    data = values((3, 4), seed=3)
    assert_same_outcome(lambda torch: (torch.tensor(data).argmax(), torch.tensor(data).argmax(1),
                                       torch.argmax(torch.tensor(data), dim=0, keepdim=True)))


@pytest.mark.parametrize("kwargs", [
    pytest.param({}, id="all"),
    pytest.param({"dim": 1}, id="dim=1"),
    pytest.param({"dim": (0, 1)}, id="dim=(0, 1)"),
    pytest.param({"dim": 0, "keepdim": True}, id="dim=0 keepdim"),
    pytest.param({"p": 2, "dim": -1}, id="p=2 dim=-1"),
])
def test_norm(kwargs):
    def scenario(torch):
        return (run(torch, lambda torch, x: x.norm(**kwargs), values((3, 4), seed=4)),
                run(torch, lambda torch, x: torch.norm(x, **kwargs), values((3, 4), seed=4)))

    assert_same_outcome(scenario)


def test_norm_of_zeros_has_a_zero_gradient():
    assert_same_outcome(lambda torch: run(torch, lambda torch, x: x.norm(), np.zeros(3, "f4")))


def test_norm_of_an_int_tensor_is_an_error():
    assert_same_outcome(lambda torch: torch.arange(3).norm())


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_and_log_softmax(name, dim):
    def scenario(torch):
        return (run(torch, lambda torch, x: getattr(x, name)(dim), values((3, 4), seed=5)),
                run(torch, lambda torch, x: getattr(torch, name)(x, dim=dim),
                    values((2, 3, 4), seed=6)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_is_stable_for_large_values(name):
    data = np.array([[1000.0, 1001.0, 999.0], [-1000.0, 0.0, 1000.0]], dtype=np.float32)
    assert_same_outcome(lambda torch: run(torch, lambda torch, x: getattr(x, name)(1), data))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_of_a_transposed_tensor_is_contiguous(name):
    def scenario(torch):
        out = run(torch, lambda torch, x: getattr(x.t(), name)(1), values((3, 4), seed=8))
        return out, getattr(torch.ones(3, 4).t(), name)(0).is_contiguous()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_with_a_dtype(name):
    assert_same_outcome(lambda torch: run(
        torch, lambda torch, x: getattr(x, name)(0, dtype=torch.float64), values((4,), seed=7)))


# -- errors ---------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    pytest.param(lambda torch, x: x.sum(5), id="sum(5)"),
    pytest.param(lambda torch, x: x.sum(-3), id="sum(-3)"),
    pytest.param(lambda torch, x: x.sum((0, 2)), id="sum((0, 2))"),
    pytest.param(lambda torch, x: x.mean(2), id="mean(2)"),
    pytest.param(lambda torch, x: x.max(2), id="max(2)"),
    pytest.param(lambda torch, x: x.min(-3), id="min(-3)"),
    pytest.param(lambda torch, x: x.softmax(2), id="softmax(2)"),
    pytest.param(lambda torch, x: x.log_softmax(-3), id="log_softmax(-3)"),
    pytest.param(lambda torch, x: x.norm(dim=4), id="norm(dim=4)"),
    pytest.param(lambda torch, x: x.argmax(2), id="argmax(2)"),
])
def test_a_dimension_out_of_range_is_an_index_error(call):
    assert_same_outcome(lambda torch: call(torch, torch.ones(2, 3)))


# -- any / all --------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    pytest.param({}, id="all"),
    pytest.param({"dim": 0}, id="dim=0"),
    pytest.param({"dim": -1, "keepdim": True}, id="dim=-1 keepdim"),
    pytest.param({"dim": (0, 1)}, id="dim=(0, 1)"),
    pytest.param({"dim": 3}, id="dim out of range"),
])
@pytest.mark.parametrize("dtype", ["bool", "float32", "int64", "uint8"])
@pytest.mark.parametrize("name", ["any", "all"])
def test_any_and_all(name, dtype, kwargs):
    data = np.array([[0, 1, 2], [0, 0, 3]])

    def scenario(torch):
        x = torch.tensor(data).to(getattr(torch, dtype))
        return getattr(x, name)(**kwargs), getattr(torch, name)(x, **kwargs)

    assert_same_outcome(scenario)


def test_any_and_all_of_empty_and_0d_tensors():
    assert_same_outcome(lambda torch: (torch.ones(0).any(), torch.ones(0).all(),
                                       torch.tensor(2.0).any(0), torch.zeros(2, 0).all(1)))


# -- std / var --------------------------------------------------------------------------------

STD_VAR_ARGS = [
    pytest.param((), {}, id="all"),
    pytest.param((0,), {}, id="dim=0"),
    pytest.param((-1,), {"keepdim": True}, id="dim=-1 keepdim"),
    pytest.param(((0, 2),), {}, id="dim=(0, 2)"),
    pytest.param((False,), {}, id="unbiased=False positionally"),
    pytest.param((1, False), {}, id="dim=1, unbiased=False"),
    pytest.param((1, True, True), {}, id="dim=1, unbiased, keepdim"),
    pytest.param((), {"unbiased": False}, id="unbiased=False"),
    pytest.param((), {"dim": 1, "correction": 0}, id="correction=0"),
    pytest.param((), {"dim": [0, 1], "correction": 2, "keepdim": True}, id="correction=2"),
]


@pytest.mark.parametrize(("args", "kwargs"), STD_VAR_ARGS)
@pytest.mark.parametrize("name", ["std", "var"])
def test_std_and_var(name, args, kwargs):
    def scenario(torch):
        return (run(torch, lambda torch, x: getattr(x, name)(*args, **kwargs),
                    values((3, 4, 2), seed=5)),
                run(torch, lambda torch, x: getattr(torch, name)(x, *args, **kwargs),
                    values((3, 4, 2), seed=5)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["std", "var"])
def test_std_and_var_in_float64_and_of_a_0d_tensor(name):
    def scenario(torch):
        x = torch.tensor(values((5,), seed=6, dtype=np.float64), requires_grad=True)
        getattr(x, name)().backward()
        return x.grad, getattr(torch.tensor(2.5), name)(0, unbiased=False)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make", [
    pytest.param(lambda torch, x: x[:1], id="one element"),
    pytest.param(lambda torch, x: x[:2], id="two elements, correction=2"),
])
@pytest.mark.parametrize("name", ["std", "var"])
def test_std_and_var_with_no_degrees_of_freedom_warn(name, make):
    """N - correction <= 0: PyTorch warns, returns inf or nan, and its backward sends inf or
    nan too."""
    def scenario(torch):
        x = torch.tensor([1.0, 3.0, 4.0], requires_grad=True)
        part = make(torch, x)
        correction = 2 if part.shape[0] == 2 else 1
        out = getattr(part, name)(correction=correction)
        along = getattr(part, name)(0, correction=correction)
        (out + along).backward()
        return out, along, x.grad

    assert_same_outcome(scenario)


def test_std_of_constant_values_has_a_zero_gradient():
    def scenario(torch):
        x = torch.ones(2, 3, requires_grad=True)
        (x.std() + x.std(1).sum()).backward()
        return x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["std", "var"])
def test_std_and_var_of_an_int_tensor_are_errors(name):
    assert_same_outcome(lambda torch: getattr(torch.arange(4), name)())


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("call", [
    pytest.param(lambda f: f(unbiased=True, correction=1), id="keywords"),
    pytest.param(lambda f: f(0, True, correction=0), id="positional unbiased"),
])
def test_unbiased_and_correction_together_is_a_type_error(name, call):
    """Both are refused with a TypeError. PyTorch's message is its argument parser's list
    of overloads; ours says what is wrong, so only the type is compared."""
    def scenario(torch):
        return call(getattr(torch.ones(3, 2), name))

    theirs, _ = pytorch_outcome(scenario)
    ours, _ = outcome(scenario, minitorch_hooks)
    assert (ours.type, theirs.type) == ("TypeError", "TypeError"), (ours, theirs)
    assert ours.message.startswith(f"{name}() received an invalid combination of arguments")
    assert theirs.message.startswith(f"{name}() received an invalid combination of arguments")


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2), (0, 0), (1, 1)])
def test_trace_is_the_sum_of_the_diagonal(shape):
    """``torch.trace`` is the matrix trace (our hook recorder is ``hook_trace``): its value,
    ``TraceBackward0`` with the input's sizes, and a gradient only on the diagonal."""
    def scenario(torch):
        out = run(torch, lambda torch, x: torch.trace(x), values(shape))
        method = run(torch, lambda torch, x: x.trace(), values(shape))
        x = torch.ones(*shape, requires_grad=True)
        return out, method, torch.trace(x).grad_fn._saved_self_sym_sizes

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "int64", "float64", "bool"])
def test_trace_dtype(dtype):
    assert_same_outcome(lambda torch: torch.trace(torch.ones(3, 3, dtype=getattr(torch, dtype))))


@pytest.mark.parametrize("shape", [(), (3,), (2, 2, 2)])
def test_trace_of_a_tensor_that_is_not_a_matrix_is_an_error(shape):
    assert_same_outcome(lambda torch: torch.trace(torch.ones(shape)))
