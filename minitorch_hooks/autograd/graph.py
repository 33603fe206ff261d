"""The backward graph: one :class:`Node` per differentiable operation.

Each operation that takes a tensor requiring grad leaves behind a node (``MulBackward0``,
``SumBackward0``, ...) that knows how to turn the gradient of its output into gradients of
its inputs, and where those go next (``next_functions``). A leaf tensor's gradient arrives
at its :class:`AccumulateGrad` node, which adds it into ``.grad``.
See <https://docs.pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.Node>
"""

from __future__ import annotations

import functools
import itertools
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from ..utils.hooks import RemovableHandle, add_hook
from . import anomaly_mode
from .grad_mode import _State
from .saved_tensors import (  # noqa: F401 - PyTorch has the hooks in autograd.graph
    SavedTensor,
    disable_saved_tensors_hooks,
    hooks_state,
    restore_hooks_state,
    save_on_cpu,
    saved_tensors_hooks,
)

# The dtype of a saved Python number, as PyTorch keeps it (a "wrapped number": 64 bits). Not
# NumPy's default, which for an int is C's long: 32 bits in the browser's WebAssembly build
# (and on Windows with NumPy 1), where ``np.asarray(2)`` would be int32.
_WRAPPED_NUMBER = {bool: np.bool_, int: np.int64, float: np.float64}

# Nodes made later run earlier when both are ready, as in PyTorch's engine, which orders
# its ready queue by this number. An AccumulateGrad has the largest number, PyTorch's
# UINT64_MAX: it runs as soon as it is ready, and leaves ready together tie (engine.py).
_sequence_nr = itertools.count()
ACCUMULATE_GRAD_SEQUENCE_NR = 2**64 - 1


_FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


