"""The nodes of ATen's older ``norm(self, p[, dim, keepdim])`` against real PyTorch. Python's
``torch.norm`` and ``Tensor.norm`` go to ``linalg.vector_norm`` (``LinalgVectorNormBackward0``,
saving ``ord``), but PyTorch's C++ functions call ATen's ``norm`` directly, which records
``NormBackward0`` (all elements) or ``NormBackward1`` (along ``dim``), saving ``p`` as given:
``F.pairwise_distance`` (``norm(x1 - x2 + eps, p, -1)``, after an ``AddBackward1``: ATen's
``add`` of a number; ``torch.pairwise_distance`` is the same function) and
``norm_except_dim`` (weight normalisation)."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, saved, values


def shown(node):
    """What a node shows, without the tensors it saved (compared through the gradients)."""
    name, attributes = saved(node)
    return name, {k: v for k, v in attributes.items() if k not in ("_saved_self", "_saved_result")}


@pytest.mark.parametrize("p", [2.0, 1, 3, 0, float("inf"), -1.5])
@pytest.mark.parametrize("keepdim", [False, True])
def test_pairwise_distance_records_aten_norm(p, keepdim):
    def scenario(torch):
        x1, x2 = leaf(torch, values((3, 4), seed=1)), leaf(torch, values((3, 4), seed=2))
        out = torch.nn.functional.pairwise_distance(x1, x2, p=p, keepdim=keepdim)
        add = out.grad_fn.next_functions[0][0]
        out.sum().backward()
        return out, graph(out.grad_fn), shown(out.grad_fn), shown(add), x1.grad, x2.grad

    assert_same_outcome(scenario)


def test_pairwise_distance_of_two_vectors_and_tensor_norm_stays_vector_norm():
    def scenario(torch):
        a, b = leaf(torch, values((5,), seed=3)), leaf(torch, values((5,), seed=4))
        out = torch.nn.functional.pairwise_distance(a, b)
        return (shown(out.grad_fn), graph(out.grad_fn), shown(a.norm(2, 0).grad_fn),
                shown(torch.norm(a, 3).grad_fn))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("pow_, dim", [(2, 0), (3, 0), (3, 2), (1, -1), (2, 1), (4, -1)])
def test_norm_except_dim_records_aten_norm(pow_, dim):
    def scenario(torch):
        v = leaf(torch, values((3, 4, 2), seed=5))
        out = torch.norm_except_dim(v, pow_, dim)
        node = out.grad_fn
        while not node.name().startswith("Norm"):
            node = node.next_functions[0][0]
        (out * torch.arange(out.numel()).reshape(out.shape)).sum().backward()
        return out, graph(out.grad_fn), shown(node), v.grad

    assert_same_outcome(scenario)


def test_torch_pairwise_distance_and_cosine_similarity_are_the_functional_ones():
    def scenario(torch):
        a, b = leaf(torch, values((2, 3), seed=6)), leaf(torch, values((2, 3), seed=7))
        distance = torch.pairwise_distance(a, b, 1.0, 1e-6, True)
        similarity = torch.cosine_similarity(a, b, 0)
        (distance.sum() + similarity.sum()).backward()
        return (distance, shown(distance.grad_fn), similarity, graph(similarity.grad_fn),
                a.grad, b.grad)

    assert_same_outcome(scenario)
