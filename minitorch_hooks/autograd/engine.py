"""The backward pass: run the graph's nodes in dependency order and deliver gradients.

This is PyTorch's engine, in three named steps:

1. **plan the graph task** (:class:`GraphPlan`): count, for every node, how many edges lead
   into it (a node runs only when all of them have delivered, so ``b = a + a`` sends both
   gradients to ``a`` before ``a``'s node runs), and for ``autograd.grad`` which nodes run;
2. **the ready queue** (:class:`ReadyQueue`): gradients wait in a buffer per node until
   the node is ready, then it joins a heap that decides which node runs next;
3. **run the node** (:func:`run_node`), whose body lists the hook stages in the order they
   fire. Every node runs there, and nowhere else: a node without hooks returns early
   inside it, after its formula. The loop is iterative, so a graph of any depth works.

Which ready node runs next decides the order in which hooks fire, so it is PyTorch's to
the letter. PyTorch keeps the ready nodes in a binary heap (C++'s ``std::priority_queue``)
ranked by the node's ``sequence_nr``: the node created last runs first. An AccumulateGrad
has the largest number there is, so a leaf's hooks fire as soon as its gradient is
complete. But leaves *tie*, and a heap does not keep ties in arrival order: twelve leaves
that become ready together come out as the heap happens to hold them, not 0, 1, ..., 11.
Python's ``heapq`` moves entries exactly as C++'s ``push_heap`` and ``pop_heap`` do, so
one ``heapq`` list with the same ranks gives PyTorch's order, ties included. Only nodes
that will run enter it (``autograd.grad`` leaves the others out), and a backward started
inside a hook shares it, ranked ahead of the backward it interrupts, as in PyTorch.

At each node the hooks run in PyTorch's order (``run_node``): the tensor hooks of the
tensors it produced, then ``retain_grad``, then the node's pre-hooks, then the node itself
(for a leaf: the addition into ``.grad`` and its post-accumulate-grad hooks), then its
post-hooks. An output that got no gradient (the other half of a ``split``, say) still has
its hooks called, with None.
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#backward-hooks-execution>

Grad mode during the pass is ``create_graph``: off by default, so a hook (or a custom
Function's backward) that computes something records nothing, and an optimiser step in a
hook may change a leaf in place. With ``create_graph=True`` it is on, and that one switch
is also what makes the pass differentiable: the gradients are then Tensors rather than
NumPy arrays, the backward formulas (written with operators and the helpers of
``autograd/_formula.py``, which work on both) record nodes like any forward code, and the
gradients come out with a ``grad_fn``. Without it, the same formulas run on bare arrays and
pay nothing for the possibility.
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#grad-modes>
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from ..utils.hooks import (
    NODE_HOOK,
    NODE_PRE_HOOK,
    POST_ACCUMULATE_GRAD_HOOK,
    TENSOR_HOOK,
    Hook,
    call_hooks,
    hooks_in,
    type_name,
)
from . import _formula, anomaly_mode
from .grad_mode import _State, set_grad_enabled
from .graph import AccumulateGrad, GraphTask, Node, _running, _sequence_nr, gradient_edge

# The ready queue's heap is shared by every backward running (a hook may start one): a list
# of (rank, node, its gradients), the smallest rank first. The rank is
# -(depth * 2**64 + sequence_nr), depth being how many backward passes are running already:
# PyTorch ranks by (depth, sequence_nr), largest first, and a sequence_nr stays below 2**64.
_ready: list[tuple[int, Node | None, list[Any] | None]] = []
_DEPTH_STEP = 2**64


def run_backward(
    roots: Sequence[Tensor],
    root_grads: Sequence[Any],
    retain_graph: bool,
    inputs: Sequence[Tensor] | None = None,
    allow_unused: bool = False,
    accumulate: bool = False,
    create_graph: bool = False,
) -> list[Any] | None:
    """Backpropagate ``root_grads`` from ``roots``: plan, then run each ready node.

    Without ``inputs`` (``Tensor.backward``) every node runs and leaves accumulate into
    ``.grad``. With ``inputs`` (``autograd.grad``) only the nodes on a path to them run, and
    their gradients are returned instead of accumulated. With ``inputs`` and
    ``accumulate`` (``backward(inputs=...)``) only those nodes run too, but the gradients
    accumulate into the inputs' ``.grad``: a leaf's AccumulateGrad runs, and a non-leaf
    keeps its gradient because the caller made it ``retain_grad()``.

    ``root_grads`` are arrays, or Tensors with ``create_graph`` (a given gradient that
    requires grad is then differentiated through, as for a Hessian-vector product).
    """
    root_edges = _root_edges(roots)
    plan = GraphPlan(root_edges, inputs, accumulate)
    queue = ReadyQueue(plan, root_edges, root_grads)
    # Like PyTorch, a backward formula that divides by zero or overflows gives inf/nan
    # silently; NumPy would warn. Grad mode is ``create_graph`` for everything the pass
    # calls; the caller's mode comes back afterwards, also when a hook raises.
    task = plan.task
    with task, np.errstate(all="ignore"), queue, set_grad_enabled(create_graph):
        for node, grads in queue:
            task.current_node = node
            _State.enabled = create_graph  # whatever a hook of an earlier node set
            if anomaly_mode.state.enabled:  # NaN checks, and the forward stack on an error
                grad_inputs = anomaly_mode.run_checked(run_node, node, grads, plan)
            else:
                grad_inputs = run_node(node, grads, plan)
            if grad_inputs is None:  # autograd.grad does not run this node
                continue
            if not retain_graph and node._saved:
                node._saved = None  # free the saved tensors; a second backward finds them gone
            queue.deliver(node.next_functions, grad_inputs)
        _State.enabled = create_graph
        _run_final_callbacks(task)
    return plan.captured_grads(allow_unused)


def _run_final_callbacks(task: GraphTask) -> None:
    """Call the callbacks queued during this backward, in the order they were queued, once
    every node has run (the leaves' ``.grad`` is complete); one may queue another, which
    runs too. They run with the pass's grad mode, inside it (PyTorch's
    ``exec_post_processing``)."""
    callbacks = task.final_callbacks
    i = 0
    while i < len(callbacks):
        callbacks[i]()
        i += 1


class _EngineBase:
    """``Variable._execution_engine``: PyTorch's C++ engine as Python sees it. Of its
    methods, hook code uses one, ``queue_callback``.

    A hook sees one gradient at a time; code that must act once the whole backward is done
    (``ModuleTracker`` leaving the modules it entered, FSDP waiting for its gradient
    reductions) queues a callback from a hook instead. The callback belongs to the backward
    that is running (the innermost, if a hook started another), and runs at its end.
    See <https://docs.pytorch.org/docs/2.13/autograd.html>
    """

    # PyTorch's is a C++ class that prints as ``torch._C._EngineBase``; ``torch._C`` binds
    # it as ``_ImperativeEngine`` only, and so does ``minitorch_hooks._C``.
    __module__ = "minitorch_hooks._C"
    __slots__ = ()

    def queue_callback(self, callback: Callable[[], Any]) -> None:
        """Run ``callback()`` when the backward that is running now ends."""
        if not _running:
            raise RuntimeError("Final callbacks can only be installed during backward pass.")
        _running[-1].final_callbacks.append(callback)


def _root_edges(roots: Sequence[Tensor]) -> list[tuple[Node, int]]:
    """Where each root's gradient enters the graph."""
    edges = []
    for i, root in enumerate(roots):
        edge = gradient_edge(root)
        if edge[0] is None:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(edge)
    return edges


