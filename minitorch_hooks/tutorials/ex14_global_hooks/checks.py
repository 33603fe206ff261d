"""Checks for exercise 14: global module hooks."""

from __future__ import annotations

from ..checking import Checks, expect, expect_close, expect_raises

CHECKS = Checks()


def global_hook_count(torch) -> int:
    """How many global module hooks are registered, of every kind."""
    registry = torch.nn.modules.module
    return sum(len(hooks) for hooks in (
        registry._global_forward_pre_hooks, registry._global_forward_hooks,
        registry._global_backward_pre_hooks, registry._global_backward_hooks))


def small_model(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU())


@CHECKS(step=1, title="ShapeLog records the output shape of every module called in it",
        nudge="a global forward hook sees every module called while it is registered; entering the"
              " block registers it",
        pointer="ShapeLog.__enter__; torch.nn.modules.module.register_module_forward_hook "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.modules.module.register_module_forward_hook.html)",
        solution="in __enter__: self.handle = register_module_forward_hook(record), where "
                 "record appends (type(module).__name__, list(output.shape)); return self")
def shapes_are_logged(ex, torch):
    model = small_model(torch)  # built before the block: no hook of its own
    with ex.ShapeLog() as log:
        model(torch.ones(2, 3))
        torch.nn.Tanh()(torch.ones(5))  # built inside the block
    expected = [("Linear", [2, 4]), ("ReLU", [2, 4]), ("Sequential", [2, 4]),
                ("Tanh", [5])]
    expect(isinstance(log, ex.ShapeLog), f"the with block gave {log!r}: return self")
    expect(log.records == expected, f"records is {log.records}, expected {expected}: "
           "children finish, and so are recorded, before the Sequential around them")


@CHECKS(step=1, title="ShapeLog leaves no hook behind, even when the block raises",
        nudge="leaving the block, by an error too, must remove the global hook, and must not "
              "swallow the error",
        pointer="ShapeLog.__exit__; Python's docs on context managers (__exit__'s return value)",
        solution="__exit__ runs however the block ends: remove self.handle there, and "
                 "return None so that the error goes on")
def the_hook_is_removed(ex, torch):
    before = global_hook_count(torch)
    model = small_model(torch)
    with ex.ShapeLog() as log:
        model(torch.ones(1, 3))
    model(torch.ones(1, 3))
    expect(len(log.records) == 3, f"{len(log.records)} records after the block: the "
           "hook still fires once the block is over")

    def fails():
        with ex.ShapeLog():
            raise ValueError("inside the block")

    expect_raises(ValueError, fails, "the error raised inside the block was swallowed")
    expect(global_hook_count(torch) == before,
           f"{global_hook_count(torch) - before} global hooks are left registered")


@CHECKS(step=2, title="call_tree indents each call by its depth",
        nudge="the depth goes up when a module starts and down when it ends: one global hook for "
              "each",
        pointer="call_tree; register_module_forward_pre_hook and register_module_forward_hook",
        solution="a global pre-hook appends '  ' * depth + the class name, then depth += 1; "
                 "a global forward hook does depth -= 1")
def calls_are_nested(ex, torch):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(),
                                torch.nn.Sequential(torch.nn.Linear(4, 2), torch.nn.Tanh()))
    lines = ex.call_tree(model, torch.ones(1, 3))
    expected = ["Sequential", "  Linear", "  ReLU", "  Sequential", "    Linear",
                "    Tanh"]
    expect(lines == expected, f"call_tree gave {lines}, expected {expected}")
    expect(ex.call_tree(model, torch.ones(1, 3)) == expected,
           "a second call_tree gave other lines: are the hooks removed?")


@CHECKS(step=2, title="a module that raises does not leave the depth wrong",
        nudge="when a module raises, the forward hook is skipped unless it asks not to be, and the"
              " hooks must go either way",
        pointer="call_tree; always_call in register_module_forward_hook's docs; try/finally",
        solution="register the forward hook with always_call=True, and remove both hooks "
                 "in a finally block")
def a_failure_keeps_the_depth(ex, torch):
    class Failing(torch.nn.Module):
        def forward(self, x):
            raise ValueError("no")

    class Tolerant(torch.nn.Module):  # calls a child that fails, and carries on
        def __init__(self):
            super().__init__()
            self.inner = Failing()

        def forward(self, x):
            try:
                self.inner(x)
            except ValueError:
                pass
            return x

    before = global_hook_count(torch)
    lines = ex.call_tree(torch.nn.Sequential(Tolerant(), torch.nn.ReLU()), torch.ones(1))
    expected = ["Sequential", "  Tolerant", "    Failing", "  ReLU"]
    expect(lines == expected, f"call_tree gave {lines}, expected {expected}: after "
           "Failing raised, the depth was not brought back up")
    expect_raises(ValueError, lambda: ex.call_tree(Failing(), torch.ones(1)),
                  "call_tree swallowed the error of the model it called")
    expect(global_hook_count(torch) == before,
           f"{global_hook_count(torch) - before} global hooks are left registered")


@CHECKS(step=3, title="nan_guard names the module whose gradient stops being finite",
        nudge="a global backward hook can look at every gradient flowing into a module's inputs; "
              "some of them are None",
        pointer="nan_guard; register_module_full_backward_hook; torch.isfinite; the course's "
                "how-to 'Find NaNs'",
        solution="register_module_full_backward_hook(check), where check raises "
                 "FloatingPointError when a grad in grad_input is not None and "
                 "not torch.isfinite(grad).all()")
def nan_guard_names_the_module(ex, torch):
    class Sqrt(torch.nn.Module):
        def forward(self, x):
            return x.sqrt()  # its gradient at 0 is infinite

    model = torch.nn.Sequential(torch.nn.Identity(), Sqrt())
    registry = torch.nn.modules.module._global_backward_hooks
    before = set(registry)
    try:
        handle = ex.nan_guard()
        expect(handle is not None, "nan_guard returned None: return the hook's handle")
        x = torch.tensor([0.0, 4.0], requires_grad=True)
        error = expect_raises(FloatingPointError, lambda: model(x).sum().backward(),
                              "backward through sqrt(0) did not raise FloatingPointError")
        expect(str(error) == "non-finite gradient in Sqrt",
               f"the error says {str(error)!r}, expected 'non-finite gradient in Sqrt'")
        y = torch.tensor([1.0, 4.0], requires_grad=True)
        model(y).sum().backward()  # finite: no error, and the gradient unchanged
        expect_close(y.grad, [0.5, 0.25], "y.grad through sqrt, with the guard on")
        handle.remove()
        z = torch.tensor([0.0], requires_grad=True)
        model(z).sum().backward()  # removed: the infinite gradient goes through
        expect(z.grad is not None, "after handle.remove() backward did not finish")
    finally:  # whatever the learner's code did, no global hook outlives the check
        for key in set(registry) - before:
            del registry[key]
