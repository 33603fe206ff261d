"""SGD and Adam against real PyTorch: the same small model, from the same explicit weights,
trained for several steps, must end with the same parameters (to float32 rounding). Also
the optimiser API (groups, state, ``zero_grad``, closures, errors) and
``clip_grad_norm_``."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome
from ops_support import values

import minitorch_hooks

STEPS = 6


def model(torch):
    """Linear(4, 3) -> Tanh -> Linear(3, 2), with weights set from NumPy."""
    nn = torch.nn
    net = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
    with torch.no_grad():
        for i, param in enumerate(net.parameters()):
            param.copy_(torch.tensor(values(tuple(param.shape), seed=40 + i)))
    return net


def train(torch, make_optimizer, steps=STEPS):
    """``steps`` updates on a fixed batch; returns the parameters, the losses, the state."""
    net = model(torch)
    optimizer = make_optimizer(torch.optim, net.parameters())
    x, target = torch.tensor(values((8, 4), seed=50)), torch.tensor(values((8, 2), seed=51))
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(net(x), target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return [p.detach() for p in net.parameters()], losses, optimizer


OPTIMIZERS = {
    "sgd": lambda optim, params: optim.SGD(params, lr=0.1),
    "sgd_momentum": lambda optim, params: optim.SGD(params, lr=0.1, momentum=0.9),
    "sgd_dampening": lambda optim, params: optim.SGD(params, lr=0.1, momentum=0.9,
                                                    dampening=0.5),
    "sgd_nesterov": lambda optim, params: optim.SGD(params, lr=0.1, momentum=0.9,
                                                   nesterov=True),
    "sgd_weight_decay": lambda optim, params: optim.SGD(params, lr=0.1, weight_decay=0.1),
    "sgd_everything": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.8,
                                                     weight_decay=0.01, nesterov=True),
    "adam": lambda optim, params: optim.Adam(params),
    "adam_lr": lambda optim, params: optim.Adam(params, lr=0.05),
    "adam_betas": lambda optim, params: optim.Adam(params, lr=0.01, betas=(0.5, 0.9),
                                                  eps=1e-6),
    "adam_weight_decay": lambda optim, params: optim.Adam(params, lr=0.01, weight_decay=0.1),
    # PyTorch 2.13's keyword-only options. maximize negates the gradient first, before weight
    # decay and momentum see it; foreach and fused=False pick an implementation, not a result.
    "sgd_maximize": lambda optim, params: optim.SGD(params, lr=0.1, maximize=True),
    "sgd_momentum_maximize": lambda optim, params: optim.SGD(
        params, lr=0.1, momentum=0.9, dampening=0.3, weight_decay=0.05, maximize=True),
    "sgd_nesterov_maximize": lambda optim, params: optim.SGD(
        params, lr=0.05, momentum=0.8, weight_decay=0.01, nesterov=True, maximize=True),
    "sgd_foreach": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.8,
                                                  weight_decay=0.01, foreach=True),
    "sgd_foreach_maximize": lambda optim, params: optim.SGD(
        params, lr=0.05, momentum=0.8, weight_decay=0.01, nesterov=True, maximize=True,
        foreach=True),
    "sgd_not_foreach": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.8,
                                                      foreach=False),
    "sgd_not_fused": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.8,
                                                    fused=False),
    "adam_maximize": lambda optim, params: optim.Adam(params, lr=0.01, maximize=True),
    "adam_amsgrad": lambda optim, params: optim.Adam(params, lr=0.05, amsgrad=True),
    "adam_amsgrad_maximize_weight_decay": lambda optim, params: optim.Adam(
        params, lr=0.05, betas=(0.5, 0.9), weight_decay=0.1, amsgrad=True, maximize=True),
    "adam_decoupled_weight_decay": lambda optim, params: optim.Adam(
        params, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "adam_decoupled_amsgrad_maximize": lambda optim, params: optim.Adam(
        params, lr=0.05, weight_decay=0.2, amsgrad=True, maximize=True,
        decoupled_weight_decay=True),
    "adam_foreach": lambda optim, params: optim.Adam(params, lr=0.05, weight_decay=0.1,
                                                    amsgrad=True, foreach=True),
    "adam_foreach_decoupled_maximize": lambda optim, params: optim.Adam(
        params, lr=0.05, weight_decay=0.1, maximize=True, decoupled_weight_decay=True,
        foreach=True),
    "adam_not_foreach": lambda optim, params: optim.Adam(params, lr=0.05, amsgrad=True,
                                                        foreach=False),
    "adam_not_fused_not_capturable_not_differentiable": lambda optim, params: optim.Adam(
        params, lr=0.05, fused=False, capturable=False, differentiable=False),
    # AdamW is Adam with decoupled weight decay, 1e-2 by default.
    "adamw": lambda optim, params: optim.AdamW(params, lr=0.05),
    "adamw_amsgrad_maximize": lambda optim, params: optim.AdamW(
        params, lr=0.05, betas=(0.5, 0.9), weight_decay=0.2, amsgrad=True, maximize=True),
    "rmsprop": lambda optim, params: optim.RMSprop(params),
    "rmsprop_momentum_centered_weight_decay": lambda optim, params: optim.RMSprop(
        params, lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1),
    "rmsprop_maximize_foreach": lambda optim, params: optim.RMSprop(
        params, lr=0.01, momentum=0.3, maximize=True, foreach=True),
    "adagrad": lambda optim, params: optim.Adagrad(params),
    "adagrad_lr_decay_accumulator_weight_decay": lambda optim, params: optim.Adagrad(
        params, lr=0.1, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0.5),
    "adagrad_maximize_foreach": lambda optim, params: optim.Adagrad(
        params, lr=0.1, eps=1e-6, foreach=True, maximize=True),
}


@pytest.mark.parametrize("make", OPTIMIZERS.values(), ids=OPTIMIZERS.keys())
def test_parameters_after_several_steps(make):
    def scenario(torch):
        params, losses, _ = train(torch, make)
        return params, losses

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", OPTIMIZERS.values(), ids=OPTIMIZERS.keys())
def test_state_after_several_steps(make):
    """Each parameter's state, its keys in PyTorch's order: ``momentum_buffer`` (none without
    momentum); ``step``, ``exp_avg``, ``exp_avg_sq`` and, with ``amsgrad``,
    ``max_exp_avg_sq``."""
    def scenario(torch):
        _, _, optimizer = train(torch, make, steps=4)
        return [list(state.items()) for state in optimizer.state.values()]

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", OPTIMIZERS.values(), ids=OPTIMIZERS.keys())
def test_repr_param_groups_and_defaults(make):
    """What ``print(optimizer)`` shows, and every option of ``param_groups`` and
    ``defaults``, in PyTorch's order: the keyword-only options with their defaults too."""
    def scenario(torch):
        optimizer = make(torch.optim, model(torch).parameters())
        groups = [[(k, v) for k, v in group.items() if k != "params"]
                  for group in optimizer.param_groups]
        return repr(optimizer), groups, list(optimizer.defaults.items())

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"])
def test_repr_with_default_options(name):
    def scenario(torch):
        return repr(getattr(torch.optim, name)(model(torch).parameters()))

    assert_same_outcome(scenario)


