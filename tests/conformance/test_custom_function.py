"""Custom operations, ``torch.autograd.Function`` subclasses, against real PyTorch: what
``apply`` records, what ``backward`` receives and may return, and how the engine treats
the gradients it returns."""

from __future__ import annotations

from harness import assert_same_outcome


def test_a_gradient_for_an_input_that_needs_none_is_passed_on_unchecked():
    # PyTorch's validate_outputs checks shapes and dtypes only on edges that lead somewhere:
    # the wrong-shaped float64 gradient for ``y`` reaches the node's post-hook as it is.
    def scenario(torch):
        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x * 2 + y.sum()

            @staticmethod
            def backward(ctx, grad):
                return grad * 2, torch.ones(7, dtype=torch.float64)

        x = torch.ones(3, requires_grad=True)
        out = Scale.apply(x, torch.ones(3))
        seen = []
        out.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs))
        out.sum().backward()
        return seen, x.grad

    assert_same_outcome(scenario)
