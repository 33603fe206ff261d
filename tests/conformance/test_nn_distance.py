"""``nn.PairwiseDistance``, ``nn.CosineSimilarity`` and ``F.pairwise_distance`` against
real PyTorch: values and gradients for several ``p``, broadcasting, ``keepdim``, vectors
and scalars, integer inputs, the layers' printing and attributes, what their forward
hooks receive, and the shape errors."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome

CASES = {
    "rows": ((3, 4), (3, 4)),
    "a row broadcast": ((3, 4), (4,)),
    "vectors": ((5,), (5,)),
    "scalars": ((), ()),
    "batches of rows": ((2, 3, 4), (3, 4)),
}


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, 0.5, -1.0, float("inf"), 0.0])
@pytest.mark.parametrize("shapes", CASES.values(), ids=CASES.keys())
def test_pairwise_distance(shapes, p, keepdim):
    def scenario(torch):
        torch.manual_seed(0)
        x1 = torch.randn(shapes[0], dtype=torch.float64, requires_grad=True)
        x2 = torch.randn(shapes[1], dtype=torch.float64, requires_grad=True)
        out = torch.nn.functional.pairwise_distance(x1, x2, p=p, keepdim=keepdim)
        out.sum().backward()
        return out, x1.grad, x2.grad

    assert_same_outcome(scenario)


def test_equal_inputs_are_eps_apart():
    """``eps`` is added to every difference: equal rows are ``eps * D ** (1/p)`` apart."""
    def scenario(torch):
        x = torch.ones(2, 3, requires_grad=True)
        out = torch.nn.functional.pairwise_distance(x, x.detach(), eps=1e-3)
        out.sum().backward()
        return (out, x.grad, torch.nn.functional.pairwise_distance(torch.arange(3),
                                                                   torch.arange(3)))

    assert_same_outcome(scenario)


def test_mismatched_shapes():
    def scenario(torch):
        try:
            torch.nn.functional.pairwise_distance(torch.ones(3, 4), torch.ones(2, 4))
        except RuntimeError as error:
            return str(error)
        return "no error"

    assert_same_outcome(scenario)


def test_the_layers_with_forward_hooks():
    def scenario(torch):
        torch.manual_seed(1)
        log = []
        layers = [torch.nn.PairwiseDistance(), torch.nn.PairwiseDistance(p=1.0, eps=1e-3,
                                                                          keepdim=True),
                  torch.nn.CosineSimilarity(), torch.nn.CosineSimilarity(dim=0, eps=1e-3)]
        for layer in layers:
            layer.register_forward_hook(lambda m, args, out: log.append(
                (type(m).__name__, len(args), tuple(out.shape))))
        x1, x2 = torch.randn(4, 3, requires_grad=True), torch.randn(4, 3)
        outputs = [layer(x1, x2) for layer in layers]
        sum(o.sum() for o in outputs).backward()
        return (outputs, x1.grad, log, [repr(layer) for layer in layers],
                [(layer.norm, layer.eps, layer.keepdim) for layer in layers[:2]],
                [(layer.dim, layer.eps) for layer in layers[2:]],
                [list(layer.state_dict()) for layer in layers])

    assert_same_outcome(scenario)
