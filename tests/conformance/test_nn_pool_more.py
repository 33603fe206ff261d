"""``MaxPool1d``, ``AvgPool1d``, ``AdaptiveAvgPool1d``, ``AdaptiveMaxPool1d`` and
``AdaptiveMaxPool2d`` (and their functional forms) against real PyTorch: values, indices,
gradients, the graph (a 2-d pool between ``unsqueeze(-2)`` and ``squeeze(-2)``), errors.

Tolerances: a maximum is exact; a mean of a few float32 values, ``rtol=1e-5``.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome

POOLS = {
    "max_pool1d": (lambda nn: nn.MaxPool1d(2), (2, 3, 8)),
    "max_pool1d_unbatched_ceil": (lambda nn: nn.MaxPool1d(3, 2, 1, ceil_mode=True), (3, 9)),
    "max_pool1d_indices": (lambda nn: nn.MaxPool1d(2, return_indices=True), (1, 2, 6)),
    "avg_pool1d": (lambda nn: nn.AvgPool1d(3, 2, 1), (2, 3, 8)),
    "avg_pool1d_exclude_pad": (lambda nn: nn.AvgPool1d(2, padding=1, count_include_pad=False),
                               (2, 3, 7)),
    "adaptive_avg_pool1d": (lambda nn: nn.AdaptiveAvgPool1d(3), (2, 3, 8)),
    "adaptive_max_pool1d": (lambda nn: nn.AdaptiveMaxPool1d(3), (2, 3, 8)),
    "adaptive_max_pool2d": (lambda nn: nn.AdaptiveMaxPool2d((2, 3)), (2, 3, 5, 7)),
    "adaptive_max_pool2d_none_unbatched": (lambda nn: nn.AdaptiveMaxPool2d((3, None)),
                                           (3, 5, 4)),
    "adaptive_max_pool2d_indices_overlap": (
        lambda nn: nn.AdaptiveMaxPool2d(3, return_indices=True), (1, 2, 5, 5)),
}


def _graph(node, out, depth=0):
    if node is not None:
        out.append((depth, node.name()))
        for child, _ in node.next_functions:
            _graph(child, out, depth + 1)
    return out


@pytest.mark.parametrize("case", POOLS.values(), ids=POOLS.keys())
def test_pool(case):
    make, shape = case

    def scenario(torch):
        layer = make(torch.nn)
        data = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        x = torch.tensor(data, requires_grad=True)
        result = layer(x)
        out = result[0] if isinstance(result, tuple) else result
        (out * out).sum().backward()
        return (repr(layer), result, x.grad, _graph(out.grad_fn, []))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_adaptive_max_pool_takes_the_first_maximum_and_nan():
    def scenario(torch):
        x = torch.tensor([[[[1.0, 3.0, 3.0, 0.0], [3.0, 2.0, float("nan"), 1.0]]]],
                         requires_grad=True)
        out, indices = torch.nn.functional.adaptive_max_pool2d(x, (1, 2), return_indices=True)
        out.backward(torch.ones_like(out))
        return out, indices, x.grad

    assert_same_outcome(scenario)


ERRORS = {
    "max_pool1d_rank": ("max_pool1d", (2, 3, 4, 5)),
    "avg_pool1d_rank": ("avg_pool1d", (2, 3, 4, 5)),
    "adaptive_avg_pool1d_rank": ("adaptive_avg_pool1d", (2, 3, 4, 5)),
    "adaptive_max_pool1d_rank": ("adaptive_max_pool1d", (2, 3, 4, 5)),
    "adaptive_max_pool2d_rank": ("adaptive_max_pool2d", (2, 3)),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_errors(case):
    name, shape = case

    def scenario(torch):
        return getattr(torch.nn.functional, name)(torch.ones(shape), 2)

    assert_same_outcome(scenario)
