"""Chapter 7: ``Module.register_forward_pre_hook``, and the signature an article gets wrong."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    class SumNet(torch.nn.Module):  # the module of chapter 8
        def forward(self, a, b, c):
            return a + b + c

    def add_ten_to_a(module, args):
        print("add_ten_to_a receives", type(module).__name__, "and args =", args)
        a, b, c = args
        return a + 10, b, c  # a new tuple: forward receives these instead

    model = SumNet()
    model.register_forward_pre_hook(add_ten_to_a)
    a, b, c = torch.tensor(1.0), torch.tensor(2.0), torch.tensor(3.0)
    print("model(1, 2, 3) =", model(a, b, c))

    layer = torch.nn.Identity()  # forward returns its argument: we see what reached it
    x = torch.tensor([1.0, 2.0])

    def double(module, args):
        return args[0] * 2  # not a tuple: PyTorch wraps it, as (args[0] * 2,)

    with layer.register_forward_pre_hook(double):  # the hook is removed after the block
        print("with double:", layer(x))

    def three_params(module, input_args, input_kwargs):  # a third parameter, for kwargs
        print("input shape:", input_args[0].shape)

    def log_shape(module, args):  # the fix: the two parameters PyTorch passes
        print("input shape:", args[0].shape)

    with layer.register_forward_pre_hook(three_params):
        try:
            layer(x)
        except TypeError as error:  # it starts with the hook's name: keep the rest
            print("three_params: TypeError: ...", str(error).partition("() ")[2])
    with layer.register_forward_pre_hook(log_shape):
        layer(x)

    def add_noise(x):  # a fixed "noise", so that the numbers are easy to check
        return x + torch.tensor([0.5, -0.25])

    def noise_args_only(module, args, kwargs):
        return (add_noise(args[0]),)  # args only: wrong for a hook that takes kwargs

    def noise_with_kwargs(module, args, kwargs):
        print("noise_with_kwargs receives args =", args, "and kwargs =", kwargs)
        return (add_noise(args[0]),), kwargs  # (new_args, new_kwargs)

    with layer.register_forward_pre_hook(noise_args_only, with_kwargs=True):
        try:
            layer(x)
        except RuntimeError as error:
            print("RuntimeError:", error)
    with layer.register_forward_pre_hook(noise_with_kwargs, with_kwargs=True):
        print("with noise_with_kwargs:", layer(x))


CHAPTER = Chapter(
    title="Module.register_forward_pre_hook",
    intro="""
        Module hooks run around a call of the module, model(...), rather than inside
        backward. A forward pre-hook runs first, before forward: hook(module, args) gets
        the module and the tuple of positional arguments it was called with. Returning
        None lets the call go on unchanged; returning a tuple replaces the arguments, and
        a single value that is not a tuple is wrapped into one, so a hook on a
        one-argument module can simply return the new tensor.

        A popular article on forward pre-hooks gives its hooks a third parameter, for the
        keyword arguments. PyTorch passes the keyword arguments only to a hook registered
        with with_kwargs=True, and such a hook must return None or the pair
        (new_args, new_kwargs); the article's noise hook returns (x_noisy,), which is
        neither. The example runs a SumNet that adds its three inputs first, then each of
        those two mistakes next to its fix, on nn.Identity (which returns its input, so
        its output is exactly what reached forward).
    """,
    example=example,
    outro="""
        add_ten_to_a turned the call model(1, 2, 3) into forward(11, 2, 3). The
        three-parameter hook never ran its body: PyTorch called it with two arguments
        and Python refused. With with_kwargs=True the hook did receive the keyword
        arguments (none here, so an empty dict), and only the (new_args, new_kwargs)
        answer was accepted. A with block around register_forward_pre_hook, as in
        chapter 6, keeps each hook to the lines that need it.
    """,
)
