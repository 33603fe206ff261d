"""The backward pass: run the graph's nodes in dependency order and deliver gradients.

This is PyTorch's engine in one screen. It first counts, for every node, how many edges
lead into it; a node runs only when all of them have delivered, so ``b = a + a`` sends both
gradients to ``a`` before ``a``'s node runs. The loop is iterative, so a graph of any depth
works.

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

At each node the hooks run in PyTorch's order: the tensor hooks of the tensors it produced,
then ``retain_grad``, then the node's pre-hooks, then the node itself, then its post-hooks.
An output that got no gradient (the other half of a ``split``, say) still has its hooks
called, with None.
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

import contextlib
import heapq
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..utils.hooks import call_hooks, type_name
from . import _formula
from .grad_mode import _State, set_grad_enabled
from .graph import AccumulateGrad, GraphTask, Node, _running, _sequence_nr, gradient_edge

# One gradient (or None) per output of a node: NumPy arrays, or Tensors under create_graph.
Grads = list

# The ready queue: a heap of (rank, node), the smallest rank first. The rank is
# -(depth * 2**64 + sequence_nr), depth being how many backward passes are running already:
# PyTorch ranks by (depth, sequence_nr), largest first, and a sequence_nr stays below 2**64.
_ready: list[tuple[int, Node | None]] = []
_DEPTH_STEP = 2**64


def run_backward(
    roots: Sequence[Tensor],
    root_grads: Sequence[np.ndarray],
    retain_graph: bool,
    inputs: Sequence[Tensor] | None = None,
    allow_unused: bool = False,
    accumulate: bool = False,
    create_graph: bool = False,
) -> list[Any] | None:
    """Backpropagate ``root_grads`` from ``roots``.

    Without ``inputs`` (``Tensor.backward``) every node runs and leaves accumulate into
    ``.grad``. With ``inputs`` (``autograd.grad``) only the nodes on a path to them run, and
    their gradients are returned instead of accumulated. With ``inputs`` and
    ``accumulate`` (``backward(inputs=...)``) only those nodes run too, but the gradients
    accumulate into the inputs' ``.grad``: a leaf's AccumulateGrad runs, and a non-leaf
    keeps its gradient because the caller made it ``retain_grad()``.

    ``root_grads`` are arrays, or Tensors with ``create_graph`` (a given gradient that
    requires grad is then differentiated through, as for a Hessian-vector product).
    """
    root_edges = []
    for i, root in enumerate(roots):
        edge = gradient_edge(root)
        if edge[0] is None:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        root_edges.append(edge)

    dependencies = _count_dependencies(root_edges)
    captures, needed = _plan_captures(inputs, root_edges) if inputs is not None else ({}, None)
    if accumulate:  # PyTorch runs the inputs' own nodes too: a leaf's AccumulateGrad, and a
        needed |= captures.keys()  # non-leaf's grad_fn, which sends on only what is needed
    captured: list[Any] = [None] * (len(inputs) if inputs is not None else 0)
    # The nodes this run will run, for hooks that ask (``register_multi_grad_hook``).
    task = GraphTask(dependencies if needed is None else needed | captures.keys(),
                     {} if accumulate else captures)
    # What enters the ready queue: with ``inputs``, only nodes that run or pick up a
    # gradient, and a single root's node, where PyTorch starts whatever it leads to.
    queued = None
    if needed is not None:
        queued = task.nodes | {root_edges[0][0]} if len(root_edges) == 1 else task.nodes

    buffers: dict[Node, Grads] = {}
    ready = _ready
    rank_base = -len(_running) * _DEPTH_STEP  # ranks ahead of a backward this one interrupts
    # A hook may have started this backward while another was running: that one's nodes
    # wait in the queue, behind ours, and stay there, this many of them.
    floor = len(ready)

    def deliver(edges: Sequence[tuple[Node | None, int]], grads: Sequence[Any]) -> None:
        for (node, input_nr), grad in zip(edges, grads):
            if node is None:
                continue
            buffer = buffers.get(node)
            if buffer is None:
                buffer = buffers[node] = [None] * node.num_outputs
            if grad is not None:
                previous = buffer[input_nr]
                buffer[input_nr] = grad if previous is None else previous + grad
            waiting = dependencies[node] - 1
            dependencies[node] = waiting
            if waiting == 0 and (queued is None or node in queued):
                heapq.heappush(ready, (rank_base - node._sequence_nr, node))

    def pick_up(node: Node, grads: Grads) -> None:
        for output_nr, index in captures.get(node, ()):
            captured[index] = grads[output_nr]

    if len(root_edges) > 1:  # PyTorch starts from a new node that hands out the root
        # gradients: the latest made, it comes out at once, but moves what waits below it.
        heapq.heappush(ready, (rank_base - next(_sequence_nr), None))
        heapq.heappop(ready)
    deliver(root_edges, root_grads)
    # Like PyTorch, a backward formula that divides by zero or overflows gives inf/nan
    # silently; NumPy would warn. Grad mode is ``create_graph`` for everything the pass
    # calls; the caller's mode comes back afterwards, also when a hook raises.
    with task, np.errstate(all="ignore"), _leftovers_dropped(floor), \
            set_grad_enabled(create_graph):
        while len(ready) > floor if floor else ready:  # (a plain truth test is cheaper)
            node = heapq.heappop(ready)[1]
            grads = buffers.pop(node)
            task.current_node = node
            # Each node starts in the pass's mode, whatever a hook of an earlier one set.
            _State.enabled = create_graph
            hooks, at_leaf = node._hooks, type(node) is AccumulateGrad
            # autograd.grad picks up an input's gradient before the tensor hooks of a node
            # that runs, after those of a node that does not (a leaf's AccumulateGrad), as
            # PyTorch does; and it runs only the nodes that lead to an input.
            if needed is not None and node in needed:
                pick_up(node, grads)
            if hooks is not None or at_leaf:  # (most nodes have no hooks)
                grads = _call_tensor_pre_hooks(node, grads)
            if needed is not None and node not in needed:
                pick_up(node, grads)
                continue
            if hooks is not None and hooks.pre:
                grads = _unwrap_all(call_hooks(
                    hooks.pre.items(), tuple(_wrap_all(grads)), _node_hook_caller(grads, "pre"),
                    site="node pre-hook", owner=node))
            if at_leaf:
                _accumulate(node.variable, grads[0])
                grad_inputs = ()  # an AccumulateGrad sends nothing on
            else:
                grad_inputs = run_node(node, grads)
            if needed is not None and node.drops_unneeded_grads:  # a built-in formula
                # computes no gradient for a node that will not run; a custom one may
                grad_inputs = _only_where_needed(grad_inputs, node.next_functions, needed,
                                                 captures)
            if node._hooks is not None and node._hooks.post:
                # (a post-hook registered while the node ran, by an unpack hook say, fires
                # too; PyTorch kept no grad_outputs for it then, so it gets an empty tuple)
                grad_outputs = (tuple(_wrap_all(grads)) if hooks is not None and hooks.post
                                else ())
                grad_inputs = _unwrap_all(call_hooks(
                    node._hooks.post.items(), tuple(_wrap_all(grad_inputs)),
                    _node_hook_caller(grad_inputs, "post", grad_outputs),
                    site="node hook", owner=node))
            if not retain_graph and node._saved:
                node._saved = None  # free the saved tensors; a second backward finds them gone
            deliver(node.next_functions, grad_inputs)

    if inputs is None or accumulate:
        return None
    for i, grad in enumerate(captured):
        if grad is None and not allow_unused:
            raise RuntimeError(
                f"The differentiated Tensor at index {i} appears to not have been used in the "
                "graph. Set allow_unused=True if this is the desired behavior.")
    return captured


@contextlib.contextmanager
def _leftovers_dropped(floor: int) -> Iterator[None]:
    """When a hook raises, the nodes of this run still in the ready queue leave it (they
    come out first), as PyTorch pops and skips them; ``floor`` entries stay, those of a
    backward this one interrupted."""
    try:
        yield
    finally:
        while len(_ready) > floor:
            heapq.heappop(_ready)


def _only_where_needed(grads: Sequence[Any], edges: Sequence[tuple[Node | None, int]],
                       needed: set[Node], captures: dict) -> list:
    """``grads`` with None where an edge leads to a node that this run will not run."""
    return [grad if node is None or node in needed or node in captures else None
            for (node, _), grad in zip(edges, grads)]


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


def run_node(node: Node, grads: Grads) -> Sequence[Any]:
    """Run one node's formula, then make each gradient match its input's shape and dtype
    (summing over broadcast dimensions), as PyTorch's ``validate_outputs`` does.

    The gradients are arrays, or Tensors under ``create_graph``: the shape and dtype are
    read from the array either way, and the rare fix-ups go through ``_formula``."""
    drops_unneeded = node.drops_unneeded_grads
    if drops_unneeded and _all_none(grads):  # no gradient arrived at all
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


def _all_none(grads: Grads) -> bool:
    # A plain loop: this runs at every node, and is faster than ``all(...)``.
    for grad in grads:
        if grad is not None:
            return False
    return True


# -- hooks at a node ------------------------------------------------------------------------

def _call_tensor_pre_hooks(node: Node, grads: Grads) -> Grads:
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
    result = call_hooks(hooks.items(), None if grad is None else _wrap(grad),
                        _call_tensor_hook, site="tensor hook", owner=tensor)
    return None if result is None else _unwrap(result)


def _call_tensor_hook(hook_id: int, hook: Callable, grad: Tensor) -> Tensor | None:
    """``hook(grad)``; a returned tensor must have the gradient's dtype and size."""
    result = hook(grad)
    if result is not None:
        check_replacement(hook, grad, result)
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


