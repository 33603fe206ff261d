"""``torch.inference_mode()``: no graph inside, and tensors that can never join one later.

It matters for hooks because a tensor computed under it can never be hooked afterwards:
``requires_grad_()``, an in-place change or saving it for backward fail outside the block.
"""

from __future__ import annotations

import pytest
from harness import assert_same_outcome


def _error(action):
    try:
        action()
    except RuntimeError as error:
        return str(error)
    return "no error"


def test_inside_no_graph_is_recorded_and_module_forward_hooks_still_fire():
    def scenario(torch):
        torch.manual_seed(0)
        layer = torch.nn.Linear(2, 2)
        fired = []
        layer.register_forward_hook(lambda module, args, output: fired.append("forward"))
        layer.register_full_backward_hook(lambda module, gi, go: fired.append("backward"))
        with torch.inference_mode():
            modes = (torch.is_inference_mode_enabled(), torch.is_grad_enabled())
            output = layer(torch.ones(1, 2))
        after = (torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        return (modes, after, fired, output.requires_grad, output.grad_fn is None,
                output.is_inference(), layer.weight.is_inference(), output)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("action", ["requires_grad_", "add_", "mul_", "fill_", "zero_",
                                    "setitem", "save for backward", "clone, then hook"])
def test_an_inference_tensor_outside_the_block(action):
    """Each is refused with PyTorch's error. (PyTorch's ``fill_``, ``zero_`` and item
    assignment have written the values when they raise; here nothing is written, and the
    values are not compared.)"""
    def scenario(torch):
        with torch.inference_mode():
            made = torch.ones(2, 3) * 2
        weight = torch.ones(3, requires_grad=True)
        actions = {
            "requires_grad_": lambda: made.requires_grad_(),
            "add_": lambda: made.add_(1),
            "mul_": lambda: made.mul_(weight),
            "fill_": lambda: made.fill_(0.5),
            "zero_": lambda: made.zero_(),
            "setitem": lambda: made.__setitem__(0, 1.0),
            "save for backward": lambda: (made * weight).sum().backward(),
            "clone, then hook": lambda: made.clone().requires_grad_().register_hook(print),
        }
        return _error(actions[action])

    assert_same_outcome(scenario)


def test_inside_the_block_in_place_changes_are_allowed_and_the_modes_nest():
    def scenario(torch):
        with torch.inference_mode():
            made = torch.zeros(2)
            made.add_(1)
            with torch.no_grad():
                nested = torch.is_inference_mode_enabled()
            with torch.inference_mode(False):
                normal = torch.ones(1)
                inner = (torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        return made, nested, normal.is_inference(), inner

    assert_same_outcome(scenario)


def test_as_a_decorator_with_and_without_parentheses():
    def scenario(torch):
        @torch.inference_mode
        def bare(x):
            return x * 2

        @torch.inference_mode()
        def called(x):
            return x * 3

        @torch.inference_mode(False)
        def off(x):
            return x * 4

        x = torch.ones(1, requires_grad=True)
        return [(r.is_inference(), r.requires_grad) for r in (bare(x), called(x), off(x))]

    assert_same_outcome(scenario)


def test_a_failure_inside_the_block_restores_the_modes():
    def scenario(torch):
        try:
            with torch.inference_mode():
                raise ValueError("inside")
        except ValueError:
            pass
        return torch.is_inference_mode_enabled(), torch.is_grad_enabled()

    assert_same_outcome(scenario)
