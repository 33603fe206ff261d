"""Differential fuzzing: random sequences of hook operations, run on minitorch_hooks and on
real PyTorch in lockstep, must behave identically after every step.

The hand-written scenarios of this folder each check one behaviour. This file checks the
combinations nobody thought of: a rule-based state machine (``hypothesis.stateful``)
builds the same small model in both libraries, then applies random steps to both at once:

- register a hook of any kind: module forward pre-hooks, forward hooks, full backward
  pre-hooks and hooks, legacy backward hooks (each with ``prepend``, ``with_kwargs`` and
  ``always_call`` where the kind takes them), their global ``register_module_*`` versions,
  tensor hooks, post-accumulate-grad hooks and graph-node hooks;
- remove a handle (any handle, also one removed before);
- call the model or one of its nested modules, with positional and keyword arguments, on
  an input that requires grad, one that does not, or under ``no_grad``;
- run backward or ``autograd.grad`` (with or without ``retain_graph``; after clearing the
  gradients or not).

Every hook records what it received, then does what it was drawn to do: return ``None``,
return a replacement (twice what it got, computed the same way in both libraries), raise,
or remove a handle (itself, or another one) while it runs. After each step the two
libraries must agree on the step's result or error (type and message), the warnings, the
hooks that fired with what they received, the gradients, and what every hook dictionary
holds.

The deviations by design (see the ``_deviation`` tests and ``docs/conformance.md``) are
modelled, not hidden: the machine never registers a non-callable hook (refused at
registration here, in PyTorch only when it fires), never registers a global forward hook
with both ``with_kwargs`` and ``always_call`` (on the failure path we pass it the kwargs,
PyTorch does not), and compares the global ``with_kwargs`` flags of registered hooks only
(PyTorch leaves a removed hook's flag behind). Zeros in ``grad_input`` for a tensor that
does not require grad match PyTorch, so they are compared like everything else.

CI runs 300 examples of up to 30 steps, the same ones each run; for thousands of fresh
ones, run ``MTH_FUZZ=long pytest tests/conformance/test_hook_fuzz.py`` (CONTRIBUTING.md).

``python -m tests.conformance.record`` keeps the first ``REPLAYED`` examples: each rule the
machine ran, with what it drew and what PyTorch did. ``test_recorded_hook_sequences_replay``
runs them again on minitorch_hooks (and on PyTorch, when installed, which must still do the
same); so without PyTorch the fuzzer replays its recorded sequences.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import recording
from harness import TensorValue, assert_close, normalise, outcome, real_torch
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)

import minitorch_hooks

# -- how long to fuzz -----------------------------------------------------------------------
# CI runs a fixed set of examples (derandomized: the same ones every run, so a failure in CI
# reproduces locally); MTH_FUZZ=long explores far more, with fresh random examples each run.
PROFILES = {
    "ci": settings(max_examples=300, stateful_step_count=30, deadline=None,
                   derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow]),
    "long": settings(max_examples=5000, stateful_step_count=40, deadline=None,
                     print_blob=True, suppress_health_check=[HealthCheck.too_slow]),
}


class HookError(Exception):
    """What a hook drawn to "raise" raises: both libraries must let it out unchanged."""


# -- the model ---------------------------------------------------------------------------------

def build_net(torch: Any) -> Any:
    """The model both libraries build: nested custom modules around library layers.

    ``Net`` calls ``Block`` with a positional number and a keyword tensor (so a full
    backward hook's ``grad_input`` holds ``None`` for the number and nothing for the
    keyword); ``Block`` runs a ``Sequential`` of ``Linear`` and ``ReLU``, then ``Split``,
    which returns two tensors (so ``grad_output`` has two entries).

    Every operation is exact on the quarter-step values the machine draws (no ``tanh``
    or ``exp``), so both libraries compute the very same numbers and a tiny tolerance
    catches any real difference.
    """
    nn = torch.nn

    class Scale(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = nn.Parameter(torch.zeros(2))

        def forward(self, x):
            return x * self.w

    class Split(Scale):
        def forward(self, x):
            return x * self.w, x + self.w

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
            self.split = Split()

        def forward(self, x, scale=1.0, *, bias=None):
            prod, total = self.split(self.body(x))
            y = prod * scale + total
            return y if bias is None else y + bias

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.block = Block()
            self.head = Scale()

        def forward(self, x, *, shift=0.0):
            return self.head(self.block(x, 2.0, bias=x)) + shift

    return Net()


MODULE_PATHS = ("net", "net.block", "net.block.body", "net.block.body.0", "net.block.body.1",
                "net.block.split", "net.head")
PARAMETER_SHAPES = {"block.body.0.weight": (2, 2), "block.body.0.bias": (2,),
                    "block.split.w": (2,), "head.w": (2,)}

# What a call step runs; the key is what the failing example shows.
CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "net(x)": lambda net, x: net(x),
    "net(x, shift=0.5)": lambda net, x: net(x, shift=0.5),
    "net.block(x)": lambda net, x: net.block(x),
    "net.block(x, 3.0)": lambda net, x: net.block(x, 3.0),
    "net.block(x, scale=-1.0, bias=x)": lambda net, x: net.block(x, scale=-1.0, bias=x),
    "net.block.body(x)": lambda net, x: net.block.body(x),
    "net.block.split(x)": lambda net, x: net.block.split(x),
    "net.head(x)": lambda net, x: net.head(x),
    "net.head(net.head(x))": lambda net, x: net.head(net.head(x)),  # one module, two calls
}
# The input of a call: the leaf ``x``, a copy that does not require grad (the full backward
# hooks then fire at the outputs), or ``x`` under ``no_grad`` (no backward hooks at all).
INPUTS = ("x", "x.detach()", "x under no_grad")
# What follows the call in the same step.
THEN = ("nothing", "backward", "zero_grad, backward")


# -- hook kinds --------------------------------------------------------------------------------

def doubled(value: Any) -> Any:
    """Every tensor in ``value`` times two: the replacement a "replace" hook returns, in the
    shape the hook received (``None`` stays ``None``, numbers stay as they are)."""
    if isinstance(value, (tuple, list)):
        return type(value)(doubled(v) for v in value)
    if isinstance(value, dict):
        return {key: doubled(v) for key, v in value.items()}
    if hasattr(value, "grad_fn"):  # a tensor of either library
        return value * 2
    return value


@dataclass(frozen=True)
class HookKind:
    """One kind of hook: where it is registered, with which options, and what a "replace"
    hook returns given the arguments it was called with."""

    owners: str                       # "module", "global", "leaf" or "output"
    register: Callable[..., Any]      # (owner, hook, **options) -> handle
    replacement: Callable[[tuple], Any]
    option_sets: tuple[tuple[str, ...], ...] = ((),)


def _subsets(*options: str) -> tuple[tuple[str, ...], ...]:
    return tuple(combo for n in range(len(options) + 1)
                 for combo in itertools.combinations(options, n))


def _pre_hook_replacement(args: tuple) -> Any:
    """``hook(module, args)`` returns new args (a single one bare, which the module wraps
    in a tuple); ``hook(module, args, kwargs)`` returns new args and kwargs."""
    if len(args) == 3:
        return doubled(args[1]), doubled(args[2])
    return doubled(args[1][0]) if len(args[1]) == 1 else doubled(args[1])


KINDS: dict[str, HookKind] = {
    "forward pre-hook": HookKind(
        "module", lambda m, hook, **o: m.register_forward_pre_hook(hook, **o),
        _pre_hook_replacement, _subsets("prepend", "with_kwargs")),
    "forward hook": HookKind(
        "module", lambda m, hook, **o: m.register_forward_hook(hook, **o),
        lambda args: doubled(args[-1]), _subsets("prepend", "with_kwargs", "always_call")),
    "full backward pre-hook": HookKind(
        "module", lambda m, hook, **o: m.register_full_backward_pre_hook(hook, **o),
        lambda args: doubled(args[1]), _subsets("prepend")),
    "full backward hook": HookKind(
        "module", lambda m, hook, **o: m.register_full_backward_hook(hook, **o),
        lambda args: doubled(args[1]), _subsets("prepend")),
    "legacy backward hook": HookKind(
        "module", lambda m, hook: m.register_backward_hook(hook),
        lambda args: doubled(args[1])),
    "global forward pre-hook": HookKind(
        "global", lambda g, hook: g.register_module_forward_pre_hook(hook),
        _pre_hook_replacement),
    # Not with_kwargs and always_call together: on the exception path PyTorch 2.13 calls
    # such a hook without the kwargs, and minitorch_hooks passes them on purpose (see
    # test_global_always_call_hook_with_kwargs_in_the_exception_path_deviation).
    "global forward hook": HookKind(
        "global", lambda g, hook, **o: g.register_module_forward_hook(hook, **o),
        lambda args: doubled(args[-1]), ((), ("with_kwargs",), ("always_call",))),
    "global full backward pre-hook": HookKind(
        "global", lambda g, hook: g.register_module_full_backward_pre_hook(hook),
        lambda args: doubled(args[1])),
    "global full backward hook": HookKind(
        "global", lambda g, hook: g.register_module_full_backward_hook(hook),
        lambda args: doubled(args[1])),
    "global legacy backward hook": HookKind(
        "global", lambda g, hook: g.register_module_backward_hook(hook),
        lambda args: doubled(args[1])),
    "tensor hook": HookKind(
        "leaf", lambda t, hook: t.register_hook(hook), lambda args: doubled(args[0])),
    # A post-accumulate-grad hook must return None: "replace" checks the error.
    "post-accumulate-grad hook": HookKind(
        "leaf", lambda t, hook: t.register_post_accumulate_grad_hook(hook),
        lambda args: args[0].grad * 2),
    "output tensor hook": HookKind(
        "output", lambda t, hook: t.register_hook(hook), lambda args: doubled(args[0])),
    "node pre-hook": HookKind(
        "output", lambda t, hook: t.grad_fn.register_prehook(hook),
        lambda args: doubled(args[0])),
    "node hook": HookKind(
        "output", lambda t, hook: t.grad_fn.register_hook(hook),
        lambda args: doubled(args[0])),
}

BEHAVIOURS = ("return None", "replace", "raise", "remove itself", "remove another")


@dataclass(frozen=True)
class HookSpec:
    """A hook to register: its kind, what it hangs on, its options and what it does."""

    kind: str
    owner: str
    options: tuple[str, ...]
    behaviour: str


@st.composite
def hook_specs(draw: Any, owners: str) -> HookSpec:
    """A hook of one of the kinds registered on ``owners``, with allowed options."""
    name = draw(st.sampled_from([n for n, kind in KINDS.items() if kind.owners == owners]))
    kind = KINDS[name]
    owner = {"module": st.sampled_from(MODULE_PATHS), "global": st.just("every module"),
             "leaf": st.sampled_from(("x", *PARAMETER_SHAPES)),
             "output": st.just("output")}[owners]
    return HookSpec(name, draw(owner), draw(st.sampled_from(kind.option_sets)),
                    draw(st.sampled_from(BEHAVIOURS)))


# -- one library's side of the lockstep -------------------------------------------------------

MODULE_HOOK_DICTS = ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks",
                     "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
                     "_backward_pre_hooks", "_backward_hooks")
GLOBAL_HOOK_DICTS = ("_global_forward_pre_hooks", "_global_forward_hooks",
                     "_global_forward_hooks_always_called", "_global_backward_pre_hooks",
                     "_global_backward_hooks")
TENSOR_HOOK_DICTS = ("_backward_hooks", "_post_accumulate_grad_hooks")


class World:
    """One library's side: its model, input, registered hooks, and what the hooks did.

    Hooks are named by labels (``"forward hook#3"``) given in registration order, the same
    in both worlds, so traces and hook dictionaries compare across libraries although the
    handle ids differ.
    """

    def __init__(self, torch: Any, parameters: dict[str, list], x: list[float]) -> None:
        self.torch = torch
        self.net = build_net(torch)
        with torch.no_grad():
            for name, param in self.net.named_parameters():
                param.copy_(torch.tensor(parameters[name]))
        self.x = torch.tensor(x, requires_grad=True)
        self.leaves = {"x": self.x, **dict(self.net.named_parameters())}
        self.module_names = {module: "net" + ("." + name if name else "")
                             for name, module in self.net.named_modules()}
        self.output: Any = None
        self.handles: dict[str, Any] = {}
        self.labels: dict[int, str] = {}  # handle id -> label
        self.trace: list = []

    @property
    def globals(self) -> Any:
        return self.torch.nn.modules.module

    def module(self, path: str) -> Any:
        return self.net.get_submodule(path.removeprefix("net").removeprefix("."))

    def output_tensor(self) -> Any:
        """The first tensor of the last call's output: where output hooks are registered."""
        return self.output[0] if isinstance(self.output, tuple) else self.output

    def backward(self, retain_graph: bool, how: str = "backward") -> Any:
        """Backward from a weighted sum of the last output's tensors (which fails when
        nothing requires grad), or ``autograd.grad`` of it with respect to every leaf."""
        outputs = self.output if isinstance(self.output, tuple) else (self.output,)
        loss = None
        for tensor in outputs:
            term = (tensor * self.torch.tensor([1.0, -3.0])).sum()
            loss = term if loss is None else loss + term
        if how == "backward":
            return loss.backward(retain_graph=retain_graph)
        return self.torch.autograd.grad(loss, list(self.leaves.values()),
                                        retain_graph=retain_graph, allow_unused=True)

    # -- hooks ------------------------------------------------------------------------------
    def make_hook(self, label: str, spec: HookSpec, removes: str | None) -> Callable:
        """A hook that records what it received, then behaves as ``spec`` says."""
        replacement = KINDS[spec.kind].replacement

        def hook(*args: Any) -> Any:
            self.trace.append((label, self.describe(args)))
            if spec.behaviour == "raise":
                raise HookError(f"{label} raised")
            if spec.behaviour == "replace":
                return replacement(args)
            if removes is not None:
                self.handles[removes].remove()
            return None

        return hook

    def register(self, label: str, spec: HookSpec, removes: str | None) -> None:
        kind = KINDS[spec.kind]
        owner = {"module": lambda: self.module(spec.owner), "global": lambda: self.globals,
                 "leaf": lambda: self.leaves[spec.owner],
                 "output": self.output_tensor}[kind.owners]()
        options = dict.fromkeys(spec.options, True)
        handle = kind.register(owner, self.make_hook(label, spec, removes), **options)
        self.handles[label] = handle
        self.labels[handle.id] = label

    # -- what is compared ---------------------------------------------------------------------
    def describe(self, value: Any) -> Any:
        """A library-independent form of what a hook received or a call returned: modules
        by their path, the model's leaves by name with their gradient, other tensors by
        value, ``requires_grad`` and ``grad_fn`` name; containers walked."""
        if isinstance(value, self.torch.nn.Module):
            return ("module", self.module_names.get(value, type(value).__name__))
        if isinstance(value, self.torch.Tensor):
            leaf = next((name for name, t in self.leaves.items() if t is value), None)
            if leaf is not None:
                return ("leaf", leaf, self.describe(value.grad))
            grad_fn = None if value.grad_fn is None else value.grad_fn.name()
            return ("tensor", TensorValue(value), value.requires_grad, grad_fn)
        if isinstance(value, (tuple, list)):
            return type(value)(self.describe(v) for v in value)
        if isinstance(value, dict):
            return {key: self.describe(v) for key, v in value.items()}
        return value

    def registries(self) -> dict[str, Any]:
        """Every hook dictionary, as the labels it holds in order, and the flags that
        remember whether backward hooks are full or legacy."""
        def labels(hooks: Any) -> list[str]:
            return [self.labels.get(hook_id, "?") for hook_id in (hooks or {})]

        g = self.globals
        found: dict[str, Any] = {name: labels(getattr(g, name)) for name in GLOBAL_HOOK_DICTS}
        # PyTorch 2.13 leaves a removed global hook's with_kwargs flag behind (see
        # test_removing_a_global_forward_hook_removes_its_flags_deviation): the flags of
        # hooks still registered are what matters.
        found["_global_forward_hooks_with_kwargs"] = labels(
            {i: True for i in g._global_forward_hooks_with_kwargs if i in g._global_forward_hooks})
        found["_global_is_full_backward_hook"] = g._global_is_full_backward_hook
        for module, path in self.module_names.items():
            for name in MODULE_HOOK_DICTS:
                found[f"{path}.{name}"] = labels(getattr(module, name))
            found[f"{path}._is_full_backward_hook"] = module._is_full_backward_hook
        tensors = dict(self.leaves)
        if self.output is not None and self.output_tensor().requires_grad:
            tensors["output"] = self.output_tensor()
        for name, tensor in tensors.items():
            for attr in TENSOR_HOOK_DICTS:
                found[f"{name}.{attr}"] = labels(getattr(tensor, attr, None))
        return found

    def remove_all_hooks(self) -> None:
        """Remove every hook this world registered, and forget the global backward-hook
        kind it set: nothing may leak into other tests, even after a failed example."""
        for handle in self.handles.values():
            handle.remove()
            self.globals._global_forward_hooks_with_kwargs.pop(handle.id, None)
        self.globals._global_is_full_backward_hook = None


