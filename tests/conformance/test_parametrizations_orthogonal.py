"""``nn.utils.parametrizations.orthogonal`` (and ``torch.matrix_exp`` under it) against
real PyTorch: registration on square, tall and wide weights with each of the three maps,
with and without the trivialization; the orthogonal weight (``W^T W = I``, asserted in
both libraries), the state-dict keys, gradients reaching ``original``, hooks, assigning a
weight (``right_inverse``), loading a state dict, and the errors.

Tolerance: ours computes the maps in float64 and rounds once; PyTorch computes in
float32. Each element of ``Q`` is a few products (QR, exponential by squaring, a solve)
of O(1) values summed over at most 5 terms: both are within ``10 * n * eps`` (n = 5,
float32's eps 1.2e-7: 6e-6) of the exact value, so ``rtol = atol = 1e-5``; the gradients
are one more product of the same kind. The orthogonality check uses PyTorch's own
tolerance (``_is_orthogonal``'s ``10 * n * eps``) in each library.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import values

TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
SHAPES = {"square": (4, 4), "tall": (5, 3), "wide": (3, 5)}
MAPS = ("matrix_exp", "cayley", "householder")


def _orthonormal(torch, weight):
    """Whether the columns (or, for a wide weight, the rows) are orthonormal."""
    tall = weight if weight.shape[-2] >= weight.shape[-1] else weight.mT
    n, k = tall.shape[-2:]
    gram = (tall.mT @ tall).detach()
    return bool(torch.allclose(gram, torch.eye(k), atol=10 * n * 1.2e-7))


def _full_rank(shape, seed):
    return values(shape, seed=seed)  # uniform in [-2, 2): full rank with probability 1


@pytest.mark.parametrize("use_trivialization", [True, False])
@pytest.mark.parametrize("orthogonal_map", MAPS)
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_orthogonal_registration_weight_and_gradients(shape, orthogonal_map,
                                                      use_trivialization):
    """A ``Linear`` made orthogonal: its class and repr, the state-dict keys (``base``
    with the trivialization), the weight (the QR of the initial one, or the map of it),
    its orthonormality, and the gradients that reach ``original`` through the map."""
    def scenario(torch):
        torch.manual_seed(0)
        layer = torch.nn.Linear(shape[1], shape[0])
        torch.nn.utils.parametrizations.orthogonal(
            layer, orthogonal_map=orthogonal_map, use_trivialization=use_trivialization)
        weight = layer.weight
        x = torch.tensor(values((2, shape[1]), seed=1))
        (layer(x) ** 2).sum().backward()
        original = layer.parametrizations.weight.original
        return (type(layer).__name__, repr(layer), list(layer.state_dict()), weight,
                _orthonormal(torch, weight), original.grad, layer.bias.grad,
                hasattr(layer.parametrizations.weight[0], "base"))

    assert_same_outcome(scenario, **TOLERANCE)


@pytest.mark.parametrize("orthogonal_map", MAPS)
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_assigning_a_weight_stores_its_orthogonalisation(shape, orthogonal_map):
    """``layer.weight = W`` runs ``right_inverse``: with the trivialization, ``base``
    becomes the Q factor of ``W`` (an orthogonal ``W`` kept as it is), ``original`` is
    ``-I``, and the weight reads back as ``base``."""
    def scenario(torch):
        torch.manual_seed(1)
        layer = torch.nn.Linear(shape[1], shape[0])
        torch.nn.utils.parametrizations.orthogonal(layer, orthogonal_map=orthogonal_map)
        layer.weight = torch.tensor(_full_rank(shape, seed=2))
        first = layer.weight.detach().clone()
        layer.weight = first  # orthogonal already: kept
        return (first, _orthonormal(torch, first), layer.weight,
                layer.parametrizations.weight.original, layer.parametrizations.weight[0].base)

    assert_same_outcome(scenario, **TOLERANCE)


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_householder_without_trivialization_stores_the_reflectors(shape):
    """Without the trivialization only the Householder map can be assigned to: the
    weight's QR reflectors become ``original``, with R's signs on its diagonal."""
    def scenario(torch):
        layer = torch.nn.Linear(shape[1], shape[0])
        torch.nn.utils.parametrizations.orthogonal(layer, orthogonal_map="householder",
                                                   use_trivialization=False)
        layer.weight = torch.tensor(_full_rank(shape, seed=3))
        return (layer.parametrizations.weight.original, layer.weight,
                _orthonormal(torch, layer.weight))

    assert_same_outcome(scenario, **TOLERANCE)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley"])
def test_assigning_without_trivialization_is_refused_for_exp_and_cayley(orthogonal_map):
    def scenario(torch):
        layer = torch.nn.Linear(3, 3)
        torch.nn.utils.parametrizations.orthogonal(layer, orthogonal_map=orthogonal_map,
                                                   use_trivialization=False)
        before = layer.parametrizations.weight.original.detach().clone()
        try:
            layer.weight = torch.eye(3)
        except NotImplementedError as error:
            return str(error), torch.equal(before, layer.parametrizations.weight.original)
        return "no error"

    assert_same_outcome(scenario)


def test_hooks_see_the_orthogonal_weight_and_its_gradient_reaches_original():
    """A forward pre-hook reads the weight (recomputed at each read), a tensor hook on
    ``original`` sees its gradient, and an SGD step keeps the weight orthogonal (one
    step: a second one's gradient would carry the first one's rounding, times ``lr``)."""
    def scenario(torch):
        torch.manual_seed(2)
        layer = torch.nn.Linear(4, 4)
        torch.nn.utils.parametrizations.orthogonal(layer)
        seen = []
        layer.register_forward_pre_hook(
            lambda module, args: seen.append(("pre", module.weight.detach().clone())))
        original = layer.parametrizations.weight.original
        original.register_hook(lambda grad: seen.append(("original grad", grad.clone())))
        optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
        layer(torch.tensor(values((3, 4), seed=0))).pow(2).sum().backward()
        optimizer.step()
        return seen, original, layer.weight, _orthonormal(torch, layer.weight)

    assert_same_outcome(scenario, **TOLERANCE)


def test_a_state_dict_loads_into_another_orthogonal_layer():
    def scenario(torch):
        torch.manual_seed(3)
        source, target = torch.nn.Linear(3, 5), torch.nn.Linear(3, 5)
        for layer in (source, target):
            torch.nn.utils.parametrizations.orthogonal(layer)
        result = target.load_state_dict(source.state_dict())
        return (str(result), torch.equal(source.weight, target.weight),
                sorted(source.state_dict()))

    assert_same_outcome(scenario)


def test_a_batch_of_matrices():
    """A 3-d parameter is a batch of matrices, each made orthogonal."""
    def scenario(torch):
        class Batch(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.weight = torch.nn.Parameter(torch.tensor(_full_rank((2, 4, 3), seed=4)))

        module = torch.nn.utils.parametrizations.orthogonal(Batch(), orthogonal_map="cayley")
        module.weight.sum().backward()
        return (module.weight, [_orthonormal(torch, w) for w in module.weight],
                module.parametrizations.weight.original.grad)

    assert_same_outcome(scenario, **TOLERANCE)


ERRORS = {
    "a vector": lambda torch, layer: torch.nn.utils.parametrizations.orthogonal(layer, "bias"),
    "no such tensor": lambda torch, layer: torch.nn.utils.parametrizations.orthogonal(
        layer, "kernel"),
    "an unknown map": lambda torch, layer: torch.nn.utils.parametrizations.orthogonal(
        layer, orthogonal_map="qr"),
    "a weight of another shape": lambda torch, layer: setattr(
        torch.nn.utils.parametrizations.orthogonal(layer), "weight", torch.eye(3)),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_orthogonal_errors(call):
    def scenario(torch):
        return call(torch, torch.nn.Linear(3, 4))

    assert_same_outcome(scenario)


MATRIX_EXP_INPUTS = {
    "a matrix": ((3, 3), 1.0, np.float32),
    "a batch": ((2, 4, 4), 1.0, np.float32),
    # exp of a norm near 30 has elements in the hundreds beside small ones (cancellation):
    # in float64, where both libraries agree to far better than the tolerance
    "a large norm (squarings)": ((5, 5), 3.0, np.float64),
    "empty": ((0, 0), 1.0, np.float32),
}


@pytest.mark.parametrize(("shape", "scale", "dtype"), MATRIX_EXP_INPUTS.values(),
                         ids=MATRIX_EXP_INPUTS.keys())
def test_matrix_exp(shape, scale, dtype):
    """Values, the gradient (a block matrix's exponential), the node and the layout (a
    transposed input gives a contiguous output)."""
    def scenario(torch):
        x = torch.tensor(values(shape, seed=5, dtype=dtype) * scale, requires_grad=True)
        out = torch.matrix_exp(x.mT)
        out.backward(torch.tensor(np.cos(np.arange(out.numel())).reshape(shape),
                                  dtype=out.dtype))
        return out, x.grad, out.grad_fn.name(), out.is_contiguous(), x.detach().matrix_exp()

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("data", [np.ones(3), np.ones((2, 3)), np.ones((3, 3), np.int64),
                                  [[1.0]]], ids=["vector", "not square", "integers", "a list"])
def test_matrix_exp_errors(data):
    def scenario(torch):
        return torch.matrix_exp(data if isinstance(data, list) else torch.tensor(data))

    assert_same_outcome(scenario)
