"""Checks for exercise 9: ``Module.__call__`` with pre-hooks, forward hooks, always_call.

Each check runs one scenario twice, on the learner's ``Module`` and on the library's
``torch.nn.Module``, and compares what happened: the events the scenario recorded, the
value it returned, the error it raised and the warnings it gave.
"""

from __future__ import annotations

import warnings

from ..checking import Checks, expect_equal, library_name

CHECKS = Checks(compare_with_pytorch=True)


def outcome(scenario, module_class, *run):
    """What ``scenario`` did with this ``Module`` class: events, result, error, warnings."""
    events = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = scenario(module_class, events, *run)
        except NotImplementedError:
            raise  # a gap not filled yet: the runner reports it as such
        except Exception as error:  # noqa: BLE001 - the error is part of the outcome
            result = f"raised {type(error).__name__}: {error}"
    return events, result, [f"{w.category.__name__}: {w.message}" for w in caught]


def expect_same(ex, torch, scenario, mini_run=(), library_run=()):
    mine = outcome(scenario, ex.Module, *mini_run)
    theirs = outcome(scenario, torch.nn.Module, *library_run)
    library = library_name(torch)
    for what, got, expected in zip(("the events", "the result", "the warnings"),
                                   mine, theirs):
        expect_equal(got, expected, what, f"{what} differ from {library}'s: yours are "
                     f"{got}, {library} gives {expected}")


def pre_hooks_via_call(module, args):
    """Library side of step 2: what ``forward`` receives after the pre-hooks."""
    return module(*args)


def pre_hooks_via_run(ex):
    def run(module, args):
        call = ex.Call(args)
        module._run_pre_hooks(call)
        return call.args

    return run


def echo_class(module_class):
    class Echo(module_class):
        def __init__(self):
            super().__init__()

        def forward(self, *args):
            return args

    return Echo


# -- step 1 ----------------------------------------------------------------------------------
def registration(module_class, events):
    module = echo_class(module_class)()
    pre = module.register_forward_pre_hook(lambda m, args: None)
    plain = module.register_forward_hook(lambda m, args, out: None)
    always = module.register_forward_hook(lambda m, args, out: None, always_call=True)
    events.append(("pre-hooks", [k == pre.id for k in module._forward_pre_hooks]))
    events.append(("hooks", [k == h.id for k, h in zip(module._forward_hooks,
                                                       (plain, always))]))
    events.append(("always_called", dict(module._forward_hooks_always_called)
                   == {always.id: True}))
    always.remove()
    pre.remove()
    events.append(("after remove", len(module._forward_pre_hooks),
                   len(module._forward_hooks), len(module._forward_hooks_always_called)))


@CHECKS(step=1, title="hooks are stored by handle id; always_call is a flag beside them",
        nudge="an always-call hook is remembered in a second dict; one handle must remove the hook"
              " from both",
        pointer="Module.register_forward_hook in your file; RemovableHandle's extra_dict; the "
                "course's 'Inside Module.__call__'",
        solution="RemovableHandle(self._forward_hooks, extra_dict=self._forward_hooks_always_"
                 "called) removes from both; set self._forward_hooks_always_called[handle.id] "
                 "= True")
def hooks_are_registered(ex, torch):
    expect_same(ex, torch, registration)


# -- step 2 ----------------------------------------------------------------------------------
def pre_hooks(module_class, events, run):
    module = echo_class(module_class)()

    def first(m, args):
        events.append(("first", args))
        return args[0] * 10, *args[1:]

    def second(m, args):
        events.append(("second", args))
        module.register_forward_pre_hook(lambda m, a: events.append("late"))
        return sum(args)  # not a tuple: it becomes (sum,)

    module.register_forward_pre_hook(first)
    module.register_forward_pre_hook(second)
    module.register_forward_pre_hook(lambda m, args: events.append(("third", args)))
    return run(module, (1, 2))


@CHECKS(step=2, title="pre-hooks replace the arguments in turn; one value becomes a tuple",
        nudge="each pre-hook sees the arguments the previous one left; a result that is not a "
              "tuple is wrapped into one",
        pointer="_run_pre_hooks; Module.register_forward_pre_hook's docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html)",
        solution="for each hook of tuple(self._forward_pre_hooks.values()): result = hook("
                 "self, call.args); if result is not None, call.args = result, as a tuple")
def pre_hooks_replace_the_arguments(ex, torch):
    expect_same(ex, torch, pre_hooks, (pre_hooks_via_run(ex),), (pre_hooks_via_call,))


# -- step 3 ----------------------------------------------------------------------------------
def forward_hooks(module_class, events, run):
    module = echo_class(module_class)()

    def add_one(m, args, output):
        events.append(("add_one", args, output))
        return output + (1,)

    module.register_forward_hook(add_one)
    module.register_forward_hook(lambda m, args, out: events.append(("watch", out)),
                                 always_call=True)
    module.register_forward_hook(add_one)
    return run(module, (5,))


