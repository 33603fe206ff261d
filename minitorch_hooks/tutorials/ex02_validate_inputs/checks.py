"""Checks for exercise 2: a forward pre-hook that validates and normalises inputs."""

from __future__ import annotations

from ..checking import Checks, expect, expect_close, expect_raises

CHECKS = Checks()


def recorder(torch):
    """A module whose forward returns what it received, so a check can see it."""
    class Recorder(torch.nn.Module):
        def forward(self, *args, **kwargs):
            return args, kwargs

    return Recorder()


@CHECKS(step=1, title="a good input passes through unchanged",
        nudge="a validator only watches: what should a forward pre-hook return to leave the "
              "arguments as they are?",
        pointer="check_features in your file; the Module.register_forward_pre_hook docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html)",
        solution="the hook returns None when the input is fine: it only watches")
def good_input_passes(ex, torch):
    hook = ex.check_features(3)
    x = torch.ones(2, 3)
    expect(hook(torch.nn.Identity(), (x,)) is None,
           "the validator returned something for a good input: it should return None")
    layer = torch.nn.Identity()
    layer.register_forward_pre_hook(hook)
    expect(layer(x) is x, "a module with the validator did not get the input unchanged")


@CHECKS(step=1, title="a wrong width raises ValueError naming the module and the shape",
        nudge="compare the last dimension of the first argument with n_features; the message must "
              "name the module's class and the shape",
        pointer="check_features in your file; the exercise's text, step 1, for the message's "
                "wording",
        solution="compare x.shape[-1] with n_features and raise ValueError(f'{type(module)"
                 ".__name__} expected inputs with ... got shape {tuple(x.shape)}')")
def wrong_width_is_refused(ex, torch):
    layer = torch.nn.Linear(4, 2)
    layer.register_forward_pre_hook(ex.check_features(4))
    message = str(expect_raises(ValueError, lambda: layer(torch.ones(2, 3)),
                                "an input of shape (2, 3) reached Linear(4, 2): the "
                                "validator should raise ValueError"))
    for part in ("Linear", "4", "(2, 3)"):
        expect(part in message, f"the message {message!r} does not mention {part!r}")


@CHECKS(step=2, title="the first argument is standardised, the others are kept",
        nudge="a pre-hook's result replaces all of the arguments, so it must hold every argument, "
              "not only the first",
        pointer="standardise in your file; the Module.register_forward_pre_hook docs: what a "
                "returned tuple replaces",
        solution="return ((args[0] - mean) / std, *args[1:]): a tuple of all the arguments")
def first_argument_is_standardised(ex, torch):
    module = recorder(torch)
    mean, std = torch.tensor([1.0, 10.0]), torch.tensor([2.0, 5.0])
    module.register_forward_pre_hook(ex.standardise(mean, std))
    x = torch.tensor([[3.0, 0.0], [1.0, 20.0]])
    args, _ = module(x, "label", 7)
    expect(len(args) == 3, f"forward received {len(args)} argument{'' if len(args) == 1 else 's'}, "
           "expected 3: the pre-hook's result replaces all of them")
    expect_close(args[0], [[1.0, -2.0], [0.0, 2.0]], "the standardised input")
    expect(args[1:] == ("label", 7), f"the other arguments became {args[1:]!r}")
    expect_close(x, [[3.0, 0.0], [1.0, 20.0]], "the caller's tensor after the call")


@CHECKS(step=3, title="missing keyword arguments are filled in, given ones are kept",
        nudge="with with_kwargs=True the hook receives args and kwargs and must give both back; "
              "and a keyword the caller gave wins over a default",
        pointer="fill_defaults in your file; register_forward_pre_hook's with_kwargs in the Module"
                " docs (docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html)",
        solution="return the pair (args, {**defaults, **kwargs}), not the kwargs alone")
def keyword_defaults_are_filled(ex, torch):
    module = recorder(torch)
    module.register_forward_pre_hook(ex.fill_defaults(scale=2.0, shift=1.0),
                                     with_kwargs=True)
    args, kwargs = module(5, shift=-1.0)
    expect(args == (5,), f"the positional arguments became {args!r}, expected (5,)")
    expect(kwargs == {"scale": 2.0, "shift": -1.0},
           f"forward received the keyword arguments {kwargs!r}, expected "
           "{'scale': 2.0, 'shift': -1.0}: the caller's shift wins over the default")


@CHECKS(step=4, title="guard registers the validator, then the standardiser",
        nudge="pre-hooks run in the order they were registered: validate before you standardise, "
              "and keep both handles",
        pointer="guard in your file; the exercise's text, step 4",
        solution="register check_features(n_features) first, standardise(mean, std) second, "
                 "and return [first_handle, second_handle]")
def guard_registers_both_in_order(ex, torch):
    module = recorder(torch)
    handles = ex.guard(module, 2, torch.tensor([1.0, 1.0]), torch.tensor([2.0, 2.0]))
    expect(len(handles) == 2 and len(module._forward_pre_hooks) == 2,
           f"guard returned {handles!r} and the module has "
           f"{len(module._forward_pre_hooks)} forward pre-hooks; expected 2 of each")
    (x,), _ = module(torch.tensor([[3.0, 5.0]]))
    expect_close(x, [[1.0, 2.0]], "what forward received")
    error = expect_raises(ValueError, lambda: module(torch.ones(1, 3)),
                          "a guarded module accepted an input with 3 features, not 2")
    expect("2 features" in str(error), f"a wrong width gave {error!r}, not the "
           "validator's message: the validator must run first, on the raw input")
    for handle in handles:
        handle.remove()
    expect(len(module._forward_pre_hooks) == 0, "removing the handles left hooks behind")
