# %% [markdown]
# # Exercise 12: measure and shrink what autograd saves
#
# Backward needs values from the forward pass: `a * b` keeps `a` and `b`, `tanh` keeps
# its output. These saved tensors stay alive as long as the graph does, and they are
# most of the memory that training needs beyond the parameters. Under
# `torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)`, each tensor an
# operation saves goes through `pack_hook(tensor)`, the graph keeps what that returns,
# and backward gets a tensor back from `unpack_hook(packed)`.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 12`.

# %%
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import minitorch_hooks as torch

# %% [markdown]
# ## Step 1: `SavedTensorLog.pack_hook(tensor)`
#
# Append a `Saved` record to `self.entries`: the layer running now (`self.where`, set by
# the forward pre-hooks the log registers; `None` outside any layer), the tensor's shape
# as a tuple, its dtype, and its size in bytes (`numel()` times `element_size()`).
# Then return what the graph should keep: `tensor.detach()`, a new tensor object that
# shares the memory and points back to no graph. Not `tensor` itself.
#
# ## Step 2: `bytes_by_layer()` and `measure(...)`
#
# `bytes_by_layer()` adds up the bytes of the entries per layer, in a dict whose keys
# come in the order the layers first saved something. `measure(model, loss_fn, inputs,
# target)` makes a log for the model's children (`model.named_children()`) and
# `"loss"` for `loss_fn`, runs the forward pass and the loss under the log's hooks, then
# backward, removes the log's pre-hooks, and returns the log.

# %%
@dataclass(frozen=True)
class Saved:
    """One tensor an operation saved for backward, as the pack hook saw it."""

    where: str | None  # the layer that was running, or None outside any layer
    shape: tuple[int, ...]
    dtype: Any  # torch.float32, torch.int64, ...
    nbytes: int


class SavedTensorLog:
    """Records each tensor saved for backward while its hooks are in force.

    A forward pre-hook on each of ``layers`` (name -> module) sets ``where`` as the layer
    starts, so that a record says which layer saved it.
    """

    def __init__(self, layers: dict[str, torch.nn.Module] | None = None) -> None:
        self.entries: list[Saved] = []
        self.where: str | None = None
        self.handles = [layer.register_forward_pre_hook(self._enter(name))
                        for name, layer in (layers or {}).items()]

    def _enter(self, name: str) -> Callable[..., None]:
        def hook(module: torch.nn.Module, args: tuple) -> None:
            self.where = name

        return hook

    def hooks(self) -> torch.autograd.graph.saved_tensors_hooks:
        """The context manager to run a forward pass in: ``with log.hooks(): ...``."""
        return torch.autograd.graph.saved_tensors_hooks(self.pack_hook, self.unpack_hook)

    def pack_hook(self, tensor: torch.Tensor) -> torch.Tensor:
        # --- step 1: record what is saved, and keep a detached tensor ---
        raise NotImplementedError(
            "Exercise 12, step 1: record what is saved, and keep a detached tensor")
        # --- end of step 1 ---

    def unpack_hook(self, packed: torch.Tensor) -> torch.Tensor:
        return packed

    def bytes_by_layer(self) -> dict[str | None, int]:
        # --- step 2: add up the bytes per layer, in the order the layers saved ---
        raise NotImplementedError(
            "Exercise 12, step 2: add up the bytes per layer, in the order the layers saved")
        # --- end of step 2 ---

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def measure(model: torch.nn.Module, loss_fn: torch.nn.Module, inputs: torch.Tensor,
            target: torch.Tensor) -> SavedTensorLog:
    # --- step 2: forward and loss under the log's hooks, then backward ---
    raise NotImplementedError(
        "Exercise 12, step 2: forward and loss under the log's hooks, then backward")
    # --- end of step 2 ---