def forward_hooks_via_run(ex):
    def run(module, args):
        call = ex.Call(args, result=args)  # as if forward had returned its arguments
        module._run_forward_hooks(call)
        return call.result, len(call.always_called)

    return run


def forward_hooks_via_call(module, args):
    return module(*args), 1


@CHECKS(step=3, title="forward hooks replace the output in turn, and note always-call ones",
        nudge="each forward hook sees the output the previous one left; always-call hooks must be "
              "noted as having run",
        pointer="_run_forward_hooks; the course's 'Inside Module.__call__'",
        solution="for each (hook_id, hook) of tuple(self._forward_hooks.items()): add an "
                 "always-call id to call.always_called, then hook(self, call.args, call.result)")
def forward_hooks_replace_the_output(ex, torch):
    expect_same(ex, torch, forward_hooks, (forward_hooks_via_run(ex),),
                (forward_hooks_via_call,))


# -- step 4 ----------------------------------------------------------------------------------
def whole_call(module_class, events):
    class Scale(module_class):
        def __init__(self):
            super().__init__()

        def forward(self, x, factor=2):
            events.append(("forward", x, factor))
            return x * factor

    plain = Scale()
    events.append(("no hooks", plain(3, factor=5)))
    module = Scale()
    module.register_forward_pre_hook(lambda m, args: events.append(("pre", args)) or args[0] + 1)
    module.register_forward_hook(lambda m, args, out: events.append(("hook", args, out)))
    handle = module.register_forward_hook(lambda m, args, out: out * 100)
    events.append(("with hooks", module(3, factor=10)))
    handle.remove()
    events.append(("one hook fewer", module(3)))


@CHECKS(step=4, title="a call runs the pre-hooks, forward and the forward hooks in order",
        nudge="the order is pre-hooks, forward with the (maybe replaced) arguments, forward hooks,"
              " and the result they leave",
        pointer="Module.__call__ in your file; the course's 'Inside Module.__call__'",
        solution="call = Call(args); self._run_pre_hooks(call); call.result = self.forward("
                 "*call.args, **kwargs); self._run_forward_hooks(call); return call.result")
def the_whole_call(ex, torch):
    expect_same(ex, torch, whole_call)


# -- step 5 ----------------------------------------------------------------------------------
def failing_forward(module_class, events):
    class Fails(module_class):
        def __init__(self):
            super().__init__()

        def forward(self, x):
            events.append(("forward", x))
            raise ValueError("forward failed")

    module = Fails()
    module.register_forward_pre_hook(lambda m, args: (args[0] + 1,))
    module.register_forward_hook(lambda m, args, out: events.append("plain hook"))
    module.register_forward_hook(lambda m, args, out: events.append(("always", args, out)),
                                 always_call=True)

    def broken_cleanup(m, args, out):
        events.append("broken cleanup")
        raise KeyError("cleanup failed too")

    module.register_forward_hook(broken_cleanup, always_call=True)
    return module(1)


def failing_hook(module_class, events):
    module = echo_class(module_class)()
    module.register_forward_hook(lambda m, args, out: events.append(("early always", out)),
                                 always_call=True)
    module.register_forward_hook(lambda m, args, out: ("replaced",))

    def fails(m, args, out):
        raise RuntimeError("a hook failed")

    module.register_forward_hook(fails)
    module.register_forward_hook(lambda m, args, out: events.append(("late always", out)),
                                 always_call=True)
    return module(1)


@CHECKS(step=5, title="when forward raises, always-call hooks still run, then the error",
        nudge="when forward raises, the always-call hooks still run, their own errors become "
              "warnings, and the first error is raised again",
        pointer="_run_always_called_hooks and Module.__call__; register_forward_hook's always_call"
                " in the Module docs",
        solution="in the except branch, call each always-call hook not in call.always_called; "
                 "turn its own error into warnings.warn('module forward hook with "
                 "``always_call=True`` raised an exception that was silenced ...')")
def always_call_after_a_failing_forward(ex, torch):
    expect_same(ex, torch, failing_forward)


@CHECKS(step=5, title="when a forward hook raises, only the always-call hooks not yet run run",
        nudge="an always-call hook that already ran must not run twice; the others see the output "
              "as the earlier hooks left it",
        pointer="call.always_called in Module.__call__; the course's 'Inside Module.__call__'",
        solution="the always-call hooks that ran before the failure are in call.always_called; "
                 "the others get call.result as the hooks before left it")
def always_call_after_a_failing_hook(ex, torch):
    expect_same(ex, torch, failing_hook)