# -- step 1: plan the graph task ---------------------------------------------------------------

class GraphPlan:
    """What one backward will do, worked out before any node runs (the ``dependencies`` and
    ``exec_info`` of PyTorch's ``GraphTask``).

    ``dependencies`` counts the edges that lead into each node: a node runs once all of
    them have delivered. For ``autograd.grad``, ``captures`` says where each input's
    gradient is picked up, ``needed`` which nodes run to get there (None: every node runs),
    and ``queued`` which nodes enter the ready queue at all.
    """

    __slots__ = ("dependencies", "captures", "needed", "queued", "captured", "returns", "task")

    def __init__(self, root_edges: Sequence[tuple[Node, int]],
                 inputs: Sequence[Tensor] | None, accumulate: bool) -> None:
        self.dependencies = _count_dependencies(root_edges)
        self.captures, self.needed = ({}, None) if inputs is None else \
            _plan_captures(inputs, root_edges)
        if accumulate:  # PyTorch runs the inputs' own nodes too: a leaf's AccumulateGrad,
            self.needed |= self.captures.keys()  # and a non-leaf's grad_fn, which sends
            # on only what is needed
        self.returns = inputs is not None and not accumulate
        self.captured: list[Any] = [None] * (len(inputs) if inputs is not None else 0)
        # The nodes this run will run, for hooks that ask (``register_multi_grad_hook``).
        self.task = GraphTask(self.dependencies if self.needed is None
                              else self.needed | self.captures.keys(),
                              self.captures if self.returns else {}, self.needed is None)
        # With ``inputs``, only nodes that run or pick up a gradient are queued, and a single
        # root's node, where PyTorch starts whatever it leads to.
        self.queued = None
        if self.needed is not None:
            self.queued = self.task.nodes | {root_edges[0][0]} if len(root_edges) == 1 \
                else self.task.nodes

    def pick_up(self, node: Node, grads: Sequence[Any]) -> None:
        """Keep the gradients of ``node``'s outputs that are inputs of ``autograd.grad``."""
        for output_nr, index in self.captures.get(node, ()):
            self.captured[index] = grads[output_nr]

    def captured_grads(self, allow_unused: bool) -> list[Any] | None:
        """What ``autograd.grad`` returns (None for a backward that accumulates)."""
        if not self.returns:
            return None
        for i, grad in enumerate(self.captured):
            if grad is None and not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior.")
        return self.captured


