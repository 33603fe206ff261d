"""Does backward with hooks stay linear in the size of the graph? Two large graphs, each
timed at full size and at a tenth of it, on minitorch_hooks and on PyTorch in one run.

    python benchmarks/bench_scale.py [--repeat 5]

(a) ``chain``: backward through a chain of 100 000 ops (``* w``, ``/ w`` in turn, so the
    values stay finite) on a (4,)-shaped tensor, with a tensor hook on every tenth
    intermediate result; against 10 000 ops.
(b) ``leaves``: backward over 10 000 leaves, each with a tensor hook and a
    post-accumulate-grad hook, all multiplied and stacked into one sum; against 1 000.

Only backward is timed: the graph and its hooks are built once, and each timed run is
``backward(retain_graph=True)`` on it (the leaves' ``.grad`` accumulate, which costs the
same every run). For each graph the script prints both libraries' times, their ratio,
and the growth factor from the tenth to the full size: 10x is linear. As for every
benchmark, the ratios mean something only within one run on one machine; no test asserts
them (CONTRIBUTING.md, "Benchmarks").
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # run from a checkout
from _timing import best_time, load_torch  # noqa: E402

import minitorch_hooks  # noqa: E402

CHAIN_OPS = 100_000
LEAVES = 10_000
HOOK_EVERY = 10  # ops between two hooked intermediates in the chain


def hooked_chain(torch: Any, ops: int) -> Callable[[], None]:
    """The backward of a chain of ``ops`` operations with a tensor hook every
    ``HOOK_EVERY`` of them."""
    x = torch.tensor([0.5, -1.0, 1.5, 2.0], requires_grad=True)
    w = torch.tensor([0.5, 2.0, 0.8, 1.25])
    y = x
    for i in range(ops - 1):  # the final sum is the last op
        y = y * w if i % 2 == 0 else y / w
        if i % HOOK_EVERY == 0:
            y.register_hook(lambda grad: None)
    loss = y.sum()
    return lambda: loss.backward(retain_graph=True)


def hooked_leaves(torch: Any, count: int) -> Callable[[], None]:
    """The backward over ``count`` leaves, each with a tensor hook and a
    post-accumulate-grad hook: ``stack([leaf * 2 for leaf in leaves]).sum()``."""
    leaves = [torch.full((4,), float(i % 7), requires_grad=True) for i in range(count)]
    for leaf in leaves:
        leaf.register_hook(lambda grad: None)
        leaf.register_post_accumulate_grad_hook(lambda leaf: None)
    loss = torch.stack([leaf * 2 for leaf in leaves]).sum()
    return lambda: loss.backward(retain_graph=True)


WORKLOADS = {
    f"(a) chain of ops, hook every {HOOK_EVERY}": (hooked_chain, CHAIN_OPS),
    "(b) leaves, two hooks each": (hooked_leaves, LEAVES),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per measurement")
    args = parser.parse_args()

    torch = load_torch()
    libraries = {"minitorch_hooks": minitorch_hooks}
    if torch is not None:
        libraries["torch"] = torch

    print(f"{'backward of':<36}{'size':>9}" + "".join(f"{name:>17}" for name in libraries)
          + ("   mini/torch" if torch is not None else ""))
    growth: dict[str, dict[str, float]] = {}
    for title, (build, full_size) in WORKLOADS.items():
        seconds = {}
        for size in (full_size // 10, full_size):
            seconds[size] = {name: best_time(build(library, size), number=1,
                                             repeat=args.repeat)
                             for name, library in libraries.items()}
            row = "".join(f"{seconds[size][name] * 1e3:>15.1f}ms" for name in libraries)
            ratio = (f"{seconds[size]['minitorch_hooks'] / seconds[size]['torch']:>12.2f}x"
                     if torch is not None else "")
            print(f"{title:<36}{size:>9}{row}{ratio}")
        growth[title] = {name: seconds[full_size][name] / seconds[full_size // 10][name]
                         for name in libraries}
    print()
    for title, by_library in growth.items():
        factors = ", ".join(f"{name} {factor:.1f}x" for name, factor in by_library.items())
        print(f"growth from a tenth to the full size, {title}: {factors} (linear is 10x)")


if __name__ == "__main__":
    main()
