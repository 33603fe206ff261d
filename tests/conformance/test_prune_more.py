"""The rest of ``torch.nn.utils.prune`` against real PyTorch: structured pruning (by norm and
at random, with PyTorch's draws), pruning a tensor twice (the ``PruningContainer``),
global pruning across layers, ``custom_from_mask``, ``identity``, a pruning method of
one's own, and ``parameters_to_vector``.

Masks are exact (0s and 1s); the weights are chosen with no ties in the norms or
magnitudes, so which entries go does not hang on rounding.
"""

from __future__ import annotations

import importlib

import pytest
from harness import assert_same_outcome
from ops_support import values


def prune_module(torch):
    return importlib.import_module(torch.__name__ + ".nn.utils.prune")


def conv(torch, seed=70):
    module = torch.nn.Conv2d(2, 4, 3)
    with torch.no_grad():
        module.weight.copy_(torch.tensor(values((4, 2, 3, 3), seed=seed)))
        module.bias.copy_(torch.tensor(values((4,), seed=seed + 1)))
    return module


def linear(torch, seed=72, shape=(4, 5)):
    module = torch.nn.Linear(shape[1], shape[0])
    with torch.no_grad():
        module.weight.copy_(torch.tensor(values(shape, seed=seed)))
        module.bias.copy_(torch.tensor(values((shape[0],), seed=seed + 1)))
    return module


def layout(module):
    return ([name for name, _ in module.named_parameters()],
            [name for name, _ in module.named_buffers()],
            [type(h).__name__ for h in module._forward_pre_hooks.values()])


@pytest.mark.parametrize("n, dim, amount", [
    (1, 0, 2), (2, 0, 0.5), (2, 1, 1), ("fro", -1, 0.34), (float("inf"), 0, 0.25),
    (float("-inf"), 0, 1), (2, 0, 0),
])
def test_ln_structured_prunes_the_channels_of_smallest_norm(n, dim, amount):
    def scenario(torch):
        prune = prune_module(torch)
        module = conv(torch)
        returned = prune.ln_structured(module, "weight", amount=amount, n=n, dim=dim)
        out = module(torch.tensor(values((1, 2, 5, 5), seed=74)))
        out.sum().backward()
        return (returned is module, module.weight_mask, layout(module), module.weight,
                module.weight_orig.grad)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_ln_structured_by_nuclear_norm_of_three_dimensional_weights():
    """``n="nuc"``, a matrix norm, needs each channel to be a matrix: a ``Conv1d`` weight
    (out, in, kernel) along ``dim=0``. The singular values depend on the signs, which the
    p-norms drop."""
    def scenario(torch):
        prune = prune_module(torch)
        module = torch.nn.Conv1d(3, 4, 2)
        with torch.no_grad():
            module.weight.copy_(torch.tensor(values((4, 3, 2), seed=76)))
        prune.ln_structured(module, "weight", amount=2, n="nuc", dim=0)
        return module.weight_mask, layout(module)

    assert_same_outcome(scenario)


def test_ln_structured_with_importance_scores():
    def scenario(torch):
        prune = prune_module(torch)
        module = linear(torch)
        scores = torch.tensor(values((4, 5), seed=75))
        prune.ln_structured(module, "weight", amount=2, n=1, dim=1, importance_scores=scores)
        return module.weight_mask

    assert_same_outcome(scenario)


@pytest.mark.parametrize("amount, dim", [(2, 0), (0.5, 1), (1, -1), (0, 0)])
def test_random_structured_draws_like_pytorch(amount, dim):
    def scenario(torch):
        prune = prune_module(torch)
        module = conv(torch)
        torch.manual_seed(5)
        prune.random_structured(module, "weight", amount=amount, dim=dim)
        return module.weight_mask, layout(module), torch.rand(3)

    assert_same_outcome(scenario)


STRUCTURED_ERRORS = {
    "vector": lambda prune, module: prune.ln_structured(module, "bias", amount=1, n=2, dim=0),
    "dim": lambda prune, module: prune.ln_structured(module, "weight", amount=1, n=2, dim=4),
    "amount": lambda prune, module: prune.random_structured(module, "weight", amount=5, dim=0),
    "negative": lambda prune, module: prune.random_structured(module, "weight", amount=-1,
                                                              dim=0),
    # the norm is computed, and a bad order refused, even when nothing is pruned
    "order": lambda prune, module: prune.ln_structured(module, "weight", amount=0, n="bad",
                                                       dim=0),
    "nuclear_of_4d": lambda prune, module: prune.ln_structured(module, "weight", amount=1,
                                                               n="nuc", dim=0),
}


@pytest.mark.parametrize("make", STRUCTURED_ERRORS.values(), ids=STRUCTURED_ERRORS.keys())
def test_structured_errors_leave_the_module_unchanged(make):
    def scenario(torch):
        prune = prune_module(torch)
        module = conv(torch)
        try:
            make(prune, module)
        except (TypeError, ValueError, IndexError, RuntimeError) as error:
            return type(error).__name__, str(error), layout(module)
        return "no error"

    assert_same_outcome(scenario)