class Node:
    """One step of the backward graph.

    Subclasses implement ``backward(*grad_outputs)`` and return one gradient per entry of
    ``next_functions``. The formula runs on NumPy arrays, or on Tensors under create_graph,
    so it uses only operators and the helpers of ``autograd/_formula.py``. The engine
    reduces broadcast gradients and casts dtypes afterwards (``_input_meta``), so a formula
    never has to.
    """

    # Slots only, no ``__dict__``: like PyTorch's nodes, a node takes no attributes of the
    # user's (``grad_fn.foo = 1`` is an AttributeError), and stays cheap to make.
    __slots__ = ("next_functions", "_input_meta", "_sequence_nr", "_saved", "_hooks",
                 "_metadata", "__weakref__")
    num_outputs = 1
    # Built-in formulas do not compute gradients for inputs that need none (PyTorch skips
    # them); the engine mirrors that by dropping what a formula computed anyway. Given no
    # gradient at all, a built-in formula is not run: every input gradient is None.
    drops_unneeded_grads = True
    # The names PyTorch gives what the node saves, in the order of ``_saved``: the input
    # ``self`` is ``grad_fn._saved_self``, the output ``_saved_result``. (Flags that some
    # nodes save after them have no name here.) And the attributes PyTorch's node has by
    # the same name: ``PowBackward0``'s ``exponent`` is its ``_saved_exponent``.
    saved_names: tuple[str, ...] = ()
    saved_attributes: tuple[str, ...] = ()

    def __init__(self, inputs: Sequence[Any], saved: tuple = ()) -> None:
        # An input that is not a tensor (a plain number, or None) gets no gradient. Like
        # PyTorch's validate_outputs, the engine checks a gradient's shape and dtype only
        # where it is sent on, so only those inputs' are kept.
        edges, metas = [], []
        for x in inputs:
            edge, meta = _edge_and_meta(x)
            edges.append(edge)
            metas.append(meta)
        self.next_functions, self._input_meta = tuple(edges), tuple(metas)
        self._sequence_nr = next(_sequence_nr)
        self._saved = saved
        if anomaly_mode.state.enabled:  # keep the forward stack that made this node
            anomaly_mode.store_stack(self)
        # Hooks are rare, so they live in a NodeHooks made on the first registration: the
        # engine asks one question of a node without any, ``node._hooks is None``.
        self._hooks: NodeHooks | None = None

    def name(self) -> str:
        return type(self).__name__

    @property
    def metadata(self) -> dict:
        """A dict of this node's own, empty at first and kept as long as the node: where
        hooks can leave notes about it (which module made it, say).
        See <https://docs.pytorch.org/docs/2.13/generated/torch.autograd.graph.Node.metadata.html>
        """
        try:
            return self._metadata
        except AttributeError:  # made on first use: most nodes never need one
            self._metadata = {}
            return self._metadata

    def __repr__(self) -> str:
        # The class name even where ``name()`` is C++'s (``torch::autograd::CopySlices``):
        # PyTorch's repr shows the Python type.
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    # -- saved tensors ------------------------------------------------------------------
    def __init_subclass__(cls, written_in_cpp: bool = True, **kwargs: Any) -> None:
        """Give each node class PyTorch's attributes for what it saves: ``_saved_self`` is
        what it saved as ``self`` (a tensor, or None if it saved nothing there),
        ``_raw_saved_self`` the SavedTensor itself, whose ``register_hooks`` packs it.
        (Properties made here, not a ``__getattr__``: that would slow every attribute
        read on every node, which the engine does constantly.)

        PyTorch's nodes are C++ types made without a module, so Python files them under
        ``builtins``: ``type(y.grad_fn)`` prints ``<class 'MulBackward0'>``. Ours say the
        same; only the node of a custom Function (``written_in_cpp=False``) is a class of
        ``torch.autograd.function``, in PyTorch too."""
        super().__init_subclass__(**kwargs)
        cls._source_module = cls.__module__  # where its code is, to read it
        if written_in_cpp:
            cls.__module__ = "builtins"
        for name in cls.__dict__.get("saved_names", ()):
            setattr(cls, "_saved_" + name, property(
                lambda node, name=name: node._read_saved(name, raw=False)))
            setattr(cls, "_raw_saved_" + name, property(
                lambda node, name=name: node._read_saved(name, raw=True)))
        for name in cls.__dict__.get("saved_attributes", ()):
            setattr(cls, "_saved_" + name, property(lambda node, name=name: getattr(node, name)))

    def _read_saved(self, name: str, raw: bool) -> Any:
        if self._saved is None:
            raise RuntimeError(_FREED)
        saved = self._saved[self.saved_names.index(name)]
        if raw or saved is None:
            return saved
        if type(saved) is not SavedTensor:  # a number (``x * 2``): PyTorch kept a 0-d tensor
            return wrap(np.asarray(saved, dtype=_WRAPPED_NUMBER.get(type(saved))))
        return saved.tensor(self)

    def saved_arrays(self) -> list[Any]:
        """The saved values, checked against in-place changes and against being freed.

        NumPy arrays, or under create_graph (grad mode on during backward) the saved
        tensors themselves, so that the formula's result depends on them in the new graph:
        a saved input is the very tensor, a saved output one with this node as grad_fn.
        """
        if self._saved is None:
            raise RuntimeError(_FREED)
        as_tensors, values = _State.enabled, []
        for value in self._saved:
            if type(value) is SavedTensor:  # (not a number, nor None)
                value = value.tensor(self) if as_tensors else value.array(self)
            values.append(value)
        return values

    def _save_output(self, tensor: Tensor) -> None:
        """Keep one of this node's outputs for backward. PyTorch saves outputs after the
        inputs, once the output exists and has this node as its grad_fn: the order and the
        tensor in which a saved-tensor hook sees them."""
        self._saved += (SavedTensor(tensor, is_output=True),)

    def _output_written_into(self, tensor: Tensor) -> None:
        """An in-place operation computed its result aside, then wrote it into ``tensor``:
        a saved output must now watch ``tensor``'s memory and version, as in PyTorch, where
        the output *is* that tensor."""
        for saved in self._saved:
            if type(saved) is SavedTensor and saved._tensor is None and saved._array is not None:
                saved._array, saved._version_counter = tensor._data, tensor._version_counter
                saved._saved_version = tensor._version_counter[0]

    def backward(self, *grad_outputs: Any) -> Any:
        raise NotImplementedError(f"{self.name()} has no backward formula")

    # -- hooks ----------------------------------------------------------------------------
    def register_prehook(self, fn: Callable) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; a returned tuple replaces them.

        See <https://docs.pytorch.org/docs/2.13/generated/torch.autograd.graph.Node.register_prehook.html>
        """
        return add_hook(self._hook_registry().pre, fn)

    def register_hook(self, fn: Callable) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; a returned tuple
        replaces ``grad_inputs``, the gradients sent on to ``next_functions``.

        See <https://docs.pytorch.org/docs/2.13/generated/torch.autograd.graph.Node.register_hook.html>
        """
        return add_hook(self._hook_registry().post, fn)

    def _register_tensor_hooks(self, output_nr: int, hooks: OrderedDict) -> None:
        """Attach a non-leaf tensor's ``_backward_hooks`` to the node that produces it."""
        self._hook_registry().tensor_pre.append((output_nr, hooks))

    def _register_retains_grad(self, tensor: Tensor) -> None:
        self._hook_registry().retains_grad[tensor._output_nr] = weakref.ref(tensor)

    def _hook_registry(self) -> NodeHooks:
        if self._hooks is None:
            self._hooks = NodeHooks()
        return self._hooks


