"""How fast is the core next to PyTorch? Per-op overhead on tiny tensors, and how backward
scales with graph size.

Tiny tensors make the arithmetic free, so what is measured is the bookkeeping every op and
every backward step pays: wrapping the result, recording a node, saving tensors, walking
the graph. Both libraries run the same workloads in one process, PyTorch on one thread.

    python benchmarks/bench_core.py [--repeat 7]

(a) ``chain``: forward and backward through a chain of 1000 ops alternating ``*``, ``+``
    and ``tanh`` on a (4,)-shaped tensor, reported per op.
(b) ``backward``: backward alone through chains of 1000 and 10 000 ops; the ratio of the
    two times shows whether backward is linear in the graph size (10x is ideal).

A third column times ``floor.py``, the least a Python autograd on NumPy can do: how far
below PyTorch any pure-Python design could get on these workloads.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # run from a checkout
import floor  # noqa: E402  (beside this script)

import minitorch_hooks  # noqa: E402

SMALL, LARGE = 1_000, 10_000


def chain(torch: Any, length: int) -> tuple[Any, Any]:
    """A leaf and the sum at the end of ``length`` ops: ``* w``, ``+ b``, ``tanh``, ..."""
    x = torch.tensor([0.5, -1.0, 1.5, 2.0], requires_grad=True)
    w = torch.tensor([0.9, 1.1, 0.8, 1.2])
    b = torch.tensor([0.1, -0.1, 0.2, -0.2])
    y = x
    for i in range(length - 1):  # the final sum is the last op
        step = i % 3
        y = y * w if step == 0 else y + b if step == 1 else y.tanh()
    return x, y.sum()


def measure(workload: Callable[[Any, int], float], libraries: dict[str, Any], length: int,
            repeat: int) -> dict[str, tuple[float, float]]:
    """Best and median seconds of ``workload(library, length)`` for each library. The
    libraries take turns, so that a noisy moment on the machine hits both alike."""
    times: dict[str, list[float]] = {name: [] for name in libraries}
    for _ in range(repeat):
        for name, library in libraries.items():
            times[name].append(workload(library, length))
    return {name: (min(t), statistics.median(t)) for name, t in times.items()}


def forward_and_backward(torch: Any, length: int) -> float:
    start = time.perf_counter()
    _, out = chain(torch, length)
    out.backward()
    return time.perf_counter() - start


def backward_only(torch: Any, length: int) -> float:
    _, out = chain(torch, length)
    start = time.perf_counter()
    out.backward()
    return time.perf_counter() - start


def check_same_gradients(libraries: dict[str, Any]) -> None:
    """A timing means something only if every library computes the same thing (on a short
    chain: after a thousand ops the gradient has shrunk to nothing)."""
    expected = None
    for name, library in libraries.items():
        x, out = chain(library, 30)
        out.backward()
        grad = np.asarray(x.grad.tolist() if hasattr(x.grad, "tolist") else x.grad)
        if expected is not None and not np.allclose(grad, expected, rtol=1e-4, atol=0):
            raise SystemExit(f"{name} computes a different gradient: {grad} != {expected}")
        expected = grad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per measurement")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    libraries = {"minitorch_hooks": minitorch_hooks, "torch": torch, "floor": floor}
    for library in libraries.values():  # warm up caches, allocators, lazy imports
        forward_and_backward(library, SMALL)
    check_same_gradients(libraries)

    per_op = measure(forward_and_backward, libraries, SMALL, args.repeat)
    rows = [("(a) chain fwd+bwd, per op",
             {name: [t / SMALL for t in times] for name, times in per_op.items()})]
    scaling = {}
    for length in (SMALL, LARGE):
        scaling[length] = measure(backward_only, libraries, length, args.repeat)
        rows.append((f"(b) backward, {length} ops", scaling[length]))

    print(f"{'median (best) in µs':<28}{'minitorch_hooks':>20}{'torch':>20}{'floor':>20}"
          f"{'mini/torch':>12}{'floor/torch':>12}")
    for name, times in rows:
        cells = "".join(f"{times[lib][1] * 1e6:>11.1f} ({times[lib][0] * 1e6:>6.1f})"
                        for lib in libraries)
        mini, torch_, floor_ = (times[lib][1] for lib in libraries)
        print(f"{name:<28}{cells}{mini / torch_:>11.2f}x{floor_ / torch_:>11.2f}x")
    print()
    for name in libraries:
        ratio = scaling[LARGE][name][1] / scaling[SMALL][name][1]
        print(f"backward {LARGE} ops / {SMALL} ops, {name}: {ratio:.1f}x (linear is 10x)")


if __name__ == "__main__":
    main()
