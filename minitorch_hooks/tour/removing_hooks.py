"""Chapter 6: removing hooks with the ``RemovableHandle`` every ``register_*`` returns."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)

    def triple(grad):
        print("  triple runs")
        return grad * 3

    def gradient_of_sum():
        x.grad = None  # start each pass from an empty .grad
        x.sum().backward()  # d/dx sum(x) = 1
        return x.grad

    handle = x.register_hook(triple)
    print("with the hook:", gradient_of_sum())
    handle.remove()
    handle.remove()  # a second remove() does nothing
    print("after remove():", gradient_of_sum())

    with x.register_hook(triple):  # removed when the block ends
        print("inside the with block:", gradient_of_sum())
    print("after the with block:", gradient_of_sum())


CHAPTER = Chapter(
    title="Removing hooks with RemovableHandle",
    intro="""
        Every register_* method returns a RemovableHandle. handle.remove() takes the hook
        out again; calling it twice, or after the tensor is gone, is harmless. The handle is
        also a context manager, so a hook can be installed for one block of code only:
        with x.register_hook(hook): ... removes it when the block ends, even if the block
        raises. Tensor hooks, node hooks and (later in this course) module hooks all use
        the same handle.
    """,
    example=example,
    outro="""
        The hook tripled the gradient while it was registered and did nothing once removed:
        no trace of it stays on x. Keep the handle whenever a hook is meant to be temporary,
        such as one that inspects a single batch.
    """,
)