def test_pruning_twice_combines_the_methods_in_a_container():
    """The second pruning acts on what the first kept; the container replaces the first
    hook, after any hook registered in between."""
    def scenario(torch):
        prune = prune_module(torch)
        module = conv(torch)
        module.register_forward_pre_hook(lambda m, args: None)
        torch.manual_seed(6)
        prune.random_unstructured(module, "weight", amount=0.3)
        first = module.weight_mask.clone()
        prune.ln_structured(module, "weight", amount=1, n=2, dim=0)
        second = module.weight_mask.clone()
        prune.l1_unstructured(module, "weight", amount=5)
        hook = list(module._forward_pre_hooks.values())[-1]
        return (first, second, module.weight_mask, layout(module), type(hook).__name__,
                len(hook), [type(method).__name__ for method in hook],
                hook._tensor_name, int((module.weight_mask == 0).sum()))

    assert_same_outcome(scenario)


def test_remove_after_pruning_twice():
    def scenario(torch):
        prune = prune_module(torch)
        module = linear(torch)
        prune.l1_unstructured(module, "weight", amount=0.25)
        prune.l1_unstructured(module, "weight", amount=0.25)
        prune.remove(module, "weight")
        return module.weight, layout(module), prune.is_pruned(module)

    assert_same_outcome(scenario)


def test_global_unstructured_prunes_across_layers():
    def scenario(torch):
        prune = prune_module(torch)
        model = torch.nn.Sequential(linear(torch, 72, (4, 5)), torch.nn.ReLU(),
                                    linear(torch, 80, (3, 4)))
        prune.l1_unstructured(model[2], "weight", amount=2)
        parameters = [(model[0], "weight"), (model[2], "weight"), (model[0], "bias")]
        returned = prune.global_unstructured(parameters, pruning_method=prune.L1Unstructured,
                                             amount=12)
        return (returned, model[0].weight_mask, model[2].weight_mask, model[0].bias_mask,
                layout(model[0]), layout(model[2]),
                [len(h) for h in model[2]._forward_pre_hooks.values()])

    assert_same_outcome(scenario)


def test_global_unstructured_with_importance_scores_and_errors():
    def scenario(torch):
        prune = prune_module(torch)
        first, second = linear(torch), linear(torch, 90, (2, 3))
        scores = {(first, "weight"): torch.tensor(values((4, 5), seed=91))}
        prune.global_unstructured([(first, "weight"), (second, "weight")],
                                  prune.L1Unstructured, importance_scores=scores, amount=0.5)
        errors = []
        for call in (lambda: prune.global_unstructured(5, prune.L1Unstructured, amount=1),
                     lambda: prune.global_unstructured([(first, "bias")], prune.L1Unstructured,
                                                       importance_scores=[1], amount=1),
                     lambda: prune.global_unstructured([(first, "bias")],
                                                       prune.RandomStructured, amount=1)):
            try:
                call()
            except TypeError as error:
                errors.append(str(error).replace("minitorch_hooks", "torch"))
        return first.weight_mask, second.weight_mask, errors

    assert_same_outcome(scenario)


def test_custom_from_mask_identity_and_prune_without_a_module():
    def scenario(torch):
        prune = prune_module(torch)
        module = linear(torch)
        mask = torch.tensor(values((4, 5), seed=92)) > 0
        prune.custom_from_mask(module, "weight", mask=mask)
        prune.identity(module, "bias")
        method = prune.L1Unstructured(amount=3)
        t = torch.tensor(values((2, 4), seed=93))
        return (module.weight_mask, module.bias_mask, layout(module),
                method.prune(t), method.prune(t, importance_scores=-t.abs()))

    assert_same_outcome(scenario)


def test_a_pruning_method_of_ones_own():
    """The tutorial's example: a ``BasePruningMethod`` that prunes every other entry,
    applied twice so that the container calls it on what is left."""
    def scenario(torch):
        prune = prune_module(torch)

        class FooBarPruningMethod(prune.BasePruningMethod):
            PRUNING_TYPE = "unstructured"

            def compute_mask(self, t, default_mask):
                mask = default_mask.clone()
                mask.view(-1)[::2] = 0
                return mask

        module = linear(torch)
        FooBarPruningMethod.apply(module, "bias")
        first = module.bias_mask.clone()
        FooBarPruningMethod.apply(module, "bias")
        return first, module.bias_mask, module.bias, layout(module)

    assert_same_outcome(scenario)


def test_a_container_refuses_a_method_for_another_tensor():
    def scenario(torch):
        prune = prune_module(torch)
        module = linear(torch)
        first = prune.L1Unstructured.apply(module, "weight", amount=1)
        other = prune.L1Unstructured(amount=1)
        other._tensor_name = "bias"
        container = prune.PruningContainer(first)
        try:
            container.add_pruning_method(other)
        except ValueError as error:
            message = str(error).split(" to PruningContainer ")[0]
        try:
            container.add_pruning_method("l1")
        except TypeError as error:
            type_error = str(error)
        return message, type_error, len(container)

    assert_same_outcome(scenario)


def test_parameters_to_vector_and_back():
    def scenario(torch):
        utils = torch.nn.utils
        module = linear(torch)
        vec = utils.parameters_to_vector(module.parameters())
        vec.sum().backward()
        utils.vector_to_parameters(torch.arange(24.0), module.parameters())
        try:
            utils.vector_to_parameters([1.0], module.parameters())
        except TypeError as error:
            message = str(error)
        return (vec, vec.grad_fn.name(), module.weight.grad, module.weight, module.bias,
                message)

    assert_same_outcome(scenario)
