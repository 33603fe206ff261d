"""Chapter 8: ``Module.register_forward_hook`` and its options."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    class SumNet(torch.nn.Module):  # a popular article's example, as it is
        def forward(self, a, b, c):
            print("forward")
            return a + b + c

    def forward_pre_hook(module, input):
        print("forward_pre_hook")
        a, b, c = input
        return a + 10, b, c

    def forward_hook(module, input, output):
        print("forward_hook")
        return output + 100  # replaces the output

    model = SumNet()
    pre_handle = model.register_forward_pre_hook(forward_pre_hook)
    model.register_forward_hook(forward_hook)
    a = torch.tensor(1, dtype=torch.float, requires_grad=True)
    b = torch.tensor(2, dtype=torch.float, requires_grad=True)
    c = torch.tensor(3, dtype=torch.float, requires_grad=True)
    print(model(a, b, c))

    def runs_first(module, args, output):
        print("runs_first sees output =", output)

    def sees_kwargs(module, args, kwargs, output):
        print("sees_kwargs sees", len(args), "args and kwargs =", kwargs)
        print("sees_kwargs sees output =", output)

    pre_handle.remove()  # forward_pre_hook unpacks three positional arguments
    model.register_forward_hook(runs_first, prepend=True)
    model.register_forward_hook(sees_kwargs, with_kwargs=True)
    print(model(a, b, c=c))

    class Broken(torch.nn.Module):
        def forward(self, x):
            raise ValueError("forward failed")

    def ordinary(module, args, output):
        print("ordinary runs")

    def cleanup(module, args, output):
        print("cleanup runs, with output =", output)

    broken = Broken()
    broken.register_forward_hook(ordinary)
    broken.register_forward_hook(cleanup, always_call=True)
    try:
        broken(torch.tensor(1.0))
    except ValueError as error:
        print("and then the error propagates: ValueError:", error)


CHAPTER = Chapter(
    title="Module.register_forward_hook",
    intro="""
        A forward hook runs after forward: hook(module, args, output) gets the same
        arguments forward got (after any pre-hook changed them) and what forward
        returned. Returning None keeps the output; returning anything else replaces it,
        for the caller and for every later hook. A popular article uses both kinds on
        a module that adds its three inputs: the pre-hook adds 10 to the first input, the hook
        adds 100 to the output. Its printed order and result are exactly PyTorch's.

        Three options change when and how a hook is called. prepend=True puts the hook
        before those already registered. with_kwargs=True passes the keyword arguments
        too: hook(module, args, kwargs, output). always_call=True runs the hook even when
        forward (or an earlier hook) raises; the exception still reaches the caller.
    """,
    example=example,
    outro="""
        The first call went pre-hook, forward, hook: 1 + 10 + 2 + 3 = 16, plus 100. In
        the second, c was passed by keyword, so it is in kwargs and not in args; runs_first
        saw forward's own 6 because prepend=True put it ahead of forward_hook, and
        sees_kwargs saw the 106 that forward_hook returned. When forward raised, the
        ordinary hook was skipped, cleanup still ran (with output None, since there was
        none), and the ValueError reached the caller unchanged.
    """,
)