def _count_dependencies(root_edges: Sequence[tuple[Node, int]]) -> dict[Node, int]:
    """How many edges lead into each node reachable from the roots (an iterative walk)."""
    dependencies: dict[Node, int] = {}
    for node, _ in root_edges:
        dependencies[node] = dependencies.get(node, 0) + 1
    stack = list(dependencies)
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            if child in dependencies:
                dependencies[child] += 1
            else:  # the first edge found into ``child``: walk on from it too
                dependencies[child] = 1
                stack.append(child)
    return dependencies


def _plan_captures(inputs: Sequence[Tensor], root_edges: Sequence[tuple[Node, int]]
                   ) -> tuple[dict[Node, list[tuple[int, int]]], set[Node]]:
    """For ``autograd.grad``: where each input's gradient is picked up, and which nodes must
    run to get there (those from which a pick-up point can be reached)."""
    captures: dict[Node, list[tuple[int, int]]] = {}
    for index, tensor in enumerate(inputs):
        node, output_nr = gradient_edge(tensor)
        if node is None:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        captures.setdefault(node, []).append((output_nr, index))

    needed: set[Node] = set()
    # Post-order walk: a node is needed if any child is needed or is a pick-up point.
    visited: set[Node] = set()
    stack: list[tuple[Node, bool]] = [(node, False) for node, _ in root_edges]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            if any(c is not None and (c in needed or c in captures)
                   for c, _ in node.next_functions):
                needed.add(node)
            continue
        if node in visited:
            continue
        visited.add(node)
        stack.append((node, True))
        stack.extend((c, False) for c, _ in node.next_functions if c is not None)
    return captures, needed


# -- step 2: the ready queue ---------------------------------------------------------------------

class ReadyQueue:
    """The nodes whose gradients are complete, in the order PyTorch runs them.

    Gradients arriving at a node are summed in its buffer; when the last edge into it has
    delivered, the node enters the heap, ranked by ``sequence_nr`` (the node made last runs
    first). Iterating gives each ready node with its gradients until this run's nodes are
    done. Nodes of a backward this one interrupted wait below ``floor`` and stay.
    """

    __slots__ = ("heap", "floor", "rank_base", "buffers", "dependencies", "queued")

    def __init__(self, plan: GraphPlan, root_edges: Sequence[tuple[Node, int]],
                 root_grads: Sequence[Any]) -> None:
        self.heap = _ready
        self.floor = len(_ready)
        self.rank_base = -len(_running) * _DEPTH_STEP  # ahead of a backward it interrupts
        self.buffers: dict[Node, list[Any]] = {}
        self.dependencies, self.queued = plan.dependencies, plan.queued
        if len(root_edges) > 1:  # PyTorch starts from a new node that hands out the root
            # gradients: the latest made, it comes out at once, but moves what waits below.
            heapq.heappush(self.heap, (self.rank_base - next(_sequence_nr), None, None))
            heapq.heappop(self.heap)
        self.deliver(root_edges, root_grads)

    def deliver(self, edges: Sequence[tuple[Node | None, int]], grads: Sequence[Any]) -> None:
        """Add each gradient into the buffer of the node its edge leads to. A node still
        waiting for other edges keeps its buffer in ``buffers``; a ready one takes it along
        into the heap."""
        buffers, dependencies, queued = self.buffers, self.dependencies, self.queued
        heap, rank_base = self.heap, self.rank_base
        for (node, input_nr), grad in zip(edges, grads):
            if node is None:
                continue
            waiting = dependencies[node] - 1
            dependencies[node] = waiting
            buffer = buffers.get(node) if waiting else buffers.pop(node, None)
            if buffer is None:
                buffer = [None] * node.num_outputs
                if waiting:
                    buffers[node] = buffer
            if grad is not None:
                previous = buffer[input_nr]
                buffer[input_nr] = grad if previous is None else previous + grad
            if waiting == 0 and (queued is None or node in queued):
                heapq.heappush(heap, (rank_base - node._sequence_nr, node, buffer))

    def __iter__(self) -> Iterator[tuple[Node, list[Any]]]:
        heap, floor = self.heap, self.floor
        while len(heap) > floor:
            _, node, buffer = heapq.heappop(heap)
            yield node, buffer

    def __enter__(self) -> ReadyQueue:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """When a hook raises, this run's nodes still in the heap leave it (they come out
        first), as PyTorch pops and skips them."""
        while len(self.heap) > self.floor:
            heapq.heappop(self.heap)


