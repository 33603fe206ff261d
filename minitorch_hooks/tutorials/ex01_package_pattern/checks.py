"""Checks for exercise 1: the Package/hook pattern in plain Python."""

from __future__ import annotations

from ..checking import Checks, expect

CHECKS = Checks()


def double(x):
    return x * 2


def minus_one(x):
    return x - 1


@CHECKS(step=1, title="register_hook keeps each hook under its handle's id",
        nudge="the handle is made first, and its id is the key the hook is kept under; what does "
              "register_hook give back?",
        pointer="Package.register_hook and the Handle class in your file; the exercise's text, "
                "step 1; PyTorch's torch.utils.hooks.RemovableHandle",
        solution="make a Handle(self.hooks), store the hook at self.hooks[handle.id], "
                 "return the handle")
def hooks_are_kept_by_id(ex, torch):
    package = ex.Package(double)
    first, second = (lambda p, x: None), (lambda p, x: None)
    handles = [package.register_hook(first), package.register_hook(second)]
    expect(all(isinstance(h, ex.Handle) for h in handles),
           f"register_hook returned {handles!r}, expected two Handle objects")
    expect(handles[0].id != handles[1].id, "both handles have the same id")
    expect(list(package.hooks.items()) == [(handles[0].id, first), (handles[1].id, second)],
           f"package.hooks is {dict(package.hooks)!r}: expected both hooks, in the order "
           "they were registered, keyed by their handles' ids")


@CHECKS(step=2, title="the programs run in order, each followed by every hook",
        nudge="every hook runs after every program, not once at the end; which value does each "
              "hook see?",
        pointer="Package.__call__ in your file; the exercise's text, step 2",
        solution="loop over self.programs; after each, call hook(program, x) for every hook")
def hooks_run_after_each_program(ex, torch):
    package = ex.Package(double, minus_one)
    seen = []
    package.register_hook(lambda program, x: seen.append(("first", program.__name__, x)))
    package.register_hook(lambda program, x: seen.append(("second", program.__name__, x)))
    result = package(5)
    expected = [("first", "double", 10), ("second", "double", 10),
                ("first", "minus_one", 9), ("second", "minus_one", 9)]
    expect(seen == expected, f"the hooks saw {seen}, expected {expected}")
    expect(result == 9, f"package(5) returned {result!r}, expected 9 (5 * 2 - 1)")


@CHECKS(step=2, title="a result that is not None replaces the value, even 0",
        nudge="which results count as 'no answer'? Only one value means that; 0 is a real answer",
        pointer="the test on the hook's result in Package.__call__; the course's 'Replacing "
                "values' page",
        solution="test the hook's result with 'is not None': 0 and [] are answers too")
def results_replace_the_value(ex, torch):
    package = ex.Package(double, minus_one)
    package.register_hook(lambda program, x: 0 if program is double else None)
    seen = []
    package.register_hook(lambda program, x: seen.append(x))
    result = package(5)
    expect(seen == [0, -1], f"the second hook saw {seen}, expected [0, -1]: the first "
           "hook's 0 replaces 10, and the later hooks and programs see the 0")
    expect(result == -1, f"package(5) returned {result!r}, expected -1")


@CHECKS(step=2, title="a hook registered by a hook waits for the next program",
        nudge="a hook adds a hook while your loop walks the same dictionary; what should the loop "
              "walk over instead?",
        pointer="the loop over the hooks in Package.__call__; Python's note that a dict must not "
                "change size while iterated",
        solution="loop over a copy of the hooks, tuple(self.hooks.values()), so that the "
                 "dictionary can change while the hooks run")
def registering_during_a_call(ex, torch):
    package = ex.Package(double, minus_one)
    late, watched = [], []

    def register_another(program, x):
        if not late:
            late.append("registered")
            package.register_hook(lambda p, value: late.append(value))

    package.register_hook(register_another)
    package.register_hook(lambda program, x: watched.append(x))
    package(5)
    expect(watched == [10, 9], f"a hook registered before the call saw {watched}, "
           "expected [10, 9]: changing the dictionary while looping over it cut the loop "
           "short")
    expect(late == ["registered", 9], f"the new hook saw {late[1:]}, expected [9]: it "
           "joins after double's hooks were copied, so it first runs after minus_one")
    package(5)
    expect(late == ["registered", 9, 10, 9],
           f"in the next call, the new hook saw {late[2:]}, expected [10, 9]")


@CHECKS(step=3, title="handle.remove() takes the hook out, and twice is harmless",
        nudge="the second remove() finds the hook already gone; which way of deleting does not "
              "mind that?",
        pointer="Handle.remove in your file; dict.pop in Python's docs",
        solution="delete self.id from self.hooks if it is still there: self.hooks.pop(id, None)")
def remove_takes_the_hook_out(ex, torch):
    package = ex.Package(double)
    keep, drop = (lambda p, x: None), (lambda p, x: x + 100)
    kept = package.register_hook(keep)
    dropped = package.register_hook(drop)
    dropped.remove()
    dropped.remove()
    expect(list(package.hooks.items()) == [(kept.id, keep)],
           f"after remove(), package.hooks is {dict(package.hooks)!r}")
    expect(package(5) == 10, "the removed hook still changes the result")
