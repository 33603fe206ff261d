"""Module-call and training-step overhead, minitorch_hooks against PyTorch (issue 3).

Run: ``python benchmarks/bench_module.py``. Targets: hook dispatch within 1.5x of
PyTorch, one SGD step of a 784-128-10 MLP within 1.2x. Single-threaded on both sides
(NumPy's BLAS is limited to one thread when threadpoolctl is installed, or via
OPENBLAS_NUM_THREADS=1).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402 - the thread limit must be set before NumPy loads
from _timing import compare, limit_blas_threads  # noqa: E402


def module_call(hooks: int):
    def make(torch):
        module = torch.nn.Identity()
        for _ in range(hooks):
            module.register_forward_hook(lambda m, args, out: None)
        x = torch.ones(4)
        return lambda: module(x)
    return make


def linear_forward(torch):
    layer = torch.nn.Linear(8, 8)
    x = torch.ones(4, 8)
    return lambda: layer(x)


def mlp_step(with_hooks: bool):
    def make(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(784, 128), torch.nn.ReLU(),
                                    torch.nn.Linear(128, 10))
        if with_hooks:
            for layer in model:
                layer.register_forward_hook(lambda m, args, out: None)
                layer.register_full_backward_hook(lambda m, grad_in, grad_out: None)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        rng = np.random.default_rng(0)
        x = torch.tensor(rng.standard_normal((64, 784)), dtype=torch.float32)
        y = torch.tensor(rng.integers(0, 10, 64))

        def step():
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        return step
    return make


WORKLOADS = {
    "module call, no hooks": (module_call(0), 20000),
    "module call, 8 no-op forward hooks": (module_call(8), 5000),
    "Linear(8, 8) forward on a 4x8 input": (linear_forward, 5000),
    "MLP 784-128-10 SGD step, batch 64": (mlp_step(False), 100),
    "... with forward + full backward hooks": (mlp_step(True), 100),
}

if __name__ == "__main__":
    limit_blas_threads()
    compare(WORKLOADS)
