"""Random tensors, minitorch_hooks' generator against PyTorch's CPU generator.

Run: ``python benchmarks/bench_random.py``. Target: float32 ``randn(1_000_000)`` within 3x of
PyTorch (single-threaded; PyTorch draws random numbers serially anyway). Both sides produce the
same bits, so this is the price of emulating the AVX2 kernel's fused multiply-adds and Cephes
polynomials with NumPy passes: each of the 16 fused steps per pair of normals costs four
passes over the data, and those alone take about as long as three PyTorch ``randn`` calls.
"""

from __future__ import annotations

from _timing import compare

SIZE = 1_000_000


def randn(torch):
    return lambda: torch.randn(SIZE)


def rand(torch):
    return lambda: torch.rand(SIZE)


def uniform_(torch):
    weight = torch.empty(SIZE)
    return lambda: weight.uniform_(-0.05, 0.05)


def randperm(torch):
    return lambda: torch.randperm(60_000)


if __name__ == "__main__":
    compare({
        f"randn({SIZE:_}) float32": (randn, 5),
        f"rand({SIZE:_}) float32": (rand, 5),
        f"uniform_(-0.05, 0.05) on {SIZE:_} float32": (uniform_, 5),
        "randperm(60_000)": (randperm, 5),
    })