# -- step 3: run one node, its hooks in order ---------------------------------------------------

def run_node(node: Node, grads: list[Any], plan: GraphPlan) -> Sequence[Any] | None:
    """One node's turn: its hook stages in PyTorch's order, then the gradients it sends on
    (None when ``autograd.grad`` does not run it).

    ``autograd.grad`` picks up an input's gradient before the tensor hooks of a node that
    runs, after those of a node that does not (a leaf's AccumulateGrad), as PyTorch does.
    """
    hooks, at_leaf, needed = node._hooks, type(node) is AccumulateGrad, plan.needed
    if hooks is None and needed is None and not at_leaf:  # most nodes: no hooks, so the
        grad_inputs = apply_formula(node, grads)           # formula (3.) is all there is,
        if node._hooks is None:                            # unless a hook that ran inside it
            return grad_inputs                             # (an unpack hook) registered one
        return _call_node_post_hooks(node, grad_inputs, grads, had_hooks=False)
    if needed is not None and node in needed:
        plan.pick_up(node, grads)
    if hooks is not None or at_leaf:
        grads = _call_tensor_pre_hooks(node, grads)              # 1. tensor hooks, retain_grad
    if needed is not None and node not in needed:
        plan.pick_up(node, grads)
        return None
    if hooks is not None and hooks.pre:
        grads = _call_node_pre_hooks(node, grads)                # 2. node pre-hooks
    if at_leaf:
        grads[0] = _accumulate(node.variable, grads[0])          # 3. into .grad, then the
        grad_inputs: Sequence[Any] = ()                          # post-accumulate hooks
    else:
        grad_inputs = apply_formula(node, grads)                 # 3. the formula
        if needed is not None and node.drops_unneeded_grads:
            grad_inputs = _only_where_needed(grad_inputs, node.next_functions, plan)
    if node._hooks is not None and node._hooks.post:  # (also one registered as it ran)
        grad_inputs = _call_node_post_hooks(node, grad_inputs, grads,  # 4. node post-hooks
                                            had_hooks=hooks is not None)
    return grad_inputs


def _only_where_needed(grads: Sequence[Any], edges: Sequence[tuple[Node | None, int]],
                       plan: GraphPlan) -> list:
    """``grads`` with None where an edge leads to a node that this run will not run: a
    built-in formula computes no gradient for it (a custom one may)."""
    needed, captures = plan.needed, plan.captures
    return [grad if node is None or node in needed or node in captures else None
            for (node, _), grad in zip(edges, grads)]


def apply_formula(node: Node, grads: list[Any]) -> Sequence[Any]:
    """Run one node's formula, then make each gradient match its input's shape and dtype
    (summing over broadcast dimensions), as PyTorch's ``validate_outputs`` does.

    The gradients are arrays, or Tensors under ``create_graph``: the shape and dtype are
    read from the array either way, and the rare fix-ups go through ``_formula``."""
    drops_unneeded = node.drops_unneeded_grads
    if drops_unneeded and grads[0] is None and _all_none(grads):  # no gradient arrived
        return (None,) * len(node.next_functions)
    grad_inputs = node.backward(*grads)
    if not isinstance(grad_inputs, tuple):
        grad_inputs = (grad_inputs,)
    checked = []
    for grad, meta in zip(grad_inputs, node._input_meta):
        if grad is not None:
            if meta is None:  # no edge: dropped, or passed on unchecked by a custom backward
                if drops_unneeded:
                    grad = None
            else:
                shape, dtype = meta
                array = grad._data if type(grad) is Tensor else grad
                if array.shape != shape:
                    grad = _formula.sum_to_shape(grad, shape)
                if array.dtype is not dtype and array.dtype != dtype:
                    grad = _formula.astype(grad, dtype)
        checked.append(grad)
    return checked


