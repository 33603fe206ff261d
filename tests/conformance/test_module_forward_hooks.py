"""Module forward pre-hooks and forward hooks, local and global: call order, arguments,
return rules, ``always_call``, removal while running, handles and the hook dictionaries.
Each scenario runs on minitorch_hooks and on real PyTorch (see ``harness.py``)."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome
from module_support import modules, x2

import minitorch_hooks


def test_call_order_of_every_forward_and_backward_hook_across_nested_modules():
    def scenario(torch):
        m = modules(torch)
        g = torch.nn.modules.module
        outer = m.Outer()
        events = []

        def log(name):
            return lambda mod, *args: events.append((name, type(mod).__name__, len(args)))

        for mod in (outer, outer.inner):
            mod.register_forward_pre_hook(log("pre"))
            mod.register_forward_pre_hook(log("pre first"), prepend=True)
            mod.register_forward_pre_hook(log("pre kwargs"), with_kwargs=True)
            mod.register_forward_hook(log("fwd"))
            mod.register_forward_hook(log("fwd first"), prepend=True)
            mod.register_forward_hook(log("fwd kwargs"), with_kwargs=True)
            mod.register_full_backward_pre_hook(log("bw pre"))
            mod.register_full_backward_pre_hook(log("bw pre first"), prepend=True)
            mod.register_full_backward_hook(log("bw"))
            mod.register_full_backward_hook(log("bw first"), prepend=True)
        with g.register_module_forward_pre_hook(log("global pre")), \
                g.register_module_forward_hook(log("global fwd")), \
                g.register_module_forward_hook(log("global fwd kwargs"), with_kwargs=True), \
                g.register_module_full_backward_pre_hook(log("global bw pre")), \
                g.register_module_full_backward_hook(log("global bw")):
            out = outer(x2(torch), shift=1.0)
            events.append(("backward",))
            out.sum().backward()
        return events, out

    assert_same_outcome(scenario)


def test_global_hooks_fire_before_the_modules_own_even_when_registered_later():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        scale.register_forward_pre_hook(lambda mod, args: events.append("local pre"))
        scale.register_forward_hook(lambda mod, args, out: events.append("local fwd"))
        g = torch.nn.modules.module
        with g.register_module_forward_pre_hook(lambda mod, args: events.append("global pre")), \
                g.register_module_forward_hook(lambda *a: events.append("global fwd")):
            scale(x2(torch))
        scale(x2(torch))  # the global hooks are gone again
        return events

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["none", "tensor", "tuple", "list"])
def test_forward_pre_hook_return_rules(returned):
    """None keeps the args, a non-tuple is wrapped in a tuple, a tuple replaces them."""
    def scenario(torch):
        pair = modules(torch).Pair()
        seen = []

        def pre_hook(mod, args):
            seen.append(args)
            return {"none": None, "tensor": args[0] * 10, "tuple": (args[1], args[0]),
                    "list": [args[0], args[1]]}[returned]

        pair.register_forward_pre_hook(pre_hook)
        pair.forward = lambda *args: args  # show exactly what forward received
        return pair(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])), seen

    assert_same_outcome(scenario)


def test_each_forward_pre_hook_sees_the_previous_ones_result():
    def scenario(torch):
        scale = modules(torch).Scale()
        seen = []
        scale.register_forward_pre_hook(lambda mod, args: (args[0] + 1,))
        scale.register_forward_pre_hook(lambda mod, args: seen.append(args[0].clone()))
        scale.register_forward_pre_hook(lambda mod, args: args[0] * 2)
        return scale(x2(torch, requires_grad=False)), seen

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["none", "args_kwargs", "one_tuple", "three_tuple",
                                      "tensor", "list_pair"])
def test_forward_pre_hook_with_kwargs_must_return_none_or_args_and_kwargs(returned):
    def scenario(torch):
        outer = modules(torch).Outer()
        seen = []

        def pre_hook(mod, args, kwargs):
            seen.append((args, dict(kwargs)))
            x = args[0]
            return {"none": None, "args_kwargs": ((x * 2,), {"shift": 5.0}),
                    "one_tuple": (x,), "three_tuple": ((x,), {}, None), "tensor": x,
                    "list_pair": [(x,), {}]}[returned]

        outer.register_forward_pre_hook(pre_hook, with_kwargs=True)
        return outer(torch.tensor([1.0, 2.0]), shift=0.5), seen

    assert_same_outcome(scenario)


def test_forward_hook_replaces_the_output_and_sees_the_replaced_args():
    def scenario(torch):
        outer = modules(torch).Outer()
        seen = []
        outer.register_forward_pre_hook(lambda mod, args: (args[0] * 10,))
        outer.register_forward_hook(lambda mod, args, out: seen.append((args, out)) or out + 1)
        outer.register_forward_hook(lambda mod, args, out: seen.append(out.clone()))
        outer.register_forward_hook(
            lambda mod, args, kwargs, out: seen.append(kwargs) or (out, "extra"),
            with_kwargs=True)
        return outer(torch.tensor([1.0, 2.0]), shift=0.5), seen

    assert_same_outcome(scenario)


def test_forward_kwargs_reach_forward_but_not_hooks_without_with_kwargs():
    def scenario(torch):
        outer = modules(torch).Outer()
        seen = []
        outer.register_forward_pre_hook(lambda mod, args: seen.append(("pre", len(args))))
        outer.register_forward_hook(lambda mod, args, out: seen.append(("fwd", len(args))))
        return outer(torch.tensor([1.0]), shift=2.0), seen

    assert_same_outcome(scenario)


# -- always_call ------------------------------------------------------------------------

def _failing_module(torch, where):
    """A Scale whose forward (or one of its hooks) raises ValueError."""
    scale = modules(torch).Scale()

    def fail(*args):
        raise ValueError(f"{where} failed")

    if where == "forward":
        scale.forward = fail
    elif where == "pre hook":
        scale.register_forward_pre_hook(fail)
    return scale, fail


@pytest.mark.parametrize("where", ["forward", "pre hook", "forward hook"])
def test_always_call_hooks_run_when_forward_or_a_hook_raises(where):
    def scenario(torch):
        scale, fail = _failing_module(torch, where)
        events = []

        def log(name):
            return lambda mod, args, *rest: events.append((name, len(args), len(rest),
                                                           rest[-1] is None))

        scale.register_forward_hook(log("always before"), always_call=True)
        if where == "forward hook":
            scale.register_forward_hook(fail)
        scale.register_forward_hook(log("ordinary"))
        scale.register_forward_hook(log("always kwargs"), with_kwargs=True, always_call=True)
        with torch.nn.modules.module.register_module_forward_hook(
                log("global always"), always_call=True):
            try:
                scale(x2(torch), )
            except ValueError as error:
                events.append(str(error))
        return events

    assert_same_outcome(scenario)


def test_an_always_call_hook_that_raises_after_a_failure_becomes_a_warning():
    def scenario(torch):
        scale, _ = _failing_module(torch, "forward")

        def broken(*args):
            raise KeyError("hook broke")

        scale.register_forward_hook(broken, always_call=True)
        events = []
        scale.register_forward_hook(lambda *a: events.append("next always"), always_call=True)
        with torch.nn.modules.module.register_module_forward_hook(broken, always_call=True):
            try:
                scale(x2(torch))
            except ValueError as error:
                events.append(str(error))
        return events

    assert_same_outcome(scenario)


def test_always_call_hook_replacing_the_output_does_not_stop_the_exception():
    def scenario(torch):
        scale, _ = _failing_module(torch, "forward")
        seen = []
        scale.register_forward_hook(lambda mod, args, out: "replaced", always_call=True)
        scale.register_forward_hook(lambda mod, args, out: seen.append(out), always_call=True)
        try:
            scale(x2(torch))
        except ValueError as error:
            seen.append(str(error))
        return seen

    assert_same_outcome(scenario)


def test_always_call_hooks_run_once_when_forward_succeeds():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        scale.register_forward_hook(lambda *a: events.append("always"), always_call=True)
        scale(x2(torch))
        return events, len(scale._forward_hooks_always_called)

    assert_same_outcome(scenario)


def test_global_always_call_hook_with_kwargs_in_the_exception_path_deviation():
    """DEVIATION: PyTorch 2.13 documents that ``with_kwargs=True`` hooks receive the
    keyword arguments, but on the exception path it calls a *global* always-call hook as
    ``hook(module, args, output)``; a 4-argument hook then fails and becomes a warning.
    minitorch_hooks does the documented thing and passes the kwargs."""
    def scenario(torch):
        outer = modules(torch).Outer()
        outer.inner.forward = lambda x: 1 / 0
        seen = []

        def hook(mod, args, kwargs, out):
            seen.append((type(mod).__name__, kwargs))

        with torch.nn.modules.module.register_module_forward_hook(
                hook, with_kwargs=True, always_call=True):
            try:
                outer(x2(torch), shift=3.0)
            except ZeroDivisionError as error:
                seen.append(str(error))
        return seen

    torch_result, torch_warnings = pytorch_outcome(scenario)
    ours, our_warnings = outcome(scenario, minitorch_hooks)
    assert torch_result == ["division by zero"]
    assert [category for category, _ in torch_warnings] == ["UserWarning", "UserWarning"]
    assert "missing 1 required positional argument: 'out'" in torch_warnings[0][1]
    assert ours == [("Scale", {}), ("Outer", {"shift": 3.0}), "division by zero"]
    assert our_warnings == []


@pytest.mark.parametrize("removed", ["itself_last", "itself_not_last", "an_earlier_hook",
                                     "a_pre_hook", "a_global_hook_itself", "a_local_hook"])
def test_removing_a_hook_from_an_always_call_hook_after_a_failure(removed):
    """On the failure path PyTorch walks the live hook dictionaries: removing a hook from
    the one being walked (unless at its last entry) ends the walk with Python's
    "OrderedDict mutated during iteration", which replaces the original error."""
    def scenario(torch):
        scale, _ = _failing_module(torch, "forward")
        g = torch.nn.modules.module
        events, handles = [], {}

        def removing(name, target):
            def hook(*args):
                events.append(name)
                handles[target].remove()
            return hook

        def log(name):
            return lambda *args: events.append(name)

        if removed in ("itself_last", "itself_not_last"):
            handles["a"] = scale.register_forward_hook(removing("a", "a"), always_call=True)
        elif removed == "an_earlier_hook":
            handles["z"] = scale.register_forward_hook(log("z"))
            scale.register_forward_hook(removing("a", "z"), always_call=True)
        elif removed == "a_pre_hook":
            handles["p"] = scale.register_forward_pre_hook(log("p"))
            scale.register_forward_hook(removing("a", "p"), always_call=True)
        elif removed == "a_global_hook_itself":
            handles["g"] = g.register_module_forward_hook(removing("g", "g"), always_call=True)
        else:
            handles["l"] = scale.register_forward_hook(log("l"), always_call=True)
            handles["g"] = g.register_module_forward_hook(removing("g", "l"), always_call=True)
        if removed != "itself_last":
            scale.register_forward_hook(log("b"), always_call=True)
        try:
            scale(x2(torch))
        except Exception as error:  # noqa: BLE001 - which error comes out is the point
            events.append((type(error).__name__, str(error)))
        finally:
            if "g" in handles:  # a global hook must never outlive its scenario
                handles["g"].remove()
        return events

    assert_same_outcome(scenario)


def test_always_call_hooks_see_the_values_replaced_before_the_failure():
    """Arguments replaced by a pre-hook and an output replaced by a forward hook before a
    later hook raises are what the always-call hooks receive."""
    def scenario(torch):
        scale = modules(torch).Scale()
        seen = []

        def fail(*args):
            raise ValueError("late failure")

        scale.register_forward_hook(lambda mod, args, out: out + 100)
        scale.register_forward_hook(fail)
        scale.register_forward_hook(lambda mod, args, out: seen.append((args, out)),
                                    always_call=True)
        try:
            scale(x2(torch, requires_grad=False))
        except ValueError as error:
            seen.append(str(error))
        scale._forward_hooks.clear()
        scale.register_forward_pre_hook(lambda mod, args: (args[0] * 10,))
        scale.register_forward_pre_hook(fail)
        scale.register_forward_hook(lambda mod, args, out: seen.append((args, out)),
                                    always_call=True)
        try:
            scale(x2(torch, requires_grad=False))
        except ValueError as error:
            seen.append(str(error))
        return seen

    assert_same_outcome(scenario)


def test_removing_a_global_forward_hook_removes_its_flags_deviation():
    """DEVIATION: PyTorch 2.13's ``register_module_forward_hook`` gives its handle only the
    always-call dictionary as an extra, so removing a ``with_kwargs=True`` hook leaves its id
    in ``_global_forward_hooks_with_kwargs``. Removing a hook should remove all of it, as
    every other handle does; minitorch_hooks removes the flag too."""
    def scenario(torch):
        g = torch.nn.modules.module
        handle = g.register_module_forward_hook(lambda *a: None, with_kwargs=True)
        handle.remove()
        left = handle.id in g._global_forward_hooks_with_kwargs
        g._global_forward_hooks_with_kwargs.pop(handle.id, None)  # PyTorch's leftover
        return left, len(g._global_forward_hooks)

    assert pytorch_outcome(scenario) == [[True, 0], []]
    assert outcome(scenario, minitorch_hooks) == ((False, 0), [])


# -- removing and registering while hooks run ------------------------------------------------

def test_removing_or_adding_hooks_inside_a_running_hook_does_not_disturb_the_call():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        handles = {}

        def first_pre(mod, args):
            events.append("first pre")
            handles["second pre"].remove()
            mod.register_forward_pre_hook(lambda *a: events.append("added pre"))

        def first_fwd(mod, args, out):
            events.append("first fwd")
            handles["second fwd"].remove()
            handles["first fwd"].remove()
            mod.register_forward_hook(lambda *a: events.append("added fwd"))

        scale.register_forward_pre_hook(first_pre)
        handles["second pre"] = scale.register_forward_pre_hook(
            lambda *a: events.append("second pre"))
        handles["first fwd"] = scale.register_forward_hook(first_fwd)
        handles["second fwd"] = scale.register_forward_hook(
            lambda *a: events.append("second fwd"))
        scale(x2(torch))
        events.append("second call")
        scale(x2(torch))
        return events

    assert_same_outcome(scenario)


def test_removing_a_global_hook_inside_it_does_not_disturb_the_call():
    def scenario(torch):
        chain = modules(torch).Chain(modules(torch).Scale(), modules(torch).Scale())
        events = []
        handles = {}

        def once(mod, args):
            events.append(("once", type(mod).__name__))
            handles["once"].remove()

        g = torch.nn.modules.module
        handles["once"] = g.register_module_forward_pre_hook(once)
        with g.register_module_forward_pre_hook(
                lambda mod, args: events.append(("always", type(mod).__name__))):
            chain(x2(torch))
        return events

    assert_same_outcome(scenario)


# -- handles and dictionaries --------------------------------------------------------------

def test_handles_remove_twice_and_work_as_context_managers():
    def scenario(torch):
        scale = modules(torch).Scale()
        events = []
        handle = scale.register_forward_hook(lambda *a: events.append("hook"),
                                             with_kwargs=True, always_call=True)
        dicts = (scale._forward_hooks, scale._forward_hooks_with_kwargs,
                 scale._forward_hooks_always_called)
        before = [list(d) == [handle.id] for d in dicts]
        handle.remove()
        handle.remove()
        after = [len(d) for d in dicts]
        with scale.register_forward_pre_hook(lambda *a: events.append("pre")) as pre:
            inside = list(scale._forward_pre_hooks) == [pre.id]
            scale(x2(torch))
        scale(x2(torch))
        later = scale.register_forward_hook(lambda *a: None)
        return (before, after, inside, events, len(scale._forward_pre_hooks),
                type(handle).__name__, later.id > handle.id > -1)

    assert_same_outcome(scenario)


def test_hook_dictionaries_are_named_typed_and_filled_as_in_pytorch():
    def scenario(torch):
        scale = modules(torch).Scale()

        def fn(*args):
            return None

        handles = {
            "pre": scale.register_forward_pre_hook(fn),
            "pre kwargs": scale.register_forward_pre_hook(fn, with_kwargs=True),
            "fwd": scale.register_forward_hook(fn),
            "fwd kwargs": scale.register_forward_hook(fn, with_kwargs=True),
            "fwd always": scale.register_forward_hook(fn, always_call=True),
            "bw pre": scale.register_full_backward_pre_hook(fn),
            "bw": scale.register_full_backward_hook(fn),
            "sd pre": scale.register_state_dict_pre_hook(fn),
            "sd post": scale.register_state_dict_post_hook(fn),
            "load pre": scale.register_load_state_dict_pre_hook(fn),
            "load post": scale.register_load_state_dict_post_hook(fn),
        }
        ids = {name: h.id for name, h in handles.items()}

        def shape(d):
            return type(d).__name__, [next(n for n, i in ids.items() if i == k) for k in d]

        names = ["_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks",
                 "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
                 "_backward_pre_hooks", "_backward_hooks", "_state_dict_pre_hooks",
                 "_state_dict_hooks", "_load_state_dict_pre_hooks",
                 "_load_state_dict_post_hooks"]
        load_pre = scale._load_state_dict_pre_hooks[ids["load pre"]]
        return ({name: shape(getattr(scale, name)) for name in names},
                scale._is_full_backward_hook, scale._forward_hooks_with_kwargs[ids["fwd kwargs"]],
                scale._forward_pre_hooks[ids["pre"]] is fn,
                type(load_pre).__name__, load_pre.hook is fn,
                type(scale._parameters).__name__, type(scale._modules).__name__)

    assert_same_outcome(scenario)


def test_global_hook_dictionaries():
    def scenario(torch):
        g = torch.nn.modules.module

        def fn(*args):
            return None

        with g.register_module_forward_pre_hook(fn) as pre, \
                g.register_module_forward_hook(fn, always_call=True) as fwd, \
                g.register_module_full_backward_pre_hook(fn) as bw_pre, \
                g.register_module_full_backward_hook(fn) as bw:
            inside = (list(g._global_forward_pre_hooks) == [pre.id],
                      list(g._global_forward_hooks) == [fwd.id],
                      list(g._global_forward_hooks_always_called) == [fwd.id],
                      list(g._global_backward_pre_hooks) == [bw_pre.id],
                      list(g._global_backward_hooks) == [bw.id],
                      g._global_is_full_backward_hook,
                      type(g._global_forward_hooks).__name__)
        return inside, len(g._global_forward_hooks), len(g._global_forward_hooks_always_called)

    assert_same_outcome(scenario)


def test_hook_dictionaries_written_by_hand_are_read_at_the_next_call():
    """The hook dictionaries are PyTorch's and may be written to directly; each call reads
    them as they are then (minitorch_hooks remembers its records of a dictionary between
    calls, so this checks that every kind of write is seen)."""
    def scenario(torch):
        g = torch.nn.modules.module
        m = torch.nn.Identity()
        x = torch.ones(1)
        seen = []

        def log(name):
            return lambda mod, *args: seen.append((name, len(args)))

        first = m.register_forward_hook(log("first"))
        second = m.register_forward_hook(log("second"))
        pre = m.register_forward_pre_hook(log("pre"))
        rounds = []

        def call(label):
            seen.clear()
            m(x)
            rounds.append((label, list(seen)))

        call("registered")
        m._forward_hooks[first.id] = log("replaced")
        call("a function replaced under its id")
        m._forward_hooks.move_to_end(first.id)
        call("moved to the end")
        m._forward_hooks_with_kwargs[second.id] = True
        m._forward_pre_hooks_with_kwargs[pre.id] = True
        call("flags written")
        del m._forward_hooks_with_kwargs[second.id]
        call("a flag deleted")
        m._forward_hooks[12345] = log("added by hand")
        call("a hook added by hand")
        del m._forward_hooks[second.id]
        call("a hook deleted")
        m._forward_hooks.clear()
        call("cleared")
        with g.register_module_forward_hook(log("global")) as handle:
            call("a global hook")
            g._global_forward_hooks[handle.id] = log("global replaced")
            call("the global hook replaced")
        call("the global hook removed")
        m._forward_hooks = {7: log("in a plain dict")}
        call("a plain dict put in place by hand")
        m._forward_hooks[8] = log("added to the plain dict")
        call("a hook added to the plain dict")
        return rounds

    assert_same_outcome(scenario)
