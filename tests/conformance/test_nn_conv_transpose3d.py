"""``nn.ConvTranspose3d`` and ``F.conv_transpose3d`` against real PyTorch: seeded weights,
outputs, gradients, ``output_size``, the node's saved arguments and the checks' errors
(the 3-d kernel reports ``output_padding`` in three dimensions). FLOP counters such as
thop list the class when they load.

Tolerances: sums of at most a few dozen float32 products per output element: ``rtol=1e-5``
with ``atol=1e-5`` for the outputs near zero. Initial weights compare exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome

LAYERS = {
    "stride_padding_output_padding": (
        lambda nn: nn.ConvTranspose3d(2, 3, 3, stride=2, padding=1, output_padding=1),
        (2, 2, 2, 3, 2), {}),
    "groups_dilation_no_bias": (
        lambda nn: nn.ConvTranspose3d(4, 6, (2, 3, 1), stride=(1, 2, 1), groups=2,
                                      dilation=(2, 1, 1), bias=False), (1, 4, 2, 2, 3), {}),
    "unbatched_output_size": (
        lambda nn: nn.ConvTranspose3d(2, 2, 3, stride=2, padding=1), (2, 2, 3, 2),
        {"output_size": [4, 6, 4]}),
}


def _input(torch, shape):
    return torch.tensor(np.linspace(-1, 1, int(np.prod(shape)), dtype=np.float32)
                        .reshape(shape), requires_grad=True)


@pytest.mark.parametrize("case", LAYERS.values(), ids=LAYERS.keys())
def test_layer_weights_outputs_and_gradients(case):
    make, shape, kwargs = case

    def scenario(torch):
        torch.manual_seed(0)
        layer = make(torch.nn)
        weights = [p.detach().clone() for p in layer.parameters()]
        x = _input(torch, shape)
        y = layer(x, **kwargs)
        (y * y).sum().backward()
        node = y.grad_fn
        return (repr(layer), weights, y, x.grad, [p.grad for p in layer.parameters()],
                node.name(), y.is_contiguous(), y.stride())

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


def test_the_node_saves_transposed_and_output_padding():
    def scenario(torch):
        torch.manual_seed(1)
        layer = torch.nn.ConvTranspose3d(2, 2, 2, stride=2, output_padding=1, dilation=2)
        node = layer(_input(torch, (1, 2, 2, 2, 2))).grad_fn
        return (node._saved_transposed, node._saved_output_padding, node._saved_stride,
                node._saved_dilation, node._saved_groups)

    assert_same_outcome(scenario)


ERRORS = {
    "rank": lambda torch, functional: functional.conv_transpose3d(torch.ones(2, 3, 3),
                                                                  torch.ones(2, 3, 1, 1, 1)),
    "channels": lambda torch, functional: functional.conv_transpose3d(torch.ones(1, 5, 2, 2, 2),
                                                    torch.ones(4, 3, 2, 2, 2)),
    "bias": lambda torch, functional: functional.conv_transpose3d(torch.ones(1, 4, 2, 2, 2),
                                                torch.ones(4, 3, 2, 2, 2), torch.ones(2)),
    "output_padding": lambda torch, functional: functional.conv_transpose3d(
        torch.ones(1, 4, 2, 2, 2), torch.ones(4, 3, 2, 2, 2), stride=(2, 1, 2),
        output_padding=(1, 1, 0)),
    "padding_mode": lambda torch, functional: torch.nn.ConvTranspose3d(
        2, 3, 3, padding_mode="reflect"),
    "output_size_range": lambda torch, functional: torch.nn.ConvTranspose3d(2, 2, 3, stride=2)(
        torch.ones(1, 2, 2, 2, 2), output_size=[12, 12, 12]),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_errors(call):
    assert_same_outcome(lambda torch: call(torch, torch.nn.functional))
