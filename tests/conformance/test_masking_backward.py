"""Backward formulas that *mask* a gradient, against real PyTorch, with infinite and NaN
upstream gradients.

Where an op cut its input off (``relu`` below 0, ``clamp`` outside its limits, the branch
``where`` did not take, the elements that were not the maximum), PyTorch's formula selects
(``threshold_backward`` is ``where(result <= 0, 0, grad)``) rather than multiplies by a 0/1
mask. The difference shows only when the upstream gradient is not finite: ``inf * 0`` is
``nan``, a selected 0 stays 0. That is the everyday case of ``sqrt(relu(x))`` or
``log(relu(x))``, whose gradient is infinite exactly where ``relu`` clipped. A formula that
multiplies in PyTorch too (``abs`` by ``sign(x)``, ``leaky_relu`` by its slope) must give
the same ``nan`` here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from harness import assert_same_outcome

# Inputs on both sides of every kink, exactly on it (0, the clamp limits), and NaN.
X = [-2.0, -0.5, 0.0, 0.25, 0.5, 1.0, 3.0, math.nan]
# Upstream gradients: each non-finite value lands on clipped and on unclipped elements.
UPSTREAM = {
    "inf": [math.inf] * len(X),
    "nan": [math.nan] * len(X),
    "mixed": [math.inf, math.nan, -math.inf, math.inf, math.nan, -math.inf, 1.0, math.inf],
}

ONE_INPUT = [
    pytest.param(lambda torch, x: torch.relu(x), id="relu"),
    pytest.param(lambda torch, x: x.relu(), id="x.relu()"),
    pytest.param(lambda torch, x: torch.nn.functional.relu(x * 1, inplace=True),
                 id="F.relu inplace"),
    pytest.param(lambda torch, x: torch.nn.ReLU()(x), id="nn.ReLU"),
    pytest.param(lambda torch, x: torch.nn.functional.leaky_relu(x, 0.1), id="leaky_relu"),
    pytest.param(lambda torch, x: torch.nn.functional.leaky_relu_(x * 1), id="leaky_relu_"),
    pytest.param(lambda torch, x: torch.clamp(x, -0.5, 1.0), id="clamp(-0.5, 1)"),
    pytest.param(lambda torch, x: x.clamp(min=0.25), id="clamp(min)"),
    pytest.param(lambda torch, x: x.clip(max=0.5), id="clip(max)"),
    pytest.param(lambda torch, x: torch.abs(x), id="abs"),
    pytest.param(lambda torch, x: torch.where(x > 0.3, x, x * 0), id="where"),
    pytest.param(lambda torch, x: x.masked_fill(x < 0.3, 0.0), id="masked_fill"),
    pytest.param(lambda torch, x: x.max(), id="max()"),
    pytest.param(lambda torch, x: x.min(), id="min()"),
    pytest.param(lambda torch, x: x[:7].max(), id="max() without nan"),
    pytest.param(lambda torch, x: x[:7].min(), id="min() without nan"),
    pytest.param(lambda torch, x: x.reshape(2, 4).max(1).values, id="max(dim)"),
    pytest.param(lambda torch, x: x.reshape(2, 4).min(0).values, id="min(dim)"),
    pytest.param(lambda torch, x: torch.nn.functional.max_pool2d(x.reshape(1, 2, 4), 2),
                 id="max_pool2d"),
    pytest.param(lambda torch, x: torch.nn.functional.threshold(x, 0.25, -1.0),
                 id="threshold"),
    pytest.param(lambda torch, x: torch.nn.Threshold(0.5, 2.0)(x), id="nn.Threshold"),
    pytest.param(lambda torch, x: torch.nn.functional.hardtanh(x, -0.5, 1.0), id="hardtanh"),
    pytest.param(lambda torch, x: torch.nn.functional.hardtanh(x), id="hardtanh default"),
    pytest.param(lambda torch, x: torch.nn.functional.relu6(x * 3), id="relu6"),
    pytest.param(lambda torch, x: torch.nn.ReLU6()(x * 3), id="nn.ReLU6"),
    pytest.param(lambda torch, x: torch.nn.functional.elu(x), id="elu"),
    pytest.param(lambda torch, x: torch.nn.functional.elu(x, alpha=0.5), id="elu(alpha=0.5)"),
    pytest.param(lambda torch, x: torch.minimum(x, torch.full_like(x, 0.25)), id="minimum"),
    pytest.param(lambda torch, x: x.amax(), id="amax()"),
    pytest.param(lambda torch, x: x.reshape(2, 4).amax(1), id="amax(1)"),
    pytest.param(lambda torch, x: x.amin(), id="amin()"),
    pytest.param(lambda torch, x: x[:7].amin(), id="amin() without nan"),
    pytest.param(lambda torch, x: x.reshape(2, 4).amin(0), id="amin(0)"),
    pytest.param(lambda torch, x: torch.nn.functional.adaptive_max_pool1d(
        x.reshape(1, 1, 8), 3), id="adaptive_max_pool1d"),
    pytest.param(lambda torch, x: torch.nn.functional.adaptive_max_pool2d(
        x.reshape(1, 2, 4), (1, 2)), id="adaptive_max_pool2d"),
    pytest.param(lambda torch, x: torch.nn.AdaptiveMaxPool2d(1)(x.reshape(2, 2, 2)),
                 id="nn.AdaptiveMaxPool2d"),
]


def gradients(torch, op, upstream, *arrays):
    """The gradient of every input of ``op`` for the upstream gradient ``upstream``."""
    inputs = [torch.tensor(a, dtype=torch.float32, requires_grad=True) for a in arrays]
    out = op(torch, *inputs)
    grad = torch.tensor(upstream, dtype=torch.float32)[:out.numel()].reshape(out.shape)
    return torch.autograd.grad(out, inputs, grad)


@pytest.mark.parametrize("upstream", UPSTREAM.values(), ids=UPSTREAM.keys())
@pytest.mark.parametrize("op", ONE_INPUT)
def test_a_masked_gradient_is_selected_not_multiplied(op, upstream):
    assert_same_outcome(lambda torch: gradients(torch, op, upstream, X))


# The other input: ties with X at 0.25 and 1.0, and a NaN where X has none.
Y = [0.0, -1.0, 0.5, 0.25, math.nan, 1.0, 2.0, 0.0]

TWO_INPUTS = [
    pytest.param(lambda torch, x, y: torch.maximum(x, y), id="maximum"),
    pytest.param(lambda torch, x, y: x.max(y), id="x.max(y)"),
    pytest.param(lambda torch, x, y: torch.where(x > y, x, y), id="where"),
    pytest.param(lambda torch, x, y: torch.minimum(x, y), id="minimum"),
    pytest.param(lambda torch, x, y: x.min(y), id="x.min(y)"),
]


@pytest.mark.parametrize("upstream", UPSTREAM.values(), ids=UPSTREAM.keys())
@pytest.mark.parametrize("op", TWO_INPUTS)
def test_a_gradient_split_between_two_inputs_is_selected(op, upstream):
    assert_same_outcome(lambda torch: gradients(torch, op, upstream, X, Y))


CHAINS = [
    pytest.param(lambda torch, x: torch.sqrt(torch.relu(x)), id="sqrt(relu(x))"),
    pytest.param(lambda torch, x: torch.log(torch.relu(x)), id="log(relu(x))"),
    pytest.param(lambda torch, x: torch.log(x.clamp(min=0.0)), id="log(clamp(x, min=0))"),
    pytest.param(lambda torch, x: torch.sqrt(torch.maximum(x, torch.zeros_like(x))),
                 id="sqrt(maximum(x, 0))"),
    pytest.param(lambda torch, x: (1 / torch.relu(x)).sum(), id="sum(1 / relu(x))"),
]


@pytest.mark.parametrize("op", CHAINS)
def test_an_infinite_gradient_from_above_stops_where_relu_clipped(op):
    """The learner's case: ``sqrt`` and ``log`` have an infinite slope at 0, the value
    ``relu`` gives every clipped element; PyTorch's gradient there is 0, not ``nan``."""
    def scenario(torch):
        x = torch.tensor(np.array(X[:7], dtype=np.float32), requires_grad=True)
        op(torch, x).sum().backward()
        return x.grad

    assert_same_outcome(scenario)
