"""Differential fuzzing of the backward engine: random small graphs, hooks everywhere, and
the whole hook-firing sequence must be PyTorch's.

``test_hook_fuzz.py`` drives modules; this file drives the engine itself, where the order
is the lesson. Hypothesis draws a program: a few leaves (up to twelve, so that many of them
become ready together and tie in the ready queue), then a few operations over earlier
tensors (the same tensor may be used twice, and several ops may share an input), among
them ops with several outputs (``split``, ``chunk``, ``unbind``, a custom ``Function``
that passes None on), so that some outputs get no gradient. Then hooks on any tensor or
node: tensor hooks, ``retain_grad``, node pre- and post-hooks (on a leaf, its
AccumulateGrad's), post-accumulate-grad hooks; each records what it received, then
returns None, returns a replacement or raises. Last, ``backward``, ``backward`` from
several roots, ``backward(inputs=...)`` or ``autograd.grad``. Both libraries run the same
program; the result or error, the warnings, the hooks that fired (in order, with what they
received) and every ``.grad`` must agree.

CI runs a fixed set of examples (``PROFILES`` of ``test_hook_fuzz.py``, derandomized, here
1000 of them: a small graph is quick to run); ``MTH_FUZZ=long`` draws thousands of fresh
ones. A failure prints the program, as lines of code, which is the scenario to add to
``test_engine_order.py``.

``python -m tests.conformance.record`` keeps the first ``REPLAYED`` programs with PyTorch's
answers; ``test_recorded_graphs_replay`` runs them again, on minitorch_hooks (and, when it
is installed, on PyTorch, which must still answer the same). So without PyTorch the fuzzer
replays its recorded programs; with it, it also draws its own.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any

import recording
from harness import TensorValue, assert_close, normalise, outcome, real_torch
from hypothesis import given, note, settings
from hypothesis import strategies as st
from test_engine_order import two_outputs_passing_none
from test_hook_fuzz import PROFILES, HookError, doubled

import minitorch_hooks

# Each op: (number of inputs, or None for "two to eight"; how many outputs; the code).
# Every tensor has shape (2,), and every op is exact on the quarter values drawn.
OPS: dict[str, tuple[int | None, int, Any]] = {
    "{0} + {1}": (2, 1, lambda torch, a, b: a + b),
    "{0} * {1}": (2, 1, lambda torch, a, b: a * b),
    "{0} * 2": (1, 1, lambda torch, a: a * 2),
    "torch.stack([...]).sum(0)": (None, 1, lambda torch, *ts: torch.stack(ts).sum(0)),
    "sum([...])": (None, 1, lambda torch, *ts: sum(ts)),
    "torch.stack([{0}, {1}]).max(0).values": (2, 1, lambda torch, a, b:
                                               torch.stack([a, b]).max(0).values),
    "torch.cat([{0}, {1}]).split(2)": (2, 2, lambda torch, a, b: torch.cat([a, b]).split(2)),
    "torch.cat([{0}, {1}, {0}]).chunk(3)": (2, 3, lambda torch, a, b:
                                            torch.cat([a, b, a]).chunk(3)),
    "torch.stack([{0}, {1}]).unbind(0)": (2, 2, lambda torch, a, b:
                                          torch.stack([a, b]).unbind(0)),
    "TwoOutputs.apply({0}, {1})": (2, 2, lambda torch, a, b:
                                   two_outputs_passing_none(torch).apply(a, b)),
}
TIES = "torch.stack([...]).sum(0)"  # the op under which many leaves tie
HOOK_KINDS = ("tensor hook", "retain_grad", "node pre-hook", "node hook",
              "post-accumulate-grad hook")
BEHAVIOURS = ("return None", "return None", "replace", "raise")
RUNS = ("backward", "backward from several roots", "backward(inputs=...)", "autograd.grad")
WEIGHTS = ([1.0, -3.0], [0.5, 2.0], [-1.0, 0.25])


@dataclass
class Program:
    """What both libraries run; ``code()`` shows it as lines of code, for a failing example."""

    leaves: list[list[float]]
    ops: list[tuple[str, tuple[int, ...]]]
    hooks: list[tuple[str, int, str]]
    run: str
    roots: list[int]
    inputs: list[int] = field(default_factory=list)

    def code(self) -> str:
        lines = [f"t{i} = torch.tensor({v}, requires_grad=True)"
                 for i, v in enumerate(self.leaves)]
        count = len(self.leaves)
        for name, args in self.ops:
            outputs = OPS[name][1]
            code = name.replace("...", ", ".join(f"t{a}" for a in args)).format(
                *(f"t{a}" for a in args))
            lines.append(", ".join(f"t{count + k}" for k in range(outputs)) + " = " + code)
            count += outputs
        lines += [f"{kind} #{n} on t{t}: {behaviour}"
                  for n, (kind, t, behaviour) in enumerate(self.hooks)]
        lines.append(f"{self.run}: roots {self.roots}, inputs {self.inputs}")
        return "\n".join(lines)


_VALUES = st.integers(-8, 8).map(lambda n: n / 4)


@st.composite
def programs(draw: Any) -> Program:
    size = draw(st.integers(1, 12))  # (a list's size would mostly be small)
    leaves = draw(st.lists(st.lists(_VALUES, min_size=2, max_size=2), min_size=size,
                           max_size=size))
    count, ops = len(leaves), []
    for _ in range(draw(st.integers(1, 6))):
        name = draw(st.sampled_from([*sorted(OPS), *[TIES] * 4]))  # ties often
        arity, outputs, _ = OPS[name]
        size = arity or draw(st.integers(2, 8))
        # Only leaves half the time: many leaves under one op become ready together, and
        # tie in the ready queue.
        args = tuple(draw(st.one_of(*(st.lists(st.integers(0, last), min_size=size,
                                               max_size=size)
                                      for last in (len(leaves) - 1, count - 1)))))
        ops.append((name, args))
        count += outputs
    tensors = st.one_of(st.integers(0, len(leaves) - 1), st.integers(0, count - 1))
    hooks = draw(st.lists(st.tuples(st.sampled_from(HOOK_KINDS), tensors,
                                    st.sampled_from(BEHAVIOURS)), max_size=24))
    run = draw(st.sampled_from(RUNS))
    roots = draw(st.lists(st.integers(len(leaves), count - 1), min_size=1,
                          max_size=3 if run != "backward" else 1))
    inputs = draw(st.lists(tensors, min_size=1, max_size=4)) if "inputs" in run or \
        run == "autograd.grad" else []
    return Program(leaves, ops, hooks, run, roots, inputs)


class Run:
    """One library's run of a program, and the trace its hooks left."""

    def __init__(self, torch: Any, program: Program) -> None:
        self.torch, self.program, self.trace = torch, program, []
        self.tensors = [torch.tensor(v, requires_grad=True) for v in program.leaves]
        for name, args in program.ops:
            result = OPS[name][2](torch, *(self.tensors[a] for a in args))
            self.tensors += list(result) if isinstance(result, (tuple, list)) else [result]

    def describe(self, value: Any) -> Any:
        """Tensors by value, ``requires_grad`` and ``grad_fn`` name; the program's leaves
        by number with their gradient; containers walked."""
        if isinstance(value, self.torch.Tensor):
            leaf = next((i for i, t in enumerate(self.tensors) if t is value), None)
            if leaf is not None and leaf < len(self.program.leaves):
                return ("leaf", leaf, self.describe(value.grad))
            grad_fn = None if value.grad_fn is None else value.grad_fn.name()
            return ("tensor", TensorValue(value), value.requires_grad, grad_fn)
        if isinstance(value, (tuple, list)):
            return type(value)(self.describe(v) for v in value)
        return value

    def hook(self, label: str, behaviour: str, replace: Any) -> Any:
        def hook(*args: Any) -> Any:
            self.trace.append((label, self.describe(args)))
            if behaviour == "raise":
                raise HookError(f"{label} raised")
            return replace(*args) if behaviour == "replace" else None
        return hook

    def node_of(self, tensor: Any) -> Any:
        """A tensor's grad_fn, or a leaf's AccumulateGrad (made now if no graph uses it)."""
        return tensor.grad_fn or (tensor * 1).grad_fn.next_functions[0][0]

    def register(self, number: int, kind: str, index: int, behaviour: str) -> None:
        tensor, label = self.tensors[index], f"{kind} #{number} on t{index}"
        if kind == "retain_grad":
            tensor.retain_grad()
        elif kind == "tensor hook":
            tensor.register_hook(self.hook(label, behaviour, doubled))
        elif kind == "node pre-hook":
            self.node_of(tensor).register_prehook(self.hook(label, behaviour, doubled))
        elif kind == "node hook":
            self.node_of(tensor).register_hook(self.hook(
                label, behaviour, lambda grad_inputs, grad_outputs: doubled(grad_inputs)))
        else:  # a non-leaf refuses it; a "replace" one returns what it must not
            tensor.register_post_accumulate_grad_hook(self.hook(
                label, behaviour, lambda leaf: leaf.grad * 2))

    def run(self) -> Any:
        program, torch = self.program, self.torch
        for number, (kind, index, behaviour) in enumerate(program.hooks):
            self.register(number, kind, index, behaviour)
        roots = [self.tensors[i] for i in program.roots]
        weights = [torch.tensor(WEIGHTS[i % len(WEIGHTS)]) for i in range(len(roots))]
        inputs = [self.tensors[i] for i in program.inputs]
        if program.run == "backward":
            return (roots[0] * weights[0]).sum().backward()
        if program.run == "autograd.grad":
            return torch.autograd.grad(roots, inputs, weights, allow_unused=True)
        return torch.autograd.backward(roots, weights, inputs=inputs or None)

    def observe(self) -> dict[str, Any]:
        result, warned = outcome(lambda torch: self.describe(self.run()), self.torch)
        grads = [self.describe(t.grad) if t.is_leaf or t.retains_grad else "not kept"
                 for t in self.tensors]
        return {"result": result, "hooks fired": self.trace, "warnings": warned, "grads": grads}