def test_sgd_state_holds_the_momentum_buffer():
    def scenario(torch):
        _, _, optimizer = train(torch, OPTIMIZERS["sgd_momentum"], steps=2)
        plain = train(torch, OPTIMIZERS["sgd"], steps=1)[2]
        return ([sorted(s) for s in optimizer.state.values()],
                [s["momentum_buffer"] for s in optimizer.state.values()], len(plain.state))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_sgd_first_momentum_step_takes_the_gradient_undamped():
    def scenario(torch):
        w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
        optimizer = torch.optim.SGD([w], lr=0.5, momentum=0.9, dampening=0.5)
        trace = []
        for _ in range(3):
            optimizer.zero_grad()
            (w * w).sum().backward()
            optimizer.step()
            trace.append((w.detach().clone(), optimizer.state[w]["momentum_buffer"].clone()))
        return trace

    assert_same_outcome(scenario)


def test_adam_state_and_step_count():
    def scenario(torch):
        _, _, optimizer = train(torch, OPTIMIZERS["adam"], steps=3)
        state = list(optimizer.state.values())
        return ([sorted(s) for s in state], [s["step"] for s in state],
                [s["exp_avg"] for s in state], [s["exp_avg_sq"] for s in state])

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_parameter_groups_with_their_own_options(name):
    def scenario(torch):
        net = model(torch)
        optimizer = getattr(torch.optim, name)(
            [{"params": net[0].parameters()}, {"params": net[2].parameters(), "lr": 0.1}],
            lr=0.01)
        for _ in range(3):
            optimizer.zero_grad()
            net(torch.tensor(values((3, 4), seed=52))).pow(2).mean().backward()
            optimizer.step()
        groups = [[(k, v) for k, v in g.items() if k != "params"] for g in optimizer.param_groups]
        return [p.detach() for p in net.parameters()], groups, repr(optimizer)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


