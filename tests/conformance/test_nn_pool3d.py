"""The 3-d poolings (``MaxPool3d``, ``AvgPool3d``, ``AdaptiveAvgPool3d``,
``AdaptiveMaxPool3d`` and their ``F.`` functions) against real PyTorch: values, indices,
gradients, the graph and its saved arguments, module hooks, the layout of outputs and
indices, which maximum wins on ties, with minus infinity and NaN, and the errors.

Tolerances: a maximum is exact; a mean of at most 27 float32 values is within
``rtol=1e-5`` of PyTorch's, whatever order the sum takes.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, layout, leaf, upstream, values

POOLS = {
    "max": (lambda nn: nn.MaxPool3d(2), (2, 3, 4, 5, 6)),
    "max unbatched, stride and padding": (lambda nn: nn.MaxPool3d(3, 2, 1), (2, 5, 5, 4)),
    "max ceil_mode and dilation": (
        lambda nn: nn.MaxPool3d((2, 3, 2), (2, 1, 2), (1, 1, 0), dilation=(1, 2, 2),
                                ceil_mode=True), (1, 2, 5, 7, 6)),
    "max with indices": (lambda nn: nn.MaxPool3d(2, 1, return_indices=True), (1, 2, 3, 3, 3)),
    "avg": (lambda nn: nn.AvgPool3d(2), (2, 3, 4, 5, 6)),
    "avg padding, counted": (lambda nn: nn.AvgPool3d(3, 2, 1), (1, 2, 5, 4, 6)),
    "avg padding, not counted, ceil_mode": (
        lambda nn: nn.AvgPool3d(3, 2, 1, ceil_mode=True, count_include_pad=False),
        (2, 4, 6, 5)),
    "avg divisor_override": (lambda nn: nn.AvgPool3d((1, 2, 2), divisor_override=3),
                             (1, 2, 3, 4, 4)),
    "adaptive avg": (lambda nn: nn.AdaptiveAvgPool3d((2, 3, 4)), (2, 3, 5, 7, 9)),
    "adaptive avg, None and unbatched": (lambda nn: nn.AdaptiveAvgPool3d((None, 2, 3)),
                                         (3, 4, 5, 7)),
    "adaptive avg to one": (lambda nn: nn.AdaptiveAvgPool3d(1), (2, 3, 3, 4, 2)),
    "adaptive max": (lambda nn: nn.AdaptiveMaxPool3d((2, 3, 2)), (2, 3, 5, 7, 4)),
    "adaptive max, overlapping, indices": (
        lambda nn: nn.AdaptiveMaxPool3d(3, return_indices=True), (1, 2, 5, 4, 5)),
    "adaptive max, None and unbatched": (lambda nn: nn.AdaptiveMaxPool3d((2, None, 1)),
                                         (2, 3, 4, 5)),
}

SAVED = ("kernel_size", "stride", "padding", "dilation", "ceil_mode", "count_include_pad",
         "divisor_override")


@pytest.mark.parametrize(("make", "shape"), POOLS.values(), ids=POOLS.keys())
def test_pool3d_layer(make, shape):
    """What a layer returns and prints, the input's gradient, the graph with the
    arguments its node saved, and the layout of every output (all contiguous)."""
    def scenario(torch):
        layer = make(torch.nn)
        x = leaf(torch, values(shape, seed=4))
        result = layer(x)
        out = result[0] if isinstance(result, tuple) else result
        (out * upstream(torch, out)).sum().backward()
        saved = {name: getattr(out.grad_fn, f"_saved_{name}") for name in SAVED
                 if hasattr(out.grad_fn, f"_saved_{name}")}
        return (repr(layer), result, x.grad, graph(out.grad_fn), saved, layout(result),
                layout(x.grad))

    assert_same_outcome(scenario)


def test_pool3d_hooks_and_flattening_a_pooled_volume():
    """A 3-d CNN's classic ``x.view(x.size(0), -1)`` after its pooling works because the
    pooled output is contiguous; the hooks see the pooled volume and its gradient."""
    def scenario(torch):
        nn = torch.nn
        torch.manual_seed(0)
        conv, pool = nn.Conv3d(1, 2, 2), nn.MaxPool3d(2)
        seen = []
        pool.register_forward_pre_hook(lambda m, args: seen.append(("pre", args[0].shape)))
        pool.register_forward_hook(lambda m, args, out: seen.append(
            ("forward", out.shape, out.is_contiguous())))
        pool.register_full_backward_hook(lambda m, gin, gout: seen.append(
            ("backward", gin[0].shape, gout[0].clone())))
        x = torch.tensor(values((2, 1, 5, 5, 5), seed=5))
        pooled = pool(conv(x).relu())
        flat = pooled.view(pooled.size(0), -1)
        flat.sum().backward()
        return seen, flat, conv.weight.grad

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


TIES = {
    "max_pool3d ties": lambda torch, x: torch.nn.functional.max_pool3d(
        x, 2, 1, return_indices=True),
    "max_pool3d padding over ties": lambda torch, x: torch.nn.functional.max_pool3d(
        x, 3, 2, 1, return_indices=True),
    "max_pool2d padding over ties": lambda torch, x: torch.nn.functional.max_pool2d(
        x[0], 3, 2, 1, return_indices=True),
    "adaptive_max_pool3d ties": lambda torch, x: torch.nn.functional.adaptive_max_pool3d(
        x, 2, return_indices=True),
    "adaptive_max_pool2d ties": lambda torch, x: torch.nn.functional.adaptive_max_pool2d(
        x[0], 2, return_indices=True),
}
FILLS = {"equal": 1.5, "minus infinity": -np.inf, "nan": np.nan}


@pytest.mark.parametrize("fill", FILLS.values(), ids=FILLS.keys())
@pytest.mark.parametrize("pool", TIES.values(), ids=TIES.keys())
def test_which_maximum_wins(pool, fill):
    """A window of equal values (or all minus infinity, or all NaN, padding around it)
    points at its first element inside the input, or at its last NaN; the gradient goes
    there. With padding, the first tap of a window is outside the input."""
    def scenario(torch):
        x = torch.full((1, 1, 3, 3, 3), float(fill), requires_grad=True)
        out, indices = pool(torch, x)
        out.backward(torch.ones_like(out))
        return out, indices, x.grad

    assert_same_outcome(scenario)


def test_nan_and_infinity_in_a_window():
    """NaN beats everything (the last NaN of a window wins), infinity the numbers."""
    def scenario(torch):
        data = values((1, 1, 2, 4, 4), seed=6).astype(np.float64)
        data[0, 0, 0, 0, :2] = [np.inf, np.nan]
        data[0, 0, 1, 1, 1] = np.nan
        data[0, 0, 1, 2, 2:] = [-np.inf, np.inf]
        x = torch.tensor(data, requires_grad=True)
        functional = torch.nn.functional
        results = [functional.max_pool3d(x, 2, return_indices=True),
                   functional.max_pool3d(x, (2, 3, 3), 1, ceil_mode=True, return_indices=True),
                   functional.adaptive_max_pool3d(x, (1, 3, 3), return_indices=True)]
        sum(out.nan_to_num().sum() for out, _ in results).backward()
        return results, x.grad

    assert_same_outcome(scenario)


def test_integer_volumes():
    """Integer inputs: the maximum keeps the dtype, the mean of int64 is cut towards 0."""
    def scenario(torch):
        x = torch.tensor(np.arange(-20, 34).reshape(1, 2, 3, 3, 3), dtype=torch.int64)
        functional = torch.nn.functional
        return (functional.max_pool3d(x, 2, return_indices=True),
                functional.avg_pool3d(x, 2, 1), functional.max_pool3d(x.to(torch.int32), 2))

    assert_same_outcome(scenario)


ERRORS = {
    "max kernel of two": (lambda fn, x: fn.max_pool3d(x, (2, 2)), (1, 2, 4, 4, 4)),
    "max stride of four": (lambda fn, x: fn.max_pool3d(x, 2, (1, 1, 1, 1)), (1, 2, 4, 4, 4)),
    "max padding of four": (lambda fn, x: fn.max_pool3d(x, 2, 1, (1, 1, 1, 1)), (1, 2, 4, 4, 4)),
    "max dilation of two": (lambda fn, x: fn.max_pool3d(x, 2, dilation=(1, 2)), (1, 2, 4, 4, 4)),
    "max kernel 0": (lambda fn, x: fn.max_pool3d(x, 0), (1, 2, 4, 4, 4)),
    "max kernel -1": (lambda fn, x: fn.max_pool3d(x, -1), (1, 2, 4, 4, 4)),
    "max stride -1": (lambda fn, x: fn.max_pool3d(x, 2, -1), (1, 2, 4, 4, 4)),
    "max dilation 0": (lambda fn, x: fn.max_pool3d(x, 2, dilation=0), (1, 2, 4, 4, 4)),
    "max negative padding": (lambda fn, x: fn.max_pool3d(x, 2, padding=-1), (1, 2, 4, 4, 4)),
    "max padding over half": (lambda fn, x: fn.max_pool3d(x, 2, padding=2), (1, 2, 4, 4, 4)),
    "max padding over half the undilated kernel": (
        lambda fn, x: fn.max_pool3d(x, 3, padding=2, dilation=2), (1, 2, 6, 6, 6)),
    "max 3-d input": (lambda fn, x: fn.max_pool3d(x, 2), (2, 4, 4)),
    "max 6-d input": (lambda fn, x: fn.max_pool3d(x, 2), (1, 1, 1, 2, 2, 2)),
    "max empty channel": (lambda fn, x: fn.max_pool3d(x, 2), (1, 0, 4, 4, 4)),
    "max output too small": (lambda fn, x: fn.max_pool3d(x, 2), (1, 2, 1, 4, 4)),
    "max empty batch": (lambda fn, x: fn.max_pool3d(x, 2), (0, 2, 4, 4, 4)),
    "max bool": (lambda fn, x: fn.max_pool3d(x.bool(), 2), (1, 2, 4, 4, 4)),
    "avg kernel of two": (lambda fn, x: fn.avg_pool3d(x, (2, 2)), (1, 2, 4, 4, 4)),
    "avg stride of four": (lambda fn, x: fn.avg_pool3d(x, 2, (1, 1, 1, 1)), (1, 2, 4, 4, 4)),
    "avg padding of four": (lambda fn, x: fn.avg_pool3d(x, 2, 1, (1, 1, 1, 1)), (1, 2, 4, 4, 4)),
    "avg kernel 0": (lambda fn, x: fn.avg_pool3d(x, 0), (1, 2, 4, 4, 4)),
    "avg divisor 0": (lambda fn, x: fn.avg_pool3d(x, 0, divisor_override=0), (1, 2, 4, 4, 4)),
    "avg input smaller than kernel": (lambda fn, x: fn.avg_pool3d(x, 2, padding=1),
                                      (1, 2, 1, 4, 4)),
    "avg 3-d input": (lambda fn, x: fn.avg_pool3d(x, 2), (2, 4, 4)),
    "avg empty channel": (lambda fn, x: fn.avg_pool3d(x, 2), (1, 0, 4, 4, 4)),
    "avg int32": (lambda fn, x: fn.avg_pool3d(x.int(), 2), (1, 2, 4, 4, 4)),
    "avg half": (lambda fn, x: fn.avg_pool3d(x.half(), 2), (1, 2, 4, 4, 4)),
    "avg bool": (lambda fn, x: fn.avg_pool3d(x.bool(), 2), (1, 2, 4, 4, 4)),
    "adaptive avg two sizes": (lambda fn, x: fn.adaptive_avg_pool3d(x, (2, 2)), (1, 2, 4, 4, 4)),
    "adaptive avg two sizes, 3-d": (lambda fn, x: fn.adaptive_avg_pool3d(x, (2, 2)), (2, 4, 4)),
    "adaptive avg three sizes, 3-d": (lambda fn, x: fn.adaptive_avg_pool3d(x, (2, 2, 2)),
                                      (2, 4, 4)),
    "adaptive avg negative": (lambda fn, x: fn.adaptive_avg_pool3d(x, (2, -1, -2)),
                              (1, 2, 4, 4, 4)),
    "adaptive avg 3-d input": (lambda fn, x: fn.adaptive_avg_pool3d(x, 2), (2, 4, 4)),
    "adaptive avg empty depth": (lambda fn, x: fn.adaptive_avg_pool3d(x, 2), (1, 2, 0, 4, 4)),
    "adaptive avg int64": (lambda fn, x: fn.adaptive_avg_pool3d(x.long(), 2), (1, 2, 4, 4, 4)),
    "adaptive avg to zero": (lambda fn, x: fn.adaptive_avg_pool3d(x, 0), (1, 2, 4, 4, 4)),
    "adaptive max two sizes": (lambda fn, x: fn.adaptive_max_pool3d(x, (2, 2)), (1, 2, 4, 4, 4)),
    "adaptive max negative": (lambda fn, x: fn.adaptive_max_pool3d(x, (2, -1, 2)),
                              (1, 2, 4, 4, 4)),
    "adaptive max 3-d input": (lambda fn, x: fn.adaptive_max_pool3d(x, 2), (2, 4, 4)),
    "adaptive max empty depth": (lambda fn, x: fn.adaptive_max_pool3d(x, 2), (1, 2, 0, 4, 4)),
    "adaptive max empty channel": (lambda fn, x: fn.adaptive_max_pool3d(x, 2), (1, 0, 4, 4, 4)),
    "adaptive max int64": (lambda fn, x: fn.adaptive_max_pool3d(x.long(), 2), (1, 2, 4, 4, 4)),
    "adaptive max to zero": (lambda fn, x: fn.adaptive_max_pool3d(x, 0), (1, 2, 4, 4, 4)),
    "adaptive max 2d int64": (lambda fn, x: fn.adaptive_max_pool2d(x.long(), 2), (2, 4, 4)),
    "adaptive max 2d empty height": (lambda fn, x: fn.adaptive_max_pool2d(x, 2), (1, 2, 0, 4)),
    "adaptive avg 2d empty height": (lambda fn, x: fn.adaptive_avg_pool2d(x, 2), (1, 2, 0, 4)),
    "max 2d padding of three": (lambda fn, x: fn.max_pool2d(x, 2, 1, (1, 1, 1)), (1, 2, 4, 4)),
    "max 2d stride of three": (lambda fn, x: fn.max_pool2d(x, 2, (1, 1, 1)), (1, 2, 4, 4)),
    "avg 2d padding of three": (lambda fn, x: fn.avg_pool2d(x, 2, 1, (1, 1, 1)), (1, 2, 4, 4)),
}


@pytest.mark.parametrize(("call", "shape"), ERRORS.values(), ids=ERRORS.keys())
def test_errors(call, shape):
    def scenario(torch):
        out = call(torch.nn.functional, torch.ones(shape))
        return out.shape  # (the cases that are no error: an empty batch, a zero size)

    assert_same_outcome(scenario)


UNPOOLS = {
    "1d": (lambda nn: (nn.MaxPool1d(2, return_indices=True), nn.MaxUnpool1d(2)), (2, 3, 6),
           None),
    "1d, unbatched, output_size": (
        lambda nn: (nn.MaxPool1d(3, 2, 1, return_indices=True), nn.MaxUnpool1d(3, 2, 1)),
        (2, 7), [7]),
    "2d": (lambda nn: (nn.MaxPool2d(2, return_indices=True), nn.MaxUnpool2d(2)),
           (2, 3, 4, 6), None),
    "2d, output_size with batch and channels": (
        lambda nn: (nn.MaxPool2d(2, return_indices=True), nn.MaxUnpool2d(2)), (1, 2, 5, 5),
        [1, 2, 5, 5]),
    "2d, overlapping windows": (
        lambda nn: (nn.MaxPool2d(3, 1, return_indices=True), nn.MaxUnpool2d(3, 1)),
        (1, 2, 4, 4), None),
    "3d": (lambda nn: (nn.MaxPool3d(2, return_indices=True), nn.MaxUnpool3d(2)),
           (2, 2, 4, 4, 6), None),
    # The default output size is too small for this input's last axis, an error; one
    # channel, as PyTorch's threads, each on its own channel, race to name the bad index.
    "3d, unbatched, stride and padding": (
        lambda nn: (nn.MaxPool3d(3, 2, 1, return_indices=True), nn.MaxUnpool3d(3, 2, 1)),
        (1, 5, 5, 4), None),
}


@pytest.mark.parametrize(("make", "shape", "output_size"), UNPOOLS.values(),
                         ids=UNPOOLS.keys())
def test_max_unpool(make, shape, output_size):
    """Pool, then unpool: the maxima back in place and zeros around them, the gradient of
    both steps, the graph (1-d through 2-d with a dimension added), the layout, and the
    layer's repr; overlapping windows write a shared maximum more than once."""
    def scenario(torch):
        pool, unpool = make(torch.nn)
        x = leaf(torch, values(shape, seed=7))
        pooled, indices = pool(x)
        out = unpool(pooled, indices, output_size=output_size)
        (out * upstream(torch, out)).sum().backward()
        return repr(unpool), out, x.grad, graph(out.grad_fn), layout(out)

    assert_same_outcome(scenario)


