"""Chapter 2: ``Tensor.register_hook`` on a leaf tensor."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

    def watch(grad):
        print("watch  receives", grad, "while x.grad is", x.grad)

    def double(grad):
        print("double receives", grad)
        return grad * 2  # a returned tensor replaces the gradient

    x.register_hook(watch)
    x.register_hook(double)

    (x * x).sum().backward()  # d/dx sum(x * x) = 2 * x
    print("after the first backward:  x.grad =", x.grad)

    (x * x).sum().backward()  # the hooks run again; .grad accumulates
    print("after the second backward: x.grad =", x.grad)


CHAPTER = Chapter(
    title="Tensor.register_hook on a leaf",
    intro="""
        x.register_hook(hook) asks backward to call hook(grad) each time it has computed
        the gradient of x. On a leaf (a tensor you made yourself, with requires_grad=True)
        the hooks run just before that gradient is added into x.grad. That timing is what
        makes them useful: a hook that returns a tensor replaces the gradient, so it can
        clip, rescale or mask what reaches x.grad. The returned tensor must have the same
        shape and dtype as the gradient it replaces.
    """,
    example=example,
    outro="""
        Both hooks received the gradient 2 * x before x.grad was touched: watch saw None on
        the first pass and the old value on the second. What double returned, not what
        backward computed, is what was accumulated, once per backward pass.
    """,
)
