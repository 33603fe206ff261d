"""Timing shared by the benchmarks: the same workload on both libraries, in one process.

Each workload is a function of a torch-like namespace that returns a zero-argument
callable to time. We take the best of several repeats (the least disturbed run) and
report microseconds per call and the ratio minitorch_hooks / PyTorch.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any


def best_time(run: Callable[[], Any], number: int, repeat: int = 5) -> float:
    """Seconds per call of ``run``: the best of ``repeat`` rounds of ``number`` calls."""
    run()  # warm up caches and lazy imports
    return min(timeit.repeat(run, number=number, repeat=repeat)) / number


def limit_blas_threads() -> None:
    """NumPy's BLAS on one thread, as PyTorch is (``load_torch``), when threadpoolctl is
    installed; otherwise set ``OPENBLAS_NUM_THREADS=1`` before NumPy loads."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(1)


def load_torch() -> Any:
    """Real PyTorch on one thread, or None with a note on how to install it."""
    try:
        import torch
    except ImportError:
        from minitorch_hooks.cli.pytorch import MISSING

        print(f"{MISSING}\nOnly minitorch_hooks is timed.")
        return None
    torch.set_num_threads(1)
    return torch


def compare(workloads: dict[str, tuple[Callable[[Any], Callable[[], Any]], int]]) -> dict:
    """Time each workload on both libraries; print a table and return the ratios."""
    import minitorch_hooks

    torch = load_torch()
    print(f"{'workload':<44} {'mini µs':>10} {'torch µs':>10} {'ratio':>7}")
    ratios = {}
    for name, (make, number) in workloads.items():
        mini = best_time(make(minitorch_hooks), number) * 1e6
        if torch is None:
            print(f"{name:<44} {mini:>10.1f}")
            continue
        theirs = best_time(make(torch), number) * 1e6
        ratios[name] = mini / theirs
        print(f"{name:<44} {mini:>10.1f} {theirs:>10.1f} {mini / theirs:>7.2f}")
    return ratios
