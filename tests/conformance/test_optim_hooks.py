"""Optimiser hooks against real PyTorch: step pre- and post-hooks (the optimiser's own and
the global ones in ``torch.optim.optimizer``), state-dict and load-state-dict pre- and
post-hooks; their order, arguments, what a returned value replaces, errors and handles.
Also the optimiser's ``state_dict``/``load_state_dict`` (SGD with momentum, Adam with
``amsgrad``), ``add_param_group`` and named parameters."""

from __future__ import annotations

import copy
import importlib
import io
import re

import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome, real_torch

import minitorch_hooks


def _setup(torch, make=None, names=False):
    """Two parameters with gradients, and an optimiser over them."""
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    b = torch.nn.Parameter(torch.tensor([0.5]))
    ((w * w).sum() + 3 * b.sum()).backward()
    params = [("w", w), ("b", b)] if names else [w, b]
    make = make or (lambda optim, p: optim.SGD(p, lr=0.1, momentum=0.9))
    return make(torch.optim, params), w, b


def _name(optimizer):
    return type(optimizer).__name__


def _global(torch, kind):
    """``register_optimizer_step_{kind}_hook`` from ``torch.optim.optimizer``, which, as in
    PyTorch, is imported by name: it is not an attribute of ``torch.optim``."""
    module = importlib.import_module(torch.__name__ + ".optim.optimizer")
    return getattr(module, f"register_optimizer_step_{kind}_hook")


# -- step hooks --------------------------------------------------------------------------------

def test_step_hooks_order_global_and_own_with_their_arguments():
    def scenario(torch):
        opt, w, b = _setup(torch)
        events = []

        def recorder(tag):
            def hook(optimizer, args, kwargs):
                events.append((tag, _name(optimizer), optimizer is opt, len(args),
                               args[0] is opt, dict(kwargs), w.detach().clone()))
            return hook

        handles = [opt.register_step_pre_hook(recorder("pre 1")),
                   opt.register_step_post_hook(recorder("post 1")),
                   _global(torch, "pre")(recorder("global pre")),
                   _global(torch, "post")(recorder("global post")),
                   opt.register_step_pre_hook(recorder("pre 2")),
                   opt.register_step_post_hook(recorder("post 2"))]
        try:
            opt.step()
            opt.step(closure=None)
        finally:
            for handle in handles:
                handle.remove()
        opt.step()  # all removed: nothing more recorded
        return events, w

    assert_same_outcome(scenario)


def test_a_step_pre_hook_can_replace_args_and_kwargs():
    def scenario(torch):
        opt, w, b = _setup(torch)
        calls = []

        def closure():
            calls.append("closure")
            return torch.tensor(7.0)

        opt.register_step_pre_hook(lambda o, args, kwargs: (args, {"closure": closure}))
        seen = []
        opt.register_step_post_hook(lambda o, args, kwargs: seen.append(sorted(kwargs)))
        loss = opt.step()
        return loss, calls, seen, w

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", [5, (1, 2, 3), [(), {}]])
def test_a_step_pre_hook_returning_something_else_is_an_error(returned):
    """PyTorch's message names the wrapped ``step`` function with its address; the address
    is the only part that differs."""
    def scenario(torch):
        opt, w, b = _setup(torch)
        opt.register_step_pre_hook(lambda o, args, kwargs: returned)
        try:
            opt.step()
        except RuntimeError as error:
            message = re.sub(r" at 0x[0-9a-f]+>", " at ADDRESS>", str(error))
            return message, w
        return "no error", w

    assert_same_outcome(scenario)


def test_a_step_hook_that_raises_stops_the_step_and_the_optimiser_stays_usable():
    def scenario(torch):
        opt, w, b = _setup(torch)

        def failing(optimizer, args, kwargs):
            raise ValueError("no step today")

        handle = opt.register_step_pre_hook(failing)
        post = opt.register_step_post_hook(lambda o, a, k: (_ for _ in ()).throw(KeyError("x")))
        results = []
        for _ in range(2):
            try:
                opt.step()
            except (ValueError, KeyError) as error:
                results.append((type(error).__name__, str(error), w.detach().clone()))
            handle.remove()
        post.remove()
        opt.step()
        return results, w, opt.state_dict()["state"]

    assert_same_outcome(scenario)


