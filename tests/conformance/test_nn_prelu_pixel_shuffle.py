"""``nn.PReLU``/``F.prelu`` and ``nn.PixelShuffle``/``PixelUnshuffle`` (and their ``F.``
functions) against real PyTorch: values, gradients of the input and the weight, the
graph, module hooks, the output's strides, and the errors for bad input.

Tolerances: ``prelu`` is one multiplication per element (exact); its weight's gradient
sums at most a few dozen float32 products, well inside ``rtol=1e-5``. The shuffles only
move values: exact.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, layout, leaf, upstream, values

PRELU_CASES = {
    "one slope for all channels": (lambda nn: nn.PReLU(), (2, 3, 4)),
    "a slope per channel": (lambda nn: nn.PReLU(3, init=0.1), (2, 3, 4, 2)),
    "per channel, batch of vectors": (lambda nn: nn.PReLU(4, init=-0.5), (3, 4)),
    "one slope, 1-d input": (lambda nn: nn.PReLU(init=0.3), (5,)),
    "one slope, 0-d input": (lambda nn: nn.PReLU(), ()),
}


@pytest.mark.parametrize(("make", "shape"), PRELU_CASES.values(), ids=PRELU_CASES.keys())
def test_prelu_layer(make, shape):
    """Values, both gradients, the graph (the weight reshaped by a ``ViewBackward0`` unless
    it already has the input's rank), the state dict, the repr and the output's layout."""
    def scenario(torch):
        layer = make(torch.nn)
        x = leaf(torch, values(shape, seed=1))
        out = layer(x)
        (out * upstream(torch, out)).sum().backward()
        return (repr(layer), list(layer.state_dict()), out, x.grad, layer.weight.grad,
                graph(out.grad_fn), layout(out), layout(x.grad))

    assert_same_outcome(scenario)


def test_prelu_keeps_the_inputs_memory_order():
    """The kernel is element-wise: a permuted input gives an output with its strides."""
    def scenario(torch):
        x = torch.tensor(values((2, 3, 4, 5), seed=2)).permute(0, 2, 3, 1)
        weight = torch.tensor([0.1, 0.2, 0.3, 0.4])
        return [layout(torch.nn.functional.prelu(x, w)) for w in (weight, weight[:1])]

    assert_same_outcome(scenario)


def test_prelu_at_zero_and_with_an_infinite_upstream_gradient():
    """``x = 0`` (and ``-0``) takes the slope's side; an infinite gradient at a negative
    position is scaled, not turned into ``nan``, but the weight's gradient ``0 * inf`` is."""
    def scenario(torch):
        x = torch.tensor([[0.0, -0.0, 1.0, -1.0, float("nan")]], requires_grad=True)
        weight = torch.tensor([0.3], requires_grad=True)
        out = torch.nn.functional.prelu(x, weight)
        out.backward(torch.tensor([[float("inf"), 1.0, float("inf"), float("inf"), 1.0]]))
        return out, x.grad, weight.grad

    assert_same_outcome(scenario)


def test_prelu_module_hooks_see_the_input_output_and_weight_gradient():
    def scenario(torch):
        layer = torch.nn.PReLU(2, init=0.2)
        seen = []
        layer.register_forward_pre_hook(lambda m, args: seen.append(("pre", args[0].clone())))
        layer.register_forward_hook(lambda m, args, out: seen.append(("forward", out.clone())))
        layer.register_full_backward_hook(
            lambda m, gin, gout: seen.append(("backward", gin[0].clone(), gout[0].clone())))
        layer.weight.register_hook(lambda g: seen.append(("weight grad", g.clone())))
        x = torch.tensor([[1.0, -2.0], [-3.0, 4.0]], requires_grad=True)
        layer(x).pow(2).sum().backward()
        return seen

    assert_same_outcome(scenario)


PRELU_ERRORS = {
    "0-d input, per-channel weight": ((), (3,), "float32"),
    "1-d input, per-channel weight": ((3,), (3,), "float32"),
    "channel count mismatch": ((2, 3, 4), (2,), "float32"),
    "2-d weight of the right size": ((2, 6), (2, 3), "float32"),
    "2-d weight of one element": ((2, 3), (1, 1), "float32"),
    "weight of another dtype": ((2, 3), (3,), "float64"),
    "integer tensors": ((2, 3), (3,), "int64"),
}


@pytest.mark.parametrize(("shape", "weight_shape", "weight_dtype"), PRELU_ERRORS.values(),
                         ids=PRELU_ERRORS.keys())
def test_prelu_errors(shape, weight_shape, weight_dtype):
    def scenario(torch):
        dtype = getattr(torch, weight_dtype)
        x = torch.ones(shape, dtype=torch.int64 if weight_dtype == "int64" else torch.float32)
        return torch.nn.functional.prelu(x, torch.ones(weight_shape, dtype=dtype))

    assert_same_outcome(scenario)


def test_prelu_weight_must_be_a_tensor():
    def scenario(torch):
        return torch.nn.functional.prelu(torch.ones(2, 3), 0.25)

    assert_same_outcome(scenario)


SHUFFLES = {
    "shuffle by 2": (lambda nn: nn.PixelShuffle(2), (2, 8, 3, 3)),
    "shuffle by 3, unbatched": (lambda nn: nn.PixelShuffle(3), (9, 2, 2)),
    "shuffle by 1": (lambda nn: nn.PixelShuffle(1), (1, 3, 2, 2)),
    "shuffle, two batch dims": (lambda nn: nn.PixelShuffle(2), (2, 2, 4, 1, 3)),
    "unshuffle by 2": (lambda nn: nn.PixelUnshuffle(2), (2, 3, 4, 6)),
    "unshuffle by 3, unbatched": (lambda nn: nn.PixelUnshuffle(3), (1, 3, 6)),
}


@pytest.mark.parametrize(("make", "shape"), SHUFFLES.values(), ids=SHUFFLES.keys())
def test_pixel_shuffle_layer(make, shape):
    """Where each value goes, its gradient's way back, the node with its saved factor, the
    repr, and a contiguous output, never a view of the input (even for a factor of 1)."""
    def scenario(torch):
        layer = make(torch.nn)
        x = leaf(torch, np.arange(np.prod(shape), dtype=np.float32).reshape(shape))
        out = layer(x)
        (out * upstream(torch, out)).sum().backward()
        factor = next(getattr(out.grad_fn, f"_saved_{name}") for name in
                      ("upscale_factor", "downscale_factor")
                      if hasattr(out.grad_fn, f"_saved_{name}"))
        return (repr(layer), out, x.grad, graph(out.grad_fn), factor, layout(out),
                out._base is None)

    assert_same_outcome(scenario)


def test_pixel_shuffle_of_a_non_contiguous_input_is_contiguous():
    def scenario(torch):
        x = torch.arange(96.0).reshape(2, 4, 3, 4).transpose(-1, -2)
        y = torch.arange(72.0).reshape(2, 4, 3, 3)[:, ::2]
        functional = torch.nn.functional
        z = torch.arange(64.0).reshape(1, 8, 8).transpose(-1, -2)
        outputs = (functional.pixel_shuffle(x, 2), functional.pixel_shuffle(y, 1),
                   functional.pixel_unshuffle(z, 2))
        return [(out, layout(out)) for out in outputs]

    assert_same_outcome(scenario)


def test_pixel_unshuffle_undoes_pixel_shuffle_and_back_through_hooks():
    """A round trip in a ``Sequential``: forward hooks see each layer's output, backward
    hooks each gradient, and the input comes back unchanged."""
    def scenario(torch):
        nn = torch.nn
        model = nn.Sequential(nn.PixelShuffle(2), nn.PixelUnshuffle(2))
        seen = []
        for name, layer in model.named_children():
            layer.register_forward_hook(
                lambda m, args, out, name=name: seen.append((name, out.shape, out.clone())))
            layer.register_full_backward_hook(
                lambda m, gin, gout, name=name: seen.append((name, gin[0].clone())))
        x = torch.arange(16.0).reshape(1, 4, 2, 2).requires_grad_()
        out = model(x)
        out.backward(torch.arange(16.0).reshape(1, 4, 2, 2))
        return seen, torch.equal(out, x), x.grad

    assert_same_outcome(scenario)


SHUFFLE_ERRORS = {
    "shuffle channels not divisible": ("pixel_shuffle", (2, 6, 3, 3), 2),
    "shuffle 2-d input": ("pixel_shuffle", (8, 3), 2),
    "shuffle zero factor": ("pixel_shuffle", (2, 6, 3, 3), 0),
    "shuffle negative factor": ("pixel_shuffle", (2, 8, 3, 3), -1),
    "shuffle float factor": ("pixel_shuffle", (2, 8, 3, 3), 2.0),
    "shuffle bool factor": ("pixel_shuffle", (2, 8, 3, 3), True),
    "unshuffle height not divisible": ("pixel_unshuffle", (2, 8, 3, 3), 2),
    "unshuffle width not divisible": ("pixel_unshuffle", (2, 7, 4, 3), 2),
    "unshuffle 2-d input": ("pixel_unshuffle", (8, 3), 2),
    "unshuffle zero factor": ("pixel_unshuffle", (2, 8, 4, 4), 0),
    "unshuffle float factor": ("pixel_unshuffle", (2, 8, 4, 4), 2.0),
}


@pytest.mark.parametrize(("name", "shape", "factor"), SHUFFLE_ERRORS.values(),
                         ids=SHUFFLE_ERRORS.keys())
def test_pixel_shuffle_errors(name, shape, factor):
    def scenario(torch):
        return getattr(torch.nn.functional, name)(torch.ones(shape), factor)

    assert_same_outcome(scenario)


def test_pixel_shuffle_input_must_be_a_tensor():
    def scenario(torch):
        return torch.nn.functional.pixel_shuffle([1.0], 2)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["pixel_shuffle", "pixel_unshuffle"])
def test_a_factor_given_by_keyword_has_no_position_in_the_error(name):
    def scenario(torch):
        factor = "upscale_factor" if name == "pixel_shuffle" else "downscale_factor"
        return getattr(torch.nn.functional, name)(torch.ones(1, 4, 2, 2), **{factor: 2.0})

    assert_same_outcome(scenario)


def test_the_torch_level_functions():
    """``torch.prelu``, ``torch.pixel_shuffle`` and ``torch.pixel_unshuffle`` are the same
    operations, with the same argument checks."""
    def scenario(torch):
        x = torch.arange(-8.0, 8.0).reshape(1, 4, 2, 2)
        return (torch.prelu(x, torch.tensor([0.1, 0.2, 0.3, 0.4])), torch.pixel_shuffle(x, 2),
                torch.pixel_unshuffle(x, 2), _raised(torch.prelu, x, 0.25),
                _raised(torch.pixel_shuffle, x, 1.5))

    assert_same_outcome(scenario)


def _raised(function, *args):
    try:
        function(*args)
    except TypeError as error:
        return str(error)
    return "no error"
