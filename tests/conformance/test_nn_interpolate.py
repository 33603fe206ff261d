"""``F.interpolate`` in every mode and every number of dimensions against real
PyTorch: 'linear' (3-d), 'bicubic' (4-d), 'trilinear' (5-d), 'nearest' and 'nearest-exact'
(3-d to 5-d) and 'area', with ``size`` or ``scale_factor``, ``recompute_scale_factor`` and
``align_corners`` True, False and left out, and 'bilinear', 'bicubic' and 'lanczos' with
``antialias=True``; forward values, graphs, gradients, what the nodes save, float64,
``nn.Upsample`` with these modes, and the errors of every wrong mode, dimension or
argument.

Values and gradients are compared within float32's rounding: PyTorch's kernels sum an
output's taps in an order of their own (and its bicubic backward multiplies both axes'
weights at once), so the last bit can differ; the node names, shapes, strides and errors
are exact.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import caught, graph, layout, leaf, saved, second_order, upstream, values

SHAPES = {"linear": (2, 3, 5), "bicubic": (1, 2, 5, 4), "trilinear": (1, 2, 3, 4, 5),
          "nearest 1d": (2, 2, 5), "nearest 3d": (1, 2, 3, 4, 5),
          "nearest-exact 1d": (2, 2, 5), "nearest-exact 2d": (1, 2, 5, 4),
          "nearest-exact 3d": (1, 1, 3, 4, 5), "area 1d": (1, 2, 7), "area 3d": (1, 1, 5, 6, 7)}

SIZES = {
    "x2": {"scale_factor": 2},
    "down": {"scale_factor": 0.6},
    "fractional scale recomputed": {"scale_factor": 1.7, "recompute_scale_factor": True},
    "fractional scale kept": {"scale_factor": 1.7, "recompute_scale_factor": False},
    "to a size": {"size": 7},
    "to one": {"size": 1},
    "scale 1.3": {"scale_factor": 1.3},
}
ALIGN = {"align_corners left out": {}, "align_corners=True": {"align_corners": True},
         "align_corners=False": {"align_corners": False}}
INTERPOLATING = ("linear", "bicubic", "trilinear")

CASES = {
    f"{shape_name}, {size_name}, {align_name}": (shape_name, size_kwargs, align_kwargs)
    for shape_name in SHAPES for size_name, size_kwargs in SIZES.items()
    for align_name, align_kwargs in ALIGN.items()
    if shape_name in INTERPOLATING or not align_kwargs
}


def interpolate_run(torch, shape, dtype=np.float32, **kwargs):
    x = leaf(torch, values(shape, seed=len(shape), dtype=dtype))
    out = torch.nn.functional.interpolate(x, **kwargs)
    (out * upstream(torch, out)).sum().backward()
    return {"out": out, "layout": layout(out), "graph": graph(out.grad_fn), "grad": x.grad}


@pytest.mark.parametrize(("shape_name", "size_kwargs", "align_kwargs"), CASES.values(),
                         ids=CASES.keys())
def test_interpolate(shape_name, size_kwargs, align_kwargs):
    mode = shape_name.split()[0]
    assert_same_outcome(lambda torch: interpolate_run(
        torch, SHAPES[shape_name], mode=mode, **size_kwargs, **align_kwargs))


MORE = {
    "linear, scale tuple": ((1, 1, 6), {"scale_factor": (2.5,), "mode": "linear"}),
    "bicubic, a scale per axis": ((1, 1, 4, 6), {"scale_factor": (1.5, 0.5), "mode": "bicubic",
                                                 "align_corners": True}),
    "bicubic, a size per axis": ((2, 1, 3, 7), {"size": (8, 4), "mode": "bicubic"}),
    "bicubic, same size, scale 1.3": ((1, 1, 3, 3), {"scale_factor": 1.3, "mode": "bicubic"}),
    "bicubic from one pixel": ((1, 1, 1, 1), {"size": (3, 2), "mode": "bicubic"}),
    "bicubic from a row, align_corners": ((1, 1, 1, 5), {"size": (3, 9), "mode": "bicubic",
                                                         "align_corners": True}),
    "trilinear, a size per axis": ((1, 2, 2, 3, 4), {"size": (3, 3, 7), "mode": "trilinear",
                                                     "align_corners": True}),
    "trilinear, one axis kept": ((1, 1, 3, 3, 3), {"scale_factor": (1.0, 2.0, 0.7),
                                                   "mode": "trilinear"}),
    "linear, an empty batch": ((0, 2, 4), {"size": 6, "mode": "linear"}),
    "bicubic, an empty batch": ((0, 1, 3, 3), {"scale_factor": 2, "mode": "bicubic"}),
}


@pytest.mark.parametrize(("shape", "kwargs"), MORE.values(), ids=MORE.keys())
def test_interpolate_more(shape, kwargs):
    assert_same_outcome(lambda torch: interpolate_run(torch, shape, **kwargs))


FLOAT64 = {
    "linear": ((2, 2, 5), {"scale_factor": 1.7, "mode": "linear"}),
    "bicubic": ((1, 2, 4, 5), {"size": (7, 3), "mode": "bicubic"}),
    "bicubic align_corners": ((1, 1, 4, 5), {"size": (7, 9), "mode": "bicubic",
                                             "align_corners": True}),
    "trilinear": ((1, 1, 3, 4, 5), {"scale_factor": 1.5, "mode": "trilinear"}),
}


@pytest.mark.parametrize(("shape", "kwargs"), FLOAT64.values(), ids=FLOAT64.keys())
def test_interpolate_float64_computes_in_float64(shape, kwargs):
    """A float64 input is resized with float64 positions and weights, as PyTorch's kernels
    compute in the input's precision (float32 ones would be off by about 1e-8)."""
    assert_same_outcome(lambda torch: interpolate_run(torch, shape, dtype=np.float64, **kwargs),
                        rtol=1e-12, atol=1e-13)


