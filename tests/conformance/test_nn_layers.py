"""Layers, containers and losses against real PyTorch: forward values, the nodes each layer
records, gradients after backward, reprs, the container APIs and their errors, every loss
reduction, and Dropout in training and evaluation mode."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, upstream, values

WEIGHT, BIAS = values((3, 4), seed=10), values((3,), seed=11)


def linear(torch, bias=True):
    """An ``nn.Linear(4, 3)`` with fixed weights (no random numbers involved)."""
    layer = torch.nn.Linear(4, 3, bias=bias)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor(WEIGHT))
        if bias:
            layer.bias.copy_(torch.tensor(BIAS))
    return layer


def forward_backward(torch, module, x):
    """The output, its graph and every gradient after a backward with mixed weights."""
    out = module(x)
    (out * upstream(torch, out)).sum().backward()
    return {"out": out, "graph": graph(out.grad_fn), "input_grad": x.grad,
            "param_grads": {name: p.grad for name, p in module.named_parameters()}}


# -- Linear and Identity --------------------------------------------------------------------

@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
@pytest.mark.parametrize("shape", [(4,), (5, 4), (2, 5, 4), (2, 1, 3, 4), (0, 4)], ids=str)
def test_linear_records_what_pytorch_records(shape, bias):
    def scenario(torch):
        return forward_backward(torch, linear(torch, bias), leaf(torch, values(shape, seed=1)))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


NON_CONTIGUOUS = {
    "permuted_3d": ((4, 5, 2), lambda x: x.permute(1, 2, 0)),
    "strided_1d": ((8,), lambda x: x[::2]),
    "transposed_2d": ((4, 5), lambda x: x.t()),
}


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
@pytest.mark.parametrize("shape, view", NON_CONTIGUOUS.values(), ids=NON_CONTIGUOUS.keys())
def test_linear_on_a_non_contiguous_input(shape, view, bias):
    def scenario(torch):
        x = leaf(torch, values(shape, seed=2))
        return forward_backward(torch, linear(torch, bias), view(x)), x.grad

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


def test_linear_input_that_does_not_require_grad():
    def scenario(torch):
        layer = linear(torch)
        out = layer(torch.tensor(values((2, 4), seed=3)))
        out.sum().backward()
        return out, graph(out.grad_fn), layer.weight.grad, layer.bias.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
@pytest.mark.parametrize("shape", [(5, 3), (3,), (2, 5, 3), ()], ids=str)
def test_linear_with_the_wrong_input_shape(shape, bias):
    assert_same_outcome(lambda torch: linear(torch, bias)(torch.ones(shape)))


def test_functional_linear_and_its_namespace():
    def scenario(torch):
        import importlib

        functional = importlib.import_module(torch.__name__ + ".nn.functional")
        x = leaf(torch, values((2, 4), seed=4))
        w, b = leaf(torch, WEIGHT), leaf(torch, BIAS)
        out = functional.linear(x, w, b)
        return functional is torch.nn.functional, out, graph(out.grad_fn)

    assert_same_outcome(scenario)


def test_linear_parameters_repr_and_dtype():
    def scenario(torch):
        layer, plain = torch.nn.Linear(10, 5), torch.nn.Linear(3, 4, bias=False)
        double = torch.nn.Linear(2, 2, dtype=torch.float64)
        return (repr(layer), repr(plain), [(n, tuple(p.shape), type(p).__name__)
                                           for n, p in layer.named_parameters()],
                plain.bias, list(dict(plain.named_parameters())), double.weight.dtype,
                double.bias.dtype, layer.weight.requires_grad, layer.in_features,
                layer.out_features)

    assert_same_outcome(scenario)


def test_identity_returns_its_input_and_ignores_arguments():
    def scenario(torch):
        layer = torch.nn.Identity(54, unused=0.1)
        x = torch.ones(2, requires_grad=True)
        return layer(x) is x, repr(layer), list(layer.parameters())

    assert_same_outcome(scenario)


# -- activations, Flatten -------------------------------------------------------------------

ACTIVATIONS = {
    "ReLU": lambda nn: nn.ReLU(),
    "Tanh": lambda nn: nn.Tanh(),
    "Sigmoid": lambda nn: nn.Sigmoid(),
    "Softmax(dim=1)": lambda nn: nn.Softmax(dim=1),
    "Softmax(dim=0)": lambda nn: nn.Softmax(0),
    "LogSoftmax(dim=-1)": lambda nn: nn.LogSoftmax(dim=-1),
}


@pytest.mark.parametrize("make", ACTIVATIONS.values(), ids=ACTIVATIONS.keys())
def test_activation_forward_backward_and_repr(make):
    def scenario(torch):
        layer = make(torch.nn)
        return forward_backward(torch, layer, leaf(torch, values((3, 4), seed=5))), repr(layer)

    assert_same_outcome(scenario)


def test_relu_in_place_overwrites_a_non_leaf_and_records_its_node():
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=6))
        y = x * 2
        layer = torch.nn.ReLU(inplace=True)
        out = layer(y)
        out.sum().backward()
        return out is y, y, graph(out.grad_fn), x.grad, repr(layer)

    assert_same_outcome(scenario)


IN_PLACE_RELUS = {
    "nn.ReLU(inplace=True)": lambda torch, y: torch.nn.ReLU(inplace=True)(y),
    "F.relu(inplace=True)": lambda torch, y: torch.nn.functional.relu(y, inplace=True),
    "torch.relu_": lambda torch, y: torch.relu_(y),
    "F.relu_": lambda torch, y: torch.nn.functional.relu_(y),
    "Tensor.relu_": lambda torch, y: y.relu_(),
}


@pytest.mark.parametrize("relu", IN_PLACE_RELUS.values(), ids=IN_PLACE_RELUS.keys())
@pytest.mark.parametrize("hooked", ["full backward hook", "no hook"])
def test_relu_in_place_after_a_module_with_a_full_backward_hook(relu, hooked):
    """The hooked module's output is a view made by a custom Function (the identity that
    runs the hooks), which may not be changed in place; without the hook it may."""
    def scenario(torch):
        seen = []
        layer = linear(torch)
        if hooked == "full backward hook":
            layer.register_full_backward_hook(lambda m, gi, go: seen.append(go))
        x = leaf(torch, values((2, 4), seed=9))
        out = relu(torch, layer(x))
        out.sum().backward()
        return out, graph(out.grad_fn), x.grad, seen

    assert_same_outcome(scenario)


def test_switching_inplace_off_makes_the_hooked_model_work():
    def scenario(torch):
        seen = []
        model = torch.nn.Sequential(linear(torch), torch.nn.ReLU(inplace=True))
        model[0].register_full_backward_hook(lambda m, gi, go: seen.append((gi, go)))
        for module in model.modules():
            if isinstance(module, torch.nn.ReLU):
                module.inplace = False
        model(leaf(torch, values((2, 4), seed=9))).sum().backward()
        return seen, repr(model)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["Softmax", "LogSoftmax"])
@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 3, 4)], ids=str)
def test_softmax_without_dim_warns_and_guesses_as_pytorch(name, shape):
    def scenario(torch):
        layer = getattr(torch.nn, name)()
        return layer(torch.tensor(values(shape, seed=7))), repr(layer)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("args", [(), (0,), (1, 2), (0, -2), (2, 2)], ids=str)
def test_flatten(args):
    def scenario(torch):
        layer = torch.nn.Flatten(*args)
        x = leaf(torch, values((2, 3, 2, 2), seed=8))
        return forward_backward(torch, layer, x), repr(layer)

    assert_same_outcome(scenario)


def test_flatten_of_a_batch_of_vectors_is_the_input_itself():
    def scenario(torch):
        x = torch.ones(2, 3, requires_grad=True)
        return torch.nn.Flatten()(x) is x

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name, args", [("relu", ()), ("tanh", ()), ("sigmoid", ()),
                                        ("softmax", (1,)), ("log_softmax", (0,))])
def test_functional_activations(name, args):
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=9))
        out = getattr(torch.nn.functional, name)(x, *args)
        out.backward(upstream(torch, out))
        return out, graph(out.grad_fn), x.grad

    assert_same_outcome(scenario)


# -- Sequential -------------------------------------------------------------------------------

def net(torch):
    nn = torch.nn
    return nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2), nn.Sigmoid())


def names(module):
    return [(name, type(child).__name__) for name, child in module.named_children()]


def test_sequential_forward_calls_its_modules_in_order():
    def scenario(torch):
        nn = torch.nn
        model = nn.Sequential(linear(torch), nn.Tanh(), nn.Linear(3, 2))
        with torch.no_grad():
            model[2].weight.copy_(torch.tensor(values((2, 3), seed=12)))
            model[2].bias.fill_(0.5)
        result = forward_backward(torch, model, leaf(torch, values((5, 4), seed=13)))
        return result, names(model)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_sequential_from_an_ordered_dict_keeps_the_names():
    def scenario(torch):
        nn = torch.nn
        model = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
        return names(model), type(model.fc).__name__, type(model[-1]).__name__, repr(model)

    assert_same_outcome(scenario)


def test_sequential_indexing_and_slicing():
    def scenario(torch):
        model = net(torch)
        tail = model[1:]
        return (type(model[0]).__name__, model[-1] is model[3], model[-4] is model[0],
                type(tail).__name__, names(tail), tail[0] is model[1], names(model[::2]),
                len(model), [type(m).__name__ for m in model])

    assert_same_outcome(scenario)


@pytest.mark.parametrize("index", [4, -5, "a", 1.0])
def test_sequential_bad_index(index):
    assert_same_outcome(lambda torch: net(torch)[index])


def test_sequential_append_insert_extend_pop():
    def scenario(torch):
        nn = torch.nn
        model = nn.Sequential(nn.ReLU())
        returned = model.append(nn.Tanh())
        model.insert(0, nn.Sigmoid())
        model.insert(-1, nn.Identity())
        model.extend([nn.Flatten(), nn.ReLU()])
        popped = model.pop(1)
        return returned is model, names(model), type(popped).__name__

    assert_same_outcome(scenario)


def test_sequential_setitem_and_delitem_renumber():
    def scenario(torch):
        nn = torch.nn
        model = net(torch)
        model[-1] = nn.Tanh()
        del model[1]
        after_one = names(model)
        del model[0:2]
        return after_one, names(model), len(model)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["init", "append", "insert_range", "setitem"])
def test_sequential_errors(case):
    def scenario(torch):
        nn = torch.nn
        model = nn.Sequential(nn.ReLU())
        if case == "init":
            nn.Sequential(nn.ReLU(), 3)
        elif case == "append":
            model.append("relu")
        elif case == "insert_range":
            model.insert(3, nn.Tanh())
        else:
            model[5] = nn.Tanh()

    assert_same_outcome(scenario)


def test_repr_of_a_nested_model_is_pytorchs_text():
    def scenario(torch):
        nn = torch.nn
        model = nn.Sequential(
            nn.Flatten(),
            nn.Sequential(nn.Linear(784, 128), nn.ReLU(inplace=True), nn.Dropout(0.2)),
            nn.ModuleList([nn.Linear(128, 128) for _ in range(3)] + [nn.Tanh()]),
            nn.ModuleDict({"head": nn.Linear(128, 10, bias=False), "act": nn.LogSoftmax(dim=1)}),
            nn.Softmax(dim=1),
        )
        return repr(model), str(nn.Sequential()), repr(nn.ModuleList()), repr(nn.ModuleDict())

    assert_same_outcome(scenario)


def test_sequential_parameters_and_state_dict_keys():
    def scenario(torch):
        model = torch.nn.Sequential(net(torch), torch.nn.Linear(2, 1))
        return ([name for name, _ in model.named_parameters()], list(model.state_dict()),
                [name for name, _ in model.named_modules()])

    assert_same_outcome(scenario)


# -- ModuleList and ModuleDict ------------------------------------------------------------------

def test_module_list_api():
    def scenario(torch):
        nn = torch.nn
        layers = nn.ModuleList([nn.ReLU(), nn.Tanh()])
        layers.append(nn.Sigmoid())
        layers.extend([nn.Identity()])
        layers.insert(1, nn.Flatten())
        layers += [nn.ReLU()]
        sliced = layers[1:3]
        layers[0] = nn.Softmax(dim=0)
        popped = layers.pop(-1)
        before_delete = names(layers)
        del layers[1]
        return (before_delete, names(layers), len(layers), type(sliced).__name__,
                names(sliced), type(layers[-1]).__name__, type(popped).__name__,
                [type(m).__name__ for m in layers])

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["index", "negative", "extend", "forward", "setitem"])
def test_module_list_errors(case):
    def scenario(torch):
        nn = torch.nn
        layers = nn.ModuleList([nn.ReLU()])
        if case == "index":
            return layers[1]
        if case == "negative":
            return layers[-2]
        if case == "extend":
            return layers.extend(5)
        if case == "forward":
            return layers(torch.ones(1))
        layers[3] = nn.Tanh()

    assert_same_outcome(scenario)


def test_module_dict_api():
    def scenario(torch):
        nn = torch.nn
        layers = nn.ModuleDict({"relu": nn.ReLU(), "tanh": nn.Tanh()})
        layers["lin"] = nn.Linear(2, 2)
        layers.update([("sig", nn.Sigmoid())])
        layers.update(nn.ModuleDict({"id": nn.Identity()}))
        popped = layers.pop("tanh")
        del layers["relu"]
        result = (list(layers), list(layers.keys()),
                  [type(m).__name__ for m in layers.values()],
                  [(k, type(m).__name__) for k, m in layers.items()], len(layers),
                  "lin" in layers, "tanh" in layers, type(popped).__name__,
                  [name for name, _ in layers.named_parameters()])
        layers.clear()
        return result, len(layers)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["missing", "not_iterable", "not_pair", "bad_element",
                                  "bad_name", "not_module"])
def test_module_dict_errors(case):
    def scenario(torch):
        nn = torch.nn
        layers = nn.ModuleDict()
        if case == "missing":
            return layers["nope"]
        if case == "not_iterable":
            return layers.update(3)
        if case == "not_pair":
            return layers.update([("a", nn.ReLU(), 1)])
        if case == "bad_element":
            return layers.update([3])
        if case == "bad_name":
            layers["a.b"] = nn.ReLU()
        layers["x"] = 5

    assert_same_outcome(scenario)


# -- losses -----------------------------------------------------------------------------------

REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", ["MSELoss", "L1Loss"])
def test_regression_losses(name, reduction):
    def scenario(torch):
        loss_fn = getattr(torch.nn, name)(reduction=reduction)
        x = leaf(torch, values((3, 4), seed=20))
        target = leaf(torch, values((3, 4), seed=21))
        loss = loss_fn(x, target)
        loss.backward(upstream(torch, loss))
        return loss, graph(loss.grad_fn), x.grad, target.grad, repr(loss_fn)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
def test_regression_loss_with_a_target_that_needs_no_grad(name):
    def scenario(torch):
        x = leaf(torch, values((5,), seed=22))
        loss = getattr(torch.nn.functional, name)(x, torch.tensor(values((5,), seed=23)))
        loss.backward()
        return loss, graph(loss.grad_fn), x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("target_shape", [(4,), (3, 1), (1, 4)], ids=str)
@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
def test_regression_loss_broadcasting_warns(name, target_shape):
    def scenario(torch):
        x = leaf(torch, values((3, 4), seed=24))
        target = leaf(torch, values(target_shape, seed=25))
        loss = getattr(torch.nn.functional, name)(x, target)
        loss.backward()
        return loss, graph(loss.grad_fn), x.grad, target.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["shape", "reduction"])
@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
def test_regression_loss_errors(name, case):
    def scenario(torch):
        target = torch.ones(3, 5) if case == "shape" else torch.ones(3, 4)
        reduction = "avg" if case == "reduction" else "mean"
        return getattr(torch.nn.functional, name)(torch.ones(3, 4), target, reduction=reduction)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("options", [{}, {"weight": [0.5, 2.0, 1.0, 0.25]}, {"ignore_index": 1},
                                     {"weight": [0.5, 2.0, 1.0, 0.25], "ignore_index": 3}],
                         ids=["plain", "weight", "ignore_index", "weight+ignore_index"])
def test_cross_entropy_loss(options, reduction):
    def scenario(torch):
        kwargs = dict(options)
        if "weight" in kwargs:
            kwargs["weight"] = torch.tensor(kwargs["weight"])
        loss_fn = torch.nn.CrossEntropyLoss(reduction=reduction, **kwargs)
        x = leaf(torch, values((5, 4), seed=26))
        loss = loss_fn(x, torch.tensor([0, 3, 1, 1, 2]))
        loss.backward(upstream(torch, loss))
        return (loss, graph(loss.grad_fn), x.grad, repr(loss_fn),
                [name for name, _ in loss_fn.named_buffers()])

    assert_same_outcome(scenario)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_of_one_sample(reduction):
    def scenario(torch):
        x = leaf(torch, values((4,), seed=27))
        loss = torch.nn.functional.cross_entropy(x, torch.tensor(2), reduction=reduction)
        loss.backward(upstream(torch, loss))
        # A one-element 1-D target is accepted too (PyTorch's backward then refuses it).
        one = torch.nn.functional.cross_entropy(x, torch.tensor([2]), reduction=reduction)
        return loss, graph(loss.grad_fn), x.grad, one

    assert_same_outcome(scenario)


def test_cross_entropy_with_every_target_ignored_is_nan():
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=28))
        loss = torch.nn.functional.cross_entropy(x, torch.tensor([-100, -100]))
        total = torch.nn.functional.cross_entropy(x, torch.tensor([-100, -100]),
                                                  reduction="sum")
        return loss, total

    assert_same_outcome(scenario)


def test_cross_entropy_with_a_zero_total_weight_divides_silently():
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=28))
        loss = torch.nn.functional.cross_entropy(x, torch.tensor([0, 1]),
                                                 weight=torch.tensor([1.0, -1.0, 2.0]))
        loss.backward()
        return loss, x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss_after_log_softmax_is_cross_entropy(reduction):
    def scenario(torch):
        nn = torch.nn
        x = leaf(torch, values((3, 5), seed=29))
        target = torch.tensor([4, 0, 2], dtype=torch.uint8)
        loss = nn.NLLLoss(reduction=reduction)(nn.LogSoftmax(dim=1)(x), target)
        loss.backward(upstream(torch, loss))
        return loss, graph(loss.grad_fn), x.grad

    assert_same_outcome(scenario)


CROSS_ENTROPY_ERRORS = {
    "out_of_bounds": lambda torch: ((3, 4), torch.tensor([0, 4, 1]), {}),
    "negative": lambda torch: ((3, 4), torch.tensor([0, -1, 1]), {}),
    "batch": lambda torch: ((3, 4), torch.tensor([0, 1]), {}),
    "0d_target_for_batch": lambda torch: ((3, 4), torch.tensor(1), {}),
    "int32_target": lambda torch: ((3, 4), torch.tensor([0, 1, 1], dtype=torch.int32), {}),
    "long_probabilities": lambda torch: ((3, 4), torch.zeros(3, 4, dtype=torch.long), {}),
    "reduction": lambda torch: ((3, 4), torch.tensor([0, 1, 1]), {"reduction": "avg"}),
    "weight_size": lambda torch: ((3, 4), torch.tensor([0, 1, 1]), {"weight": torch.ones(3)}),
    "weight_dtype": lambda torch: ((3, 4), torch.tensor([0, 1, 1]),
                                   {"weight": torch.ones(4, dtype=torch.float64)}),
    "1d_target_size": lambda torch: ((4,), torch.tensor([1, 2]), {}),
    "0d_input": lambda torch: ((), torch.tensor(1), {}),
}


@pytest.mark.parametrize("case", CROSS_ENTROPY_ERRORS.values(), ids=CROSS_ENTROPY_ERRORS.keys())
def test_cross_entropy_errors(case):
    def scenario(torch):
        shape, target, kwargs = case(torch)
        return torch.nn.functional.cross_entropy(torch.ones(shape), target, **kwargs)

    assert_same_outcome(scenario)


def test_a_small_training_step_end_to_end():
    def scenario(torch):
        nn = torch.nn
        model = nn.Sequential(linear(torch), nn.ReLU(), nn.Linear(3, 2))
        with torch.no_grad():
            model[2].weight.copy_(torch.tensor(values((2, 3), seed=30)))
            model[2].bias.zero_()
        x = torch.tensor(values((6, 4), seed=31))
        loss = nn.CrossEntropyLoss()(model(x), torch.tensor([0, 1, 1, 0, 1, 0]))
        loss.backward()
        return loss, graph(loss.grad_fn), [p.grad for p in model.parameters()]

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


# -- Dropout ------------------------------------------------------------------------------------

@pytest.mark.parametrize("p", [0.1, 0.5, 0.9])
def test_dropout_in_training_mode(p):
    def scenario(torch):
        torch.manual_seed(0)
        layer = torch.nn.Dropout(p)
        x = leaf(torch, values((4, 6), seed=32))
        out = layer(x)
        out.backward(upstream(torch, out))
        return out, graph(out.grad_fn), x.grad, repr(layer), layer.training

    assert_same_outcome(scenario)


def test_dropout_in_eval_mode_returns_the_input_itself():
    def scenario(torch):
        layer = torch.nn.Dropout(0.5)
        layer.eval()
        x = torch.ones(3, requires_grad=True)
        functional = torch.nn.functional.dropout(x, 0.5, training=False)
        return layer(x) is x, functional is x, layer.training

    assert_same_outcome(scenario)


@pytest.mark.parametrize("p", [0.0, 1.0])
def test_dropout_with_p_zero_and_one(p):
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=33))
        out = torch.nn.Dropout(p)(x)
        out.sum().backward()
        return out is x, out, graph(out.grad_fn), x.grad

    assert_same_outcome(scenario)


def test_dropout_in_place_on_a_non_leaf():
    def scenario(torch):
        torch.manual_seed(3)
        x = leaf(torch, values((10,), seed=34))
        y = x * 1.0
        out = torch.nn.Dropout(0.5, inplace=True)(y)
        out.sum().backward()
        return out is y, out, graph(out.grad_fn), x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("p", [-0.1, 1.5])
@pytest.mark.parametrize("where", ["module", "functional"])
def test_dropout_probability_out_of_range(where, p):
    def scenario(torch):
        if where == "module":
            return torch.nn.Dropout(p)
        return torch.nn.functional.dropout(torch.ones(2), p)

    assert_same_outcome(scenario)


def test_train_and_eval_switch_dropout_inside_a_model():
    def scenario(torch):
        torch.manual_seed(5)
        model = torch.nn.Sequential(torch.nn.Identity(), torch.nn.Dropout(0.5))
        x = torch.ones(12)
        trained = model(x)
        model.eval()
        evaluated = model(x)
        return trained, evaluated, [m.training for m in model.modules()]

    assert_same_outcome(scenario)


def test_dropout_keeps_the_expected_value():
    def scenario(torch):
        torch.manual_seed(1)
        out = torch.nn.functional.dropout(torch.ones(2000), 0.25)
        kept = float((out != 0).sum())
        return kept, float(np.float32(out.sum().item()))

    assert_same_outcome(scenario)
