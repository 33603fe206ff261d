"""Checks for exercise 7: freezing and gradient masking."""

from __future__ import annotations

from ..checking import Checks, expect, expect_close

CHECKS = Checks()


def two_layers(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))


def train_a_little(torch, model, params):
    optimizer = torch.optim.SGD(params, lr=0.5)
    for _ in range(3):
        optimizer.zero_grad()
        model(torch.tensor([[1.0, -2.0], [0.5, 3.0]])).pow(2).sum().backward()
        optimizer.step()


@CHECKS(step=1, title="freeze() stops every parameter of the module from training",
        nudge="a parameter trains when it requires a gradient; change that flag on every parameter"
              " of the module",
        pointer="freeze in your file; Tensor.requires_grad_; the course's how-to 'Freeze layers'",
        solution="call param.requires_grad_(False) on each of module.parameters(), and "
                 "return the module")
def freeze_stops_the_module(ex, torch):
    model = two_layers(torch)
    expect(ex.freeze(model[0]) is model[0], "freeze(module) should return the module")
    expect([p.requires_grad for p in model.parameters()] == [False, False, True, True],
           "after freeze(model[0]), only model[2]'s weight and bias should require grad")
    model(torch.ones(1, 2)).sum().backward()
    expect(model[0].weight.grad is None, "a frozen weight still received a gradient")


@CHECKS(step=2, title="trainable_parameters() lists the parameters that still train",
        nudge="list the named parameters and keep those that still require a gradient",
        pointer="trainable_parameters; Module.named_parameters in PyTorch's docs",
        solution="keep the (name, param) pairs of model.named_parameters() whose "
                 "param.requires_grad is true")
def trainable_parameters_are_listed(ex, torch):
    model = two_layers(torch)
    model[2].bias.requires_grad_(False)
    names = [name for name, _ in ex.trainable_parameters(model)]
    expect(names == ["0.weight", "0.bias", "2.weight"],
           f"trainable_parameters() named {names}, expected ['0.weight', '0.bias', "
           "'2.weight']")


@CHECKS(step=3, title="mask_gradient() zeroes the masked entries of the gradient",
        nudge="a tensor hook's return value replaces the gradient; multiply, do not edit it in "
              "place, and hand back the handle",
        pointer="mask_gradient; Tensor.register_hook "
                "(docs.pytorch.org/docs/2.13/generated/torch.Tensor.register_hook.html)",
        solution="return param.register_hook(lambda grad: grad * mask)")
def masked_entries_get_no_gradient(ex, torch):
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    handle = ex.mask_gradient(w, torch.tensor([1.0, 0.0, 1.0]))
    (w * w).sum().backward()
    expect_close(w.grad, [2.0, 0.0, 6.0], "the masked gradient of sum(w * w)")
    handle.remove()
    w.grad = None
    (w * w).sum().backward()
    expect_close(w.grad, [2.0, 4.0, 6.0], "the gradient after removing the handle")


@CHECKS(step=4, title="freeze_units() keeps the chosen units fixed while the rest train",
        nudge="a unit is a row of the weight and an entry of the bias; each needs a mask of its "
              "own shape that broadcasts against it",
        pointer="freeze_units; the exercise's text, step 4; NumPy's broadcasting rules",
        solution="build a mask with 0 for the frozen units: shape (out_features, 1) for the "
                 "weight, (out_features,) for the bias; mask_gradient both")
def frozen_units_stay_fixed(ex, torch):
    model = two_layers(torch)
    handles = ex.freeze_units(model[0], [0, 2])
    expect(len(handles) == 2, f"freeze_units returned {len(handles)} handles, expected 2")
    weight, bias = model[0].weight.detach().clone(), model[0].bias.detach().clone()
    train_a_little(torch, model, model.parameters())
    moved = (model[0].weight.detach() - weight).abs().sum(1) + \
        (model[0].bias.detach() - bias).abs()
    expect(moved[0].item() == 0 and moved[2].item() == 0,
           f"the frozen units 0 and 2 moved by {moved.tolist()}")
    expect(moved[1].item() > 0, "unit 1 did not train at all")
