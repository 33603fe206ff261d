"""Chapter 4: ``Tensor.register_post_accumulate_grad_hook``."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    w = torch.tensor([1.0, -1.0], requires_grad=True)

    def sgd_step(param):
        print("sgd_step receives the tensor itself, with param.grad =", param.grad)
        with torch.no_grad():
            param -= 0.1 * param.grad  # update the weight in place
        param.grad = None  # this gradient is used up: free it now

    w.register_post_accumulate_grad_hook(sgd_step)
    (w * w).sum().backward()  # d/dw sum(w * w) = 2 * w
    print("after backward: w =", w, "and w.grad =", w.grad)

    try:
        (w * 2).register_post_accumulate_grad_hook(sgd_step)
    except RuntimeError as error:
        print("on a non-leaf:", error)


CHAPTER = Chapter(
    title="register_post_accumulate_grad_hook",
    intro="""
        A register_hook hook runs before the gradient is added into .grad. A
        post-accumulate-grad hook runs after: it receives the tensor itself, not a
        gradient, and by then tensor.grad holds the sum of every gradient that arrived. It
        returns nothing. That is the moment an optimiser needs, so the usual use is to
        update each parameter as soon as its gradient is ready, during backward, and free
        that gradient at once instead of keeping every gradient until optimizer.step().
        Only leaves accumulate into .grad, so only leaves take this hook.
    """,
    example=example,
    outro="""
        The hook saw w.grad = 2 * w, took one SGD step with learning rate 0.1 and cleared
        the gradient, all inside backward(): when backward returned, w was already updated.
    """,
)
