"""``nn.ConvTranspose1d/2d/3d`` and ``nn.Conv3d`` (and their functional
forms) against real PyTorch: seeded weights, outputs, gradients, ``output_size``, the
checks' errors, and spectral normalisation along a transposed convolution's dim 1.

Tolerances: sums of at most a few dozen float32 products per output element: ``rtol=1e-5``
with ``atol=1e-5`` for the outputs near zero. Initial weights compare exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome

LAYERS = {
    "transpose2d_stride_padding_output_padding": (
        lambda nn: nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1),
        (2, 4, 5, 5), {}),
    "transpose2d_groups_dilation_no_bias": (
        lambda nn: nn.ConvTranspose2d(4, 6, (3, 2), stride=(2, 1), groups=2, dilation=(1, 2),
                                      bias=False), (2, 4, 3, 4), {}),
    "transpose1d_output_size": (
        lambda nn: nn.ConvTranspose1d(4, 3, 3, stride=2, padding=1), (2, 4, 5),
        {"output_size": [10]}),
    "transpose2d_unbatched_output_size": (
        lambda nn: nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1), (4, 5, 5),
        {"output_size": [3, 10, 10]}),
    "conv3d": (lambda nn: nn.Conv3d(2, 3, (2, 3, 2), stride=(1, 2, 1), padding=1),
               (2, 2, 4, 5, 4), {}),
    "conv3d_same_groups": (lambda nn: nn.Conv3d(2, 4, (3, 1, 3), padding="same", groups=2,
                                                bias=False), (1, 2, 3, 4, 4), {}),
    "transpose3d_stride_padding_output_padding": (
        lambda nn: nn.ConvTranspose3d(2, 3, 3, stride=2, padding=1, output_padding=1),
        (2, 2, 2, 3, 2), {}),
    "transpose3d_groups_dilation_no_bias": (
        lambda nn: nn.ConvTranspose3d(4, 6, (2, 3, 1), stride=(1, 2, 1), groups=2,
                                      dilation=(2, 1, 1), bias=False), (1, 4, 2, 2, 3), {}),
    "transpose3d_unbatched_output_size": (
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
        return (repr(layer), weights, y, x.grad, [p.grad for p in layer.parameters()],
                y.grad_fn.name(), y.is_contiguous(), y.stride())

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


def test_the_node_saves_transposed_and_output_padding():
    def scenario(torch):
        torch.manual_seed(1)
        layer = torch.nn.ConvTranspose2d(2, 2, 2, stride=2, output_padding=1, dilation=2)
        node = layer(_input(torch, (1, 2, 3, 3))).grad_fn
        return (node._saved_transposed, node._saved_output_padding, node._saved_stride,
                node._saved_dilation, node._saved_groups)

    assert_same_outcome(scenario)


ERRORS = {
    "rank": lambda torch, functional: functional.conv_transpose2d(torch.ones(1, 2, 3, 3, 3),
                                                torch.ones(2, 3, 3, 3)),
    "channels": lambda torch, functional: functional.conv_transpose2d(torch.ones(1, 5, 3, 3),
                                                    torch.ones(4, 3, 3, 3)),
    "bias": lambda torch, functional: functional.conv_transpose2d(
        torch.ones(1, 4, 3, 3), torch.ones(4, 3, 3, 3), torch.ones(2)),
    "output_padding": lambda torch, functional: functional.conv_transpose2d(
        torch.ones(1, 4, 3, 3), torch.ones(4, 3, 3, 3), output_padding=1),
    "output_padding_1d": lambda torch, functional: functional.conv_transpose1d(
        torch.ones(1, 4, 3), torch.ones(4, 3, 3), stride=2, output_padding=2),
    "stride": lambda torch, functional: functional.conv_transpose2d(torch.ones(1, 4, 3, 3),
                                                  torch.ones(4, 3, 3, 3), stride=0),
    "padding": lambda torch, functional: functional.conv_transpose2d(torch.ones(1, 4, 3, 3),
                                                   torch.ones(4, 3, 3, 3), padding=-1),
    "groups": lambda torch, functional: functional.conv_transpose2d(torch.ones(1, 4, 3, 3),
                                                  torch.ones(4, 3, 3, 3), groups=3),
    "conv3d_unbatched_channels": lambda torch, functional: functional.conv3d(torch.ones(1, 2, 3, 3),
                                                           torch.ones(2, 2, 1, 1, 1)),
    "padding_mode": lambda torch, functional: torch.nn.ConvTranspose2d(
        2, 3, 3, padding_mode="reflect"),
    "output_size_range": lambda torch, functional: torch.nn.ConvTranspose2d(2, 2, 3, stride=2)(
        torch.ones(1, 2, 4, 4), output_size=[12, 12]),
    "output_size_length": lambda torch, functional: torch.nn.ConvTranspose2d(2, 2, 3, stride=2)(
        torch.ones(1, 2, 4, 4), output_size=[1, 9]),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_errors(call):
    def scenario(torch):
        return call(torch, torch.nn.functional)

    assert_same_outcome(scenario)


def test_spectral_norm_of_a_transposed_convolution_uses_dim_1():
    def scenario(torch):
        torch.manual_seed(2)
        legacy = torch.nn.utils.spectral_norm(torch.nn.ConvTranspose2d(3, 5, 2))
        torch.manual_seed(2)
        layer = torch.nn.utils.parametrizations.spectral_norm(torch.nn.ConvTranspose2d(3, 5, 2))
        return (legacy.weight_u.shape, legacy.weight_v.shape,
                layer.parametrizations.weight[0]._u.shape, legacy.weight_u)

    assert_same_outcome(scenario, rtol=1e-6, atol=1e-7)
