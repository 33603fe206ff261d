"""A long training run with hooks everywhere does not grow memory.

Every step builds a graph, sets up full backward hooks (identity nodes, closures that
hold ``grad_output``), runs tensor hooks and frees it all again. Anything a step forgets
to let go of (a hook's state, a node kept by a handle, a dictionary entry per step) adds
up over 1000 steps. tracemalloc counts what Python allocates, NumPy arrays included,
which is all minitorch_hooks allocates; PyTorch allocates in C++, where tracemalloc
cannot see, so there is nothing to compare with and this test runs on minitorch_hooks
only. (What a graph and a hook keep alive is compared with PyTorch in
``conformance/test_memory_and_copies.py``.)
"""

from __future__ import annotations

import gc
import tracemalloc

import minitorch_hooks as torch

STEPS = 1000
MAX_GROWTH = 5 * 1024 * 1024  # bytes; what the course promises (docs/explanation/guarantees.md)


def _hooked_mlp() -> tuple:
    """A small MLP with forward, backward and tensor hooks on every layer, its optimiser
    and a training step that also hooks the output tensor each time."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    activations = {}
    for name, layer in model.named_children():
        layer.register_forward_pre_hook(lambda module, args: None)
        layer.register_forward_hook(
            lambda module, args, output, name=name: activations.__setitem__(
                name, output.detach()))
        layer.register_full_backward_pre_hook(lambda module, grad_output: None)
        layer.register_full_backward_hook(lambda module, grad_input, grad_output: None)
        for parameter in layer.parameters():
            parameter.register_hook(lambda grad: grad.clamp(-1.0, 1.0))
            parameter.register_post_accumulate_grad_hook(lambda parameter: None)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    inputs = torch.randn(32, 8, requires_grad=True)
    targets = torch.randn(32, 4)

    def step() -> float:
        optimizer.zero_grad()
        inputs.grad = None
        output = model(inputs)
        output.register_hook(lambda grad: grad * 1.0)
        loss = torch.nn.functional.mse_loss(output, targets)
        loss.backward()
        optimizer.step()
        return loss.item()

    return step, activations


def test_1000_hooked_training_steps_grow_traced_memory_by_less_than_5_mb():
    step, activations = _hooked_mlp()
    first_loss = step()
    for _ in range(10):  # warm up: caches, the optimiser's state, first-use allocations
        step()
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for _ in range(STEPS):
            last_loss = step()
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert last_loss < first_loss, "the run must train, or it proves nothing"
    assert sorted(activations) == ["0", "1", "2"], "every layer's forward hook ran"
    assert after - before < MAX_GROWTH, f"grew by {(after - before) / 2**20:.2f} MiB"
