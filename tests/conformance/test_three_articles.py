"""The module-hook examples of three popular articles, as written where they are right and
as corrected where they are wrong. Printed output is captured inside the scenario and
compared as text. Each scenario runs on minitorch_hooks and on real PyTorch (see
``harness.py``)."""

from __future__ import annotations

import contextlib
import io

import pytest
from harness import assert_same_outcome


def printed(action):
    """What ``action()`` prints, as one string."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        action()
    return out.getvalue()


# -- the Russian article: register_forward_pre_hook --

def test_pre_hook_article_three_argument_pre_hook_fails_with_pytorchs_type_error():
    """The article's hook takes ``(module, input_args, input_kwargs)``; registered without
    ``with_kwargs`` it is called with two arguments and fails."""
    def scenario(torch):
        def pre_hook(module, input_args, input_kwargs):
            print(f"Input shape: {input_args[0].shape}")

        linear = torch.nn.Linear(10, 5)
        hook_handle = linear.register_forward_pre_hook(pre_hook)
        t = torch.randn(3, 10)
        try:
            linear(t)
        finally:
            hook_handle.remove()

    assert_same_outcome(scenario)


def test_pre_hook_article_corrected_pre_hook_prints_the_input_shape():
    def scenario(torch):
        def pre_hook(module, input_args):
            print(f"Input shape: {input_args[0].shape}")

        linear = torch.nn.Linear(10, 5)
        hook_handle = linear.register_forward_pre_hook(pre_hook)
        t = torch.randn(3, 10)
        text = printed(lambda: linear(t))
        hook_handle.remove()
        return text, printed(lambda: linear(t))

    assert assert_same_outcome(scenario) == ["Input shape: torch.Size([3, 10])\n", ""]


@pytest.mark.parametrize("variant", ["with_kwargs", "corrected"])
def test_pre_hook_article_noise_pre_hook(variant):
    """Registered ``with_kwargs=True`` the hook's ``(x_noisy,)`` is not an ``(args,
    kwargs)`` pair and PyTorch raises RuntimeError; taking two arguments it works and
    prints PyTorch's real numbers."""
    def scenario(torch):
        torch.manual_seed(0)

        def noise_hook(module, input_args, *input_kwargs):
            x = input_args[0]
            noise = torch.randn_like(x)
            x_noisy = x + noise
            return (x_noisy,)

        linear = torch.nn.Linear(10, 5)
        hook_handle = linear.register_forward_pre_hook(noise_hook,
                                                       with_kwargs=variant == "with_kwargs")
        t = torch.ones(2, 10)
        try:
            return printed(lambda: print(linear(t)))
        finally:
            hook_handle.remove()

    result = assert_same_outcome(scenario)
    if variant == "corrected":
        assert result == (
            "tensor([[-0.2367, -0.7691,  0.3683, -0.4701, -0.8414],\n"
            "        [-0.0921, -0.5911,  0.0093, -0.8747, -0.3269]],\n"
            "       grad_fn=<AddmmBackward0>)\n")


def test_pre_hook_article_noise_pre_hook_as_written_fails_on_the_missing_argument():
    """As written the hook takes three arguments and is registered without
    ``with_kwargs``: TypeError."""
    def scenario(torch):
        def noise_hook(module, input_args, input_kwargs):
            return (input_args[0] + torch.randn_like(input_args[0]),)

        linear = torch.nn.Linear(10, 5)
        linear.register_forward_pre_hook(noise_hook)
        linear(torch.ones(2, 10))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("arguments", [2, 3])
def test_pre_hook_article_logging_every_child_of_a_sequential(arguments):
    def scenario(torch):
        torch.manual_seed(0)
        nn = torch.nn

        def log(module, x):
            print(f"{type(module).__name__}: input norm = {x.norm().item():.4f}")

        def logging_hook_2(module, input_args):
            log(module, input_args[0])

        def logging_hook(module, input_args, input_kwargs):
            log(module, input_args[0])

        model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 5))
        handles = []
        for child in model:
            handle = child.register_forward_pre_hook(
                logging_hook if arguments == 3 else logging_hook_2)
            handles.append(handle)
        t = torch.randn(4, 10)
        try:
            return printed(lambda: model(t))
        finally:
            for handle in handles:
                handle.remove()

    assert_same_outcome(scenario)