# %% [markdown]
# ## Step 3: keep saved tensors at half precision
#
# `pack_half(tensor)` keeps a floating-point tensor as a `float16` copy, which takes half
# the bytes of a `float32` one, and any other tensor (the class numbers of a target) as
# `tensor.detach()`. Keep the original dtype beside it: `unpack_half(packed)` must give
# back a tensor of that dtype, because backward's formulas expect what was saved. Make
# a new tensor; never change `tensor` in place.
#
# ## Step 4: `on_layer_gradients(layers, fn)`
#
# `torch.autograd.graph.register_multi_grad_hook(tensors, fn)` calls `fn(grads)` once
# per backward, when the gradients of all of `tensors` are ready. For each layer in
# `layers` (name -> module) that has parameters requiring a gradient, register one that
# calls `fn(name, grads)`. Return the handles. A layer without such parameters (a ReLU,
# or a frozen layer) gets no hook: the function refuses an empty list, and a tensor that
# requires no gradient.

# %%
def pack_half(tensor: torch.Tensor) -> tuple[Any, torch.Tensor]:
    # --- step 3: a float16 copy of a floating tensor, with its dtype ---
    raise NotImplementedError(
        "Exercise 12, step 3: a float16 copy of a floating tensor, with its dtype")
    # --- end of step 3 ---


def unpack_half(packed: tuple[Any, torch.Tensor]) -> torch.Tensor:
    # --- step 3: the tensor back, in its original dtype ---
    raise NotImplementedError(
        "Exercise 12, step 3: the tensor back, in its original dtype")
    # --- end of step 3 ---


def on_layer_gradients(layers: dict[str, torch.nn.Module],
                       fn: Callable[[str, list], None]) -> list:
    # --- step 4: one multi-grad hook per layer with trainable parameters ---
    raise NotImplementedError(
        "Exercise 12, step 4: one multi-grad hook per layer with trainable parameters")
    # --- end of step 4 ---


# %% [markdown]
# ## Try it
#
# A three-layer network on a batch of 128: what each layer keeps for backward, next to
# what its parameters take. Then the same pass with half-precision saved tensors, and
# the order in which backward unpacks the saved tensors and finishes each layer's
# gradients.

# %%
if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(),
                                torch.nn.Linear(256, 256), torch.nn.ReLU(),
                                torch.nn.Linear(256, 10))
    loss_fn = torch.nn.CrossEntropyLoss()
    inputs = torch.randn(128, 64)
    target = torch.randint(0, 10, (128,))

    log = measure(model, loss_fn, inputs, target)
    print("bytes kept for backward, per layer:")
    for name, nbytes in log.bytes_by_layer().items():
        print(f"  {name:>4}  {nbytes:>7}")
    # A tensor that two operations save is counted twice: each ReLU's output is saved by
    # the ReLU and by the Linear after it, but it is one tensor in memory.
    param_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    print(f"  total {sum(e.nbytes for e in log.entries)}; the parameters take {param_bytes}")

    exact = {name: p.grad.clone() for name, p in model.named_parameters()}
    model.zero_grad()
    with torch.autograd.graph.saved_tensors_hooks(pack_half, unpack_half):
        loss = loss_fn(model(inputs), target)
    loss.backward()
    for name, param in model.named_parameters():
        change = (param.grad - exact[name]).abs().max().item()
        print(f"{name:<9} half precision moved its gradient by up to {change:.1e} "
              f"(largest {exact[name].abs().max().item():.1e})")

    events = []
    handles = on_layer_gradients(dict(model.named_children()),
                                 lambda name, grads: events.append(f"layer {name} ready"))

    def noting_unpack(packed: torch.Tensor) -> torch.Tensor:
        events.append(f"  unpack {list(packed.shape)}")
        return packed

    with torch.autograd.graph.saved_tensors_hooks(lambda tensor: tensor.detach(),
                                                  noting_unpack):
        loss = loss_fn(model(inputs), target)
    loss.backward()
    print("\n".join(events))
    for handle in handles:
        handle.remove()