def run_on_both(program: Program, record: bool = False) -> None:
    """Run ``program`` on both libraries and assert that they behaved the same (and, with
    ``record``, keep it in the recording while fewer than ``REPLAYED`` are kept)."""
    note(program.code())
    theirs = normalise(Run(real_torch(), program).observe())
    last_run[:] = [{"program": dataclasses.asdict(program), "torch": theirs}]
    if record and recording.RECORDING and len(recorded_so_far) < REPLAYED:
        recorded_so_far.append(program)
        recording.add_to_corpus({"program": dataclasses.asdict(program), "torch": theirs})
    mine = Run(minitorch_hooks, program).observe()
    assert_close(mine, theirs, rtol=1e-5, atol=1e-6, path="program")


PROFILE = PROFILES[os.environ.get("MTH_FUZZ", "ci")]
REPLAYED = 300  # programs kept in the recording, for the recorded mode
recorded_so_far: list[Program] = []
last_run: list[dict[str, Any]] = []  # the last program run and PyTorch's answer


@given(program=programs())
@settings(PROFILE, max_examples=max(PROFILE.max_examples, 1000))  # a graph is quick to run
def test_random_graphs_fire_every_hook_in_pytorchs_order(program: Program) -> None:
    """Random graphs with ties, shared inputs and multi-output ops, hooks of every kind on
    tensors and nodes, run by backward or autograd.grad: the same hooks fire in the same
    order with the same arguments, and the results, errors and gradients agree. New
    programs each hypothesis release: only a live PyTorch answers them (recorded ones
    replay below)."""
    run_on_both(program, record=True)


def test_recorded_graphs_replay() -> None:
    """The recorded programs, run again: minitorch_hooks answers as PyTorch did, and so
    does PyTorch itself when it is installed (else its recording is stale)."""
    replay_recorded(on_pytorch_too=recording.live())


def replay_recorded(on_pytorch_too: bool = False, test: str = (
        "tests/conformance/test_hook_order_fuzz.py::"
        "test_random_graphs_fire_every_hook_in_pytorchs_order")) -> None:
    """Every program recorded by ``test``, run again on minitorch_hooks (and PyTorch)."""
    for number, example in enumerate(recording.corpus(test)):
        program = Program(**example["program"])
        if on_pytorch_too:
            assert_close(normalise(Run(real_torch(), program).observe()), example["torch"],
                         rtol=1e-5, atol=1e-6, path=f"PyTorch now, recorded program {number}")
        mine = Run(minitorch_hooks, program).observe()
        assert_close(mine, example["torch"], rtol=1e-5, atol=1e-6,
                     path=f"recorded program {number}:\n{program.code()}\nprogram")
