"""Forward plus backward of two convolutions on MNIST-sized images, minitorch_hooks against
PyTorch (issue 18).

Run: ``python benchmarks/bench_conv.py``. The workload is ``Conv2d(1, 16, 3, padding=1)``,
ReLU, then ``Conv2d(16, 32, 3, padding=1)`` on a batch of 64 1x28x28 images, and backward
from the sum of the output. Target: within 2.5x of PyTorch. Single-threaded on both sides.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402 - the thread limit must be set before NumPy loads
from _timing import compare, limit_blas_threads  # noqa: E402


def two_convolutions(torch):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(1, 16, 3, padding=1), torch.nn.ReLU(),
                                torch.nn.Conv2d(16, 32, 3, padding=1))
    images = torch.tensor(np.random.default_rng(0).standard_normal((64, 1, 28, 28)),
                          dtype=torch.float32)

    def step():
        model.zero_grad()
        model(images).sum().backward()
    return step


WORKLOADS = {
    "Conv2d(1, 16) + ReLU + Conv2d(16, 32), 64x1x28x28, forward + backward":
        (two_convolutions, 10),
}

if __name__ == "__main__":
    limit_blas_threads()
    compare(WORKLOADS)
