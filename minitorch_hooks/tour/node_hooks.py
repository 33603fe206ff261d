"""Chapter 5: hooks on graph nodes, and the order of every hook in one backward pass."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3  # y.grad_fn is the MulBackward0 node that made y

    def on_y(grad):
        print("1. y's tensor hook:          grad =", grad)

    def before_mul(grad_outputs):
        print("2. MulBackward0's prehook:   grad_outputs =", grad_outputs)

    def after_mul(grad_inputs, grad_outputs):
        print("3. MulBackward0's hook:      grad_inputs =", grad_inputs)

    def on_x(grad):
        print("4. x's tensor hook:          grad =", grad)

    def after_accumulate(leaf):
        print("5. x's post-accumulate hook: x.grad =", leaf.grad)

    # Registered out of order on purpose: the graph, not registration, decides.
    x.register_post_accumulate_grad_hook(after_accumulate)
    x.register_hook(on_x)
    y.grad_fn.register_hook(after_mul)
    y.grad_fn.register_prehook(before_mul)
    y.register_hook(on_y)

    y.sum().backward()


CHAPTER = Chapter(
    title="Hooks on graph nodes, and the order of them all",
    intro="""
        Backward walks the graph of nodes that recorded the forward pass: y.grad_fn is the
        node that made y, and its next_functions lead towards the leaves. A node takes
        hooks of its own. node.register_prehook(fn) calls fn(grad_outputs) before the node
        runs, with the gradients of the node's outputs; node.register_hook(fn) calls
        fn(grad_inputs, grad_outputs) after it, with the gradients it computed for its
        inputs. Both receive tuples, and a returned tuple replaces the one passed in.

        A tensor hook on y is really a hook on the gradient that y.grad_fn is about to
        receive, so it comes first. A leaf's hooks belong to its AccumulateGrad node.
    """,
    example=example,
    outro="""
        At each node the order is always: hooks of the tensors it made, then retain_grad,
        then the node's prehooks, the node itself, and its hooks; at a leaf, its tensor
        hooks, the accumulation into .grad, then its post-accumulate-grad hooks.
        grad_inputs holds one gradient per input of x * 3; the number 3 needs none, so its
        entry is None.
    """,
)