GROUP_OPTIONS = {
    "SGD": ({"momentum": 0.9, "maximize": True},
            {"momentum": 0.5, "nesterov": True, "foreach": True}),
    "Adam": ({"amsgrad": True, "maximize": True},
             {"decoupled_weight_decay": True, "foreach": False}),
}


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_parameter_groups_with_their_own_new_options(name):
    """A group may set any option for itself, the keyword-only ones too: each group is
    updated with its own, and ``amsgrad`` adds ``max_exp_avg_sq`` to its group's state
    only."""
    def scenario(torch):
        net = model(torch)
        first, second = GROUP_OPTIONS[name]
        optimizer = getattr(torch.optim, name)(
            [{"params": net[0].parameters(), **first}], lr=0.05, weight_decay=0.1)
        optimizer.add_param_group({"params": net[2].parameters(), **second})
        for _ in range(3):
            optimizer.zero_grad()
            net(torch.tensor(values((3, 4), seed=52))).pow(2).mean().backward()
            optimizer.step()
        return ([p.detach() for p in net.parameters()],
                [list(state.items()) for state in optimizer.state.values()], repr(optimizer))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_adam_amsgrad_keeps_the_largest_second_moment():
    """With ``amsgrad`` the denominator uses the running maximum of ``exp_avg_sq``: a large
    gradient followed by small ones keeps the steps small, where plain Adam's grow back."""
    def scenario(torch):
        trace = []
        for amsgrad in (False, True):
            w = torch.nn.Parameter(torch.tensor([1.0, -1.0]))
            optimizer = torch.optim.Adam([w], lr=0.1, betas=(0.0, 0.5), amsgrad=amsgrad)
            for scale in (10.0, 0.1, 0.1, 0.1):
                optimizer.zero_grad()
                (w * scale).sum().backward()
                optimizer.step()
                trace.append((w.detach().clone(), sorted(optimizer.state[w])))
        return trace

    assert_same_outcome(scenario)


def test_adam_decoupled_weight_decay_shrinks_the_weights_not_the_gradient():
    """``decoupled_weight_decay`` (AdamW) multiplies the parameter by ``1 - lr *
    weight_decay`` before the update and leaves the gradient, so the running averages never
    see the decay: with a zero gradient, the averages stay 0 and only the decay moves
    the weights."""
    def scenario(torch):
        results = []
        for decoupled in (False, True):
            w = torch.nn.Parameter(torch.tensor([2.0, -4.0]))
            optimizer = torch.optim.Adam([w], lr=0.1, weight_decay=0.5,
                                         decoupled_weight_decay=decoupled)
            for _ in range(2):
                w.grad = torch.zeros(2)
                optimizer.step()
            results.append((w.detach().clone(), optimizer.state[w]["exp_avg"],
                            optimizer.state[w]["exp_avg_sq"]))
        return results

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_maximize_climbs_the_objective(name):
    """``maximize=True`` steps along the gradient instead of against it: the same
    optimiser on ``-f`` without it gives the same parameters."""
    def scenario(torch):
        results = []
        for maximize, sign in ((True, 1.0), (False, -1.0)):
            w = torch.nn.Parameter(torch.tensor([0.5, -1.5]))
            optimizer = getattr(torch.optim, name)([w], lr=0.1, maximize=maximize)
            for _ in range(3):
                optimizer.zero_grad()
                (sign * -(w - 1.0).pow(2).sum()).backward()
                optimizer.step()
            results.append(w.detach())
        return results

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_a_parameter_without_grad_is_skipped(name):
    def scenario(torch):
        used = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        unused = torch.nn.Parameter(torch.tensor([3.0]))
        optimizer = getattr(torch.optim, name)([used, unused], lr=0.1)
        (used * used).sum().backward()
        optimizer.step()
        return used.detach(), unused.detach(), unused.grad, len(optimizer.state)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    def scenario(torch):
        w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        optimizer = torch.optim.SGD([w], lr=0.1)
        (w * 3).sum().backward()
        grad = w.grad
        optimizer.zero_grad(set_to_none=set_to_none)
        return w.grad, grad is w.grad if w.grad is not None else None, grad

    assert_same_outcome(scenario)