class NodeHooks:
    """Everything hooked at one node, in the order the engine runs it: the hooks of the
    tensors the node produced (``tensor_pre``, then ``retains_grad``), the node's pre-hooks
    (``pre``, given ``grad_outputs``) and its post-hooks (``post``, given ``grad_inputs``
    and ``grad_outputs``)."""

    __slots__ = ("tensor_pre", "retains_grad", "pre", "post")

    def __init__(self) -> None:
        self.tensor_pre: list[tuple[int, OrderedDict]] = []
        self.retains_grad: dict[int, weakref.ref] = {}
        self.pre: OrderedDict[int, Callable] = OrderedDict()
        self.post: OrderedDict[int, Callable] = OrderedDict()


class AccumulateGrad(Node):
    """The node at a leaf: it adds the incoming gradient into ``variable.grad``.

    The leaf's own hooks (``register_hook``) and the node's pre-hooks run before the
    addition, which is why they can still change what lands in ``.grad``; the leaf's
    post-accumulate-grad hooks run after it, then the node's post-hooks, as
    ``hook((), grad_outputs)``: an AccumulateGrad sends no gradient on, so a post-hook can
    only return None or ``()``. Given no gradient (None), it adds nothing, but all these
    hooks still run.
    """

    __slots__ = ("variable",)

    def __init__(self, variable: Tensor) -> None:
        self.next_functions = ()
        self._input_meta = ()
        self._sequence_nr = ACCUMULATE_GRAD_SEQUENCE_NR
        self._saved = ()
        self._hooks = None
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __lt__(self, other: object) -> bool:
        """Two leaves waiting in the engine's ready queue share a rank, so the queue
        compares them too: neither comes first, and the heap's own arrangement decides."""
        return False


_NO_EDGE = (None, 0)
_NO_EDGE_META = (_NO_EDGE, None)


def gradient_edge(tensor: Tensor | None) -> tuple[Node | None, int]:
    """Where a gradient for ``tensor`` should be sent: its grad_fn, its leaf accumulator,
    or nowhere (``(None, 0)``) when it does not require grad or is a plain number."""
    return _edge_and_meta(tensor)[0]


def _edge_and_meta(x: Any) -> tuple[tuple[Node | None, int], tuple | None]:
    """An input's gradient edge, and the shape and dtype its gradient must have (None
    where no gradient is sent)."""
    if not isinstance(x, Tensor):
        return _NO_EDGE_META
    # Read once: for a view, the ``grad_fn`` property may have to build a new node first.
    grad_fn = x.grad_fn if x._base is not None else x._grad_fn
    if grad_fn is not None:
        return (grad_fn, x._output_nr), (x._data.shape, x._data.dtype)
    if x._requires_grad:
        return (grad_accumulator(x), 0), (x._data.shape, x._data.dtype)
    return _NO_EDGE_META


