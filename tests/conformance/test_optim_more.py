"""AdamW, RMSprop, Adagrad and the learning-rate schedulers against real PyTorch.

The optimisers' training numbers, state and state dicts are in ``test_optim.py`` and
``test_optim_hooks.py`` (their tables include these three); here is what is particular to
each: AdamW's forced ``decoupled_weight_decay``, Adagrad's state made before any step,
RMSprop's optional state, their errors, and the step hooks as a scheduler wraps ``step``.

Tolerances: a few steps of float32 arithmetic, each element going through about ten
roundings per step (half an ulp, 6e-8, each), stay within ``rtol=1e-5``; ``atol=1e-6``
covers values that cross zero. Learning rates are Python floats in both libraries, so the
schedules compare exactly (their arithmetic is the same float64 arithmetic).
"""

from __future__ import annotations

import copy
import importlib
import math

import pytest
from harness import assert_same_outcome


def _setup(torch, make):
    """Two parameters with gradients and an optimiser over them."""
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    b = torch.nn.Parameter(torch.tensor([0.5]))
    ((w * w).sum() + 3 * b.sum()).backward()
    return make(torch.optim, [w, b]), w, b


# -- the optimisers ----------------------------------------------------------------------------

def test_adamw_defaults_and_decoupled_weight_decay_forced_on_load():
    """AdamW has no ``decoupled_weight_decay`` argument; a state dict that says False is
    loaded as True, as is an Adam checkpoint."""
    def scenario(torch):
        opt, w, b = _setup(torch, lambda optim, p: optim.AdamW(p))
        opt.step()
        sd = copy.deepcopy(opt.state_dict())
        sd["param_groups"][0]["decoupled_weight_decay"] = False
        opt.load_state_dict(sd)
        adam, _, _ = _setup(torch, lambda optim, p: optim.Adam(p, weight_decay=0.1))
        adam.step()
        opt.load_state_dict(adam.state_dict())
        opt.step()
        return (opt.defaults, opt.param_groups[0]["decoupled_weight_decay"],
                opt.param_groups[0]["weight_decay"], w, b, isinstance(opt, torch.optim.Adam))

    assert_same_outcome(scenario)


def test_adamw_refuses_decoupled_weight_decay_as_an_argument():
    def scenario(torch):
        w = torch.nn.Parameter(torch.ones(2))
        return torch.optim.AdamW([w], decoupled_weight_decay=True)

    assert_same_outcome(scenario)


def test_adagrad_makes_its_state_before_any_step():
    """``step`` 0 and ``sum`` filled with ``initial_accumulator_value`` for every parameter,
    as soon as the optimiser is made, so that its state dict already holds them."""
    def scenario(torch):
        opt, w, b = _setup(torch, lambda optim, p: optim.Adagrad(
            p, initial_accumulator_value=0.25))
        before = opt.state_dict()
        opt.step()
        return before, opt.state_dict(), w, b

    assert_same_outcome(scenario)


@pytest.mark.parametrize("options", [{}, {"momentum": 0.9}, {"centered": True},
                                     {"momentum": 0.1, "centered": True}],
                         ids=["plain", "momentum", "centered", "both"])
def test_rmsprop_state_keys_depend_on_momentum_and_centered(options):
    def scenario(torch):
        opt, w, b = _setup(torch, lambda optim, p: optim.RMSprop(p, lr=0.1, **options))
        opt.step()
        opt.step()
        return [list(state.items()) for state in opt.state.values()], w, b

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


BAD_ARGUMENTS = {
    "adamw_lr": ("AdamW", {"lr": -1.0}),
    "adamw_beta": ("AdamW", {"betas": (0.9, 1.0)}),
    "adamw_weight_decay": ("AdamW", {"weight_decay": -0.1}),
    "rmsprop_lr": ("RMSprop", {"lr": -0.1}),
    "rmsprop_eps": ("RMSprop", {"eps": -1e-8}),
    "rmsprop_momentum": ("RMSprop", {"momentum": -0.5}),
    "rmsprop_weight_decay": ("RMSprop", {"weight_decay": -1}),
    "rmsprop_alpha": ("RMSprop", {"alpha": -0.99}),
    "adagrad_lr": ("Adagrad", {"lr": -0.1}),
    "adagrad_lr_decay": ("Adagrad", {"lr_decay": -0.1}),
    "adagrad_weight_decay": ("Adagrad", {"weight_decay": -0.1}),
    "adagrad_accumulator": ("Adagrad", {"initial_accumulator_value": -1.0}),
    "adagrad_eps": ("Adagrad", {"eps": -1e-10}),
    "adagrad_fused_foreach": ("Adagrad", {"fused": True, "foreach": True}),
    "adagrad_fused_differentiable": ("Adagrad", {"fused": True, "differentiable": True}),
    "rmsprop_unknown": ("RMSprop", {"betas": (0.9, 0.99)}),
}