# -- the state machine -------------------------------------------------------------------------

_VALUES = st.integers(-8, 8).map(lambda n: n / 4)


def _values(shape: tuple[int, ...]) -> st.SearchStrategy:
    if len(shape) == 1:
        return st.lists(_VALUES, min_size=shape[0], max_size=shape[0])
    return st.lists(_values(shape[1:]), min_size=shape[0], max_size=shape[0])


REPLAYED = 40  # examples kept in the recording, for the recorded mode


class HookLockstep(RuleBasedStateMachine):
    """Drives both worlds through the same steps and compares them after each one.

    ``log`` keeps the rules run, with their arguments, draws and PyTorch's observation,
    for the recording (while ``to_record`` counts down); ``replaying`` holds the recorded
    observations when a recorded sequence is run again on one ``library`` alone."""

    to_record = 0  # how many more examples to keep, when recording
    last_log: list[dict[str, Any]] = []  # the last example run (the failing one, on failure)

    def __init__(self, replaying: Iterator[Any] | None = None, library: Any = None) -> None:
        super().__init__()
        self.worlds: list[World] = []
        self.next_label = 0
        self.replaying, self.library = replaying, library
        self.log: list[dict[str, Any]] = []

    @initialize(parameters=st.fixed_dictionaries(
                    {name: _values(shape) for name, shape in PARAMETER_SHAPES.items()}),
                x=_values((2,)))
    def build_both_models(self, parameters: dict[str, list], x: list[float]) -> None:
        self.log.append({"rule": "build_both_models",
                         "args": {"parameters": parameters, "x": x}})
        libraries = (self.library,) if self.replaying else (real_torch(), minitorch_hooks)
        # Globals first: the state machine's teardown cleans them, whatever happened.
        for torch in libraries:
            torch.nn.modules.module._global_is_full_backward_hook = None
        self.worlds = [World(torch, parameters, x) for torch in libraries]

    def teardown(self) -> None:
        for world in self.worlds:
            world.remove_all_hooks()
        if self.replaying is None:
            HookLockstep.last_log = self.log
        if recording.RECORDING and HookLockstep.to_record and self.replaying is None:
            HookLockstep.to_record -= 1
            recording.add_to_corpus(self.log)

    def note_rule(self, rule: str, **args: Any) -> None:
        """Log a rule about to run, with its arguments (a hook's spec as a dict)."""
        spec = args.get("spec")
        if spec is not None:
            args["spec"] = dataclasses.asdict(spec)
        self.log.append({"rule": rule, "args": args, "draws": []})

    def draw(self, data: st.DataObject, strategy: st.SearchStrategy, label: str) -> Any:
        value = data.draw(strategy, label=label)
        self.log[-1]["draws"].append(value)
        return value

    # -- the comparison after every step -------------------------------------------------------
    def step(self, action: Callable[[World], Any]) -> None:
        """Apply ``action`` to both worlds and assert that they end up the same."""
        if self.replaying is not None:
            theirs = next(self.replaying)
            mine = compact(normalise(self.observe(self.worlds[-1], action)))
        else:
            theirs = normalise(self.observe(self.worlds[0], action))
            self.log[-1]["torch"] = compact(theirs)
            mine = self.observe(self.worlds[-1], action)
        assert_close(mine, theirs, rtol=1e-5, atol=1e-6, path="step")

    @staticmethod
    def observe(world: World, action: Callable[[World], Any]) -> dict[str, Any]:
        world.trace = []
        result, warned = outcome(lambda torch: world.describe(action(world)), world.torch)
        return {"result": result, "hooks fired": world.trace, "warnings": warned,
                "grads": {name: world.describe(t.grad) for name, t in world.leaves.items()},
                "registries": world.registries()}

    # -- registering and removing hooks --------------------------------------------------------
    def register(self, spec: HookSpec, data: st.DataObject, rule: str) -> None:
        self.note_rule(rule, spec=spec)
        label = f"{spec.kind}#{self.next_label}"
        self.next_label += 1
        removes = None
        if spec.behaviour == "remove itself":
            removes = label
        elif spec.behaviour == "remove another":
            removes = self.draw(data, st.sampled_from(sorted(self.worlds[0].handles) or [label]),
                                f"{label} removes")
        self.step(lambda world: world.register(label, spec, removes))

    @rule(spec=hook_specs("module"), data=st.data())
    def register_module_hook(self, spec: HookSpec, data: st.DataObject) -> None:
        self.register(spec, data, "register_module_hook")

    @rule(spec=st.one_of(hook_specs("global"), hook_specs("leaf")), data=st.data())
    def register_global_or_leaf_hook(self, spec: HookSpec, data: st.DataObject) -> None:
        self.register(spec, data, "register_global_or_leaf_hook")

    @precondition(lambda self: all(w.output is not None and w.output_tensor().requires_grad
                                   for w in self.worlds))
    @rule(spec=hook_specs("output"), data=st.data())
    def register_output_hook(self, spec: HookSpec, data: st.DataObject) -> None:
        self.register(spec, data, "register_output_hook")

    @precondition(lambda self: self.worlds[0].handles)
    @rule(data=st.data())
    def remove_handle(self, data: st.DataObject) -> None:
        """Any handle, also one removed before: removing twice does nothing."""
        self.note_rule("remove_handle")
        label = self.draw(data, st.sampled_from(sorted(self.worlds[0].handles)), "removed")
        self.step(lambda world: world.handles[label].remove())

    # -- running the model -----------------------------------------------------------------------
    @rule(call=st.sampled_from(sorted(CALLS)), given=st.sampled_from(INPUTS),
          then=st.sampled_from(THEN))
    def call_module(self, call: str, given: str, then: str) -> None:
        """Call the model or a nested module, often followed by backward in the same step
        (most hooks fire only then), after clearing the gradients or not."""
        self.note_rule("call_module", call=call, given=given, then=then)
        def action(world: World) -> Any:
            world.output = None  # a call that raises leaves no output behind
            with world.torch.no_grad() if given == "x under no_grad" \
                    else contextlib.nullcontext():
                x = world.x.detach() if given == "x.detach()" else world.x
                world.output = CALLS[call](world.net, x)
            if then == "zero_grad, backward":
                world.net.zero_grad()
                world.x.grad = None
            if then != "nothing":
                world.backward(retain_graph=False)
            return world.output

        self.step(action)

    @precondition(lambda self: self.worlds[0].output is not None)
    @rule(retain_graph=st.booleans(), how=st.sampled_from(("backward", "autograd.grad")))
    def backward(self, retain_graph: bool, how: str) -> None:
        """Backward (again) through the last output, the graph perhaps freed by now; or
        ``autograd.grad``, which runs only the nodes leading to the leaves and returns
        their gradients instead of accumulating them."""
        self.note_rule("backward", retain_graph=retain_graph, how=how)
        self.step(lambda world: world.backward(retain_graph, how))


