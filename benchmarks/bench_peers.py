"""minitorch_hooks next to PyTorch and the NumPy autograd libraries, in one process.

    pip install -e ".[conformance]" --extra-index-url https://download.pytorch.org/whl/cpu
    pip install -e ".[peers]"
    python benchmarks/bench_peers.py [--repeat 9] [--write benchmarks/results/peers.json]

The workloads, each timed on every installed library (peers that are not installed are
left out, and a workload a library cannot express is marked "—"):

- ``chain``: forward and backward through 1000 ops on a scalar, alternating ``* 0.9``,
  ``+ 0.1`` and ``relu`` (micrograd has no ``tanh``), the operands Python numbers; per op.
- ``mlp``: one SGD step of a 784-128-10 ReLU network on a batch of 64 (cross-entropy loss).
- ``small_mlp``: the same step for a 16-32-4 network on a batch of 8, where the
  bookkeeping outweighs the arithmetic; PyTorch and minitorch_hooks build it of
  ``nn.Linear`` and ``nn.ReLU`` modules, the others of their operations.
- ``affine``: ``x @ w + b`` forward, with ``x`` 4x8, ``w`` 8x8 and ``b`` 8 requiring grad.
- ``module call``: calling an ``nn.Identity`` (only the libraries with modules); and
  ``hooked module call``: the same with one forward hook that returns None, the path
  every module hook takes (``Module.__call__`` with its hook steps).
- ``backward_growth``: whether backward is linear in the graph: the time of a backward
  through the chain at 10 000 ops, against ten times the time at 1000 ops (1.0 is
  linear). Each library's figure is divided by PyTorch's, as the times of the other
  rows are. HIPS autograd has no backward apart from its forward (``grad(f)``).

Before timing, each workload runs once on every library from the same numbers, and the
results (the chain's value and gradient, the MLP's loss and updated weights, the affine
output) must agree with PyTorch's: a timing means something only if the same thing is
computed. The libraries then take turns, run by run, so that a noisy moment on a shared
machine hits them all alike, and the table gives each median as a ratio to PyTorch's.

Why minitorch_hooks can be this close to PyTorch on tiny tensors: PyTorch's per-op cost on
such tensors is dispatch and bookkeeping, not arithmetic, and so is ours; we keep ours
small by building each node in one step per number of inputs, taking Python numbers
without abstract-class checks, and saving tensors without intermediate lists.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import os
import pathlib
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402 - the thread limit must be set before NumPy loads

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # run from a checkout

from minitorch_hooks.cli.pytorch import MISSING  # noqa: E402

CHAIN = 1000
LONG_CHAIN = 10 * CHAIN
RNG = np.random.default_rng(0)


def mlp_data(sizes: tuple[int, int, int], batch: int) -> dict[str, np.ndarray]:
    """Weights, biases, inputs and labels of an ``inputs-hidden-classes`` network."""
    inputs, hidden, classes = sizes
    return {"w1": (RNG.standard_normal((inputs, hidden)) * 0.05).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (RNG.standard_normal((hidden, classes)) * 0.05).astype(np.float32),
            "b2": np.zeros(classes, np.float32),
            "x": RNG.standard_normal((batch, inputs)).astype(np.float32),
            "y": RNG.integers(0, classes, batch)}


MLP_DATA = mlp_data((784, 128, 10), 64)
SMALL_MLP_DATA = mlp_data((16, 32, 4), 8)
AFFINE_DATA = {"x": RNG.standard_normal((4, 8)).astype(np.float32),
               "w": RNG.standard_normal((8, 8)).astype(np.float32),
               "b": RNG.standard_normal(8).astype(np.float32)}
LR = 0.01


# -- one adapter per library: each workload as a function returning what it computed --------

class TorchLike:
    """PyTorch and minitorch_hooks, which share one API."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch

    def chain_graph(self, length: int = CHAIN) -> tuple[Any, Any]:
        x = self.torch.tensor(0.5, requires_grad=True)
        y = x
        for i in range(length):
            step = i % 3
            y = y * 0.9 if step == 0 else y + 0.1 if step == 1 else y.relu()
        return x, y

    def chain(self) -> tuple[float, float]:
        x, y = self.chain_graph()
        y.backward()
        return y.item(), x.grad.item()

    def backward_seconds(self, length: int) -> float:
        _, y = self.chain_graph(length)
        start = time.perf_counter()
        y.backward()
        return time.perf_counter() - start

    def mlp(self) -> Callable[[], tuple]:
        torch = self.torch
        params = {k: torch.tensor(MLP_DATA[k], requires_grad=True)
                  for k in ("w1", "b1", "w2", "b2")}
        x, y = torch.tensor(MLP_DATA["x"]), torch.tensor(MLP_DATA["y"])
        optimizer = torch.optim.SGD(list(params.values()), lr=LR)

        def step() -> tuple:
            optimizer.zero_grad()
            hidden = torch.relu(x @ params["w1"] + params["b1"])
            loss = torch.nn.functional.cross_entropy(hidden @ params["w2"] + params["b2"], y)
            loss.backward()
            optimizer.step()
            return loss.item(), params["w2"].detach().numpy().copy()
        return step

    def small_mlp(self) -> Callable[[], tuple]:
        torch, nn = self.torch, self.torch.nn
        model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
        for layer, w, b in ((model[0], "w1", "b1"), (model[2], "w2", "b2")):
            layer.weight = nn.Parameter(torch.tensor(SMALL_MLP_DATA[w].T.copy()))
            layer.bias = nn.Parameter(torch.tensor(SMALL_MLP_DATA[b]))
        x, y = torch.tensor(SMALL_MLP_DATA["x"]), torch.tensor(SMALL_MLP_DATA["y"])
        optimizer = torch.optim.SGD(model.parameters(), lr=LR)

        def step() -> tuple:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            return loss.item(), model[2].weight.detach().numpy().T.copy()
        return step

    def affine(self) -> Callable[[], np.ndarray]:
        torch = self.torch
        x = torch.tensor(AFFINE_DATA["x"])
        w = torch.tensor(AFFINE_DATA["w"], requires_grad=True)
        b = torch.tensor(AFFINE_DATA["b"], requires_grad=True)
        return lambda: x @ w + b

    def module_call(self) -> Callable[[], Any]:
        module, x = self.torch.nn.Identity(), self.torch.ones(4)
        return lambda: module(x)

    def hooked_module_call(self) -> Callable[[], Any]:
        module, x = self.torch.nn.Identity(), self.torch.ones(4)
        module.register_forward_hook(lambda module, args, output: None)
        return lambda: module(x)

    @staticmethod
    def array(value: Any) -> np.ndarray:
        return value.detach().numpy()


