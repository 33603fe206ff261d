"""Checks for exercise 13: an optimiser's step pre- and post-hooks.

Each check runs one scenario twice, on the learner's ``SGD`` and on the library's
``torch.optim.SGD``, and compares what happened: the events the hooks recorded, the
parameters after the step, what ``step`` returned and the error it raised.
"""

from __future__ import annotations

from ..checking import Checks, expect_equal, library_name

CHECKS = Checks(compare_with_pytorch=True)


def outcome(scenario, torch, make_sgd, step):
    """What ``scenario`` did with this SGD class: events, result (or error), weight.
    ``step(optimizer)`` is how the scenario steps."""
    weight = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    optimizer = make_sgd([weight], 0.1)
    (weight * weight).sum().backward()  # grad = [2, -4]
    events = []
    try:
        result = scenario(optimizer, events, torch, step)
    except NotImplementedError:
        raise  # a gap not filled yet: the runner reports it as such
    except Exception as error:  # noqa: BLE001 - the error is part of the outcome
        message = str(error)
        # PyTorch's message starts with the step function's repr, which has an address.
        result = f"raised {type(error).__name__}: ...{message[message.find(' must'):]}"
    return events, result, weight.detach().numpy().tolist()


def step_with_hooks(optimizer, *args, **kwargs):
    return optimizer.step(*args, **kwargs)


def pre_hooks_then_update(optimizer, *args, **kwargs):
    """Step 2 on its own: the learner's pre-hooks, then the given update."""
    args, kwargs = optimizer._run_step_pre_hooks((optimizer, *args), kwargs)
    return optimizer._update(*args[1:], **kwargs)


def expect_same(ex, torch, scenario, my_step=step_with_hooks):
    mine = outcome(scenario, torch, ex.SGD, my_step)
    theirs = outcome(scenario, torch, lambda params, lr: torch.optim.SGD(params, lr=lr),
                     step_with_hooks)
    library = library_name(torch)
    for what, got, expected in zip(("the events", "the result", "the weight after"),
                                   mine, theirs):
        expect_equal(got, expected, what, f"{what} differ from {library}'s: yours are "
                     f"{got}, {library} gives {expected}")


def weights(param):
    return param.detach().numpy().tolist()


# -- step 1 ----------------------------------------------------------------------------------
def registration(optimizer, events, torch, step):
    pre = optimizer.register_step_pre_hook(lambda opt, args, kwargs: None)
    post = optimizer.register_step_post_hook(lambda opt, args, kwargs: None)
    events.append(("pre-hooks", list(optimizer._optimizer_step_pre_hooks) == [pre.id]))
    events.append(("post-hooks", list(optimizer._optimizer_step_post_hooks) == [post.id]))
    pre.remove()
    post.remove()
    pre.remove()  # a second remove does nothing
    events.append(("after remove", len(optimizer._optimizer_step_pre_hooks),
                   len(optimizer._optimizer_step_post_hooks)))


@CHECKS(step=1, title="hooks are stored by handle id, and a handle removes its hook",
        nudge="the same pattern as every hook dict: handle first, hook stored under its id, handle"
              " returned",
        pointer="register_step_pre_hook in your file; Optimizer.register_step_pre_hook's docs "
                "(docs.pytorch.org/docs/2.13/optim.html)",
        solution="handle = RemovableHandle(self._optimizer_step_pre_hooks); "
                 "self._optimizer_step_pre_hooks[handle.id] = hook; return handle")
def hooks_are_registered(ex, torch):
    expect_same(ex, torch, registration)


# -- step 2 ----------------------------------------------------------------------------------
def pre_hooks_in_turn(optimizer, events, torch, step):
    def first(opt, args, kwargs):
        events.append(("first", len(args), args[0] is opt, sorted(kwargs)))
        return args, {"closure": lambda: torch.tensor(5.0)}

    def second(opt, args, kwargs):
        events.append(("second", sorted(kwargs)))
        opt.register_step_pre_hook(lambda o, a, k: events.append("registered late"))

    optimizer.register_step_pre_hook(first)
    optimizer.register_step_pre_hook(second)
    loss = step(optimizer)
    events.append(("loss", loss.item()))


@CHECKS(step=2, title="pre-hooks run in order; a returned (args, kwargs) replaces both",
        nudge="each pre-hook gets the optimizer, args and kwargs as the previous one left them; a "
              "result replaces both",
        pointer="_run_step_pre_hooks; Optimizer.register_step_pre_hook's docs",
        solution="for hook in tuple(self._optimizer_step_pre_hooks.values()): result = "
                 "hook(self, args, kwargs); if result is not None: args, kwargs = result")
def pre_hooks_replace_args_and_kwargs(ex, torch):
    expect_same(ex, torch, pre_hooks_in_turn, pre_hooks_then_update)


def bad_return(optimizer, events, torch, step):
    optimizer.register_step_pre_hook(lambda opt, args, kwargs: events.append("ran") or 5)
    step(optimizer)


@CHECKS(step=2, title="a pre-hook returning anything else is PyTorch's RuntimeError",
        nudge="a result that is neither None nor a pair is an error; PyTorch's message names the "
              "step function and the result",
        pointer="_run_step_pre_hooks; the exercise's text, step 2, for the message",
        solution="if the result is not a tuple of length 2: raise RuntimeError(f\"{self.step} "
                 "must return None or a tuple of (new_args, new_kwargs), but got {result}.\")")
def a_bad_return_is_an_error(ex, torch):
    expect_same(ex, torch, bad_return, pre_hooks_then_update)


# -- step 3 ----------------------------------------------------------------------------------
def around_the_update(optimizer, events, torch, step):
    weight = optimizer.param_groups[0]["params"][0]

    def recorder(name):
        def hook(opt, args, kwargs):
            events.append((name, weights(weight), len(args), args[0] is opt, sorted(kwargs)))
        return hook

    optimizer.register_step_pre_hook(recorder("pre"))
    optimizer.register_step_post_hook(recorder("post 1"))
    optimizer.register_step_post_hook(lambda opt, args, kwargs: "ignored")
    optimizer.register_step_post_hook(recorder("post 2"))
    optimizer.step()
    return optimizer.step(closure=lambda: torch.tensor(3.0)).item()


@CHECKS(step=3, title="step runs pre-hooks, the update, then post-hooks with the same args",
        nudge="pre-hooks, then the update with what they left, then post-hooks with those same "
              "arguments",
        pointer="step in your file; Optimizer.register_step_post_hook's docs "
                "(docs.pytorch.org/docs/2.13/optim.html)",
        solution="args, kwargs = self._run_step_pre_hooks((self, *args), kwargs); result = "
                 "self._update(*args[1:], **kwargs); then each post-hook(self, args, kwargs)")
def hooks_run_around_the_update(ex, torch):
    expect_same(ex, torch, around_the_update)


def a_failing_pre_hook(optimizer, events, torch, step):
    def refuse(opt, args, kwargs):
        raise ValueError("not now")

    optimizer.register_step_pre_hook(refuse)
    optimizer.register_step_post_hook(lambda opt, args, kwargs: events.append("post ran"))
    optimizer.step()


@CHECKS(step=3, title="a pre-hook that raises stops the step: no update, no post-hook",
        nudge="an error in a pre-hook is not caught: nothing after it runs",
        pointer="step in your file; the exercise's text, step 3",
        solution="let the pre-hook's error propagate; the post-hooks come after the update")
def a_failing_pre_hook_stops_the_step(ex, torch):
    expect_same(ex, torch, a_failing_pre_hook)
