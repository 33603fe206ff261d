"""``prod``, ``cumsum``, ``cumprod``, ``flip``, ``amax``/``amin``, ``argmin`` and ``histc``
against real PyTorch: values and dtypes (integers widen to int64), graphs and what each
node saves, gradients (zeros among the factors, ties among the extremes), inf and nan,
and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, run, saved, upstream, values

WITH_ZEROS = {
    "no zero": values((3, 4), seed=11),
    "one zero": np.array([[1.5, 0.0, -2.0, 0.5], [2.0, 3.0, 0.0, 0.0], [1.0, -1.0, 2.0, 3.0]],
                         dtype=np.float32),
    "zeros everywhere": np.zeros((3, 4), dtype=np.float32),
}

PROD = {
    "prod()": lambda torch, x: x.prod(),
    "prod(0)": lambda torch, x: x.prod(0),
    "prod(-1, keepdim=True)": lambda torch, x: torch.prod(x, -1, keepdim=True),
    "prod(1, dtype=float64)": lambda torch, x: x.prod(1, dtype=torch.float64),
    "cumsum(0)": lambda torch, x: x.cumsum(0),
    "cumsum(-1)": lambda torch, x: torch.cumsum(x, dim=-1),
    "cumsum(1, dtype=float64)": lambda torch, x: x.cumsum(1, dtype=torch.float64),
    "cumprod(1)": lambda torch, x: x.cumprod(1),
    "cumprod(-2)": lambda torch, x: torch.cumprod(x, -2),
}


@pytest.mark.parametrize("data", list(WITH_ZEROS))
@pytest.mark.parametrize("op", list(PROD))
def test_products_and_running_sums(op, data):
    def scenario(torch):
        result = run(torch, PROD[op], WITH_ZEROS[data])
        x = leaf(torch, WITH_ZEROS[data])
        out = PROD[op](torch, x)
        return result, saved(out.grad_fn), out.is_contiguous(), out.stride()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", ["prod()", "prod(0)", "cumsum(0)", "cumsum(-1)"])
def test_products_of_a_0d_and_a_one_element_tensor(op):
    def scenario(torch):
        return (run(torch, PROD[op], np.float32(2.5)),
                run(torch, PROD[op], np.array([-3.0], dtype=np.float32)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float16", "float64"])
def test_products_and_running_sums_of_each_dtype(dtype):
    def scenario(torch):
        x = torch.tensor([[1, 2, 0], [3, 1, 1]]).to(getattr(torch, dtype))
        return x.prod(), x.prod(1), x.cumsum(0), x.cumprod(1), x.cumsum(1, dtype=torch.float32)

    assert_same_outcome(scenario)


def test_products_with_inf_and_nan():
    def scenario(torch):
        x = leaf(torch, np.array([2.0, np.inf, -1.0, np.nan], dtype=np.float32))
        outs = [x.prod(), x.cumprod(0), x.cumsum(0)]
        grads = [torch.autograd.grad(out.sum(), x)[0] for out in outs]
        return outs, grads

    assert_same_outcome(scenario)


def test_product_errors():
    def scenario(torch):
        x = torch.ones(2, 3)
        results = []
        for call in (lambda: x.prod(2), lambda: x.cumsum(5), lambda: x.cumprod(-3)):
            try:
                call()
            except IndexError as error:
                results.append((type(error).__name__, str(error)))
        return results

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dims", [(0,), (1,), (0, 1), (-1, 0), ()])
def test_flip(dims):
    def scenario(torch):
        result = run(torch, lambda torch, x: x.flip(dims), values((2, 3), seed=12))
        out = torch.flip(leaf(torch, values((2, 3))), dims)
        return result, saved(out.grad_fn), out.is_contiguous(), out._is_view()

    assert_same_outcome(scenario)


def test_flip_errors():
    def scenario(torch):
        x = torch.ones(2, 3)
        results = []
        for call in (lambda: x.flip(0, 0), lambda: x.flip(2), lambda: x.flip(0, -2)):
            try:
                call()
            except (IndexError, RuntimeError) as error:
                results.append((type(error).__name__, str(error)))
        return results

    assert_same_outcome(scenario)


TIES = np.array([[1.0, 3.0, 3.0], [-2.0, -2.0, 0.5], [4.0, 4.0, 4.0]], dtype=np.float32)

EXTREMES = {
    "amax()": lambda torch, x: x.amax(),
    "amax(0)": lambda torch, x: x.amax(0),
    "amax(-1, keepdim=True)": lambda torch, x: torch.amax(x, -1, keepdim=True),
    "amax((0, 1))": lambda torch, x: x.amax((0, 1)),
    "amin(1)": lambda torch, x: x.amin(1),
    "amin([])": lambda torch, x: x.amin(dim=[]),
    "amin((1, 0), keepdim=True)": lambda torch, x: torch.amin(x, (1, 0), True),
}


@pytest.mark.parametrize("data", [pytest.param(TIES, id="ties"),
                                  pytest.param(values((3, 3), seed=13), id="distinct")])
@pytest.mark.parametrize("op", list(EXTREMES))
def test_amax_and_amin_share_the_gradient_among_ties(op, data):
    def scenario(torch):
        result = run(torch, EXTREMES[op], data)
        return result, saved(EXTREMES[op](torch, leaf(torch, data)).grad_fn)

    assert_same_outcome(scenario)


def test_amax_amin_argmin_of_integers_nan_and_empty():
    def scenario(torch):
        results = [torch.tensor([1, 5, 5]).amax(), torch.tensor([True, False]).amin(),
                   torch.tensor([1.0, float("nan"), 2.0]).amax(),
                   torch.tensor([1.0, float("nan"), -2.0]).amin(0),
                   torch.tensor([1.0, float("nan"), -2.0]).argmin(),
                   torch.tensor([3.0, 1.0, 1.0]).argmin(), torch.ones(0, 3).amax(1),
                   torch.argmin(torch.tensor([[3, 1], [0, 5]]), dim=1, keepdim=True),
                   torch.tensor([[3, 1], [0, 5]]).argmin(0)]
        for call in (lambda: torch.ones(0, 3).amax(0), lambda: torch.ones(0, 3).amin(),
                     lambda: torch.ones(2).amax(1)):
            try:
                call()
            except (IndexError, RuntimeError) as error:
                results.append((type(error).__name__, str(error)))
        return results

    assert_same_outcome(scenario)


HISTC = {
    "bins=4": dict(bins=4),
    "default bins": dict(),
    "bins=5 over [-1, 1]": dict(bins=5, min=-1, max=1),
    "bins=3 over [0, 0.5]": dict(bins=3, min=0, max=0.5),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("kwargs", list(HISTC))
def test_histc(kwargs, dtype):
    def scenario(torch):
        x = torch.tensor(values((50,), seed=14), requires_grad=True)
        x = x.to(getattr(torch, dtype))
        h = torch.histc(x, **HISTC[kwargs])
        return h, h.requires_grad, h.grad_fn, x.detach().histc(**HISTC[kwargs])

    assert_same_outcome(scenario)


def test_histc_edges_and_special_values():
    def scenario(torch):
        x = torch.arange(11.0)
        return (torch.histc(x, bins=3), torch.histc(x, bins=4, min=2, max=8),
                torch.histc(torch.tensor([2.0, 2.0]), bins=4), torch.histc(torch.tensor([]), 2),
                torch.histc(torch.tensor([1.0, float("nan"), 5.0]), bins=2, min=0, max=2),
                x.histc(2, 0, 4), torch.histc(torch.tensor([1.0, float("inf")]), 2, 0, 3))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.histc(torch.arange(3), bins=2), id="integers"),
    pytest.param(lambda torch: torch.histc(torch.ones(3), bins=0), id="bins=0"),
    pytest.param(lambda torch: torch.histc(torch.ones(3), 2.5), id="bins=2.5"),
    pytest.param(lambda torch: torch.histc(torch.ones(3), 3, min=5, max=1), id="min > max"),
    pytest.param(lambda torch: torch.histc(torch.tensor([1.0, float("nan")])), id="nan data"),
    pytest.param(lambda torch: torch.histc(torch.tensor([1.0, float("inf")])), id="inf data"),
    pytest.param(lambda torch: torch.histc(torch.ones(2), min=float("nan")), id="nan min"),
])
def test_histc_errors(call):
    assert_same_outcome(call)


def test_a_histogram_hook_on_activations():
    """The activation-statistics pattern: a forward hook counts each layer's outputs."""
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU())
        counts = []
        model[1].register_forward_hook(
            lambda module, args, out: counts.append(torch.histc(out, bins=4, min=0, max=2)))
        out = model(torch.tensor(values((16, 4), seed=15)))
        (out * upstream(torch, out)).sum().backward()
        return counts, graph(out.grad_fn)

    assert_same_outcome(scenario)