@pytest.mark.parametrize("case", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
def test_bad_arguments_get_torchs_errors(case):
    name, options = case

    def scenario(torch):
        return getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(2))], **options)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", ["AdamW", "RMSprop", "Adagrad"])
def test_step_hooks_fire_around_the_step_and_inside_a_schedulers_wrapper(name):
    """Global pre-hooks, the optimiser's own pre-hooks, the step, its own post-hooks, the
    global post-hooks: the same order once a scheduler has wrapped ``step``, and the
    wrapper notes the call so that the scheduler does not warn."""
    def scenario(torch):
        opt, w, b = _setup(torch, lambda optim, p: getattr(optim, name)(p, lr=0.1))
        module = importlib.import_module(torch.__name__ + ".optim.optimizer")
        events = []

        def recorder(tag):
            def hook(optimizer, args, kwargs):
                events.append((tag, optimizer is opt, len(args), w.detach().clone()))
            return hook

        handles = [module.register_optimizer_step_pre_hook(recorder("global pre")),
                   module.register_optimizer_step_post_hook(recorder("global post")),
                   opt.register_step_pre_hook(recorder("pre")),
                   opt.register_step_post_hook(recorder("post"))]
        try:
            opt.step()
            scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
            opt.step()
            scheduler.step()
            wrapped = hasattr(opt.step, "_wrapped_by_lr_sched")
        finally:
            for handle in handles:
                handle.remove()
        return events, opt.param_groups[0]["lr"], getattr(opt, "_opt_called", None), wrapped

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-6)


# -- the schedulers ----------------------------------------------------------------------------

SCHEDULERS = {
    "step": lambda s, opt: s.StepLR(opt, step_size=3, gamma=0.5),
    "multistep": lambda s, opt: s.MultiStepLR(opt, milestones=[2, 5, 5, 7], gamma=0.1),
    "exponential": lambda s, opt: s.ExponentialLR(opt, gamma=0.9),
    "cosine": lambda s, opt: s.CosineAnnealingLR(opt, T_max=4, eta_min=0.01),
    "lambda": lambda s, opt: s.LambdaLR(opt, lr_lambda=lambda epoch: 1 / (epoch + 1)),
    "lambda_per_group": lambda s, opt: s.LambdaLR(
        opt, lr_lambda=[lambda epoch: 0.5 ** epoch, lambda epoch: epoch + 1]),
    "multiplicative": lambda s, opt: s.MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.95),
    "constant": lambda s, opt: s.ConstantLR(opt, factor=0.5, total_iters=3),
    "linear": lambda s, opt: s.LinearLR(opt, start_factor=0.25, total_iters=4),
    "linear_down": lambda s, opt: s.LinearLR(opt, start_factor=1.0, end_factor=0.1,
                                             total_iters=5),
    "polynomial": lambda s, opt: s.PolynomialLR(opt, total_iters=6, power=2.0),
    "one_cycle": lambda s, opt: s.OneCycleLR(opt, max_lr=[0.5, 1.0], total_steps=10),
    "one_cycle_linear_three_phase": lambda s, opt: s.OneCycleLR(
        opt, max_lr=0.5, epochs=2, steps_per_epoch=5, anneal_strategy="linear",
        three_phase=True, pct_start=0.4),
    "cyclic": lambda s, opt: s.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3),
    "cyclic_triangular2": lambda s, opt: s.CyclicLR(
        opt, base_lr=0.01, max_lr=[0.1, 0.2], step_size_up=2, step_size_down=3,
        mode="triangular2"),
    "cyclic_exp_range": lambda s, opt: s.CyclicLR(
        opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range", gamma=0.9),
    "warm_restarts": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2,
                                                                  eta_min=0.001),
    "sequential": lambda s, opt: s.SequentialLR(
        opt, [s.LinearLR(opt, start_factor=0.1, total_iters=3),
              s.ExponentialLR(opt, gamma=0.5)], milestones=[3]),
    "chained": lambda s, opt: s.ChainedScheduler(
        [s.ConstantLR(opt, factor=0.5, total_iters=2), s.ExponentialLR(opt, gamma=0.9)]),
}


def _two_groups(torch, momentum=0.9):
    """SGD with two parameter groups, each with its own rate."""
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    b = torch.nn.Parameter(torch.tensor([0.5]))
    return torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.2}], lr=0.1,
                           momentum=momentum), w, b


def _training(torch, opt, scheduler, w, b, epochs=9):
    """Train a few epochs, stepping the optimiser, then the scheduler; the rates each
    epoch, as the scheduler and the groups tell them."""
    rates = [(scheduler.get_last_lr(), [g["lr"] for g in opt.param_groups])]
    for _ in range(epochs):
        opt.zero_grad()
        ((w * w).sum() + (b * b).sum()).backward()
        opt.step()
        scheduler.step()
        rates.append((scheduler.get_last_lr(),
                      [(g["lr"], g.get("momentum")) for g in opt.param_groups]))
    return rates


