"""Pruning against real PyTorch: the same mask from the same weights, the re-parametrisation
(``weight_orig`` parameter, ``weight_mask`` buffer, a forward pre-hook), forward and
backward through the mask, ``remove``, ``is_pruned`` and the errors for bad amounts."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, upstream, values


def layer(torch):
    """An ``nn.Linear(5, 4)`` with fixed, distinct weights (no ties in ``|w|``)."""
    module = torch.nn.Linear(5, 4)
    with torch.no_grad():
        module.weight.copy_(torch.tensor(values((4, 5), seed=60)))
        module.bias.copy_(torch.tensor(values((4,), seed=61)))
    return module


def prune_module(torch):
    import importlib

    return importlib.import_module(torch.__name__ + ".nn.utils.prune")


def layout(module):
    """What pruning changes: parameter and buffer names, pre-hooks, the weight's kind."""
    return {
        "parameters": [name for name, _ in module.named_parameters()],
        "buffers": [name for name, _ in module.named_buffers()],
        "state_dict": list(module.state_dict()),
        "pre_hooks": [type(h).__name__ for h in module._forward_pre_hooks.values()],
        "weight_type": type(module.weight).__name__,
        "weight_grad_fn": graph(module.weight.grad_fn),
    }


@pytest.mark.parametrize("amount", [0.3, 0.5, 7, 0, 0.0, 20, 1.0], ids=repr)
def test_l1_unstructured_mask_and_reparametrisation(amount):
    def scenario(torch):
        prune = prune_module(torch)
        module = layer(torch)
        returned = prune.l1_unstructured(module, "weight", amount=amount)
        return (returned is module, module.weight_mask, module.weight, layout(module),
                prune.is_pruned(module))

    assert_same_outcome(scenario)


def test_l1_unstructured_with_importance_scores_and_on_the_bias():
    def scenario(torch):
        prune = prune_module(torch)
        module = layer(torch)
        scores = torch.tensor(values((4, 5), seed=62))
        prune.l1_unstructured(module, "weight", amount=6, importance_scores=scores)
        prune.l1_unstructured(module, "bias", amount=0.5)
        return module.weight_mask, module.bias_mask, layout(module)

    assert_same_outcome(scenario)


def test_the_pre_hook_recomputes_the_weight_before_every_forward():
    def scenario(torch):
        prune = prune_module(torch)
        module = layer(torch)
        prune.l1_unstructured(module, "weight", amount=0.4)
        hook = next(iter(module._forward_pre_hooks.values()))
        with torch.no_grad():
            module.weight_orig.mul_(2)  # as an optimiser step would
        stale = module.weight.clone()
        x = torch.tensor(values((3, 5), seed=63), requires_grad=True)
        out = module(x)
        out.backward(upstream(torch, out))
        return (stale, module.weight, out, graph(out.grad_fn), module.weight_orig.grad,
                module.bias.grad, x.grad, hook._tensor_name, callable(hook))

    assert_same_outcome(scenario)


def test_training_keeps_pruned_weights_at_zero():
    def scenario(torch):
        prune = prune_module(torch)
        module = layer(torch)
        prune.l1_unstructured(module, "weight", amount=10)
        optimizer = torch.optim.SGD(module.parameters(), lr=0.1)
        for _ in range(3):
            optimizer.zero_grad()
            module(torch.tensor(values((6, 5), seed=64))).pow(2).mean().backward()
            optimizer.step()
        module(torch.ones(1, 5))  # the pre-hook refreshes ``weight`` from the new weight_orig
        return module.weight, module.weight_orig, int((module.weight == 0).sum())

    assert_same_outcome(scenario)


def test_remove_makes_the_pruning_permanent():
    def scenario(torch):
        prune = prune_module(torch)
        module = layer(torch)
        prune.l1_unstructured(module, "weight", amount=0.5)
        masked = module.weight.clone()
        returned = prune.remove(module, "weight")
        out = module(torch.ones(2, 5))
        return (returned is module, layout(module), module.weight, masked,
                prune.is_pruned(module), out)

    assert_same_outcome(scenario)


def test_is_pruned_looks_inside_sub_modules():
    def scenario(torch):
        prune = prune_module(torch)
        model = torch.nn.Sequential(layer(torch), torch.nn.ReLU(), layer(torch))
        before = prune.is_pruned(model)
        prune.l1_unstructured(model[2], "weight", amount=2)
        after = prune.is_pruned(model), prune.is_pruned(model[0])
        prune.remove(model[2], "weight")
        return before, after, prune.is_pruned(model), [n for n, _ in model.named_buffers()]

    assert_same_outcome(scenario)


@pytest.mark.parametrize("seed", [0, 1, 42])
@pytest.mark.parametrize("amount", [0.25, 9])
def test_random_unstructured_prunes_what_pytorchs_generator_picks(amount, seed):
    def scenario(torch):
        prune = prune_module(torch)
        module = layer(torch)
        torch.manual_seed(seed)
        prune.random_unstructured(module, "weight", amount=amount)
        return module.weight_mask, layout(module), torch.rand(2)

    assert_same_outcome(scenario)


AMOUNT_ERRORS = {"negative_int": -1, "float_above_one": 1.5, "negative_float": -0.1,
                 "string": "half", "too_many": 21}


@pytest.mark.parametrize("method", ["l1_unstructured", "random_unstructured"])
@pytest.mark.parametrize("amount", AMOUNT_ERRORS.values(), ids=AMOUNT_ERRORS.keys())
def test_bad_amounts_leave_the_module_unchanged(amount, method):
    def scenario(torch):
        prune = prune_module(torch)
        module = layer(torch)
        try:
            getattr(prune, method)(module, "weight", amount=amount)
        except (TypeError, ValueError) as error:
            return type(error).__name__, str(error), layout(module), module.weight
        return "no error"

    assert_same_outcome(scenario)


def test_remove_of_a_parameter_that_is_not_pruned():
    def scenario(torch):
        prune = prune_module(torch)
        prune.remove(layer(torch), "weight")

    assert_same_outcome(scenario)
