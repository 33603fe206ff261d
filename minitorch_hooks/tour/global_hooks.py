"""Chapter 10: hooks for every module, and the order of all module hooks in one step."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    torch.manual_seed(0)  # Linear draws random weights; no value is printed anyway
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    names = {module: name or "model" for name, module in model.named_modules()}

    def log(event, scope):
        def hook(module, *received):  # every module hook receives the module first
            print(f"{event:<18} {scope:<6} {names[module]} ({type(module).__name__})")
        return hook

    everywhere = torch.nn.modules.module  # where the register_module_* functions live
    handles = [
        everywhere.register_module_forward_pre_hook(log("forward pre-hook", "global")),
        everywhere.register_module_forward_hook(log("forward hook", "global")),
        everywhere.register_module_full_backward_pre_hook(
            log("backward pre-hook", "global")),
        everywhere.register_module_full_backward_hook(log("backward hook", "global")),
        model[0].register_forward_pre_hook(log("forward pre-hook", "local")),
        model[0].register_forward_hook(log("forward hook", "local")),
        model[0].register_full_backward_pre_hook(log("backward pre-hook", "local")),
        model[0].register_full_backward_hook(log("backward hook", "local")),
    ]
    try:
        x = torch.tensor([[1.0, -2.0]], requires_grad=True)
        output = model(x)
        print("-- backward --")
        output.sum().backward()
    finally:  # global hooks outlive the model: always take them out again
        for handle in handles:
            handle.remove()


CHAPTER = Chapter(
    title="Global module hooks, and the order of them all",
    intro="""
        torch.nn.modules.module has a register_module_* function for each kind of module
        hook: register_module_forward_pre_hook, register_module_forward_hook,
        register_module_full_backward_pre_hook and register_module_full_backward_hook.
        A hook registered there fires for every module in the program, each time, and
        before that module's own hooks of the same kind. Tools that trace or profile a
        whole model use them. Because they stay until removed and fire for models you
        never meant to watch, keep their handles and remove them in a finally block.

        The example hooks a Sequential of a Linear and a ReLU: global hooks on every
        module and local hooks on the Linear alone. Each hook prints one line with the
        module's name from named_modules() (the root's name is empty; we call it model).
    """,
    example=example,
    outro="""
        In forward, the hooks nest like the calls: the Sequential's pre-hook fires before
        its children run and its forward hook after they return. Backward runs the other
        way round: the pre-hooks fire as the gradient reaches each module's output, from
        the outside in (model, then ReLU, then Linear), and each module's backward hook
        fires once the gradient has crossed the module and reached its inputs, so the
        Sequential's own comes last. On the Linear, every global hook fired before the
        local one of the same kind.
    """,
)
