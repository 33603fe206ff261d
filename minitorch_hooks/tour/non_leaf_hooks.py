"""Chapter 3: hooks on non-leaf tensors, and ``retain_grad``."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3  # not a leaf: an operation made y
    print("y.is_leaf =", y.is_leaf, "  y.grad_fn.name() =", y.grad_fn.name())

    def halve(grad):
        print("halve receives", grad)
        return grad / 2  # what flows on to x from here

    y.retain_grad()  # keep y's gradient in y.grad after backward
    y.register_hook(halve)

    (y * y).sum().backward()  # d/dy sum(y * y) = 2 * y
    # y.grad is recorded after halve ran, though retain_grad() came first.
    print("y.grad =", y.grad)
    print("x.grad =", x.grad)  # 3 * the halved gradient


CHAPTER = Chapter(
    title="Hooks on non-leaf tensors, and retain_grad",
    intro="""
        A tensor computed from others is not a leaf: it has a grad_fn, the graph node that
        made it. Its hooks run when backward has finished the tensor's gradient, just before
        that gradient goes into the tensor's grad_fn. So a hook here sees a gradient
        halfway through the graph, and what it returns is what the rest of the graph, down
        to the leaves, receives.

        backward keeps gradients only for leaves: after it, a non-leaf's .grad is None (and
        reading it warns). y.retain_grad() asks for y's gradient to be kept too.
    """,
    example=example,
    outro="""
        halve received 2 * y = [6, 12] and returned half of it, so [3, 6] flowed on
        through y's MulBackward0 and x.grad is 3 times that. y.grad holds the halved
        gradient too: retain_grad() always records the value after all of y's hooks have
        run, whatever the order in which they were registered.
    """,
)