class MyGrad:
    def __init__(self, mygrad: Any) -> None:
        self.mg = mygrad

    def chain_graph(self, length: int = CHAIN) -> tuple[Any, Any]:
        from mygrad.nnet.activations import relu

        x = self.mg.tensor(0.5)
        y = x
        for i in range(length):
            step = i % 3
            y = y * 0.9 if step == 0 else y + 0.1 if step == 1 else relu(y)
        return x, y

    def chain(self) -> tuple[float, float]:
        x, y = self.chain_graph()
        y.backward()
        return float(y.item()), float(x.grad)

    backward_seconds = TorchLike.backward_seconds

    def mlp(self, data: dict[str, np.ndarray] = MLP_DATA) -> Callable[[], tuple]:
        mg = self.mg
        from mygrad.nnet.activations import relu
        from mygrad.nnet.losses import softmax_crossentropy

        params = {k: mg.tensor(data[k].copy()) for k in ("w1", "b1", "w2", "b2")}
        x, y = data["x"], data["y"]

        def step() -> tuple:
            hidden = relu(mg.matmul(x, params["w1"]) + params["b1"])
            loss = softmax_crossentropy(mg.matmul(hidden, params["w2"]) + params["b2"], y)
            loss.backward()
            for p in params.values():
                p.data -= LR * p.grad
            return float(loss.item()), params["w2"].data.copy()
        return step

    def small_mlp(self) -> Callable[[], tuple]:
        return self.mlp(SMALL_MLP_DATA)

    def affine(self) -> Callable[[], Any]:
        mg = self.mg
        x = AFFINE_DATA["x"]
        w, b = mg.tensor(AFFINE_DATA["w"]), mg.tensor(AFFINE_DATA["b"])
        return lambda: mg.matmul(x, w) + b

    @staticmethod
    def array(value: Any) -> np.ndarray:
        return np.asarray(value.data)


