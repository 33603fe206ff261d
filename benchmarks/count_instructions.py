"""Instructions per call of a workload, counted by callgrind rather than timed.

On a shared machine a timing moves with the load; an instruction count does not. Each
workload runs ``n`` times, then ``2 n`` times, each in its own process under
``valgrind --tool=callgrind``; the difference of the two totals, divided by ``n``, is what
one call costs, without the start-up (Python, NumPy and the package loading) that both
processes pay alike. Both run with the same ``PYTHONHASHSEED``, so that their start-ups
are the same instructions, and with NumPy's BLAS on one thread (idle BLAS threads spin a
varying number of instructions).

    python benchmarks/count_instructions.py [--calls 400] [workload ...]

Needs valgrind. ``python benchmarks/count_instructions.py --run WORKLOAD N`` is what runs
under it: ``N`` calls of the workload, nothing else.
"""

from __future__ import annotations

import argparse
import gc
import os
import pathlib
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # run from a checkout


def module_call(forward_hooks: int = 0, pre_hooks: int = 0, **flags: bool
                ) -> Callable[[Any], Callable[[], Any]]:
    """Calling an ``nn.Identity`` with hooks that return None (``flags``: with_kwargs,
    always_call, for the forward hooks)."""
    def make(torch: Any) -> Callable[[], Any]:
        module, x = torch.nn.Identity(), torch.ones(4)
        for _ in range(forward_hooks):
            module.register_forward_hook(lambda *args: None, **flags)
        for _ in range(pre_hooks):
            module.register_forward_pre_hook(lambda *args: None)
        return lambda: module(x)
    return make


def full_backward_hook(torch: Any) -> Callable[[], Any]:
    """A ``Linear(4, 4)`` with one full backward hook and one forward hook: call it, then
    backward through it."""
    layer, x = torch.nn.Linear(4, 4), torch.ones(2, 4, requires_grad=True)
    layer.register_full_backward_hook(lambda *args: None)
    layer.register_forward_hook(lambda *args: None)
    return lambda: layer(x).sum().backward()


def affine(torch: Any) -> Callable[[], Any]:
    """``x @ w + b`` on 4x8 and 8x8, forward only, as in ``bench_peers.py``."""
    x = torch.ones(4, 8)
    w = torch.ones(8, 8, requires_grad=True)
    b = torch.ones(8, requires_grad=True)
    return lambda: x @ w + b


def mlp_step(torch: Any) -> Callable[[], Any]:
    """One SGD step of a 784-128-10 ReLU network on a batch of 64, as in ``bench_peers.py``."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(784, 128), torch.nn.ReLU(),
                                torch.nn.Linear(128, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 784), torch.randint(0, 10, (64,))

    def step() -> None:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    return step


WORKLOADS: dict[str, Callable[[Any], Callable[[], Any]]] = {
    "module call, no hooks": module_call(),
    "module call, 1 forward hook": module_call(1),
    "module call, 8 forward hooks": module_call(8),
    "module call, 8 forward pre-hooks": module_call(pre_hooks=8),
    "module call, 8 forward hooks with_kwargs, always_call":
        module_call(8, with_kwargs=True, always_call=True),
    "Linear call and backward, full backward hook": full_backward_hook,
    "x @ w + b": affine,
    "MLP step": mlp_step,
}


def run(workload: str, calls: int) -> None:
    """``calls`` calls of ``workload`` (one call first, outside the count's difference, so
    that lazy imports and first-use caches are paid in both processes). The objects made
    so far are frozen out of the garbage collector's reach: otherwise a full collection,
    millions of instructions over everything the imports made, falls in one of the two
    runs and not the other."""
    import minitorch_hooks

    once = WORKLOADS[workload](minitorch_hooks)
    once()
    gc.collect()
    gc.freeze()
    for _ in range(calls):
        once()


def instructions(workload: str, calls: int) -> int:
    """The total instructions of a process making ``calls`` calls, from callgrind."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--run", workload, str(calls)],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"})
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    parser.add_argument("--calls", type=int, default=400, help="n: the calls of the first run")
    parser.add_argument("--run", nargs=2, metavar=("WORKLOAD", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run(args.run[0], int(args.run[1]))
        return
    for workload in args.workloads:
        calls = args.calls if workload != "MLP step" else max(1, args.calls // 40)
        per_call = (instructions(workload, 2 * calls) - instructions(workload, calls)) / calls
        print(f"{workload:<56} {per_call:>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