UNPOOL_ERRORS = {
    "an index outside": (lambda fn, x, i: fn.max_unpool2d(x, i * 0 + 16, 2), (1, 1, 2, 2)),
    "a negative index": (lambda fn, x, i: fn.max_unpool3d(x, i * 0 - 1, 2), (1, 1, 2, 2, 2)),
    "float indices": (lambda fn, x, i: fn.max_unpool2d(x, i.float(), 2), (1, 2, 2, 2)),
    "indices of another shape": (lambda fn, x, i: fn.max_unpool2d(x, i[..., :1], 2),
                                 (1, 2, 2, 2)),
    "2-d input": (lambda fn, x, i: fn.max_unpool2d(x, i, 2), (2, 2)),
    "3-d input to 3-d": (lambda fn, x, i: fn.max_unpool3d(x, i, 2), (2, 2, 2)),
    "output_size too large": (lambda fn, x, i: fn.max_unpool2d(x, i, 2, output_size=(6, 6)),
                              (1, 2, 2, 2)),
    "output_size of one": (lambda fn, x, i: fn.max_unpool2d(x, i, 2, output_size=(5,)),
                           (1, 2, 2, 2)),
    "integer input": (lambda fn, x, i: fn.max_unpool2d(x.long(), i, 2), (1, 2, 2, 2)),
}


