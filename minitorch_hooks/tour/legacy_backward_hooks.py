"""Chapter 12: the deprecated ``Module.register_backward_hook``, and what it gets wrong."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    import warnings

    class Model(torch.nn.Module):  # chapter 9's model again: x1 * x2 * W
        def __init__(self):
            super().__init__()
            self.W = torch.nn.Parameter(torch.tensor([5.0]))

        def forward(self, x1, x2):
            return x1 * x2 * self.W

    def legacy_hook(module, grad_input, grad_output):
        print("legacy hook: grad_input =", grad_input)

    def full_hook(module, grad_input, grad_output):
        print("full hook:   grad_input =", grad_input)

    x1 = torch.tensor([1.0], requires_grad=True)
    x2 = torch.tensor([3.0], requires_grad=True)

    legacy = Model()
    legacy.register_backward_hook(legacy_hook)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        output = legacy(x1, x2)
    for warning in caught:
        print(f"{warning.category.__name__}: {warning.message}")
    print("the hook is on output.grad_fn:", output.grad_fn.name())
    output.sum().backward()

    full = Model()
    full.register_full_backward_hook(full_hook)
    full(x1, x2).sum().backward()

    try:
        full.register_backward_hook(legacy_hook)
    except RuntimeError as error:
        print("RuntimeError:", error)


CHAPTER = Chapter(
    title="The legacy register_backward_hook, and what it misses",
    intro="""
        Module.register_backward_hook(hook) is the older form of the full backward hook,
        with the same signature, hook(module, grad_input, grad_output). Popular articles
        leave it out as "buggy", because PyTorch's documentation warns against it; this
        chapter shows what the warning is about. It builds no identity nodes around the
        module. It attaches the hook, as a node hook, to the grad_fn of the module's
        output: the node of the last operation inside forward. So grad_input holds the
        gradients of that one operation's inputs, which are the module's inputs only when
        forward is a single operation.

        The example runs chapter 9's model, x1 * x2 * W, once with a legacy hook and once
        with a full backward hook, so the two grad_inputs can be compared.
    """,
    example=example,
    outro="""
        The last operation of forward is (x1 * x2) * W, so the legacy hook received the
        gradients of its two inputs: 5 = W for the product x1 * x2, and 3 = x1 * x2 for
        W, a parameter, not an input at all. The full hook received what the name
        promises, the gradients of x1 and x2: (x2 * W, x1 * W) = (15, 5). PyTorch warns
        when the call makes it plain that the legacy hook will miss gradients, as here
        with several nodes inside forward, and refuses to mix the two kinds on one
        module. Use register_full_backward_hook. The trace shows the legacy hook among
        the module's hooks, though it really ran as a node hook on MulBackward0.
    """,
)
