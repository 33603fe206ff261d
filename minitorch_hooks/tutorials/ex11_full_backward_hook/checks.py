"""Checks for exercise 11: a full backward hook from identity nodes.

The learner's pieces are built on the library's own ``autograd.Function`` and module
hooks, so every check runs on minitorch_hooks and, when it is installed, on real
PyTorch; the last ones compare the learner's ``FullBackwardHook`` with the library's
``register_full_backward_hook`` on two identical modules.
"""

from __future__ import annotations

import numpy as np

from ..checking import Checks, expect, expect_close, expect_equal, library_name

CHECKS = Checks(compare_with_pytorch=True)


def values(grads):
    return [None if g is None else np.round(g.detach().numpy(), 6).tolist() for g in grads]


def product_model(torch):
    """``x1 * x2 * W`` with ``W = [5, -1]``: the article's module, two wide."""
    class Product(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.W = torch.nn.Parameter(torch.tensor([5.0, -1.0]))

        def forward(self, x1, x2):
            return x1 * x2 * self.W

    return Product()


def leaves(torch):
    return (torch.tensor([1.0, 2.0], requires_grad=True),
            torch.tensor([3.0, -4.0], requires_grad=True))


def node_name(tensor):
    return type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else None


@CHECKS(step=1, title="Identity keeps the values and puts one node in the graph",
        nudge="an identity changes nothing in either direction: the same values forward, the same "
              "gradients backward",
        pointer="Identity.forward and Identity.backward; torch.autograd.Function's docs "
                "(docs.pytorch.org/docs/2.13/autograd.html#function)",
        solution="forward returns the tensors it got (a tuple); backward returns the grads")
def identity_is_an_identity(ex, torch):
    x, y = leaves(torch)
    a, b = ex.Identity.apply(x, y)
    expect_close(a, x, "the first output")
    expect_close(b, y, "the second output")
    expect(a.grad_fn is not None and a.grad_fn is b.grad_fn,
           "both outputs should share one grad_fn: the Identity's node")
    (a * 3 + b).sum().backward()
    expect_close(x.grad, [3.0, 3.0], "x.grad through Identity")
    expect_close(y.grad, [1.0, 1.0], "y.grad through Identity")


@CHECKS(step=2, title="wrap() calls on_gradients in backward; a tuple it returns replaces",
        nudge="the identity node's grad_fn is where the gradients pass; a hook on that node sees "
              "them and may replace them",
        pointer="wrap in your file; Node.register_hook in torch.autograd.graph's docs "
                "(docs.pytorch.org/docs/2.13/autograd.html#autograd-graph)",
        solution="wrapped = Identity.apply(*tensors); wrapped[0].grad_fn.register_hook("
                 "lambda grad_inputs, grad_outputs: on_gradients(grad_inputs)); return wrapped")
def wrap_reports_and_replaces(ex, torch):
    x, y = leaves(torch)
    seen = []

    def on_gradients(grads):
        seen.append(values(grads))
        return grads[0] * 10, grads[1]

    a, b = ex.wrap((x, y), on_gradients)
    (a * 2 + b).sum().backward()
    expect(seen == [[[2.0, 2.0], [1.0, 1.0]]],
           f"on_gradients was called with {seen}, expected once with [[2, 2], [1, 1]]")
    expect_close(x.grad, [20.0, 20.0], "x.grad after on_gradients multiplied it by 10")
    expect_close(y.grad, [1.0, 1.0], "y.grad")


@CHECKS(step=3, title="the module's inputs and output pass through identity nodes",
        nudge="the inputs go through one identity before forward, the output through another after"
              " it",
        pointer="wrap_inputs and wrap_output; the course's 'Full backward hooks'",
        solution="wrap_inputs returns wrap(args, self.on_grad_input); wrap_output returns "
                 "wrap((output,), self.on_grad_output)[0]")
def identities_surround_the_module(ex, torch):
    model = product_model(torch)
    ex.FullBackwardHook(model, lambda m, grad_input, grad_output: None)
    seen = []  # what a pre-hook registered after FullBackwardHook's sees
    model.register_forward_pre_hook(lambda m, args: seen.extend(node_name(a) for a in args))
    x, y = leaves(torch)
    out = model(x, y)
    expect_close(out, [15.0, 8.0], "the module's output")
    expect(node_name(out) == "IdentityBackward",
           f"the output's grad_fn is {node_name(out)}, expected IdentityBackward")
    expect(seen == ["IdentityBackward", "IdentityBackward"],
           f"the inputs reaching forward were made by {seen}, expected two "
           "IdentityBackward")


def hook_calls(torch, install, replace):
    """What a full backward hook installed by ``install`` receives, and the gradients."""
    model = product_model(torch)
    calls = []

    def hook(module, grad_input, grad_output):
        calls.append((module is model, values(grad_input), values(grad_output)))
        if replace:
            return grad_input[0] * 0, grad_input[1] * 2

    installed = install(model, hook)
    x, y = leaves(torch)
    model(x, y).sum().backward()
    installed.remove()
    model(x, y).sum().backward()  # after remove(): no more calls
    return calls, values((x.grad, y.grad, model.W.grad))


def expect_same_as_library(ex, torch, replace):
    mine = hook_calls(torch, ex.FullBackwardHook, replace)
    theirs = hook_calls(torch, lambda model, hook: model.register_full_backward_hook(hook),
                        replace)
    library = library_name(torch)
    expect_equal(mine[0], theirs[0], "the hook calls", f"your hook was called with "
                 f"{mine[0]} (is the module, grad_input, grad_output); {library}'s with "
                 f"{theirs[0]}")
    expect_equal(mine[1], theirs[1], "the gradients of x1, x2 and W", f"the gradients of "
                 f"x1, x2 and W are {mine[1]}; with {library}'s hook they are {theirs[1]}")


@CHECKS(step=4, title="the hook gets grad_input and grad_output as the library's does",
        nudge="the output's gradients arrive first; keep them, so that the user's hook gets both "
              "when the inputs' gradients arrive",
        pointer="on_grad_output and on_grad_input; Module.register_full_backward_hook's docs",
        solution="on_grad_output stores self.grad_output = grads; on_grad_input returns "
                 "self.hook(self.module, grads, self.grad_output)")
def hook_receives_what_the_library_gives(ex, torch):
    expect_same_as_library(ex, torch, replace=False)


@CHECKS(step=4, title="a grad_input the hook returns replaces the inputs' gradients",
        nudge="whatever the user's hook returns has to reach the node hook of step 2",
        pointer="on_grad_input; the node hook in wrap",
        solution="return the user's hook's result from on_grad_input: the node hook of step 2 "
                 "passes it on as the new grad_inputs")
def returned_grad_input_replaces(ex, torch):
    expect_same_as_library(ex, torch, replace=True)