class HipsAutograd:
    """HIPS autograd differentiates functions: ``grad(f)(x)`` traces f and runs backward.
    Its forward alone records nothing, so ``affine`` is plain NumPy there."""

    def __init__(self, autograd: Any) -> None:
        self.ag = autograd

    def chain(self) -> tuple[float, float]:
        anp = importlib.import_module("autograd.numpy")

        def f(x: float) -> Any:
            y = x
            for i in range(CHAIN):
                step = i % 3
                y = y * 0.9 if step == 0 else y + 0.1 if step == 1 else anp.maximum(y, 0.0)
            return y

        value_and_grad = self.ag.value_and_grad(f)
        value, grad = value_and_grad(np.float32(0.5))
        return float(value), float(grad)

    def mlp(self, data: dict[str, np.ndarray] = MLP_DATA) -> Callable[[], tuple]:
        anp = importlib.import_module("autograd.numpy")
        params = {k: data[k].copy() for k in ("w1", "b1", "w2", "b2")}
        x, y = data["x"], data["y"]

        def loss(p: dict) -> Any:
            hidden = anp.maximum(anp.dot(x, p["w1"]) + p["b1"], 0)
            logits = anp.dot(hidden, p["w2"]) + p["b2"]
            shifted = logits - anp.max(logits, axis=1, keepdims=True)
            log_probs = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
            return -anp.mean(log_probs[np.arange(len(y)), y])

        value_and_grad = self.ag.value_and_grad(loss)

        def step() -> tuple:
            value, grads = value_and_grad(params)
            for k in params:
                params[k] = params[k] - LR * grads[k]
            return float(value), params["w2"].copy()
        return step

    def small_mlp(self) -> Callable[[], tuple]:
        return self.mlp(SMALL_MLP_DATA)

    def affine(self) -> Callable[[], Any]:
        anp = importlib.import_module("autograd.numpy")
        x, w, b = AFFINE_DATA["x"], AFFINE_DATA["w"], AFFINE_DATA["b"]
        return lambda: anp.dot(x, w) + b

    @staticmethod
    def array(value: Any) -> np.ndarray:
        return np.asarray(value)


class Micrograd:
    """micrograd works on scalars only: of these workloads it runs the chain. Its backward
    sorts the graph recursively, one Python frame per node, hence the higher limit."""

    def __init__(self, micrograd: Any) -> None:
        self.Value = importlib.import_module("micrograd.engine").Value
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * LONG_CHAIN))

    def chain_graph(self, length: int = CHAIN) -> tuple[Any, Any]:
        x = self.Value(0.5)
        y = x
        for i in range(length):
            step = i % 3
            y = y * 0.9 if step == 0 else y + 0.1 if step == 1 else y.relu()
        return x, y

    def chain(self) -> tuple[float, float]:
        x, y = self.chain_graph()
        y.backward()
        return float(y.data), float(x.grad)

    backward_seconds = TorchLike.backward_seconds


# library -> (module to import, pip distribution, adapter)
LIBRARIES = {
    "torch": ("torch", "torch", TorchLike),
    "minitorch_hooks": ("minitorch_hooks", "minitorch-hooks", TorchLike),
    "mygrad": ("mygrad", "mygrad", MyGrad),
    "HIPS autograd": ("autograd", "autograd", HipsAutograd),
    "micrograd": ("micrograd", "micrograd", Micrograd),
}
WORKLOADS = {
    "1000-op chain, Python-number operands, per op": "chain",
    "MLP 784-128-10, batch 64, one SGD step": "mlp",
    "small MLP 16-32-4, batch 8, one SGD step": "small_mlp",
    "4x8 @ 8x8 plus bias, forward": "affine",
    "module call (nn.Identity)": "module_call",
    "module call with one forward hook (nn.Identity)": "hooked_module_call",
    "backward through 10k ops against 10x 1k ops": "backward_growth",
}


def installed() -> dict[str, Any]:
    """An adapter for each library that imports here, PyTorch first."""
    adapters = {}
    for name, (module, _, adapter) in LIBRARIES.items():
        try:
            library = importlib.import_module(module)
        except ImportError:
            continue
        if name == "torch":
            library.set_num_threads(1)
        adapters[name] = adapter(library)
    if "torch" not in adapters:
        raise SystemExit(f"bench_peers compares with PyTorch; {MISSING}")
    return adapters


def version(name: str) -> str:
    return importlib.metadata.version(LIBRARIES[name][1])


