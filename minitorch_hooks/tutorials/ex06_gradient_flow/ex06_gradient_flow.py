# %% [markdown]
# # Exercise 6: per-layer gradient flow with full backward hooks
#
# `module.register_full_backward_hook(hook)` makes backward call
# `hook(module, grad_input, grad_output)` once the gradients with respect to the module's
# inputs are known. Both are tuples: `grad_output` has one entry per output, `grad_input`
# one per positional input (`None` for an input that needs no gradient). The hooks fire
# in backward order, from the last layer to the first.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 6`.

# %%
from __future__ import annotations

from collections.abc import Callable

import minitorch_hooks as torch
from minitorch_hooks.tutorials.support import plot_lines

# %% [markdown]
# ## Step 1: `GradientFlow._record(name)`
#
# Return a full backward hook that appends `(name, norm of grad_output[0], norm of
# grad_input[0])` to `self.records`, with `None` for the input norm when `grad_input[0]`
# is `None`, and norms as Python floats. It returns `None`: it only watches.
#
# ## Step 2: `GradientFlow.__init__`
#
# Register `self._record(name)` as a full backward hook on every sub-module that is an
# instance of `layer_type`, and keep the handles.
#
# ## Step 3: `GradientFlow.vanishing(ratio)`
#
# From the records of the last backward pass (the last `len(self.handles)` records),
# return the names of the layers whose `grad_output` norm is below `ratio` times the
# largest one, in forward order (first layer first).
#
# ## Step 4: `GradientFlow.remove()`
#
# Remove the hooks.

# %%
class GradientFlow:
    """Records how large the gradients are at each layer of a model during backward."""

    def __init__(self, model: torch.nn.Module, layer_type: type = torch.nn.Linear) -> None:
        self.records: list[tuple[str, float, float | None]] = []  # in firing order
        self.handles: list = []
        # --- step 2: register self._record(name) on every layer_type sub-module ---
        raise NotImplementedError(
            "Exercise 6, step 2: register self._record(name) on every layer_type sub-module")
        # --- end of step 2 ---

    def _record(self, name: str) -> Callable[..., None]:
        def record(module: torch.nn.Module, grad_input: tuple, grad_output: tuple) -> None:
            # --- step 1: append (name, |grad_output[0]|, |grad_input[0]| or None) ---
            raise NotImplementedError(
                "Exercise 6, step 1: append (name, |grad_output[0]|, |grad_input[0]| or None)")
            # --- end of step 1 ---

        return record

    def vanishing(self, ratio: float = 0.01) -> list[str]:
        # --- step 3: layers of the last pass with a grad_output norm below ratio * max ---
        raise NotImplementedError(
            "Exercise 6, step 3: layers of the last pass with a grad_output norm below ratio * max")
        # --- end of step 3 ---

    def remove(self) -> None:
        # --- step 4: remove the hooks ---
        raise NotImplementedError(
            "Exercise 6, step 4: remove the hooks")
        # --- end of step 4 ---


# %% [markdown]
# ## Try it
#
# Deep stacks of ten `Linear` layers. With sigmoids between them the gradients shrink
# by a large factor at every layer on the way back (the sigmoid's slope is at most 1/4),
# so the first layers hardly learn. With ReLUs and PyTorch's default initialisation
# they shrink too, more slowly; with the initialisation designed for ReLUs
# (`kaiming_normal_`, "He" initialisation) they keep their size.

# %%
def deep_stack(activation: type, he_init: bool = False, depth: int = 10,
               width: int = 16) -> torch.nn.Sequential:
    layers: list[torch.nn.Module] = []
    for _ in range(depth):
        linear = torch.nn.Linear(width, width)
        if he_init:
            torch.nn.init.kaiming_normal_(linear.weight, nonlinearity="relu")
        layers += [linear, activation()]
    return torch.nn.Sequential(*layers[:-1])


# %%
if __name__ == "__main__":
    norms = {}
    for label, activation, he_init in (("sigmoid", torch.nn.Sigmoid, False),
                                       ("ReLU", torch.nn.ReLU, False),
                                       ("ReLU, He init", torch.nn.ReLU, True)):
        torch.manual_seed(0)
        model = deep_stack(activation, he_init)
        flow = GradientFlow(model)
        model(torch.randn(32, 16)).pow(2).mean().backward()
        forward_order = flow.records[::-1]
        norms[label] = [norm for _, norm, _ in forward_order]
        print(f"{label}: |grad_output| from the first layer to the last")
        print("   " + " ".join(f"{norm:.1e}" for norm in norms[label]))
        print("   vanishing (below 1% of the largest):", flow.vanishing(0.01))
        flow.remove()
    print("the first layer's grad_input:", forward_order[0][2], "(its input needs no "
          "gradient, so the hook fired at the layer's output, with a warning)")
    plot_lines(norms, title="gradient norm at each layer's output", xlabel="layer",
               ylabel="|grad_output|", filename="ex06_gradient_flow.png", log_y=True)
