"""Padding layers, ``UpsamplingNearest2d``/``UpsamplingBilinear2d``, ``Dropout1d/2d/3d``
(channel dropout with PyTorch's draws and warnings), and ``Hardtanh``, ``ReLU6``,
``Hardswish`` (values, gradients, nodes, in place, inf upstream gradients) against real
PyTorch.

Tolerances: elementwise float32 operations and bilinear weights, a few roundings each:
``rtol=1e-5``, ``atol=1e-6``. Dropout masks compare exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome

LAYERS = {
    "zero_pad_2d": (lambda nn: nn.ZeroPad2d((1, 2, 0, 1)), 4),
    "zero_pad_1d": (lambda nn: nn.ZeroPad1d(2), 3),
    "constant_pad_1d": (lambda nn: nn.ConstantPad1d(2, 3.5), 3),
    "constant_pad_2d": (lambda nn: nn.ConstantPad2d((0, 1, 2, 0), -1.0), 4),
    "reflection_pad_1d": (lambda nn: nn.ReflectionPad1d((1, 2)), 3),
    "reflection_pad_2d": (lambda nn: nn.ReflectionPad2d(1), 4),
    "replication_pad_1d": (lambda nn: nn.ReplicationPad1d(1), 3),
    "replication_pad_2d": (lambda nn: nn.ReplicationPad2d((1, 0, 2, 1)), 4),
    "upsampling_nearest": (lambda nn: nn.UpsamplingNearest2d(scale_factor=2), 4),
    "upsampling_bilinear": (lambda nn: nn.UpsamplingBilinear2d(size=(5, 7)), 4),
    "relu6": (lambda nn: nn.ReLU6(), 4),
    "hardtanh": (lambda nn: nn.Hardtanh(-2, 3), 4),
    "hardtanh_default": (lambda nn: nn.Hardtanh(), 3),
    "hardswish": (lambda nn: nn.Hardswish(), 4),
}


def _input(torch, dims):
    shape = (2, 3, 4, 4)[-dims:] if dims < 4 else (2, 3, 4, 4)
    data = np.linspace(-7, 7, int(np.prod(shape)), dtype=np.float32).reshape(shape)
    return torch.tensor(data, requires_grad=True)


@pytest.mark.parametrize("case", LAYERS.values(), ids=LAYERS.keys())
def test_layer_values_gradients_and_node(case):
    make, dims = case

    def scenario(torch):
        layer = make(torch.nn)
        x = _input(torch, dims)
        y = layer(x)
        y.backward(torch.ones_like(y) * 2)
        return repr(layer), y, x.grad, y.grad_fn.name()

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


PADDING_MODES = ["Circular", "Constant", "Reflection", "Replication", "Zero"]


@pytest.mark.parametrize("mode", PADDING_MODES)
def test_padding_layers_make_their_tuples_and_reprs_as_pytorchs(mode):
    """Every padding class: one number, a list and a ``range`` become its tuple (of any
    length: the length is F.pad's to check), its repr, and a call without arguments."""
    def scenario(torch):
        answers = []
        for dims in (1, 2, 3):
            cls = getattr(torch.nn, f"{mode}Pad{dims}d")
            for padding in (1, [1, 2], range(4)):
                layer = cls(padding, 2.5) if mode == "Constant" else cls(padding)
                answers.append((repr(layer), layer.padding))
            try:
                cls()
            except TypeError as error:
                answers.append(str(error))
        return answers

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_circular_padding_checks_the_input_dimensions_first(dims):
    """The layer itself refuses an input of the wrong number of dimensions, before F.pad
    (an ``n``-d layer takes ``n + 1`` or ``n + 2`` dimensions)."""
    def scenario(torch):
        layer = getattr(torch.nn, f"CircularPad{dims}d")(1)
        answers = []
        for wrong in (dims, dims + 3):
            try:
                layer(torch.ones(*[3] * wrong))
            except ValueError as error:
                answers.append(str(error))
        return answers

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["hardtanh", "relu6", "hardswish"])
def test_gradient_is_selected_not_masked(name):
    """Clipped positions, and the ends of the range, get 0 even from an infinite or nan
    upstream gradient; the node saves its input and bounds."""
    def scenario(torch):
        x = torch.tensor([-4.0, -3.0, -1.0, 0.0, 1.0, 3.0, 6.0, 7.0], requires_grad=True)
        y = getattr(torch.nn.functional, name)(x)
        upstream = torch.tensor([float("inf"), float("nan"), 1.0, 1.0, 1.0, float("inf"),
                                 float("-inf"), float("nan")])
        (grad,) = torch.autograd.grad(y, x, upstream)
        node = y.grad_fn
        saved = {key: getattr(node, key) for key in ("_saved_min_val", "_saved_max_val",
                                                     "_saved_self") if hasattr(node, key)}
        return y, grad, saved

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["relu6", "hardswish", "hardtanh"])
def test_in_place(name):
    def scenario(torch):
        leaf = torch.tensor([-4.0, -1.0, 0.5, 7.0], requires_grad=True)
        x = leaf * 1
        out = getattr(torch.nn.functional, name)(x, inplace=True)
        out.sum().backward()
        return out is x, x._version, x.grad_fn.name(), leaf.grad

    assert_same_outcome(scenario)


