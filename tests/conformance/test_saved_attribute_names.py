"""Which ``_saved_*`` attributes a graph's nodes have, and their values, against real
PyTorch: tools that draw the backward graph (torchviz's ``show_attrs``) list them with
``dir(grad_fn)``, so a node must have PyTorch's names and no others. Covers the nodes of
a small CNN, ``nn.Linear`` with and without a batch, ``mm`` whose second matrix needs no
gradient (its strides are then not kept), sums and means over given dims, views and the
negative log-likelihood.
"""

from __future__ import annotations

import pytest
from harness import assert_same_outcome


def _cnn(torch):
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Conv2d(6, 8, 3, padding=1), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))
    return model(torch.randn(2, 3, 8, 8, requires_grad=True)).pow(2).sum()


GRAPHS = {
    "cnn": _cnn,
    "linear of a vector": lambda torch: (torch.nn.Linear(5, 3)(
        torch.randn(5, requires_grad=True)).tanh() * 2).mean(),
    "linear of data": lambda torch: torch.nn.functional.cross_entropy(
        torch.nn.Linear(4, 3)(torch.randn(2, 4)), torch.tensor([0, 2])),
    "nll sum, ignore_index": lambda torch: torch.nn.functional.nll_loss(
        torch.randn(3, 4, requires_grad=True).log_softmax(1), torch.tensor([0, 3, 1]),
        reduction="sum", ignore_index=3),
    "mm": lambda torch: (torch.randn(3, 4, requires_grad=True) @ torch.randn(4, 2))
    .sigmoid().sum(1).mean(0),
    "mm of a transpose": lambda torch: (torch.randn(4, 2) .t()
                                        @ torch.randn(3, 4, requires_grad=True).t()).sum(-1)
    .mean((0,), keepdim=True).sum(),
    "views": lambda torch: torch.randn(2, 3, requires_grad=True).view(3, 2).t().reshape(-1)
    .sum((-1, 0)),
}


def saved_attributes(output):
    """Every node's ``_saved_*`` names, with the value of those that are not tensors."""
    nodes, stack = {}, [output.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node.name() in nodes:
            continue
        attributes = {}
        for name in sorted(n for n in dir(node) if n.startswith("_saved_")):
            value = getattr(node, name)
            attributes[name] = "tensor" if hasattr(value, "grad_fn") else value
        nodes[node.name()] = attributes
        stack.extend(next_node for next_node, _ in node.next_functions)
    return nodes


@pytest.mark.parametrize("graph", GRAPHS.values(), ids=GRAPHS.keys())
def test_the_saved_attributes_of_a_graphs_nodes(graph):
    def scenario(torch):
        torch.manual_seed(0)
        return saved_attributes(graph(torch))

    assert_same_outcome(scenario)