# -- the test ---------------------------------------------------------------------------------

GLOBAL_STATE = (*GLOBAL_HOOK_DICTS, "_global_forward_hooks_with_kwargs")


def global_hooks(library: Any) -> dict[str, Any]:
    """A copy of a library's global module hook dictionaries."""
    g = library.nn.modules.module
    return {name: dict(getattr(g, name)) for name in GLOBAL_STATE}


def global_hook_state(library: Any) -> dict[str, Any]:
    """The global hooks and the global backward-hook kind, which the machine resets (an
    earlier test may have left it set, as PyTorch leaves it after its hooks are gone)."""
    state = global_hooks(library)
    state["_global_is_full_backward_hook"] = library.nn.modules.module._global_is_full_backward_hook
    return state


@contextlib.contextmanager
def global_hooks_restored(*libraries: Any) -> Iterator[None]:
    """Put every library's global module hooks back as they were, whatever happened: a
    leaked global hook would fire in every later test. (The machine's teardown removes
    its hooks itself; this guards against a bug in the machine.)"""
    saved = [(library.nn.modules.module, global_hook_state(library)) for library in libraries]
    try:
        yield
    finally:
        for g, state in saved:
            for name in GLOBAL_STATE:
                getattr(g, name).clear()
                getattr(g, name).update(state[name])
            g._global_is_full_backward_hook = state["_global_is_full_backward_hook"]