def test_step_hooks_on_a_subclass_that_defines_its_own_step():
    """A user's optimiser gets the hooks too: PyTorch wraps ``step`` when one is made."""
    def scenario(torch):
        class Plain(torch.optim.Optimizer):
            def __init__(self, params, lr):
                super().__init__(params, {"lr": lr})

            @torch.no_grad()
            def step(self, closure=None):
                for group in self.param_groups:
                    for p in group["params"]:
                        p.add_(p.grad, alpha=-group["lr"])

        opt, w, b = _setup(torch, lambda optim, p: Plain(p, lr=0.5))
        events = []
        opt.register_step_pre_hook(lambda o, a, k: events.append(("pre", w.detach().clone())))
        opt.register_step_post_hook(lambda o, a, k: events.append(("post", w.detach().clone())))
        opt.step()
        second = Plain([torch.nn.Parameter(torch.ones(1))], lr=1.0)
        second.register_step_post_hook(lambda o, a, k: events.append("second"))
        second.param_groups[0]["params"][0].grad = torch.ones(1)
        second.step()
        return events

    assert_same_outcome(scenario)


def test_step_hooks_on_adam_see_lazily_created_state():
    def scenario(torch):
        opt, w, b = _setup(torch, lambda optim, p: optim.Adam(p, lr=0.1, amsgrad=True))
        seen = []
        opt.register_step_pre_hook(lambda o, a, k: seen.append(len(o.state)))
        opt.register_step_post_hook(lambda o, a, k: seen.append(
            sorted(o.state[w]) if w in o.state else None))
        opt.step()
        return seen

    assert_same_outcome(scenario)


# -- state dict --------------------------------------------------------------------------------

OPTIMISERS = {
    "sgd_momentum": lambda optim, p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
    "sgd_plain": lambda optim, p: optim.SGD(p, lr=0.1),
    "adam_amsgrad": lambda optim, p: optim.Adam(p, lr=0.1, betas=(0.8, 0.9), amsgrad=True),
    "adam": lambda optim, p: optim.Adam(p, lr=0.01, weight_decay=0.1),
    "adamw": lambda optim, p: optim.AdamW(p, lr=0.01, amsgrad=True),
    "rmsprop": lambda optim, p: optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True),
    "adagrad": lambda optim, p: optim.Adagrad(p, lr=0.1, lr_decay=0.1),
}


@pytest.mark.parametrize("name", list(OPTIMISERS))
@pytest.mark.parametrize("names", [False, True], ids=["unnamed", "named"])
def test_state_dict_structure_after_steps(name, names):
    def scenario(torch):
        opt, w, b = _setup(torch, OPTIMISERS[name], names=names)
        before = opt.state_dict()
        opt.step()
        opt.step()
        sd = opt.state_dict()
        state_is_shared = all(
            sd["state"][0][key] is opt.state[w][key] for key in sd["state"].get(0, {}))
        return before, sd, state_is_shared, repr(opt)

    assert_same_outcome(scenario)


def test_state_dict_of_several_groups_and_add_param_group():
    def scenario(torch):
        opt, w, b = _setup(torch)
        extra = torch.nn.Parameter(torch.ones(2))
        extra.grad = torch.ones(2)
        opt.add_param_group({"params": extra, "lr": 0.5})
        opt.step()
        sd = opt.state_dict()
        return sd, [sorted(g) for g in opt.param_groups], extra

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", list(OPTIMISERS))
def test_load_state_dict_resumes_training_exactly(name):
    """Three steps, or one step, a state dict, a fresh optimiser that loads it, two more
    steps: the same parameters and state."""
    def scenario(torch):
        def losses(w, b):
            return (w * w).sum() + 3 * b.sum()

        opt, w, b = _setup(torch, OPTIMISERS[name])
        opt.step()
        sd = opt.state_dict()
        resumed, w2, b2 = _setup(torch, OPTIMISERS[name])
        with torch.no_grad():
            w2.copy_(w)
            b2.copy_(b)
        resumed.param_groups[0]["lr"] = 123.0  # overwritten by the load
        resumed.load_state_dict(sd)
        for optimizer, (p, q) in ((opt, (w, b)), (resumed, (w2, b2))):
            for _ in range(2):
                optimizer.zero_grad()
                losses(p, q).backward()
                optimizer.step()
        return w, w2, b, b2, resumed.state_dict(), opt.state_dict()

    assert_same_outcome(scenario)


