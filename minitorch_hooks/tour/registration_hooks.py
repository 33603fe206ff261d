"""Chapter 14: the global hooks that run when a module, parameter or buffer is registered."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    torch.manual_seed(0)  # Linear draws its weights at random; only shapes are printed

    def log_parameter(module, name, param):
        shape = list(param.shape)
        print(f"parameter {name} {shape} registered on a {type(module).__name__}")

    def log_buffer(module, name, buffer):
        print(f"buffer {name} registered on a {type(module).__name__}")

    def swap_relu(module, name, submodule):
        if isinstance(submodule, torch.nn.ReLU):
            print(f"module {name}: a ReLU, registered as a Tanh instead")
            return torch.nn.Tanh()  # a returned module is registered in its place
        return None

    class Normalise(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mean", torch.zeros(3))  # state, but not a parameter

        def forward(self, x):
            return x - self.mean

    registry = torch.nn.modules.module
    handles = [registry.register_module_parameter_registration_hook(log_parameter),
               registry.register_module_buffer_registration_hook(log_buffer),
               registry.register_module_module_registration_hook(swap_relu)]
    try:
        model = torch.nn.Sequential(Normalise(), torch.nn.Linear(3, 2), torch.nn.ReLU())
    finally:  # global hooks outlive the model: always take them out again
        for handle in handles:
            handle.remove()
    print(model)


CHAPTER = Chapter(
    title="Registration hooks: register_module_*_registration_hook",
    intro="""
        Some hooks fire while a model is being built rather than run. Each time a
        parameter, a buffer or a sub-module is registered on any module (by assigning it
        as an attribute, or with register_parameter, register_buffer or add_module), the
        global hooks of torch.nn.modules.module run: register_module_parameter_
        registration_hook, register_module_buffer_registration_hook and register_module_
        module_registration_hook, each called as hook(module, name, value). A hook that
        returns a value has it registered in place of the original.

        Like the global hooks of chapter 10 they apply to every module in the program, so
        the example keeps their handles and removes them in a finally block.
    """,
    example=example,
    outro="""
        The hooks fired in the order the model was built: Normalise registered its
        buffer, Linear its weight and bias, then Sequential registered its three
        children, named 0, 1 and 2. For the third, swap_relu returned a Tanh, and the
        printed model holds a Tanh where the code asked for a ReLU. A hook like that can
        instrument or patch a model you do not control the code of; used carelessly it
        makes a model differ from its source.
    """,
)