def test_hard_activation_errors_and_integers():
    def scenario(torch):
        F = torch.nn.functional  # noqa: N806 - the name everyone reads
        results = [F.hardtanh(torch.tensor([1, 5, -3])), F.relu6(torch.tensor([1, 7, -3]))]
        for call in (lambda: F.hardtanh(torch.ones(2), 2, 1),
                     lambda: F.hardswish(torch.tensor([1, 7, -3])),
                     lambda: torch.nn.Hardtanh(2, 1)):
            try:
                call()
            except (ValueError, NotImplementedError, AssertionError) as error:
                results.append((type(error).__name__, str(error)))
        return results

    assert_same_outcome(scenario)


DROPOUTS = {
    "dropout1d": ("dropout1d", (2, 3, 5)),
    "dropout1d_unbatched": ("dropout1d", (3, 5)),
    "dropout2d": ("dropout2d", (2, 3, 4, 4)),
    "dropout2d_3d_input_warns": ("dropout2d", (2, 3, 4)),
    "dropout2d_5d_input_warns": ("dropout2d", (1, 2, 3, 2, 2)),
    "dropout3d": ("dropout3d", (2, 3, 2, 2, 2)),
    "dropout3d_unbatched": ("dropout3d", (3, 2, 2, 2)),
    "dropout3d_3d_input_warns": ("dropout3d", (3, 2, 2)),
}


@pytest.mark.parametrize("case", DROPOUTS.values(), ids=DROPOUTS.keys())
def test_channel_dropout_draws_like_pytorch(case):
    name, shape = case

    def scenario(torch):
        torch.manual_seed(3)
        x = torch.ones(shape, requires_grad=True)
        y = getattr(torch.nn.functional, name)(x, 0.4)
        y.sum().backward()
        return y, x.grad, y.grad_fn.name(), torch.rand(2)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["Dropout1d", "Dropout2d", "Dropout3d"])
def test_dropout_layers_train_eval_inplace_and_errors(name):
    def scenario(torch):
        torch.manual_seed(4)
        shape = {"Dropout1d": (2, 3, 4), "Dropout2d": (2, 3, 2, 2),
                 "Dropout3d": (2, 3, 1, 2, 2)}[name]
        layer = getattr(torch.nn, name)(p=0.5, inplace=True)
        x = torch.ones(shape) * 1
        trained = layer(x)
        layer.eval()
        evaluated = layer(torch.ones(shape))
        results = [repr(layer), trained is x, x, evaluated]
        for bad in (-0.1, 1.5):
            try:
                getattr(torch.nn, name)(p=bad)
            except ValueError as error:
                results.append(str(error))
        try:
            torch.nn.functional.dropout1d(torch.ones(2, 3, 4, 5))
        except RuntimeError as error:
            results.append(str(error))
        return results

    assert_same_outcome(scenario)


def test_dropout_everything_and_nothing():
    def scenario(torch):
        F = torch.nn.functional  # noqa: N806 - the name everyone reads
        x = torch.ones(2, 3, 4, requires_grad=True)
        return F.dropout1d(x, 1.0), F.dropout1d(x, 0.0) is x, F.dropout1d(x, 0.7,
                                                                          training=False) is x

    assert_same_outcome(scenario)
