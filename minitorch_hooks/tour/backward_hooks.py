"""Chapter 9: ``register_full_backward_pre_hook`` and ``register_full_backward_hook``."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    import warnings

    class Model(torch.nn.Module):  # x1 * x2 * W, as in a popular article
        def __init__(self):
            super().__init__()
            self.W = torch.nn.Parameter(torch.tensor([5.0]))

        def forward(self, x1, x2):
            return x1 * x2 * self.W

    def show_grad_output(module, grad_output):
        print("pre-hook: grad_output =", grad_output)

    def module_hook(module, grad_input, grad_output):  # the article's hook, as it is
        print("hook:     grad_input =", grad_input)
        total = grad_input[0] + grad_input[1]
        return (torch.tensor(grad_input[0] / total),
                torch.tensor(grad_input[1] / total))

    def show_grad_input(module, grad_input, grad_output):
        print("hook:     grad_input =", grad_input)

    def backward_and_print_warnings(output):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            output.sum().backward()
        for warning in caught:
            print(f"{warning.category.__name__}: {warning.message}")

    model = Model()
    model.register_full_backward_pre_hook(show_grad_output)
    x1 = torch.tensor([1.0], requires_grad=True)
    x2 = torch.tensor([3.0], requires_grad=True)
    with model.register_full_backward_hook(module_hook):
        output = model(x1, x2)
        print("output =", output)
        backward_and_print_warnings(output)
    print("x1.grad =", x1.grad, " x2.grad =", x2.grad, " W.grad =", model.W.grad)

    model.register_full_backward_hook(show_grad_input)
    backward_and_print_warnings(model(x1, 3.0))  # x2 is a float this time
    backward_and_print_warnings(model(torch.tensor([1.0]), torch.tensor([3.0])))


CHAPTER = Chapter(
    title="Module full backward hooks",
    intro="""
        A module's backward hooks see the gradients at its edges. A full backward
        pre-hook, hook(module, grad_output), runs when the gradient with respect to the
        module's output arrives; returning a tuple replaces grad_output. A full backward
        hook, hook(module, grad_input, grad_output), runs once the gradients with respect
        to the module's inputs are known; returning a tuple replaces grad_input.

        There is no module node in the graph to hook, so PyTorch builds one at each edge:
        while a full backward hook or pre-hook is registered, model(...) passes the
        tensor arguments through an identity Function before forward, and the output
        through another one after it. Their nodes (BackwardHookFunctionBackward) change
        no value; the node at the output runs the pre-hooks, the node at the inputs runs
        the hooks. A popular article's hook rescales grad_input so that its entries add
        up to 1. Its torch.tensor(...) around a tensor is a copy PyTorch warns about; the
        example runs the hook as the article wrote it and prints that warning.
    """,
    example=example,
    outro="""
        The output's grad_fn is the identity at the module's output, not the MulBackward0
        inside it. With x1 = 1, x2 = 3 and W = 5, grad_input was (x2 * W, x1 * W) =
        (15, 5), rescaled to (0.75, 0.25); W.grad = x1 * x2 = 3 is untouched, because a
        parameter is not an input. The division already made new tensors, so the fix is
        to drop torch.tensor(...); when a copy is needed, write g.detach().clone().

        grad_input has one entry per positional argument, None where the argument is no
        tensor (the float 3.0). When no input requires grad there is no node at the
        inputs: the hooks fire at the output instead, grad_input is all None, and PyTorch
        warns. Here the gradient still flowed, to W.
    """,
)