def test_load_state_dict_casts_state_to_the_parameter_dtype_but_not_step():
    def scenario(torch):
        opt, w, b = _setup(torch, OPTIMISERS["adam_amsgrad"])
        opt.step()
        sd = opt.state_dict()
        p = torch.nn.Parameter(torch.ones(3, dtype=torch.float64))
        q = torch.nn.Parameter(torch.ones(1, dtype=torch.float64))
        other = torch.optim.Adam([p, q], lr=0.1, amsgrad=True)
        other.load_state_dict(sd)
        state = other.state[p]
        return ({key: (value.dtype, value) for key, value in state.items()},
                state["step"] is sd["state"][0]["step"],
                other.param_groups[0]["params"][0] is p, other.param_groups[0]["betas"])

    assert_same_outcome(scenario)


@pytest.mark.parametrize("name", list(OPTIMISERS))
def test_an_old_checkpoint_with_a_number_for_step_and_options_missing(name):
    """Checkpoints from older PyTorch releases: ``step`` a float, and options added since
    absent from the groups; loading brings them up to date, and training goes on."""
    def scenario(torch):
        opt, w, b = _setup(torch, OPTIMISERS[name])
        opt.step()
        sd = copy.deepcopy(opt.state_dict())
        for state in sd["state"].values():
            if "step" in state:
                state["step"] = state["step"].item()
        for option in ("maximize", "foreach", "differentiable", "amsgrad", "nesterov",
                       "decoupled_weight_decay", "fused", "capturable"):
            sd["param_groups"][0].pop(option, None)
        opt.load_state_dict(sd)
        loaded = opt.state_dict()
        opt.step()
        return loaded, opt.state_dict(), w

    assert_same_outcome(scenario)


def test_state_kept_under_keys_that_are_not_parameters():
    def scenario(torch):
        opt, w, b = _setup(torch)
        opt.register_state_dict_pre_hook(lambda o: o.state.__setitem__("note", 1))
        sd = opt.state_dict()
        other, w2, b2 = _setup(torch)
        other.load_state_dict(sd)
        return sd["state"], other.state["note"], sorted(map(str, other.state))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("change", ["fewer_groups", "group_size", "more_groups"])
def test_load_state_dict_with_mismatched_groups_is_refused(change):
    def scenario(torch):
        opt, w, b = _setup(torch)
        opt.step()
        sd = opt.state_dict()
        if change == "fewer_groups":
            sd["param_groups"] = []
        elif change == "group_size":
            sd["param_groups"][0]["params"] = [0]
        else:
            sd["param_groups"].append(dict(sd["param_groups"][0], params=[5]))
        before = opt.state_dict()
        try:
            opt.load_state_dict(sd)
        except ValueError as error:
            return str(error), opt.state_dict() == before
        return "loaded"

    assert_same_outcome(scenario)


def test_state_dict_hooks_order_prepend_returns_and_handles():
    def scenario(torch):
        opt, w, b = _setup(torch)
        opt.step()
        events = []
        opt.register_state_dict_pre_hook(lambda o: events.append(("pre A", o is opt)))
        handle = opt.register_state_dict_pre_hook(lambda o: events.append("pre B"),
                                                  prepend=True)

        def post_edits(o, sd):
            events.append(("post edits", sorted(sd)))
            sd["extra"] = 1

        def post_replaces(o, sd):
            events.append(("post replaces", sorted(sd)))
            return {"replaced": dict(sd)}

        opt.register_state_dict_post_hook(post_edits)
        opt.register_state_dict_post_hook(post_replaces, prepend=True)
        first = opt.state_dict()
        handle.remove()
        second = opt.state_dict()
        return events, sorted(first), sorted(first["replaced"]), sorted(second)

    assert_same_outcome(scenario)