def fuzz(machine: type[RuleBasedStateMachine], profile: settings) -> None:
    """Run ``machine`` under ``profile`` and check that it cleaned up after itself."""
    libraries = (real_torch(), minitorch_hooks)
    before = [global_hooks(library) for library in libraries]
    with global_hooks_restored(*libraries):
        run_state_machine_as_test(machine, settings=profile)
        assert [global_hooks(library) for library in libraries] == before, (
            "the state machine left global hooks behind")


def test_random_hook_sequences_behave_as_in_pytorch():
    """Random sequences of hook registrations, removals (twice, and from inside running
    hooks), nested module calls with positional and keyword arguments, and backward passes
    give the same results, errors, warnings, hook calls, gradients and hook dictionaries as
    PyTorch after every step."""
    real_torch()  # new sequences each hypothesis release: recorded ones replay below
    HookLockstep.to_record = REPLAYED
    try:
        fuzz(HookLockstep, PROFILES[os.environ.get("MTH_FUZZ", "ci")])
    finally:
        HookLockstep.to_record = 0


def compact(observation: dict[str, Any]) -> dict[str, Any]:
    """An observation as recorded: the hook dictionaries that hold something (most are
    empty, and the same in both libraries by construction), so the recording stays small."""
    registries = {name: held for name, held in observation["registries"].items()
                  if held is not None and held != []}
    return {**observation, "registries": registries}