def test_step_with_a_closure_returns_its_loss_and_runs_with_grad():
    def scenario(torch):
        w = torch.nn.Parameter(torch.tensor([1.0, -1.0]))
        optimizer = torch.optim.SGD([w], lr=0.25)
        seen = []

        def closure():
            optimizer.zero_grad()
            loss = (w * w).sum()
            seen.append(torch.is_grad_enabled())
            loss.backward()
            return loss

        with torch.no_grad():
            loss = optimizer.step(closure)
        return loss, w.detach(), seen, torch.is_grad_enabled()

    assert_same_outcome(scenario)


def test_step_updates_in_place_outside_the_graph():
    def scenario(torch):
        w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        before = w._version
        optimizer = torch.optim.SGD([w], lr=0.1)
        (w * w).sum().backward()
        optimizer.step()
        return w.grad_fn, w.is_leaf, w.requires_grad, w._version > before, w.detach()

    assert_same_outcome(scenario)


OPTIMIZER_ERRORS = {
    "lr": lambda torch, p: torch.optim.SGD([p], lr=-1),
    "momentum": lambda torch, p: torch.optim.SGD([p], lr=0.1, momentum=-0.5),
    "weight_decay": lambda torch, p: torch.optim.SGD([p], lr=0.1, weight_decay=-1),
    "nesterov": lambda torch, p: torch.optim.SGD([p], lr=0.1, nesterov=True),
    "nesterov_dampening": lambda torch, p: torch.optim.SGD([p], lr=0.1, momentum=0.9,
                                                           dampening=0.1, nesterov=True),
    "adam_lr": lambda torch, p: torch.optim.Adam([p], lr=-0.1),
    "adam_eps": lambda torch, p: torch.optim.Adam([p], eps=-1.0),
    "adam_beta1": lambda torch, p: torch.optim.Adam([p], betas=(1.0, 0.999)),
    "adam_beta2": lambda torch, p: torch.optim.Adam([p], betas=(0.9, -0.1)),
    "adam_weight_decay": lambda torch, p: torch.optim.Adam([p], weight_decay=-0.5),
    # The keyword-only options cannot be given by position.
    "sgd_maximize_by_position": lambda torch, p: torch.optim.SGD([p], 0.1, 0, 0, 0, False, True),
    "adam_foreach_by_position": lambda torch, p: torch.optim.Adam(
        [p], 0.1, (0.9, 0.99), 1e-8, 0, False, True),
    # PyTorch checks the combinations of fused once the groups are made; nesterov with
    # maximize is no error.
    "sgd_fused_differentiable": lambda torch, p: torch.optim.SGD(
        [p], lr=0.1, fused=True, differentiable=True),
    "sgd_fused_foreach": lambda torch, p: torch.optim.SGD([p], lr=0.1, fused=True,
                                                          foreach=True),
    "sgd_fused_foreach_differentiable": lambda torch, p: torch.optim.SGD(
        [p], lr=0.1, fused=True, foreach=True, differentiable=True),
    "sgd_fused_foreach_empty": lambda torch, p: torch.optim.SGD([], lr=0.1, fused=True,
                                                                foreach=True),
    "sgd_nesterov_maximize_without_momentum": lambda torch, p: torch.optim.SGD(
        [p], lr=0.1, nesterov=True, maximize=True),
    "adam_fused_differentiable": lambda torch, p: torch.optim.Adam(
        [p], fused=True, differentiable=True),
    "adam_fused_foreach": lambda torch, p: torch.optim.Adam([p], fused=True, foreach=True),
    "adam_fused_foreach_capturable": lambda torch, p: torch.optim.Adam(
        [p], fused=True, foreach=True, capturable=True),
    "adam_fused_foreach_bad_lr": lambda torch, p: torch.optim.Adam(
        [p], lr=-1.0, fused=True, foreach=True),
    "empty": lambda torch, p: torch.optim.SGD([], lr=0.1),
    "tensor": lambda torch, p: torch.optim.SGD(p, lr=0.1),
    "not_a_tensor": lambda torch, p: torch.optim.SGD([p, 3], lr=0.1),
    "non_leaf": lambda torch, p: torch.optim.SGD([p * 2], lr=0.1),
    "set": lambda torch, p: torch.optim.SGD({p}, lr=0.1),
    "shared": lambda torch, p: torch.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1),
    "group_not_dict": lambda torch, p: torch.optim.SGD([p], lr=0.1).add_param_group([p]),
}


