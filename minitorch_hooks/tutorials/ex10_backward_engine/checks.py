"""Checks for exercise 10: tensor hooks in a tiny backward engine.

The comparisons run one computation twice, on the learner's ``Value`` and on the
library's tensors (float64 leaves that require grad), and compare the gradients and the
hook calls. The scenarios use only what both have: ``+``, ``*``, ``tanh()``, ``sum()``,
``register_hook``, ``backward()`` and ``.grad``.
"""

from __future__ import annotations

import numpy as np

from ..checking import Checks, expect, expect_close, expect_equal, expect_raises, library_name

CHECKS = Checks(compare_with_pytorch=True)


def outcome(scenario, leaf):
    events = []
    grads = scenario(leaf, events)
    return ([(name, np.round(np.array(grad, dtype=float), 6).tolist())
             for name, grad in events],
            [np.round(np.array(grad, dtype=float), 6).tolist() for grad in grads])


def expect_same(ex, torch, scenario):
    mine = outcome(scenario, ex.Value)
    theirs = outcome(scenario, lambda values: torch.tensor(values, dtype=torch.float64,
                                                           requires_grad=True))
    library = library_name(torch)
    expect_equal(mine[0], theirs[0], "the hook calls", f"the hooks were called as "
                 f"{mine[0]}; with {library} they are called as {theirs[0]} (name, gradient "
                 "received), in this order")
    expect_equal(mine[1], theirs[1], "the leaves' gradients", f"the leaves' gradients are "
                 f"{mine[1]}; {library} gives {theirs[1]}")


def recording(events, name, replace=None):
    def hook(grad):
        events.append((name, grad))
        return None if replace is None else replace(grad)

    return hook


# -- step 1 ----------------------------------------------------------------------------------
@CHECKS(step=1, title="register_hook keeps hooks by handle id, and the handle removes them",
        nudge="as in exercise 1: make the handle first, then store the hook under its id",
        pointer="Value.register_hook in your file; RemovableHandle",
        solution="handle = RemovableHandle(self._backward_hooks); self._backward_hooks["
                 "handle.id] = hook; return handle")
def hooks_are_registered(ex, torch):
    def scenario(leaf, events):
        x = leaf([1.0])
        first, second = recording(events, "first"), recording(events, "second")
        handles = [x.register_hook(first), x.register_hook(second)]
        events.append(("stored in order", [list(x._backward_hooks.items()) ==
                                           [(handles[0].id, first), (handles[1].id, second)]]))
        handles[0].remove()
        events.append(("after remove", [len(x._backward_hooks)]))
        return []

    expect_same(ex, torch, scenario)


# -- steps 2 and 3 (no backward pass yet, so nothing to compare) -----------------------------
@CHECKS(step=2, title="count_dependencies counts every use, as in b = a + a",
        nudge="count edges, not nodes: a parent used twice is counted twice, but visited once",
        pointer="count_dependencies; the exercise's text, step 2",
        solution="walk from root with a stack; count += 1 for each parent edge, and push a "
                 "parent the first time you see it", compare_with_pytorch=False)
def dependencies_are_counted(ex, torch):
    a = ex.Value([1.0, 2.0])
    b = a + a
    c = b * b
    counts = ex.count_dependencies(c)
    expect(counts == {c: 0, b: 2, a: 2}, "count_dependencies(c) should give c 0 uses, "
           f"b 2 (b * b) and a 2 (a + a); it gave {sorted(counts.values())}")


@CHECKS(step=2, title="count_dependencies walks a chain of 5000 steps without recursion",
        nudge="a chain of 5000 steps is deeper than Python's recursion limit; walk it with a loop",
        pointer="count_dependencies; sys.getrecursionlimit in Python's docs",
        solution="use a list as a stack (append / pop) instead of a recursive function",
        compare_with_pytorch=False)
def deep_graphs_work(ex, torch):
    x = v = ex.Value(1.0)
    for _ in range(5000):
        v = v + ex.Value(0.0)
    counts = ex.count_dependencies(v)
    expect(len(counts) == 10001 and counts[x] == 1,
           f"the chain has 10001 Values and x is used once; got {len(counts)} Values")


@CHECKS(step=3, title="run_hooks calls the hooks in order; a result replaces the gradient",
        nudge="each hook sees the gradient the previous one left; None means 'keep it'",
        pointer="run_hooks; Tensor.register_hook's docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.Tensor.register_hook.html)",
        solution="for hook in tuple(value._backward_hooks.values()): result = hook(grad); "
                 "if result is not None: grad = result", compare_with_pytorch=False)
def hooks_replace_in_order(ex, torch):
    v = ex.Value([1.0, 1.0])
    events = []
    v.register_hook(recording(events, "watch"))
    v.register_hook(recording(events, "double", lambda grad: grad * 2))
    v.register_hook(recording(events, "after"))
    result = ex.run_hooks(v, np.array([1.0, -3.0]))
    expect_close(result, [2.0, -6.0], "run_hooks' result")
    seen = [(name, np.array(grad).tolist()) for name, grad in events]
    expect(seen == [("watch", [1.0, -3.0]), ("double", [1.0, -3.0]), ("after", [2.0, -6.0])],
           f"the hooks saw {seen}")