def _node_hook_caller(current: Sequence[Any], kind: str, grad_outputs: tuple = ()) -> Callable:
    """A caller for ``call_hooks`` that runs node hooks and checks the tuple they return.

    A pre-hook gets ``(grad_outputs)``; a post-hook gets ``(grad_inputs, grad_outputs)``.
    """
    def call(hook_id: int, hook: Callable, value: tuple) -> tuple | None:
        result = hook(value) if kind == "pre" else hook(value, grad_outputs)
        if result is None:
            return None
        if not isinstance(result, tuple):
            raise TypeError(f"expected tuple, but hook returned '{type_name(result)}'")
        if len(result) != len(value):
            name = getattr(hook, "__name__", "<unknown>")
            raise RuntimeError(f"hook '{name}' has returned an incorrect number of values "
                               f"(got {len(result)}, but expected {len(value)})")
        for original, replacement in zip(value, result):
            check_replacement(hook, original, replacement)
        return result

    return call


def _wrap(grad: Any) -> Tensor:
    """A gradient as hooks see it: a Tensor (under create_graph it already is one)."""
    return grad if type(grad) is Tensor else Tensor._wrap(grad)


def _unwrap(tensor: Tensor) -> Any:
    """What a hook returned, back in the engine's form: its array, or under create_graph
    the Tensor itself, so that a returned tensor with a grad_fn is differentiated through."""
    return tensor if _State.enabled else tensor._data


