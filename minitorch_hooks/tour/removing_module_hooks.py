"""Chapter 11: removing module hooks, looking at where they are kept, and forgetting to."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    torch.manual_seed(0)  # Linear draws its weights at random; only shapes are printed
    nn = torch.nn
    model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 5))
    x = torch.ones(4, 10)

    def logging_hook(module, args):  # with the two parameters PyTorch passes
        print(f"  {type(module).__name__}: input shape {args[0].shape}")

    calls = []

    def count(module, args, output):
        calls.append(module)

    def on_grads(module, grad_input, grad_output):
        pass  # does nothing: it is here to be seen in _backward_hooks

    def show_hooks(layer):
        for kind in ("_forward_pre_hooks", "_forward_hooks", "_backward_hooks"):
            hooks = getattr(layer, kind)
            names = [hook.__name__ for hook in hooks.values()]
            print(f"  {kind}: {type(hooks).__name__} of {names}")

    handles = [child.register_forward_pre_hook(logging_hook) for child in model]
    handles.append(model[0].register_forward_hook(count))
    handles.append(model[0].register_full_backward_hook(on_grads))
    print("model[0] keeps its hooks in dictionaries:")
    show_hooks(model[0])
    print("keyed by the handle's id:", handles[0].id in model[0]._forward_pre_hooks)
    print("model(x) with the hooks:")
    model(x)

    for handle in handles:
        handle.remove()
    print("after remove():")
    show_hooks(model[0])
    print("model(x) without them prints nothing")
    model(x)

    def one_epoch(epoch):
        calls.clear()
        model(x)
        hooks = len(model[2]._forward_hooks)
        print(f"epoch {epoch}: {hooks} forward hook(s) on model[2], "
              f"count ran {len(calls)} time(s)")

    for epoch in range(1, 4):  # a training loop that registers a hook, and forgets it
        model[2].register_forward_hook(count)
        one_epoch(epoch)
    model[2]._forward_hooks.clear()  # no handles were kept: the only way out (private)

    for epoch in range(1, 4):  # the fix: the with block removes the hook each time
        with model[2].register_forward_hook(count):
            one_epoch(epoch)


CHAPTER = Chapter(
    title="Removing and inspecting module hooks",
    intro="""
        Every module hook is registered the same way as a tensor hook: the register_*
        method returns a RemovableHandle, and handle.remove() (or the end of a with
        block) takes the hook out. A module keeps its hooks in ordered dictionaries,
        one per kind, named as in PyTorch: _forward_pre_hooks, _forward_hooks,
        _backward_pre_hooks and _backward_hooks, each keyed by the handle's id and
        holding the hook functions in the order they will run. They are private, but
        reading them is the quickest way to see what is attached to a layer.

        To log the input of every child of a Sequential, register one
        pre-hook per child, and keeps the handles to remove them afterwards; here it is
        with the two-parameter hook PyTorch calls. Forgetting the handles is the common
        mistake: registering the same function again adds a second entry, not nothing.
    """,
    example=example,
    outro="""
        The pre-hooks logged each child in turn, then left without a trace: remove()
        also clears the flags (with_kwargs, always_call) kept beside a hook under the
        same id. In the first loop the hook piled up, one more each epoch, so every
        forward called it once per registration; without the handles, only clearing the
        private dictionary undoes that. The with block keeps exactly one.
    """,
)
