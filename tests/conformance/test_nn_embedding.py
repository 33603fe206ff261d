"""``nn.Embedding`` and ``F.embedding`` against real PyTorch: seeded initialisation bit for
bit (with the zeroed padding row), lookups and their gradients (repeated indices, the
padding row left at zero, ``scale_grad_by_freq``), ``max_norm`` renormalising the table in
place, ``from_pretrained``, reprs, state dicts, hooks, and the errors."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, upstream, values
from test_init_and_rng_layers import assert_same_bits, params_then_next_draw

CONFIGS = {
    "plain": {},
    "padding_idx 0": {"padding_idx": 0},
    "padding_idx -1": {"padding_idx": -1},
    "max_norm": {"max_norm": 1.0},
    "max_norm, norm_type 1": {"max_norm": 1.5, "norm_type": 1.0},
    "scale_grad_by_freq": {"scale_grad_by_freq": True},
    "padding and scale": {"padding_idx": 2, "scale_grad_by_freq": True},
}


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("kwargs", CONFIGS.values(), ids=CONFIGS.keys())
def test_initialisation_is_bit_exact(kwargs, seed):
    def scenario(torch):
        torch.manual_seed(seed)
        return params_then_next_draw(torch, torch.nn.Embedding(6, 3, **kwargs))

    assert_same_bits(scenario)


INDICES = {"vector": [1, 4, 1, 0], "matrix": [[0, 2, 2], [5, 0, 1]], "number": 3,
           "empty": [[]]}


@pytest.mark.parametrize("indices", INDICES.values(), ids=INDICES.keys())
@pytest.mark.parametrize("kwargs", CONFIGS.values(), ids=CONFIGS.keys())
def test_lookup_and_gradient(kwargs, indices):
    """Two forward and backward passes: gradients accumulate, the padding row gets none,
    and ``max_norm`` shrinks the picked rows of the table itself."""
    def scenario(torch):
        layer = torch.nn.Embedding(6, 3, **kwargs)
        with torch.no_grad():
            layer.weight.copy_(torch.tensor(values((6, 3), seed=4)))
        index = torch.tensor(indices, dtype=torch.int64)
        results = []
        for _ in range(2):
            out = layer(index)
            (out * upstream(torch, out)).sum().backward()
            results.append((out, graph(out.grad_fn), layer.weight.grad.clone(),
                            layer.weight.detach().clone()))
        return results, repr(layer), layer.weight._version

    assert_same_outcome(scenario)


def test_int32_indices_and_the_functional_form():
    def scenario(torch):
        weight = torch.tensor(values((4, 2)), requires_grad=True)
        out = torch.nn.functional.embedding(torch.tensor([[3, 0]], dtype=torch.int32), weight,
                                            padding_idx=-4)
        out.sum().backward()
        return out, weight.grad, graph(out.grad_fn)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("freeze", [True, False])
def test_from_pretrained(freeze):
    """The layer wraps the given table (the padding row is not zeroed), frozen by default."""
    def scenario(torch):
        table = torch.tensor(values((4, 2)))
        layer = torch.nn.Embedding.from_pretrained(table, freeze=freeze, padding_idx=1)
        out = layer(torch.tensor([1, 2]))
        table[0, 0] = 100.0  # the layer holds the same memory
        return (out, layer.weight, layer.weight.requires_grad, out.requires_grad, repr(layer),
                list(layer.state_dict()))

    assert_same_outcome(scenario)


def test_hooks_on_an_embedding_in_a_model():
    """The indices need no gradient: the full backward hook's ``grad_input`` is ``(None,)``."""
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Embedding(5, 4, padding_idx=0),
                                    torch.nn.Linear(4, 2))
        seen = []
        for name, module in model.named_children():
            module.register_forward_hook(
                lambda m, args, out, name=name: seen.append(("forward", name, args, out)))
            module.register_full_backward_hook(
                lambda m, gi, go, name=name: seen.append(("backward", name, gi, go)))
        model(torch.tensor([[0, 3], [4, 0]])).sum().backward()
        return seen, model[0].weight.grad, list(model.state_dict())

    assert_same_outcome(scenario)


ERRORS = {
    "index too large": lambda torch: torch.nn.Embedding(5, 3)(torch.tensor([5])),
    "negative index": lambda torch: torch.nn.Embedding(5, 3)(torch.tensor([-1])),
    "float indices": lambda torch: torch.nn.Embedding(5, 3)(torch.tensor([1.0])),
    "uint8 indices": lambda torch: torch.nn.Embedding(5, 3)(
        torch.tensor([1], dtype=torch.uint8)),
    "bool indices": lambda torch: torch.nn.Embedding(5, 3)(torch.tensor([True])),
    "padding_idx too large": lambda torch: torch.nn.Embedding(5, 3, padding_idx=5),
    "padding_idx too small": lambda torch: torch.nn.Embedding(5, 3, padding_idx=-6),
    "F padding_idx too large": lambda torch: torch.nn.functional.embedding(
        torch.tensor([1]), torch.ones(3, 2), padding_idx=3),
    "max_norm with an index too large": lambda torch: torch.nn.Embedding(5, 3, max_norm=1.0)(
        torch.tensor([2, 9, 6])),
    "max_norm with a negative index": lambda torch: torch.nn.Embedding(5, 3, max_norm=1.0)(
        torch.tensor([-1])),
    "max_norm with float indices": lambda torch: torch.nn.Embedding(5, 3, max_norm=1.0)(
        torch.tensor([1.0])),
    "1-D table": lambda torch: torch.nn.functional.embedding(torch.tensor([0]), torch.ones(3)),
    "3-D table": lambda torch: torch.nn.functional.embedding(torch.tensor([0]),
                                                             torch.ones(3, 2, 2)),
    "from_pretrained 1D": lambda torch: torch.nn.Embedding.from_pretrained(torch.ones(3)),
    "_weight of the wrong shape": lambda torch: torch.nn.Embedding(3, 2,
                                                                   _weight=torch.ones(2, 3)),
}


@pytest.mark.parametrize("scenario", ERRORS.values(), ids=ERRORS.keys())
def test_errors(scenario):
    assert_same_outcome(scenario)