@pytest.mark.parametrize(("call", "shape"), UNPOOL_ERRORS.values(), ids=UNPOOL_ERRORS.keys())
def test_max_unpool_errors(call, shape):
    def scenario(torch):
        x = torch.ones(shape)
        return call(torch.nn.functional, x, torch.zeros(shape, dtype=torch.int64)).shape

    assert_same_outcome(scenario)


HOOKED = {
    "AvgPool3d": lambda nn: nn.AvgPool3d(2, 1, 1, count_include_pad=False),
    "AdaptiveAvgPool3d": lambda nn: nn.AdaptiveAvgPool3d((1, 2, 3)),
    "AdaptiveMaxPool3d with indices": lambda nn: nn.AdaptiveMaxPool3d(2, return_indices=True),
    "MaxPool3d with indices": lambda nn: nn.MaxPool3d(2, return_indices=True),
}


@pytest.mark.parametrize("make", HOOKED.values(), ids=HOOKED.keys())
def test_module_hooks_on_3d_pools(make):
    """Each layer's forward pre-hook, forward hook (which sees the ``(values, indices)``
    pair of a layer with ``return_indices``) and full backward hook, in order, with what
    they receive."""
    def scenario(torch):
        layer = make(torch.nn)
        seen = []
        layer.register_forward_pre_hook(lambda m, args: seen.append(("pre", args[0].shape)))
        layer.register_forward_hook(lambda m, args, out: seen.append(
            ("forward", [o.clone() for o in out] if isinstance(out, tuple) else out.clone())))
        layer.register_full_backward_hook(lambda m, grad_input, grad_output: seen.append(
            ("backward", [None if g is None else g.clone() for g in grad_input],
             [None if g is None else g.clone() for g in grad_output])))
        x = leaf(torch, values((1, 2, 3, 4, 4), seed=8))
        result = layer(x)
        out = result[0] if isinstance(result, tuple) else result
        (out * upstream(torch, out)).sum().backward()
        return seen

    assert_same_outcome(scenario)


def test_module_hooks_on_max_unpool():
    """``MaxUnpool2d`` takes two tensors (and an ``output_size`` keyword): its hooks see
    both, and its full backward hook gets no gradient for the integer indices."""
    def scenario(torch):
        pool, unpool = torch.nn.MaxPool2d(2, return_indices=True), torch.nn.MaxUnpool2d(2)
        seen = []
        unpool.register_forward_pre_hook(
            lambda m, args, kwargs: seen.append(("pre", len(args), sorted(kwargs))),
            with_kwargs=True)
        unpool.register_full_backward_hook(lambda m, grad_input, grad_output: seen.append(
            ("backward", [None if g is None else g.clone() for g in grad_input])))
        x = leaf(torch, values((1, 1, 4, 5), seed=9))
        out = unpool(*pool(x), output_size=[4, 5])
        (out * upstream(torch, out)).sum().backward()
        return seen, x.grad

    assert_same_outcome(scenario)