ANTIALIAS = {
    "bilinear down": ((1, 2, 9, 7), {"size": (3, 4), "mode": "bilinear"}),
    "bicubic down": ((1, 2, 9, 7), {"size": (3, 4), "mode": "bicubic"}),
    "bilinear down by a scale, align_corners": ((2, 1, 5, 12), {
        "scale_factor": 0.37, "mode": "bilinear", "align_corners": True}),
    "bicubic down by a scale, align_corners": ((2, 1, 5, 12), {
        "scale_factor": 0.37, "mode": "bicubic", "align_corners": True}),
    "bilinear, one axis kept": ((1, 1, 6, 8), {"scale_factor": (0.5, 1.0), "mode": "bilinear"}),
    "bicubic to one pixel": ((1, 1, 6, 5), {"size": 1, "mode": "bicubic"}),
    "bicubic up": ((1, 1, 3, 4), {"scale_factor": 2.3, "mode": "bicubic"}),
    "bilinear, same size": ((1, 1, 3, 4), {"size": (3, 4), "mode": "bilinear"}),
    "bicubic down, recomputed": ((1, 2, 9, 7), {"scale_factor": 0.6, "mode": "bicubic",
                                               "recompute_scale_factor": True}),
    "lanczos down": ((1, 2, 9, 7), {"size": (3, 4), "mode": "lanczos"}),
    "lanczos down by a scale": ((2, 1, 5, 12), {"scale_factor": 0.37, "mode": "lanczos"}),
    "lanczos up, one axis kept": ((1, 1, 3, 4), {"scale_factor": (2.3, 1.0),
                                                 "mode": "lanczos"}),
}


@pytest.mark.parametrize(("shape", "kwargs"), ANTIALIAS.values(), ids=ANTIALIAS.keys())
def test_antialias(shape, kwargs):
    assert_same_outcome(lambda torch: interpolate_run(torch, shape, antialias=True, **kwargs))


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
def test_antialias_float64(mode):
    assert_same_outcome(lambda torch: interpolate_run(
        torch, (1, 2, 11, 6), dtype=np.float64, size=(4, 3), mode=mode, antialias=True),
        rtol=1e-12, atol=1e-13)


def test_what_the_nodes_save():
    def scenario(torch):
        F = torch.nn.functional  # noqa: N806 - torch's own name for the module
        calls = [((2, 5), {"scale_factor": 2.0, "mode": "linear"}),
                 ((2, 5, 4), {"size": (3, 9), "mode": "bicubic", "align_corners": True}),
                 ((1, 3, 4, 5), {"scale_factor": (2.0, 1.5, 0.5), "mode": "trilinear"}),
                 ((2, 5), {"size": 3}),
                 ((1, 3, 4, 5), {"scale_factor": 1.5}),
                 ((2, 5), {"scale_factor": 1.5, "mode": "nearest-exact"}),
                 ((2, 5, 4), {"size": 3, "mode": "nearest-exact"}),
                 ((1, 3, 4, 5), {"scale_factor": 2.0, "mode": "nearest-exact",
                                 "recompute_scale_factor": True}),
                 ((2, 9, 4), {"size": (3, 3), "mode": "bilinear", "antialias": True}),
                 ((2, 9, 4), {"scale_factor": 0.5, "mode": "bicubic", "antialias": True,
                              "align_corners": True}),
                 ((2, 9, 4), {"size": (5, 2), "mode": "lanczos", "antialias": True})]
        return [saved(F.interpolate(leaf(torch, values((1, *shape))), **kwargs).grad_fn)
                for shape, kwargs in calls]

    assert_same_outcome(scenario)