def timed(adapter: Any, workload: str) -> Callable[[], Any] | None:
    """A zero-argument callable running one iteration of ``workload``, None if the library
    cannot express it."""
    if not hasattr(adapter, workload):
        return None
    if workload == "chain":
        return adapter.chain
    return getattr(adapter, workload)()


def backward_growth(adapters: dict[str, Any], repeat: int) -> dict[str, float]:
    """Each library's median backward time through ``LONG_CHAIN`` ops, divided by ten
    times its median through ``CHAIN`` ops (1.0: linear), the libraries taking turns."""
    runs = {name: adapter for name, adapter in adapters.items()
            if hasattr(adapter, "backward_seconds")}
    times: dict[str, dict[int, list[float]]] = {name: {CHAIN: [], LONG_CHAIN: []}
                                                 for name in runs}
    for _ in range(repeat):
        for name, adapter in runs.items():
            for length in (CHAIN, LONG_CHAIN):
                times[name][length].append(adapter.backward_seconds(length))
    return {name: statistics.median(t[LONG_CHAIN]) / (10 * statistics.median(t[CHAIN]))
            for name, t in times.items()}


def check_same_results(adapters: dict[str, Any]) -> None:
    """Every library must compute PyTorch's numbers before any is timed."""
    for workload in ("chain", "mlp", "small_mlp", "affine"):
        results = {}
        for name, adapter in adapters.items():
            run = timed(adapter, workload)
            if run is not None:
                result = run()
                if workload == "affine":
                    result = adapter.array(result)
                results[name] = result
        expected = results.pop("torch")
        for name, result in results.items():
            flat = np.concatenate([np.ravel(np.asarray(r, dtype=np.float64)) for r in
                                   (result if isinstance(result, tuple) else (result,))])
            want = np.concatenate([np.ravel(np.asarray(r, dtype=np.float64)) for r in
                                   (expected if isinstance(expected, tuple) else (expected,))])
            if not np.allclose(flat, want, rtol=1e-4, atol=1e-5):
                raise SystemExit(f"{name} computes a different {workload} from PyTorch")


def measure(adapters: dict[str, Any], workload: str, repeat: int) -> dict[str, float]:
    """Median seconds per run of ``workload`` on each library, the libraries taking turns."""
    runs = {name: timed(adapter, workload) for name, adapter in adapters.items()}
    runs = {name: run for name, run in runs.items() if run is not None}
    number = {"chain": 1, "mlp": 5, "small_mlp": 200, "affine": 2000,
              "module_call": 5000, "hooked_module_call": 2000}[workload]
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            start = time.perf_counter()
            for _ in range(number):
                run()
            times[name].append((time.perf_counter() - start) / number)
    per = CHAIN if workload == "chain" else 1
    return {name: statistics.median(t) / per for name, t in times.items()}


def table(results: dict) -> str:
    """The Markdown table of ratios to PyTorch, as the Performance page shows it."""
    names = [name for name in results["libraries"] if name != "torch"]
    lines = ["| workload | torch (µs) | " + " | ".join(names) + " |",
             "| --- | ---: | " + " | ".join("---:" for _ in names) + " |"]
    for row in results["workloads"]:
        cells = [f"{row['ratios'][n]:.2f}" if row["ratios"].get(n) is not None else "—"
                 for n in names]
        torch_us = "—" if row["torch_us"] is None else f"{row['torch_us']:.1f}"
        lines.append(f"| {row['name']} | {torch_us} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9, help="runs per measurement")
    parser.add_argument("--write", type=pathlib.Path, help="save the results as JSON here")
    args = parser.parse_args()

    adapters = installed()
    check_same_results(adapters)
    rows = []
    for title, workload in WORKLOADS.items():
        if workload == "backward_growth":
            medians = backward_growth(adapters, args.repeat)
        else:
            medians = measure(adapters, workload, args.repeat)
        torch_time = medians["torch"]
        row = {"name": title, "torch_us": torch_time * 1e6,
               "ratios": {name: (medians[name] / torch_time if name in medians else None)
                          for name in adapters}}
        if workload == "backward_growth":  # a growth factor, not a time
            row["torch_us"] = None
            row["growth"] = medians
        rows.append(row)
    results = {"libraries": {name: version(name) for name in adapters},
               "python": sys.version.split()[0], "numpy": np.__version__,
               "repeat": args.repeat, "workloads": rows}
    print(table(results))
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