def test_load_state_dict_hooks_order_returns_shallow_copy_and_handles():
    def scenario(torch):
        opt, w, b = _setup(torch)
        opt.step()
        sd = opt.state_dict()
        other, w2, b2 = _setup(torch)
        events = []

        def pre_edits(o, state_dict):
            events.append(("pre edits", o is other, state_dict is sd))
            state_dict["note"] = "added"

        def pre_replaces(o, state_dict):
            events.append(("pre replaces", sorted(state_dict)))
            changed = dict(state_dict)
            changed["param_groups"] = [dict(g, lr=0.25) for g in state_dict["param_groups"]]
            return changed

        other.register_load_state_dict_pre_hook(pre_replaces)
        other.register_load_state_dict_pre_hook(pre_edits, prepend=True)
        other.register_load_state_dict_post_hook(
            lambda o: events.append(("post", o.param_groups[0]["lr"], len(o.state))))
        handle = other.register_load_state_dict_post_hook(lambda o: events.append("post first"),
                                                          prepend=True)
        other.load_state_dict(sd)
        handle.remove()
        other.load_state_dict(sd)
        return events, sorted(sd), other.param_groups[0]["lr"]

    assert_same_outcome(scenario)


def test_a_load_pre_hook_can_match_parameters_by_name():
    """The use PyTorch documents for ``param_names``: a checkpoint whose parameters were
    listed in another order is reordered by a pre-hook before it is loaded."""
    def scenario(torch):
        opt, w, b = _setup(torch, names=True)
        opt.step()
        sd = opt.state_dict()
        flipped = torch.optim.SGD([("b", b), ("w", w)], lr=0.1, momentum=0.9)

        def by_name(optimizer, state_dict):
            saved = state_dict["param_groups"][0]
            index = dict(zip(saved["param_names"], saved["params"]))
            wanted = optimizer.param_groups[0]["param_names"]
            state_dict["state"] = {i: state_dict["state"][index[n]]
                                   for i, n in enumerate(wanted) if index[n] in
                                   state_dict["state"]}
            state_dict["param_groups"] = [dict(saved, params=list(range(len(wanted))),
                                               param_names=wanted)]
            return state_dict

        flipped.register_load_state_dict_pre_hook(by_name)
        flipped.load_state_dict(sd)
        return flipped.state[w], flipped.state[b], flipped.state_dict()

    assert_same_outcome(scenario)


# -- add_param_group and named parameters ----------------------------------------------------

BAD_GROUPS = {
    "names_missing": lambda torch, w, b: torch.optim.SGD([("w", w), b], lr=0.1),
    "mixed_groups": lambda torch, w, b: torch.optim.SGD([("w", w)], lr=0.1).add_param_group(
        {"params": [b]}),
    "mixed_groups_named_second": lambda torch, w, b: torch.optim.SGD(
        [w], lr=0.1).add_param_group({"params": [("b", b)]}),
    "same_param_twice": lambda torch, w, b: torch.optim.SGD([w], lr=0.1).add_param_group(
        {"params": [w]}),
    "not_a_dict": lambda torch, w, b: torch.optim.SGD([w], lr=0.1).add_param_group([b]),
    "a_set": lambda torch, w, b: torch.optim.SGD([w], lr=0.1).add_param_group(
        {"params": {b}}),
}


@pytest.mark.parametrize("case", list(BAD_GROUPS))
def test_bad_param_groups_get_torchs_errors(case):
    def scenario(torch):
        w = torch.nn.Parameter(torch.ones(2))
        b = torch.nn.Parameter(torch.ones(1))
        BAD_GROUPS[case](torch, w, b)

    assert_same_outcome(scenario)


def test_duplicate_parameters_in_a_group_warn():
    def scenario(torch):
        w = torch.nn.Parameter(torch.ones(2))
        return len(torch.optim.SGD([w, w], lr=0.1).param_groups[0]["params"])

    assert_same_outcome(scenario)