@CHECKS(step=3, title="a replacement of another shape is refused",
        nudge="a replacement must have the gradient's shape; compare the shapes and raise "
              "PyTorch's error",
        pointer="run_hooks; the exercise's text, step 3, for the error's type and message",
        solution="compare np.shape(result) with np.shape(grad) and raise RuntimeError("
                 "f\"hook '{hook.__name__}' has changed the size of value\")",
        compare_with_pytorch=False)
def wrong_shape_is_refused(ex, torch):
    v = ex.Value([1.0, 1.0])

    def shrink(grad):
        return grad[:1]

    v.register_hook(shrink)
    error = expect_raises(RuntimeError, lambda: ex.run_hooks(v, np.array([1.0, 2.0])),
                          "a hook returning a gradient of another shape was accepted")
    expect(str(error) == "hook 'shrink' has changed the size of value",
           f"the message is {str(error)!r}")


# -- step 4 ----------------------------------------------------------------------------------
@CHECKS(step=4, title="b = a + a: a's hook runs once, with both gradients summed",
        nudge="a value waits until every gradient for it has arrived; only then do its hooks run, "
              "once, on the sum",
        pointer="backward in your file, and the counts from step 2; the course's 'Hook kinds'",
        solution="a Value is ready only when its dependency count reaches 0; sum the "
                 "gradients that arrive for it in a dict before running its hooks")
def shared_inputs_are_summed(ex, torch):
    def scenario(leaf, events):
        a = leaf([1.0, 2.0])
        b = a + a
        c = (b * b).sum()
        a.register_hook(recording(events, "a"))
        b.register_hook(recording(events, "b"))
        c.backward()
        return [a.grad]

    expect_same(ex, torch, scenario)


@CHECKS(step=4, title="hooks fire in PyTorch's order, and a replacement flows on",
        nudge="the engine runs the ready value computed last first; a value's hooks run before its"
              " own backward function",
        pointer="backward and the Ready class; heapq in Python's docs",
        solution="pop from a heap of Ready(-sequence_nr, value): the latest computed first, "
                 "leaves as soon as ready; run the hooks before backward_fn")
def hooks_fire_in_order(ex, torch):
    def scenario(leaf, events):
        x, w = leaf([0.5, -1.0]), leaf([2.0, 3.0])
        y = (x * w).tanh()
        z = x * x
        out = (y * z).sum()
        for name, value in (("x", x), ("w", w), ("z", z)):
            value.register_hook(recording(events, name))
        y.register_hook(recording(events, "y, doubled", lambda grad: grad * 2))
        out.backward()
        return [x.grad, w.grad]

    expect_same(ex, torch, scenario)


@CHECKS(step=4, title="a second backward pass adds into the leaves' .grad",
        nudge="a leaf's .grad is added to across passes, not overwritten",
        pointer="where backward sets .grad; Tensor.grad in PyTorch's docs",
        solution="a leaf's .grad is the gradient on the first pass, and grad + the new one after")
def gradients_accumulate(ex, torch):
    def scenario(leaf, events):
        x = leaf([1.0, -2.0])
        x.register_hook(recording(events, "x"))
        for _ in range(2):
            (x * x).sum().backward()
        return [x.grad]

    expect_same(ex, torch, scenario)


@CHECKS(step=4, title="a chain of 5000 operations runs backward without recursion",
        nudge="nothing in backward may recurse, count_dependencies included",
        pointer="count_dependencies and backward; sys.getrecursionlimit",
        solution="the heap loop is iterative already; count_dependencies must be too")
def deep_backward(ex, torch):
    def scenario(leaf, events):
        x = leaf([1.0])
        v = x
        for _ in range(5000):
            v = v * leaf([1.0])
        v.sum().backward()
        return [x.grad]

    expect_same(ex, torch, scenario)


# What real PyTorch 2.13 does with `torch.stack(xs).sum().backward()` when each of the
# leaves xs[i] has a hook that records i: the order of its ready queue, a binary heap in
# which every leaf's accumulator has the same priority. tests/test_exercises.py asks real
# PyTorch for these orders again, so they cannot go stale.
PYTORCH_LEAF_ORDER = {3: [0, 1, 2], 4: [0, 2, 1, 3], 5: [0, 2, 4, 1, 3],
                      8: [0, 2, 6, 5, 7, 4, 1, 3]}


@CHECKS(step=4, title="leaves ready together leave the heap in PyTorch's order",
        nudge="leaves with the same priority: PyTorch does not break the tie by arrival; what does"
              " your heap entry compare by?",
        pointer="the Ready class and the heap in backward; heapq's notes on equal priorities",
        solution="push every ready Value as Ready(-sequence_nr, value), which compares by "
                 "priority alone: no arrival counter, so equal priorities are left to heapq",
        compare_with_pytorch=False)
def tied_leaves_follow_the_heap(ex, torch):
    for count, expected in PYTORCH_LEAF_ORDER.items():
        order = []
        leaves = [ex.Value([float(i)]) for i in range(count)]
        for i, leaf in enumerate(leaves):
            leaf.register_hook(lambda grad, i=i, order=order: order.append(i))
        ex.Value.stack(leaves).sum().backward()
        expect(order == expected, f"the hooks of {count} stacked leaves ran in the order "
               f"{order}; PyTorch runs them as {expected}: its heap, not the order the "
               "leaves became ready, decides between equal priorities")