def test_nearest_copies_an_unchanged_axis_in_2d_only_but_its_gradient_always():
    """With ``scale_factor=1.3`` on an axis of 3, 'nearest' copies the axis in 2-d, but in
    1-d and 3-d reads inputs 0, 0, 1; its backward copies the gradient back to 0, 1, 2 in
    every case (PyTorch's forward kernels and ``nearest_idx`` differ there)."""
    def scenario(torch):
        results = []
        for shape, scale in (((1, 1, 3), 1.3), ((1, 1, 3, 1), (1.3, 1.0)),
                             ((1, 1, 3, 1, 1), (1.3, 1.0, 1.0))):
            x = torch.arange(3.0).reshape(shape).requires_grad_()
            out = torch.nn.functional.interpolate(x, scale_factor=scale)
            out.backward(torch.tensor([1.0, 2.0, 4.0]).reshape(shape))
            results.append((out, x.grad))
        return results

    assert_same_outcome(scenario)


def test_second_derivatives():
    def op(torch, x):
        return torch.nn.functional.interpolate(x, size=(5, 3), mode="bicubic") ** 2

    assert_same_outcome(lambda torch: second_order(torch, op, values((1, 2, 3, 4), seed=5)),
                        rtol=1e-10, atol=1e-12)


ERRORS = {
    "linear 4d": ((1, 1, 4, 4), {"size": 2, "mode": "linear"}),
    "linear 5d": ((1, 1, 4, 4, 4), {"size": 2, "mode": "linear"}),
    "trilinear 3d": ((1, 1, 4), {"size": 2, "mode": "trilinear"}),
    "trilinear 4d": ((1, 1, 4, 4), {"size": 2, "mode": "trilinear"}),
    "bilinear 5d": ((1, 1, 4, 4, 4), {"size": 2, "mode": "bilinear"}),
    "bicubic 3d": ((1, 1, 4), {"size": 2, "mode": "bicubic"}),
    "bicubic 5d": ((1, 1, 4, 4, 4), {"size": 2, "mode": "bicubic"}),
    "nearest 2d": ((1, 4), {"size": 2}),
    "linear 6d": ((1, 1, 1, 1, 1, 4), {"size": 2, "mode": "linear"}),
    "lanczos 3d": ((1, 1, 4), {"size": 2, "mode": "lanczos"}),
    "lanczos without antialias": ((1, 1, 4, 4), {"size": 2, "mode": "lanczos"}),
    "lanczos align_corners": ((1, 1, 4, 4), {"size": 2, "mode": "lanczos",
                                             "align_corners": True, "antialias": True}),
    "lanczos 5d": ((1, 1, 4, 4, 4), {"size": 2, "mode": "lanczos", "antialias": True}),
    "area align_corners": ((1, 1, 4), {"size": 2, "mode": "area", "align_corners": False}),
    "nearest-exact align_corners": ((1, 1, 4), {"size": 2, "mode": "nearest-exact",
                                                "align_corners": True}),
    "antialias linear": ((1, 1, 4), {"size": 3, "mode": "linear", "antialias": True}),
    "antialias trilinear": ((1, 1, 4, 4, 4), {"size": 3, "mode": "trilinear",
                                              "antialias": True}),
    "antialias nearest": ((1, 1, 4, 4), {"size": 3, "antialias": True}),
    "antialias bilinear to nothing": ((1, 1, 4, 4), {"size": 0, "mode": "bilinear",
                                                     "antialias": True}),
    "antialias bicubic, no channels": ((1, 0, 4, 4), {"size": 3, "mode": "bicubic",
                                                      "antialias": True}),
    "recompute with a size": ((1, 1, 4), {"size": 2, "mode": "linear",
                                          "recompute_scale_factor": True}),
    "a size of floats": ((1, 1, 4), {"size": (2.0,), "mode": "linear"}),
    "a size too short": ((1, 1, 4, 4, 4), {"size": (2, 2), "mode": "trilinear"}),
    "linear to nothing": ((1, 1, 4), {"size": 0, "mode": "linear"}),
    "linear from nothing": ((1, 1, 0), {"size": 3, "mode": "linear"}),
    "linear negative scale": ((1, 1, 3), {"scale_factor": -1.5, "mode": "linear"}),
    "bicubic to nothing": ((1, 1, 2, 2), {"size": (1, 0), "mode": "bicubic"}),
    "trilinear to nothing": ((1, 1, 2, 2, 2), {"size": (1, 0, 2), "mode": "trilinear"}),
    "nearest 3d to nothing": ((1, 1, 2, 2, 2), {"scale_factor": 0.4}),
    "linear, no channels": ((1, 0, 4), {"size": 3, "mode": "linear"}),
    "bicubic, no channels": ((1, 0, 2, 2), {"size": 3, "mode": "bicubic"}),
    "nearest 1d, no channels": ((2, 0, 2), {"size": 3}),
}


