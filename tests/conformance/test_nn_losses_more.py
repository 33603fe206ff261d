"""``SmoothL1Loss``, ``HuberLoss``, ``KLDivLoss`` and ``BCELoss`` (and their functional
forms, and ``torch.xlogy``) against real PyTorch: values, gradients, nodes, reductions,
warnings and errors.

Tolerances: one elementwise loss and a sum of six: a few float32 roundings, ``rtol=1e-5``,
``atol=1e-6``.
"""

from __future__ import annotations

import pytest
from harness import assert_same_outcome

LOSSES = {
    "smooth_l1": lambda nn: nn.SmoothL1Loss(),
    "smooth_l1_beta_sum": lambda nn: nn.SmoothL1Loss(beta=0.3, reduction="sum"),
    "smooth_l1_beta_0_is_l1": lambda nn: nn.SmoothL1Loss(beta=0.0),
    "huber_none": lambda nn: nn.HuberLoss(delta=0.5, reduction="none"),
    "huber": lambda nn: nn.HuberLoss(),
    "kl_div_batchmean": lambda nn: nn.KLDivLoss(reduction="batchmean"),
    "kl_div_log_target": lambda nn: nn.KLDivLoss(reduction="sum", log_target=True),
    "kl_div_mean_warns": lambda nn: nn.KLDivLoss(),
    "bce": lambda nn: nn.BCELoss(),
}


def _inputs(torch, name):
    x = torch.tensor([[0.2, 0.7, 0.9], [0.01, 0.5, 0.999]], requires_grad=True)
    t = torch.tensor([[0.1, 1.0, 0.5], [0.3, 0.2, 0.5]])
    if name.startswith("kl_div"):
        return x, x.log(), t.log() if "log_target" in name else t
    if name.startswith("bce"):
        return x, x, t
    return x, x * 3, t


def test_bce_with_class_weights():
    def scenario(torch):
        x, input, target = _inputs(torch, "bce")
        loss = torch.nn.BCELoss(weight=torch.tensor([1.0, 2.0, 3.0]), reduction="sum")
        out = loss(input, target)
        out.backward()
        return out, x.grad, list(loss.state_dict()), out.grad_fn._saved_weight

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", LOSSES)
def test_loss_values_gradients_and_node(name):
    def scenario(torch):
        loss = LOSSES[name](torch.nn)
        x, input, target = _inputs(torch, name)
        out = loss(input, target)
        node = out.grad_fn
        saved = {key: getattr(node, key) for key in ("_saved_beta", "_saved_delta",
                                                     "_saved_self", "_saved_target")
                 if hasattr(node, key)}
        out.sum().backward()
        return repr(loss), out, x.grad, node.name(), saved

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_kl_div_graph_with_a_target_that_requires_grad():
    def scenario(torch):
        x = torch.tensor([0.2, 0.5, 0.3], requires_grad=True)
        t = torch.tensor([0.1, 0.6, 0.3], requires_grad=True)
        out = torch.nn.functional.kl_div(x.log(), t, reduction="none")
        out.sum().backward()
        return (out, x.grad, t.grad, out.grad_fn.name(),
                [n.name() for n, _ in out.grad_fn.next_functions])

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_xlogy():
    def scenario(torch):
        x = torch.tensor([0.0, 0.0, 2.0, 1.5, 0.0], requires_grad=True)
        y = torch.tensor([0.0, 3.0, 0.5, 2.0, float("nan")], requires_grad=True)
        out = torch.xlogy(x, y)
        out.backward(torch.tensor([1.0, 1.0, 2.0, -1.0, 1.0]))
        return out, x.grad, y.grad, out.grad_fn.name()

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


ERRORS = {
    "bce_out_of_range": lambda torch: torch.nn.functional.binary_cross_entropy(
        torch.tensor([1.5]), torch.tensor([1.0])),
    "bce_size": lambda torch: torch.nn.functional.binary_cross_entropy(
        torch.ones(3, 1) / 2, torch.ones(3)),
    "smooth_l1_negative_beta": lambda torch: torch.nn.functional.smooth_l1_loss(
        torch.ones(2), torch.ones(2), beta=-1.0),
    "bad_reduction": lambda torch: torch.nn.functional.huber_loss(
        torch.ones(2), torch.ones(2), reduction="avg"),
    "broadcast_warns": lambda torch: torch.nn.functional.smooth_l1_loss(
        torch.ones(3, 1), torch.zeros(3)),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_errors_and_warnings(call):
    def scenario(torch):
        return call(torch)

    assert_same_outcome(scenario)
