"""Random tensors, minitorch_hooks' generator against PyTorch's CPU generator.

Run: ``python benchmarks/bench_random.py``. Target: float32 ``randn(1_000_000)`` within 3x of
PyTorch (single-threaded; PyTorch draws random numbers serially anyway). Both sides produce the
same bits, and in NumPy that has a price whose floor is already above 3x:

* The Mersenne Twister's draws (NumPy's ``MT19937``) take about as long as PyTorch's whole
  ``randn``, which spends nearly all its time drawing too (its ``rand`` costs as much).
* The AVX2 kernel has 16 fused multiply-adds per pair of normals, each rounding once to float32.
  NumPy has no fma, and computing any one of them unfused in float32 changes some of the 2**24
  possible outputs (each was tried). So each is a float64 multiply and add and a round trip
  through float32, four passes over the data; together they cost about as much as two and a
  half PyTorch ``randn``.

The other passes (the polynomials' float32 steps, the octant logic, the uniforms) add as much
again. Float64 ``randn`` calls the C library's ``log``, ``cos`` and ``sin`` from Python, element
by element (NumPy's vectorised ones differ in the last bit); ``randperm`` is PyTorch's
sequential shuffle, one Python swap per element.
"""

from __future__ import annotations

from _timing import compare

SIZE = 1_000_000


def randn(torch):
    return lambda: torch.randn(SIZE)


def randn_float64(torch):
    return lambda: torch.randn(SIZE, dtype=torch.float64)


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
        f"randn({SIZE:_}) float64": (randn_float64, 1),
        f"rand({SIZE:_}) float32": (rand, 5),
        f"uniform_(-0.05, 0.05) on {SIZE:_} float32": (uniform_, 5),
        "randperm(60_000)": (randperm, 5),
    })