@pytest.mark.parametrize("case", OPTIMIZER_ERRORS.values(), ids=OPTIMIZER_ERRORS.keys())
def test_optimizer_errors(case):
    def scenario(torch):
        case(torch, torch.nn.Parameter(torch.ones(2)))

    assert_same_outcome(scenario)


NOT_IMPLEMENTED = {
    "sgd_fused": ("SGD", {"fused": True}),
    "sgd_differentiable": ("SGD", {"differentiable": True}),
    "adam_fused": ("Adam", {"fused": True}),
    "adam_fused_capturable": ("Adam", {"fused": True, "capturable": True}),
    "adam_capturable": ("Adam", {"capturable": True}),
    "adam_capturable_foreach": ("Adam", {"capturable": True, "foreach": True}),
    "adam_differentiable": ("Adam", {"differentiable": True}),
}


@pytest.mark.parametrize("case", NOT_IMPLEMENTED.values(), ids=NOT_IMPLEMENTED.keys())
@pytest.mark.parametrize("where", ["constructor", "added_group"])
def test_fused_capturable_and_differentiable_are_refused_deviation(case, where):
    """DEVIATION: PyTorch on the CPU accepts ``fused=True`` (one kernel for the whole
    update, with the GradScaler support that comes with it), ``capturable=True`` (steps
    safe to capture in a CUDA graph; on the CPU its step raises AssertionError) and
    ``differentiable=True`` (steps recorded by autograd; on leaf parameters its step raises
    RuntimeError, and in a group of its own it is a plain step), in the constructor or in
    a group. minitorch_hooks has none of these, so it raises NotImplementedError naming the
    option when the optimiser is made or, for a group that asks for one later, at
    ``step``, before any parameter changes. Where PyTorch itself refuses a combination
    (``fused`` with ``foreach`` or ``differentiable``), the errors are the same."""
    name, options = case

    def scenario(torch):
        w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
        extra = torch.nn.Parameter(torch.tensor([3.0]))
        try:
            if where == "constructor":
                optimizer = getattr(torch.optim, name)([w, extra], lr=0.1, **options)
            else:
                optimizer = getattr(torch.optim, name)([w], lr=0.1)
                optimizer.add_param_group({"params": [extra], **options})
        except NotImplementedError as error:
            return "made", str(error)
        (w * w).sum().backward()
        extra.grad = torch.ones(1)
        try:
            optimizer.step()
        except (NotImplementedError, AssertionError, RuntimeError) as error:
            return "step", type(error).__name__, str(error), w.detach(), extra.detach()
        return "stepped", w.detach(), extra.detach()

    theirs, _ = pytorch_outcome(scenario)
    ours, _ = outcome(scenario, minitorch_hooks)
    first = "fused" if options.get("fused") else next(iter(options))
    refusal = f"{name}({first}=True) is not implemented: "
    if where == "constructor":
        assert ours[0] == "made" and ours[1].startswith(refusal), ours
    else:
        assert ours[:2] == ("step", "NotImplementedError") and ours[2].startswith(refusal)
        np.testing.assert_array_equal(ours[3].numpy(), [1.0, -2.0])  # nothing changed
        np.testing.assert_array_equal(ours[4].numpy(), [3.0])
    if options.get("fused") or where == "added_group" and "differentiable" in options:
        # PyTorch enables grad in step from the constructor's differentiable only.
        assert theirs[0] == "stepped", theirs
    elif "capturable" in options:
        assert theirs[:2] == ["step", "AssertionError"], theirs
        assert theirs[2].startswith("If capturable=True, params and state_steps must be on "
                                    "supported devices: ['cuda', 'xpu', 'hpu'"), theirs
    else:
        assert theirs[:3] == ["step", "RuntimeError", "a leaf Variable that requires grad is "
                              "being used in an in-place operation."], theirs
    if where == "constructor" and "differentiable" in options:
        def non_leaf(torch):  # a differentiable optimiser may take one, in PyTorch
            try:
                getattr(torch.optim, name)([torch.ones(2, requires_grad=True) * 2], **options)
            except (NotImplementedError, ValueError) as error:
                return type(error).__name__, str(error)
            return "made"

        assert pytorch_outcome(non_leaf)[0] == "made"
        assert outcome(non_leaf, minitorch_hooks)[0][0] == "NotImplementedError"