def test_named_parameters_of_a_module_as_params():
    def scenario(torch):
        net = torch.nn.Linear(2, 1)
        opt = torch.optim.Adam(net.named_parameters(), lr=0.1)
        return opt.param_groups[0]["param_names"], opt.state_dict()["param_groups"], repr(opt)

    assert_same_outcome(scenario)


def test_a_copied_or_pickled_optimiser_keeps_its_state_but_not_its_hooks():
    def scenario(torch):
        opt, w, b = _setup(torch)
        opt.register_step_pre_hook(lambda o, a, k: None)
        opt.step()
        copied = copy.deepcopy(opt)
        buffer = io.BytesIO()
        torch.save(opt, buffer)
        buffer.seek(0)
        loaded = torch.load(buffer, weights_only=False)
        # PyTorch keeps profiler names beside these; the public fields and the hook
        # dictionaries are what a user sees
        return [([k for k in sorted(vars(o)) if k.startswith("_optimizer") or k[0] != "_"],
                 o.state_dict(), len(o._optimizer_step_pre_hooks)) for o in (copied, loaded)]

    assert_same_outcome(scenario)


@pytest.mark.parametrize("method", ["register_step_pre_hook", "register_step_post_hook",
                                    "register_state_dict_pre_hook",
                                    "register_load_state_dict_post_hook"])
def test_a_non_callable_optimiser_hook_is_refused_at_registration_deviation(method):
    """DEVIATION (``utils/hooks.py: check_callable``), as for module and tensor hooks:
    PyTorch registers a hook that cannot be called and raises ``TypeError: 'int' object
    is not callable`` only when it fires, far from the mistake. minitorch_hooks raises
    TypeError at registration, and nothing is registered."""
    def scenario(torch):
        opt, w, b = _setup(torch)
        try:
            getattr(opt, method)(5)
        except TypeError as error:
            return "at registration", str(error)
        try:
            opt.step()
            opt.load_state_dict(opt.state_dict())
        except TypeError as error:
            return "when fired", str(error)

    torch_result, _ = pytorch_outcome(scenario)
    assert torch_result == ["when fired", "'int' object is not callable"]
    assert outcome(scenario, minitorch_hooks)[0] == (
        "at registration", "hook must be callable, but got 'int'")


def test_global_step_hook_handles_remove_only_their_hook():
    """Global registries are shared by every optimiser: a handle removes its own hook,
    twice is harmless, and the other global hook keeps firing."""
    def scenario(torch):
        opt, w, b = _setup(torch)
        events = []
        register = _global(torch, "pre")
        first = register(lambda o, a, k: events.append("first"))
        second = register(lambda o, a, k: events.append("second"))
        try:
            opt.step()
            first.remove()
            first.remove()
            opt.step()
        finally:
            second.remove()
        opt.step()
        return events

    assert_same_outcome(scenario)


def test_no_global_optimizer_hook_is_left_behind():
    """The scenarios above remove what they register, on both libraries."""
    for torch in (real_torch(), minitorch_hooks):
        module = importlib.import_module(torch.__name__ + ".optim.optimizer")
        assert not module._global_optimizer_pre_hooks
        assert not module._global_optimizer_post_hooks
        assert not hasattr(torch.optim, "optimizer")


@pytest.mark.parametrize("name", list(OPTIMISERS))
def test_a_bad_pre_hook_result_names_the_classs_own_step(name):
    """The error shows the wrapped ``step`` itself: each optimiser defines its own ``step``
    (``Adam.step``, ``SGD.step``; AdamW inherits Adam's), as PyTorch's do."""
    def scenario(torch):
        opt, w, b = _setup(torch, OPTIMISERS[name])
        opt.register_step_pre_hook(lambda *args: 5)
        try:
            opt.step()
        except RuntimeError as error:
            return re.sub(r"0x[0-9a-f]+", "0x...", str(error)), type(opt).step.__qualname__
        return "no error"

    assert_same_outcome(scenario)