@pytest.mark.parametrize("make", SCHEDULERS.values(), ids=SCHEDULERS.keys())
def test_learning_rates_over_the_epochs(make):
    """The rates each epoch, the groups' extra keys (``initial_lr``; the cyclic ones add
    theirs) and the parameters trained with them."""
    def train(torch):
        opt, w, b = _two_groups(torch)
        scheduler = make(torch.optim.lr_scheduler, opt)
        rates = _training(torch, opt, scheduler, w, b)
        return rates, [sorted(g) for g in opt.param_groups], scheduler.last_epoch, (w, b)

    assert_same_outcome(lambda torch: train(torch)[:3], rtol=1e-12, atol=0)
    assert_same_outcome(lambda torch: train(torch)[3], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", SCHEDULERS.values(), ids=SCHEDULERS.keys())
def test_state_dict_and_resuming(make):
    """``state_dict()`` (the scheduler's attributes, lambdas as ``None``) after a few
    epochs; a new scheduler that loads it goes on with the same rates."""
    def scenario(torch):
        opt, w, b = _two_groups(torch)
        scheduler = make(torch.optim.lr_scheduler, opt)
        _training(torch, opt, scheduler, w, b, epochs=4)
        saved = scheduler.state_dict()
        opt_saved = copy.deepcopy(opt.state_dict())
        again, w2, b2 = _two_groups(torch)
        resumed = make(torch.optim.lr_scheduler, again)
        again.load_state_dict(opt_saved)
        resumed.load_state_dict(saved)
        with torch.no_grad():
            w2.copy_(w)
            b2.copy_(b)
        return (_describe(saved), _training(torch, opt, scheduler, w, b, epochs=3),
                _training(torch, again, resumed, w2, b2, epochs=3), torch.equal(w, w2))

    assert_same_outcome(scenario, rtol=1e-12, atol=0)


def _describe(value):
    """A state dict with what cannot be compared across libraries (functions, bound
    methods) replaced by their kind."""
    if isinstance(value, dict):
        return {key: _describe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_describe(item) for item in value)
    if callable(value):
        return "callable"
    return value


def test_scheduler_step_before_optimizer_step_warns_once():
    def scenario(torch):
        opt, w, b = _two_groups(torch)
        scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
        scheduler.step()
        scheduler.step()
        return opt.param_groups[0]["lr"], scheduler._step_count

    assert_same_outcome(scenario, rtol=1e-12, atol=0)


def test_optimizer_step_replaced_after_the_scheduler_warns():
    def scenario(torch):
        opt, w, b = _two_groups(torch)
        scheduler = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        opt.step = lambda closure=None: None
        opt.step()
        scheduler.step()
        return scheduler.get_last_lr()

    assert_same_outcome(scenario, rtol=1e-12, atol=0)


def test_get_lr_outside_step_warns_and_step_with_an_epoch_is_deprecated():
    def scenario(torch):
        opt, w, b = _two_groups(torch)
        scheduler = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.5)
        asked = scheduler.get_lr()
        opt.step()
        scheduler.step(5)  # the closed form, from base_lrs
        return asked, scheduler.get_last_lr(), scheduler.last_epoch

    assert_same_outcome(scenario, rtol=1e-12, atol=0)


@pytest.mark.parametrize("mode, threshold_mode, metrics", [
    ("min", "rel", [1.0, 0.9, 0.95, 0.91, 0.9, 0.92, 0.93, 0.5, 0.6, 0.7, 0.8, 0.9]),
    ("max", "abs", [1.0, 1.05, 1.2, 1.1, 1.0, 1.21, 1.19, 1.1, 1.0, 0.9, 0.8, 0.7]),
])
def test_reduce_lr_on_plateau(mode, threshold_mode, metrics):
    """Patience 2, cooldown 1, a floor for the second group: the rate each epoch, and the
    counters."""
    def scenario(torch):
        opt, w, b = _two_groups(torch)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(
            opt, mode=mode, factor=0.5, patience=2, threshold=0.05,
            threshold_mode=threshold_mode, cooldown=1, min_lr=[0.0, 0.09])
        trace = []
        for metric in metrics:
            opt.step()
            scheduler.step(torch.tensor(metric))
            trace.append((scheduler.get_last_lr(), scheduler.num_bad_epochs,
                          scheduler.cooldown_counter, scheduler.best))
        return trace, scheduler.state_dict()

    assert_same_outcome(scenario, rtol=1e-6, atol=0)