@pytest.mark.parametrize(("shape", "kwargs"), ERRORS.values(), ids=ERRORS.keys())
def test_errors(shape, kwargs):
    assert_same_outcome(lambda torch: torch.nn.functional.interpolate(torch.ones(shape),
                                                                      **kwargs))


def test_dtypes_the_kernels_refuse():
    def scenario(torch):
        F = torch.nn.functional  # noqa: N806 - torch's own name for the module
        return [caught(lambda shape=shape, dtype=dtype, mode=mode: F.interpolate(
                    torch.ones(shape, dtype=dtype), scale_factor=2, mode=mode))
                for dtype in (torch.int64, torch.int32, torch.bool)
                for mode, shape in (("linear", (1, 1, 4)), ("bicubic", (1, 1, 3, 3)),
                                    ("trilinear", (1, 1, 2, 2, 2)), ("nearest", (1, 1, 4)),
                                    ("nearest", (1, 1, 3, 3)), ("nearest", (1, 1, 2, 2, 2)),
                                    ("nearest-exact", (1, 1, 3, 3)),
                                    ("bilinear", (1, 1, 3, 3)))] + [
            caught(lambda dtype=dtype, mode=mode: F.interpolate(
                torch.ones(1, 1, 4, 4, dtype=dtype), size=3, mode=mode, antialias=True))
            for dtype in (torch.int64, torch.float16, torch.bool)
            for mode in ("bilinear", "bicubic", "lanczos")]

    assert_same_outcome(scenario)


def test_uint8_volumes_and_signals_by_their_nearest_elements():
    def scenario(torch):
        signal = torch.arange(5, dtype=torch.uint8).reshape(1, 1, 5)
        volume = torch.arange(24, dtype=torch.uint8).reshape(1, 1, 2, 3, 4)
        F = torch.nn.functional  # noqa: N806 - torch's own name for the module
        return (F.interpolate(signal, size=8), F.interpolate(volume, scale_factor=1.5),
                F.interpolate(signal, size=3, mode="nearest-exact"))

    assert_same_outcome(scenario)


LAYERS = {
    "linear": ({"scale_factor": 2, "mode": "linear"}, (2, 3, 4)),
    "linear align_corners": ({"size": 7, "mode": "linear", "align_corners": True}, (2, 3, 4)),
    "bicubic": ({"scale_factor": (1.5, 2), "mode": "bicubic"}, (2, 2, 4, 5)),
    "bicubic align_corners": ({"size": (3, 8), "mode": "bicubic", "align_corners": True},
                              (1, 2, 4, 5)),
    "trilinear": ({"scale_factor": 2, "mode": "trilinear"}, (1, 2, 2, 3, 2)),
    "trilinear recomputed": ({"scale_factor": 1.6, "mode": "trilinear",
                              "recompute_scale_factor": True}, (1, 1, 3, 3, 2)),
    "nearest 3d": ({"scale_factor": 2}, (1, 2, 2, 3, 2)),
}


@pytest.mark.parametrize(("kwargs", "shape"), LAYERS.values(), ids=LAYERS.keys())
def test_upsample_layer(kwargs, shape):
    def scenario(torch):
        layer, seen = torch.nn.Upsample(**kwargs), []
        layer.register_forward_hook(lambda m, inputs, out: seen.append(out.shape))
        x = leaf(torch, values(shape, seed=3))
        out = layer(x)
        (out * upstream(torch, out)).sum().backward()
        return repr(layer), layer.state_dict(), out, seen, x.grad

    assert_same_outcome(scenario)