def _wrap_all(grads: Sequence[Any]) -> list:
    return [None if g is None else _wrap(g) for g in grads]


def _unwrap_all(grads: Sequence[Any]) -> list:
    return [None if g is None else _unwrap(g) for g in grads]


# -- where gradients end up -------------------------------------------------------------------

def _accumulate(leaf: Tensor, grad: Any) -> None:
    """Add into ``leaf.grad``, then run the leaf's post-accumulate-grad hooks: PyTorch runs
    them even when no gradient came.

    As in PyTorch's ``AccumulateGrad``: the first gradient is stored as a copy; later ones
    are added in place, except under create_graph, where ``.grad`` becomes the new tensor
    ``grad + new`` so that the sum stays differentiable (the first copy is then a
    ``copy_``, whose ``CopyBackwards`` leads back to the gradient's graph)."""
    if grad is None:
        pass
    elif type(grad) is Tensor:
        leaf._grad = _formula.copy(grad) if leaf._grad is None else leaf._grad + grad
    elif leaf._grad is None:  # the gradient itself if nothing else holds it, as PyTorch's
        leaf._grad = Tensor._wrap(grad if _owned_by_engine(grad) else np.array(grad, copy=True))
    else:
        leaf._grad._data += grad
        leaf._grad._version_counter[0] += 1
    hooks = leaf._post_accumulate_grad_hooks
    if hooks and call_hooks(hooks.items(), leaf, _call_post_accumulate_grad_hook,
                            site="post-accumulate-grad hook", owner=leaf) is not leaf:
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def _owned_by_engine(grad: np.ndarray) -> bool:
    """Whether the first gradient of a leaf can become its ``.grad`` without a copy.

    PyTorch's AccumulateGrad "steals" a gradient that nothing else uses: a fresh, dense
    array. So a node post-hook's ``grad_outputs[0]`` is the very tensor in ``.grad``, and an
    in-place change by a post-accumulate-grad hook shows in both. A view (an expanded
    gradient) or an array that also went elsewhere (``a + a`` sends one array twice) is
    copied. The references counted: the engine's list, this call's argument and
    ``getrefcount``'s own."""
    return (grad.base is None and grad.flags.writeable and grad.flags.c_contiguous
            and sys.getrefcount(grad) <= 4)


def _call_post_accumulate_grad_hook(hook_id: int, hook: Callable, tensor: Tensor
                                    ) -> Tensor | None:
    """``hook(tensor)`` must return None, but PyTorch runs these hooks like tensor hooks:
    a returned tensor (checked like a gradient) is what the next hook receives, and only
    after the last one does the error come. Handing the tensor back is no replacement."""
    result = hook(tensor)
    if result is tensor:
        return None
    check_replacement(hook, tensor, result)
    return result


def _retain(tensor: Tensor, grad: Any) -> None:
    """``retain_grad()``: keep a non-leaf's gradient in ``.grad`` (a clone, then a sum,
    both recorded under create_graph as in PyTorch)."""
    if type(grad) is Tensor:
        tensor._grad = grad.clone() if tensor._grad is None else tensor._grad + grad
    elif tensor._grad is None:
        tensor._grad = Tensor._wrap(np.array(grad, copy=True))
    else:
        tensor._grad = Tensor._wrap(tensor._grad._data + grad)