def grad_accumulator(leaf: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad node, shared by every graph that uses the leaf.

    The leaf holds it weakly, the graph strongly, as PyTorch does: it lives while some
    graph can still deliver a gradient to the leaf.
    """
    ref = leaf._grad_accumulator
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(leaf)
        leaf._grad_accumulator = weakref.ref(node)
    return node


# -- which backward is running: for hooks that ask --------------------------------------------

class GraphTask:
    """One run of ``backward()`` or ``autograd.grad()``, as the hooks that fire during it
    see it: a number of its own, the nodes it will run (PyTorch's ``exec_info``), and the
    callbacks queued to run when it ends (``final_callbacks``, see ``engine._EngineBase``).
    The engine enters it while it runs."""

    __slots__ = ("id", "nodes", "captures", "can_checkpoint", "saved_hooks_state",
                 "current_node", "final_callbacks")
    _ids = itertools.count()

    def __init__(self, nodes: Any, captures: Any, can_checkpoint: bool = True) -> None:
        self.id = next(GraphTask._ids)
        self.nodes, self.captures = nodes, captures
        # Whether every node runs (no ``inputs``), which reentrant checkpointing needs.
        self.can_checkpoint = can_checkpoint
        self.current_node: Node | None = None  # the node whose hooks or formula run now
        self.final_callbacks: list[Callable[[], Any]] = []

    def __enter__(self) -> GraphTask:
        _running.append(self)
        # Saved-tensor hooks entered or left by a hook during the run stay inside it.
        self.saved_hooks_state = hooks_state()
        return self

    def __exit__(self, *exc_info: object) -> None:
        restore_hooks_state(self.saved_hooks_state)
        _running.pop()


_running: list[GraphTask] = []  # innermost last: a hook may start a backward of its own

_LEAF_IN_GRAD = ("A leaf node was passed to _will_engine_execute_node but we are currently "
                 "running autograd.grad(). This is currently not supported.")


def current_autograd_node() -> Node | None:
    """The node the engine is running now (its hooks, its formula, the unpack hooks of its
    saved tensors), None outside backward: PyTorch's ``torch._C._current_autograd_node``."""
    return _running[-1].current_node if _running else None


def current_graph_task_id() -> int:
    """The number of the backward running now, -1 outside one (PyTorch's
    ``torch._C._current_graph_task_id``)."""
    return _running[-1].id if _running else -1


def _is_checkpoint_valid() -> bool:
    """Whether a backward started now, inside the backward running, may run the whole
    graph it is given: not inside ``autograd.grad`` or ``backward(inputs=...)``, which
    run only part of theirs. Reentrant checkpointing asks, because its recomputed part
    would otherwise be cut off from its inputs (PyTorch's
    ``torch.autograd._is_checkpoint_valid``)."""
    return all(task.can_checkpoint for task in _running)


def will_engine_execute_node(node: Node) -> bool:
    """Whether the backward running now will run ``node`` (PyTorch's
    ``torch._C._will_engine_execute_node``). ``autograd.grad`` picks up a leaf's gradient
    without running its AccumulateGrad, which PyTorch refuses to answer for."""
    if not _running:
        raise RuntimeError("_get_should_execute_nodes should only be called during the "
                           "backward pass")
    task = _running[-1]
    if node not in task.nodes:
        return False
    if type(node) is AccumulateGrad and node in task.captures:
        raise RuntimeError(_LEAF_IN_GRAD)
    return True


def register_multi_grad_hook(tensors: Sequence[Tensor], fn: Callable, *,
                             mode: str = "all") -> RemovableHandle:
    """``fn`` runs once per backward: with ``mode="all"`` after the gradients of all
    ``tensors`` that this backward computes, as ``fn(grads)`` with None for the others;
    with ``mode="any"`` at the first of them, as ``fn(grad)``.

    Built as PyTorch builds it, from plain tensor hooks (one per tensor) that count, per
    backward run, how many of the expected gradients have arrived. So it fires among the
    tensor hooks, in registration order, and its return value is ignored. The tensor
    hooks carry PyTorch's names (``fn``'s own in "any" mode, ``inner_hook`` in "all"
    mode), so that a trace of either library shows the same calls.
    See <https://docs.pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.register_multi_grad_hook>
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "any":
        fired: set[int] = set()  # the backward runs in which ``fn`` has run

        @functools.wraps(fn)
        def on_first_grad(grad: Tensor) -> None:
            task_id = current_graph_task_id()
            if task_id not in fired:
                fired.add(task_id)
                fn(grad)

        return _MultiHandle(tuple(t.register_hook(on_first_grad)
                                  for t in tensors if t.requires_grad))

    nodes = [_grad_fn_or_accumulator(t) for t in tensors]
    arrived: dict[int, list] = {}  # per backward run: the gradients so far
    waiting: dict[int, int] = {}  # per backward run: how many are still to come

    def hook_for(index: int) -> Callable[[Tensor], None]:
        def inner_hook(grad: Tensor) -> None:
            task_id = current_graph_task_id()
            if task_id not in arrived:  # the first of this run: how many will come?
                arrived[task_id] = [None] * len(tensors)
                waiting[task_id] = sum(will_engine_execute_node(node) for node in nodes)
            arrived[task_id][index] = grad
            waiting[task_id] -= 1
            if waiting[task_id] == 0:
                del waiting[task_id]
                fn(arrived.pop(task_id))

        return inner_hook

    return _MultiHandle(tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors)))


def _grad_fn_or_accumulator(tensor: Tensor) -> Node:
    """The node a tensor's gradient is computed at: its grad_fn, or a leaf's AccumulateGrad."""
    node = tensor.grad_fn
    if node is None and tensor.requires_grad:
        node = grad_accumulator(tensor)
    if node is None:
        raise AssertionError("Expected gradient function to be set")
    return node


class _MultiHandle(RemovableHandle):
    """One handle for the tensor hooks that make up a multi-grad hook: removing it
    removes each of them, and it pickles as them.

    It does not call ``RemovableHandle.__init__``, exactly as PyTorch's does not: that
    would take a handle id, and every id handed out afterwards would differ from PyTorch's
    (the hook dictionaries a learner compares are keyed by them). It needs none of the
    base's fields, because it overrides every method that would read them."""

    def __init__(self, handles: tuple[RemovableHandle, ...]) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __getstate__(self) -> tuple:
        return self.handles

    def __setstate__(self, state: tuple) -> None:
        self.handles = state