def test_cyclic_schedulers_cycle_adams_beta1():
    """With Adam, ``cycle_momentum`` moves ``betas[0]`` instead of a momentum."""
    def scenario(torch):
        w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
        opt = torch.optim.Adam([w], lr=0.1)
        torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.3, total_steps=6)
        trace = [opt.param_groups[0]["betas"]]
        for _ in range(6):
            opt.zero_grad()
            (w * w).sum().backward()
            opt.step()
            trace.append((opt.param_groups[0]["lr"], opt.param_groups[0]["betas"]))
        return trace, sorted(opt.param_groups[0])

    assert_same_outcome(scenario, rtol=1e-12, atol=0)


SCHEDULER_ERRORS = {
    "not_an_optimizer": lambda s, opt: s.StepLR("sgd", step_size=2),
    "resume_without_initial_lr": lambda s, opt: s.StepLR(opt, step_size=2, last_epoch=3),
    "lambda_count": lambda s, opt: s.LambdaLR(opt, [lambda e: 1.0]),
    "multiplicative_not_callable": lambda s, opt: s.MultiplicativeLR(opt, 0.9),
    "constant_factor": lambda s, opt: s.ConstantLR(opt, factor=1.5),
    "linear_start": lambda s, opt: s.LinearLR(opt, start_factor=0),
    "linear_end": lambda s, opt: s.LinearLR(opt, end_factor=2),
    "sequential_empty": lambda s, opt: s.SequentialLR(opt, [], milestones=[]),
    "sequential_milestones": lambda s, opt: s.SequentialLR(
        opt, [s.StepLR(opt, 2), s.StepLR(opt, 3)], milestones=[]),
    "sequential_plateau": lambda s, opt: s.SequentialLR(
        opt, [s.StepLR(opt, 2), s.ReduceLROnPlateau(opt)], milestones=[2]),
    "chained_empty": lambda s, opt: s.ChainedScheduler([]),
    "plateau_factor": lambda s, opt: s.ReduceLROnPlateau(opt, factor=1.0),
    "plateau_mode": lambda s, opt: s.ReduceLROnPlateau(opt, mode="up"),
    "plateau_threshold_mode": lambda s, opt: s.ReduceLROnPlateau(opt, threshold_mode="x"),
    "plateau_min_lrs": lambda s, opt: s.ReduceLROnPlateau(opt, min_lr=[0.1]),
    "one_cycle_no_steps": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1),
    "one_cycle_total_steps": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1, total_steps=0),
    "one_cycle_pct_start": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1, total_steps=5,
                                                       pct_start=1),
    "one_cycle_anneal": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1, total_steps=5,
                                                    anneal_strategy="exp"),
    "one_cycle_max_lr_count": lambda s, opt: s.OneCycleLR(opt, max_lr=[0.1, 0.2, 0.3],
                                                          total_steps=5),
    "cyclic_mode": lambda s, opt: s.CyclicLR(opt, 0.01, 0.1, mode="sine"),
    "warm_restarts_t0": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, T_0=0),
    "warm_restarts_t_mult": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, T_0=2,
                                                                         T_mult=1.5),
}


@pytest.mark.parametrize("make", SCHEDULER_ERRORS.values(), ids=SCHEDULER_ERRORS.keys())
def test_scheduler_errors(make):
    def scenario(torch):
        opt, w, b = _two_groups(torch)
        return make(torch.optim.lr_scheduler, opt)

    assert_same_outcome(scenario)


def test_one_cycle_stepped_past_its_total_raises():
    def scenario(torch):
        opt, w, b = _two_groups(torch)
        scheduler = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=2)
        opt.step()
        scheduler.step()
        scheduler.step()
        scheduler.step()

    assert_same_outcome(scenario)


def test_cyclic_without_momentum_to_cycle_raises():
    def scenario(torch):
        w = torch.nn.Parameter(torch.ones(2))
        opt = torch.optim.Adagrad([w])
        return torch.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1)

    assert_same_outcome(scenario)


def test_warm_restarts_with_fractional_epochs():
    def scenario(torch):
        opt, w, b = _two_groups(torch)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2,
                                                                         T_mult=2)
        rates = []
        for epoch in (0.5, 1.0, 2.5, 5.75, 7.0, 14.2):
            opt.step()
            scheduler.step(epoch)
            rates.append((scheduler.get_last_lr(), scheduler.T_i, scheduler.T_cur))
        return rates

    assert_same_outcome(scenario, rtol=1e-12, atol=0)


def test_public_names_of_the_module():
    """What ``from torch.optim.lr_scheduler import *`` brings, and the old base class."""
    def scenario(torch):
        module = torch.optim.lr_scheduler
        return (sorted(module.__all__), module._LRScheduler.__name__,
                issubclass(module._LRScheduler, module.LRScheduler), math.isinf(
                    module.ReduceLROnPlateau(_two_groups(torch)[0]).best))

    assert_same_outcome(scenario)

