"""Chapter 1: the hook pattern in plain Python, before any tensor is involved."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    class Pipeline:
        """Runs its steps in order and, after each step, calls the registered hooks."""

        def __init__(self, *steps):
            self.steps = steps
            self.hooks = []

        def register_hook(self, hook):
            self.hooks.append(hook)

        def __call__(self, value):
            for step in self.steps:
                value = step(value)
                for hook in self.hooks:  # in the order they were registered
                    result = hook(step.__name__, value)
                    if result is not None:  # None means "keep the value"
                        value = result
            return value

    def double(value):
        return value * 2

    def minus_one(value):
        return value - 1

    def log(step, value):
        # Returns None: it only watches.
        print(f"  log:  after {step}, the value is {value}")

    def clip_at_zero(step, value):
        if value < 0:
            return 0  # not None, so it replaces the value (even though 0 is falsy)
        return None

    pipeline = Pipeline(double, minus_one)
    pipeline.register_hook(log)
    print("pipeline(5) =", pipeline(5))

    pipeline.register_hook(clip_at_zero)
    pipeline.register_hook(lambda step, value: print(f"  late: after {step}, {value}"))
    print("pipeline(0) =", pipeline(0))


CHAPTER = Chapter(
    title="The hook pattern, in plain Python",
    intro="""
        A hook is a function you hand to a component so that it runs at a fixed moment of
        that component's work. The component keeps the hooks in a list and, at that moment,
        calls each one in the order it was registered. A hook that returns None only
        watches; a hook that returns anything else replaces the value, and every later hook
        and later step sees the replacement.

        Every hook in PyTorch follows this rule; only the moment and the value differ. In
        minitorch_hooks the rule is written once, as call_hooks() in utils/hooks.py. Here it
        is on a toy pipeline that doubles a number and then subtracts one.
    """,
    example=example,
    outro="""
        log ran before clip_at_zero because it was registered first, so it saw -1; the late
        hook, registered last, saw the 0 that replaced it. Test a hook's result with
        "is not None", not with its truth value: a hook that returns 0 has still answered.
    """,
)
