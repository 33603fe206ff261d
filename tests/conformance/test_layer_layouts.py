"""How each layer's output and every gradient sit in memory, against real PyTorch:
``stride()`` and ``is_contiguous()`` of the output, of the input's gradient and of each
parameter's ``.grad`` (PyTorch's layout contract gives a parameter's gradient its
parameter's strides). Model code relies on it: ``x.view(x.size(0), -1)`` after a layer
works only on a contiguous output."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import layout, leaf, upstream, values

LAYERS = {
    "Linear": (lambda nn: nn.Linear(4, 3), (2, 5, 4)),
    "Conv1d": (lambda nn: nn.Conv1d(2, 3, 3, padding=1), (2, 2, 6)),
    "Conv2d": (lambda nn: nn.Conv2d(2, 3, 3, stride=2), (2, 2, 7, 7)),
    "BatchNorm1d": (lambda nn: nn.BatchNorm1d(3), (4, 3, 5)),
    "BatchNorm2d": (lambda nn: nn.BatchNorm2d(2), (3, 2, 4, 4)),
    "GroupNorm": (lambda nn: nn.GroupNorm(2, 4), (2, 4, 3, 3)),
    "LayerNorm": (lambda nn: nn.LayerNorm(4), (2, 3, 4)),
    "MaxPool2d": (lambda nn: nn.MaxPool2d(2), (2, 3, 6, 6)),
    "AvgPool2d": (lambda nn: nn.AvgPool2d(3, stride=2, padding=1), (2, 3, 6, 6)),
    "AdaptiveAvgPool2d": (lambda nn: nn.AdaptiveAvgPool2d((1, 1)), (2, 3, 5, 5)),
    "Upsample": (lambda nn: nn.Upsample(scale_factor=2), (1, 2, 3, 3)),
    "Flatten": (lambda nn: nn.Flatten(), (2, 3, 2, 2)),
    "ReLU": (lambda nn: nn.ReLU(), (2, 3, 4)),
    "GELU": (lambda nn: nn.GELU(), (2, 3, 4)),
    "LeakyReLU": (lambda nn: nn.LeakyReLU(0.1), (2, 3, 4)),
    "Softmax": (lambda nn: nn.Softmax(dim=1), (2, 3, 4)),
    "LogSoftmax": (lambda nn: nn.LogSoftmax(dim=1), (2, 3, 4)),
    "Dropout in eval": (lambda nn: nn.Dropout(0.5).eval(), (2, 3)),
    "MultiheadAttention": (lambda nn: nn.MultiheadAttention(4, 2), (3, 2, 4)),
    "Sequential of a CNN": (lambda nn: nn.Sequential(
        nn.Conv2d(1, 2, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8, 2)),
        (2, 1, 6, 6)),
}


@pytest.mark.parametrize(("make", "shape"), LAYERS.values(), ids=LAYERS.keys())
def test_a_layers_output_and_gradients_are_laid_out_as_pytorchs(make, shape):
    def scenario(torch):
        torch.manual_seed(0)
        layer = make(torch.nn)
        x = leaf(torch, values(shape, seed=3))
        out = layer(x, x, x)[0] if isinstance(layer, torch.nn.MultiheadAttention) else layer(x)
        (out * upstream(torch, out)).sum().backward()
        return {"out": layout(out), "input grad": layout(x.grad),
                "parameter grads": {name: layout(p.grad)
                                    for name, p in layer.named_parameters()}}

    assert_same_outcome(scenario)