# -- the Chinese article: pre-forward and forward hooks on SumNet --

def test_sumnet_article_prints_hooks_in_order():
    def scenario(torch):
        nn = torch.nn

        class SumNet(nn.Module):
            def __init__(self):
                super().__init__()

            def forward(self, a, b, c):
                print("forward")
                return a + b + c

        def forward_pre_hook(module, input):  # noqa: A002 - the article's names
            print("forward_pre_hook")
            a, b, c = input
            return a + 10, b, c

        def forward_hook(module, input, output):  # noqa: A002
            print("forward_hook")
            return output + 100

        model = SumNet()
        model.register_forward_pre_hook(forward_pre_hook)
        model.register_forward_hook(forward_hook)
        a = torch.tensor(1, dtype=torch.float, requires_grad=True)
        b = torch.tensor(2, dtype=torch.float, requires_grad=True)
        c = torch.tensor(3, dtype=torch.float, requires_grad=True)
        return printed(lambda: print(model(a, b, c)))

    assert assert_same_outcome(scenario) == (
        "forward_pre_hook\nforward\nforward_hook\ntensor(116., grad_fn=<AddBackward0>)\n")


# -- the Korean article: the hook examples after the Package pattern --

def test_package_article_pre_hook_collects_the_inputs():
    def scenario(torch):
        class Add(torch.nn.Module):
            def __init__(self):
                super().__init__()

            def forward(self, x1, x2):
                output = torch.add(x1, x2)
                return output

        add = Add()
        answer = []

        def pre_hook(module, input):  # noqa: A002 - the article's names
            answer.extend(input)

        add.register_forward_pre_hook(pre_hook)
        return add(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])), answer

    assert_same_outcome(scenario)


def test_package_article_forward_hook_adds_five():
    def scenario(torch):
        class Add(torch.nn.Module):
            def forward(self, x1, x2):
                return torch.add(x1, x2)

        add = Add()

        def hook(module, input, output):  # noqa: A002 - the article's names
            return output + 5

        add.register_forward_hook(hook)
        return add(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))

    assert_same_outcome(scenario)


def test_package_article_full_backward_hook_normalises_grad_input():
    """The article's hook makes the two input gradients sum to one; ``torch.tensor`` on a
    tensor gives PyTorch's copy-construct warning, once per call."""
    def scenario(torch):
        from_parameter = torch.nn.parameter

        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.W = from_parameter.Parameter(torch.Tensor([5]))

            def forward(self, x1, x2):
                output = x1 * x2
                output = output * self.W
                return output

        model = Model()

        def module_hook(module, grad_input, grad_output):
            total = grad_input[0] + grad_input[1]
            return (torch.tensor(grad_input[0] / total), torch.tensor(grad_input[1] / total))

        model.register_full_backward_hook(module_hook)
        x1 = torch.tensor([1.5], requires_grad=True)
        x2 = torch.tensor([0.5], requires_grad=True)
        out = model(x1, x2)
        out.backward()
        return out, x1.grad, x2.grad, model.W.grad, repr(out)

    result = assert_same_outcome(scenario)
    assert result[1].array.tolist() == [0.25] and result[2].array.tolist() == [0.75]


def test_package_article_tensor_backward_hooks_is_an_ordered_dict_keyed_by_handle_id():
    def scenario(torch):
        tensor = torch.rand(1, requires_grad=True)

        def tensor_hook(grad):
            pass

        handle = tensor.register_hook(tensor_hook)
        hooks = tensor._backward_hooks
        return type(hooks).__name__, list(hooks.items()) == [(handle.id, tensor_hook)]

    assert assert_same_outcome(scenario) == ["OrderedDict", True]