def _all_none(grads: Sequence[Any]) -> bool:
    for grad in grads:
        if grad is not None:
            return False
    return True


# -- the hook stages of run_node --------------------------------------------------------------

def _call_tensor_pre_hooks(node: Node, grads: list[Any]) -> list[Any]:
    """The hooks registered on the tensors this node produced, then ``retain_grad``.

    A tensor that got no gradient (a sibling output of the one backward started from)
    has its hooks called with None, as PyTorch calls them; ``retain_grad`` keeps nothing.
    """
    if isinstance(node, AccumulateGrad):
        hooks = node.variable._backward_hooks
        if hooks:
            grads[0] = _run_tensor_hooks(hooks, grads[0], node.variable)
        return grads
    for output_nr, hooks in node._hooks.tensor_pre:
        if hooks:
            grads[output_nr] = _run_tensor_hooks(hooks, grads[output_nr], (node, output_nr))
    for output_nr, tensor_ref in node._hooks.retains_grad.items():
        tensor, grad = tensor_ref(), grads[output_nr]
        if tensor is not None and grad is not None:
            _retain(tensor, grad)
    return grads


def _run_tensor_hooks(hooks: dict, grad: Any, tensor: Any) -> Any:
    """``tensor`` is the leaf, or ``(node, output_nr)`` for a non-leaf (what a trace shows).
    A hook may replace a gradient, but not a None one (``check_replacement``)."""
    result = call_hooks(TENSOR_HOOK, tensor, hooks_in(hooks),
                        None if grad is None else _wrap(grad), _call_tensor_hook)
    return None if result is None else _unwrap(result)


def _call_tensor_hook(hook: Hook, grad: Tensor) -> Tensor | None:
    """``hook(grad)``; a returned tensor must have the gradient's dtype and size. Handing
    the gradient back is no replacement (PyTorch's hook loop skips a result that *is* its
    argument)."""
    result = hook.fn(grad)
    if result is grad:
        return None
    check_replacement(hook.fn, grad, result)
    return result


def check_replacement(hook: Callable, original: Tensor | None, result: object) -> None:
    """The checks PyTorch applies to a value a backward hook returns in place of a grad."""
    if result is None:
        return
    if original is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type_name(result)}'")
    name = getattr(hook, "__name__", "<unknown>")
    if result.dtype is not original.dtype:
        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was {original.dtype.legacy_name} "
            f"got {result.dtype.legacy_name})")
    if result.shape != original.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")


def _call_node_pre_hooks(node: Node, grads: list[Any]) -> list[Any]:
    """``hook(grad_outputs)``; a returned tuple replaces the gradients the node gets."""
    return _unwrap_all(call_hooks(NODE_PRE_HOOK, node, hooks_in(node._hooks.pre),
                                  tuple(_wrap_all(grads)), _call_node_pre_hook))


def _call_node_pre_hook(hook: Hook, grad_outputs: tuple) -> tuple | None:
    return check_returned_grads(hook.fn, grad_outputs, hook.fn(grad_outputs))


def _call_node_post_hooks(node: Node, grad_inputs: Sequence[Any], grads: list[Any],
                          had_hooks: bool) -> list[Any]:
    """``hook(grad_inputs, grad_outputs)``; a returned tuple replaces ``grad_inputs``.

    A post-hook registered while the node ran (by an unpack hook, say) fires too; PyTorch
    kept no ``grad_outputs`` for it then, so it gets an empty tuple."""
    grad_outputs = tuple(_wrap_all(grads)) if had_hooks else ()

    def call(hook: Hook, value: tuple) -> tuple | None:
        return check_returned_grads(hook.fn, value, hook.fn(value, grad_outputs))

    return _unwrap_all(call_hooks(NODE_HOOK, node, hooks_in(node._hooks.post),
                                  tuple(_wrap_all(grad_inputs)), call))


