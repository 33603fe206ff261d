"""Chapter 16: ``torch.autograd.graph.register_multi_grad_hook``."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0], requires_grad=True)
    c = torch.tensor([5.0], requires_grad=True)

    def all_ready(grads):  # once per backward, with every gradient at once
        print("all:", grads)

    def first_ready(grad):  # once per backward, with the first gradient computed
        print("any:", grad)

    graph = torch.autograd.graph
    handles = [graph.register_multi_grad_hook((a, b, c), all_ready),
               graph.register_multi_grad_hook((a, b), first_ready, mode="any")]
    (a * b).sum().backward()  # c takes no part: its place holds None
    print("a.grad =", a.grad, " b.grad =", b.grad)
    (a * 2).sum().backward()  # b takes no part either
    for handle in handles:
        handle.remove()
    (a * b).sum().backward()
    print("after remove(): no hook ran")


CHAPTER = Chapter(
    title="register_multi_grad_hook: one hook for several tensors",
    intro="""
        A tensor hook sees one gradient. Some jobs need several at once: the norm of all
        of a layer's gradients together, or a signal that a whole group is done. With
        torch.autograd.graph.register_multi_grad_hook(tensors, fn), fn runs once per
        backward pass. In the default mode, "all", it waits until every tensor of the
        group that takes part in this backward has its gradient, then receives them all,
        in the order of the group, with None in the place of a tensor that takes no part.
        In mode="any" it runs at the first gradient computed and receives that one
        alone. It is built from ordinary tensor hooks, one on each tensor, and one handle
        removes them all.
    """,
    example=example,
    outro="""
        In the first backward, "any" ran as soon as a's gradient was computed, while
        "all" waited for b's, and received None for c. In the second only a took part,
        so a's gradient was everything "all" would get: it ran at once, before "any",
        because it was registered first. The gradients are those a tensor hook would
        see, before they are added into .grad. After remove(), neither hook runs.
    """,
)
