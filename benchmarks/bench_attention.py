"""Forward plus backward of ``MultiheadAttention``, minitorch_hooks against PyTorch (issue 18).

Run: ``python benchmarks/bench_attention.py``. The workload is self-attention with
``MultiheadAttention(32, 4, batch_first=True)`` on a batch of 8 sequences of 16 tokens of
width 32, returning the head-averaged weights as it does by default, and backward from the
sum of the output. Target: within 2x of PyTorch. Single-threaded on both sides.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402 - the thread limit must be set before NumPy loads
from _timing import compare, limit_blas_threads  # noqa: E402


def self_attention(torch):
    torch.manual_seed(0)
    layer = torch.nn.MultiheadAttention(32, 4, batch_first=True)
    x = torch.tensor(np.random.default_rng(0).standard_normal((8, 16, 32)),
                     dtype=torch.float32, requires_grad=True)

    def step():
        layer.zero_grad()
        x.grad = None
        out, _ = layer(x, x, x)
        out.sum().backward()
    return step


WORKLOADS = {
    "MultiheadAttention(32, 4), 8x16x32, forward + backward": (self_attention, 200),
}

if __name__ == "__main__":
    limit_blas_threads()
    compare(WORKLOADS)