def test_options_that_pick_an_implementation_are_accepted_when_off():
    """``fused=False``, ``capturable=False`` and ``differentiable=False`` ask for what
    both libraries do anyway: accepted in the constructor and in a group, and stepped."""
    def scenario(torch):
        w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
        extra = torch.nn.Parameter(torch.tensor([3.0]))
        optimizer = torch.optim.Adam([w], lr=0.1, fused=False, capturable=False,
                                     differentiable=False)
        optimizer.add_param_group({"params": [extra], "fused": False, "foreach": True})
        (w * w).sum().backward()
        extra.grad = torch.ones(1)
        optimizer.step()
        return w.detach(), extra.detach(), repr(optimizer)

    assert_same_outcome(scenario)


# -- clip_grad_norm_ ------------------------------------------------------------------------

def grads_of(torch):
    net = model(torch)
    net(torch.tensor(values((5, 4), seed=53))).pow(2).sum().backward()
    return net


@pytest.mark.parametrize("norm_type", [2.0, 1, float("inf"), 3.0])
@pytest.mark.parametrize("max_norm", [0.5, 1e6])
def test_clip_grad_norm_returns_the_total_norm_and_scales_the_grads(max_norm, norm_type):
    def scenario(torch):
        net = grads_of(torch)
        before = [p.grad.clone() for p in net.parameters()]
        total = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, norm_type=norm_type)
        return total, before, [p.grad for p in net.parameters()]

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-7)


def test_clip_grad_norm_after_clipping_the_norm_is_max_norm():
    def scenario(torch):
        net = grads_of(torch)
        torch.nn.utils.clip_grad_norm_(net.parameters(), 0.25)
        return torch.nn.utils.clip_grad_norm_(net.parameters(), 100.0)

    assert_same_outcome(scenario, rtol=1e-5)


@pytest.mark.parametrize("case", ["tensor", "no_grads", "empty_generator", "nonfinite"])
def test_clip_grad_norm_edge_cases(case):
    def scenario(torch):
        clip = torch.nn.utils.clip_grad_norm_
        w = torch.nn.Parameter(torch.tensor([3.0, 4.0]))
        if case == "tensor":
            (w * 2).sum().backward()
            return clip(w, 1.0), w.grad
        if case == "no_grads":
            return clip([w], 1.0), w.grad
        if case == "empty_generator":
            return clip((p for p in []), 1.0)
        (w * float("inf")).sum().backward()
        return clip([w], 1.0, error_if_nonfinite=True)

    assert_same_outcome(scenario)