class _Draws:
    """Stands for hypothesis' ``data`` when a recorded sequence is replayed: each draw
    gives the value recorded, in order."""

    def __init__(self, values: list[Any]) -> None:
        self.values = iter(values)

    def draw(self, strategy: Any, label: str) -> Any:
        return next(self.values)


RULES_THAT_DRAW = ("remove_handle", "register_module_hook", "register_global_or_leaf_hook",
                   "register_output_hook")


def replay(steps: list[dict[str, Any]], library: Any) -> None:
    """Run a recorded sequence again on ``library``, compared after each step with what
    PyTorch did when it was recorded."""
    machine = HookLockstep(iter([step["torch"] for step in steps[1:]]), library)
    try:
        for step in steps:
            args = dict(step["args"])
            if "spec" in args:
                spec = args["spec"]
                args["spec"] = HookSpec(spec["kind"], spec["owner"], tuple(spec["options"]),
                                        spec["behaviour"])
            if step["rule"] in RULES_THAT_DRAW:
                args["data"] = _Draws(step["draws"])
            getattr(machine, step["rule"])(**args)
    finally:
        machine.teardown()


def replay_recorded(*libraries: Any, test: str = "tests/conformance/test_hook_fuzz.py::"
                    "test_random_hook_sequences_behave_as_in_pytorch") -> None:
    """Every sequence recorded by ``test``, run again on each of ``libraries``."""
    examples = recording.corpus(test)
    with global_hooks_restored(*libraries):
        for number, steps in enumerate(examples):
            try:
                for library in libraries:
                    replay(steps, library)
            except AssertionError as error:
                rules = "\n".join(f"  {s['rule']}({s['args']}, draws={s.get('draws')})"
                                   for s in steps)
                raise AssertionError(f"recorded sequence {number}:\n{rules}\n{error}") \
                    from error


def test_recorded_hook_sequences_replay() -> None:
    """The recorded sequences, run again, give what PyTorch gave: on minitorch_hooks, and
    on PyTorch itself when it is installed (else the recording is stale)."""
    replay_recorded(*([real_torch()] if recording.live() else []), minitorch_hooks)
