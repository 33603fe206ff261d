"""``F.interpolate`` (nearest, linear, bilinear, bicubic, trilinear) and adaptive average
pooling with ``inf`` and ``nan`` in their inputs and in the upstream gradient, against real
PyTorch.

PyTorch's kernels read only the few inputs each output needs (one for nearest, two per axis
for linear, four per axis for bicubic, the window for an adaptive average), so an ``inf``
stays in the outputs that read it, and ``inf - inf`` or ``inf * 0`` (a weight that is
exactly 0) give ``nan`` only where they happen. A matrix product would have multiplied the
``inf`` by the zero weights of every other output of its row. The gradient goes back
through the same taps (but for bicubic at an unchanged size, whose gradient PyTorch copies,
and for an axis that antialiasing leaves unchanged: copied forward, weighted backward).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import layout

INF, NAN = math.inf, math.nan
PLANES = {
    "one inf": [[1.0, 2.0, 3.0, 4.0], [5.0, INF, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
    "inf and -inf": [[INF, 2.0, 3.0, -INF], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, -INF, 12.0]],
    "nan in a corner": [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, NAN]],
    "inf and nan": [[1.0, NAN, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [INF, 10.0, 11.0, 12.0]],
}

RESAMPLINGS = {
    "nearest x2": lambda nnf, x: nnf.interpolate(x, scale_factor=2),
    "nearest to (5, 3)": lambda nnf, x: nnf.interpolate(x, size=(5, 3)),
    "nearest scale 1.5": lambda nnf, x: nnf.interpolate(x, scale_factor=1.5),
    "bilinear x2": lambda nnf, x: nnf.interpolate(x, scale_factor=2, mode="bilinear"),
    "bilinear to (5, 7)": lambda nnf, x: nnf.interpolate(x, size=(5, 7), mode="bilinear"),
    "bilinear to (2, 2)": lambda nnf, x: nnf.interpolate(x, size=(2, 2), mode="bilinear"),
    "bilinear align_corners to (5, 7)": lambda nnf, x: nnf.interpolate(
        x, size=(5, 7), mode="bilinear", align_corners=True),
    "bilinear align_corners to (3, 2)": lambda nnf, x: nnf.interpolate(
        x, size=(3, 2), mode="bilinear", align_corners=True),
    "bilinear same size": lambda nnf, x: nnf.interpolate(x, size=(3, 4), mode="bilinear"),
    "linear x2 (3-d)": lambda nnf, x: nnf.interpolate(x[0], scale_factor=2, mode="linear"),
    "linear same size (3-d)": lambda nnf, x: nnf.interpolate(x[0], size=4, mode="linear"),
    "bicubic x2": lambda nnf, x: nnf.interpolate(x, scale_factor=2, mode="bicubic"),
    "bicubic to (2, 3)": lambda nnf, x: nnf.interpolate(x, size=(2, 3), mode="bicubic"),
    "bicubic align_corners to (5, 7)": lambda nnf, x: nnf.interpolate(
        x, size=(5, 7), mode="bicubic", align_corners=True),
    "bicubic same size": lambda nnf, x: nnf.interpolate(x, size=(3, 4), mode="bicubic"),
    "bicubic one axis kept": lambda nnf, x: nnf.interpolate(x, size=(3, 6), mode="bicubic"),
    "trilinear x1.5 (5-d)": lambda nnf, x: nnf.interpolate(x[None], scale_factor=1.5,
                                                          mode="trilinear"),
    "bilinear antialias to (2, 3)": lambda nnf, x: nnf.interpolate(
        x, size=(2, 3), mode="bilinear", antialias=True),
    "bicubic antialias to (1, 2)": lambda nnf, x: nnf.interpolate(
        x, size=(1, 2), mode="bicubic", antialias=True),
    "bicubic antialias, one axis kept": lambda nnf, x: nnf.interpolate(
        x, size=(3, 2), mode="bicubic", antialias=True),
    "bicubic antialias same size": lambda nnf, x: nnf.interpolate(
        x, size=(3, 4), mode="bicubic", antialias=True),
    "lanczos to (2, 3)": lambda nnf, x: nnf.interpolate(x, size=(2, 3), mode="lanczos",
                                                        antialias=True),
    "adaptive_avg_pool2d (2, 2)": lambda nnf, x: nnf.adaptive_avg_pool2d(x, (2, 2)),
    "adaptive_avg_pool2d (2, 3)": lambda nnf, x: nnf.adaptive_avg_pool2d(x, (2, 3)),
    "adaptive_avg_pool2d (5, 5)": lambda nnf, x: nnf.adaptive_avg_pool2d(x, 5),
    "adaptive_avg_pool2d (None, 1)": lambda nnf, x: nnf.adaptive_avg_pool2d(x, (None, 1)),
    "adaptive_avg_pool1d 3": lambda nnf, x: nnf.adaptive_avg_pool1d(x[0], 3),
}


def forward_and_backward(torch, op, plane, upstream_value=1.0):
    x = torch.tensor(np.array([[plane, plane[::-1]]], dtype=np.float32), requires_grad=True)
    out = op(torch.nn.functional, x)
    grad = torch.full_like(out, upstream_value)
    (x_grad,) = torch.autograd.grad(out, x, grad)
    return out, layout(out), x_grad


@pytest.mark.parametrize("plane", PLANES.values(), ids=PLANES.keys())
@pytest.mark.parametrize("op", RESAMPLINGS.values(), ids=RESAMPLINGS.keys())
def test_an_inf_in_the_input_stays_where_it_is_read(op, plane):
    assert_same_outcome(lambda torch: forward_and_backward(torch, op, plane))


UPSTREAM = {"inf": INF, "nan": NAN, "-inf": -INF}


@pytest.mark.parametrize("upstream", UPSTREAM.values(), ids=UPSTREAM.keys())
@pytest.mark.parametrize("op", RESAMPLINGS.values(), ids=RESAMPLINGS.keys())
def test_an_infinite_upstream_gradient_reaches_only_the_taps(op, upstream):
    plane = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]

    def scenario(torch):
        x = torch.tensor(np.array([[plane]], dtype=np.float32), requires_grad=True)
        out = op(torch.nn.functional, x)
        grad = torch.ones_like(out)
        grad.view(-1)[0] = upstream  # one output only
        return torch.autograd.grad(out, x, grad)

    assert_same_outcome(scenario)


def test_layers_and_uint8_images():
    def scenario(torch):
        x = torch.tensor(np.array([[PLANES["one inf"]]], dtype=np.float32))
        image = torch.arange(12, dtype=torch.uint8).reshape(1, 1, 3, 4)
        return (torch.nn.Upsample(scale_factor=2, mode="bilinear")(x),
                torch.nn.UpsamplingNearest2d(size=(4, 6))(x),
                torch.nn.AdaptiveAvgPool2d((1, 2))(x),
                torch.nn.functional.interpolate(image, size=(5, 7)))

    assert_same_outcome(scenario)


def test_a_grad_cam_heat_map_of_an_infinite_activation():
    """The Grad-CAM step that met the problem: an activation map (with an overflowed
    element) upsampled to the image's size; the other positions keep finite values."""
    def scenario(torch):
        cam = torch.tensor([[[[0.5, INF], [0.25, 1.0]]]])
        heat = torch.nn.functional.interpolate(cam, size=(4, 4), mode="bilinear",
                                               align_corners=False)
        return heat, torch.isfinite(heat).sum()

    assert_same_outcome(scenario)