def check_returned_grads(hook: Callable, grads: tuple, result: object) -> tuple | None:
    """The tuple a node hook returned, checked: one gradient per entry, each one a valid
    replacement."""
    if result is None:
        return None
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type_name(result)}'")
    if len(result) != len(grads):
        name = getattr(hook, "__name__", "<unknown>")
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values "
                           f"(got {len(result)}, but expected {len(grads)})")
    for original, replacement in zip(grads, result):
        check_replacement(hook, original, replacement)
    return result


def _wrap(grad: Any) -> Tensor:
    """A gradient as hooks see it: a Tensor (under create_graph it already is one)."""
    return grad if type(grad) is Tensor else wrap(grad)


def _unwrap(tensor: Tensor) -> Any:
    """What a hook returned, back in the engine's form: its array, or under create_graph
    the Tensor itself, so that a returned tensor with a grad_fn is differentiated through."""
    return tensor if _State.enabled else tensor._data


def _wrap_all(grads: Sequence[Any]) -> list:
    return [None if g is None else _wrap(g) for g in grads]


def _unwrap_all(grads: Sequence[Any]) -> list:
    return [None if g is None else _unwrap(g) for g in grads]


# -- where gradients end up -------------------------------------------------------------------

def _accumulate(leaf: Tensor, grad: Any) -> Any:
    """Add into ``leaf.grad``, then run the leaf's post-accumulate-grad hooks: PyTorch runs
    them even when no gradient came. Returns the gradient the node's post-hooks see.

    As in PyTorch's ``AccumulateGrad``, later gradients are added in place, except under
    create_graph, where ``.grad`` becomes the new tensor ``grad + new`` so that the sum
    stays differentiable (the first one is then a ``copy_``, whose ``CopyBackwards`` leads
    back to the gradient's graph).

    The first gradient is stored as a copy. PyTorch stores the gradient itself when nothing
    else holds it ("stealing" it), which it learns from a reference count; here the copy is
    always made (a reference count is a fact of CPython, not of the graph), and the node's
    post-hooks are handed the array now in ``.grad``, so they see what a
    post-accumulate-grad hook changed in place, as they do in PyTorch. One case differs:
    when a hook kept the gradient, PyTorch copies too, and its post-hooks then see the
    kept gradient, not ``.grad``."""
    if grad is None:
        pass
    elif type(grad) is Tensor:
        leaf._grad = _formula.copy(grad) if leaf._grad is None else leaf._grad + grad
    elif leaf._grad is None:  # always a copy, laid out as the leaf is (PyTorch's contract)
        leaf._grad = wrap(_laid_out_like(leaf._data, grad))
        grad = leaf._grad._data
    else:
        leaf._grad._data += grad
        leaf._grad._version_counter[0] += 1
    hooks = leaf._post_accumulate_grad_hooks
    if hooks:
        call_hooks(POST_ACCUMULATE_GRAD_HOOK, leaf, hooks_in(hooks), leaf,
                   _call_post_accumulate_grad_hook)
    return grad


def _laid_out_like(variable: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """A copy of ``grad`` with the strides of the leaf it is for: PyTorch's "layout
    contract" for ``.grad`` (``AccumulateGrad::accumulateGrad``), so that an optimizer
    can step a parameter and its gradient element by element. The gradient of a
    transposed or a pooled result may arrive with any strides; ``.grad`` of a contiguous
    leaf is contiguous all the same."""
    copy = np.empty_like(variable, dtype=grad.dtype)
    copy[...] = grad
    return copy


def _call_post_accumulate_grad_hook(hook: Hook, tensor: Tensor) -> Tensor | None:
    """``hook(tensor)`` must return None (``POST_ACCUMULATE_GRAD_HOOK``'s rule). Handing
    the tensor back is no result, and a returned tensor is checked like a gradient."""
    result = hook.fn(tensor)
    if result is tensor:
        return None
    check_replacement(hook.fn, tensor, result)
    return result


def _retain(tensor: Tensor, grad: Any) -> None:
    """``retain_grad()``: keep a non-leaf's gradient in ``.grad`` (a clone, then a sum,
    both recorded under create_graph as in PyTorch)."""
    if type(grad) is Tensor:
        tensor._grad = grad.clone() if tensor._grad is None else tensor._grad + grad
    elif tensor._grad is None:
        tensor._grad = wrap(np.array(grad, copy=True))
    else:
        tensor._grad = wrap(tensor._grad._data + grad)
