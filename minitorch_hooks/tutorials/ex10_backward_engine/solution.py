# %% [markdown]
# # Exercise 10: tensor hooks in a tiny backward engine
#
# A `Value` here is a tiny tensor: a NumPy array, the Values it was computed from, and a
# function that turns its gradient into theirs. You write the rest: `register_hook`, and
# the backward pass that runs the hooks, in the order PyTorch runs them. The checks run
# the same computations on your Values and on the library's tensors (minitorch_hooks',
# and real PyTorch's when it is installed) and compare the gradients and every hook call.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 10`.

# %%
from __future__ import annotations

import heapq
import itertools
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from minitorch_hooks.utils.hooks import RemovableHandle

Hook = Callable[[np.ndarray], "np.ndarray | None"]
_created = itertools.count()


# %% [markdown]
# ## Step 1: `Value.register_hook(hook)`
#
# Store the hook in `self._backward_hooks` (the name PyTorch's tensors use) under the id
# of a new `RemovableHandle(self._backward_hooks)`, and return the handle.

# %%
class Value:
    """An array that remembers how it was computed.

    `backward_fn(grad)` returns one gradient per parent. `sequence_nr` orders the backward
    pass as PyTorch does: a Value computed later is processed earlier, and a leaf (a Value
    made by the user, with no parents) as soon as all its gradients have arrived.
    """

    def __init__(self, data: object, parents: tuple[Value, ...] = (),
                 backward_fn: Callable[[np.ndarray], tuple] | None = None) -> None:
        self.data = np.asarray(data, dtype=np.float64)
        self.parents = parents
        self.backward_fn = backward_fn
        self.grad: np.ndarray | None = None  # filled in for leaves only
        self._backward_hooks: OrderedDict[int, Hook] = OrderedDict()
        self.sequence_nr = next(_created) if parents else math.inf

    @property
    def is_leaf(self) -> bool:
        return not self.parents

    def __add__(self, other: Value) -> Value:
        return Value(self.data + other.data, (self, other), lambda grad: (grad, grad))

    def __mul__(self, other: Value) -> Value:
        a, b = self.data, other.data
        return Value(a * b, (self, other), lambda grad: (grad * b, grad * a))

    def tanh(self) -> Value:
        t = np.tanh(self.data)
        return Value(t, (self,), lambda grad: (grad * (1 - t * t),))

    def sum(self) -> Value:
        shape = self.data.shape
        return Value(self.data.sum(), (self,), lambda grad: (np.full(shape, grad),))

    def backward(self) -> None:
        backward(self)

    @staticmethod
    def stack(values: Sequence[Value]) -> Value:
        """The Values side by side, as `torch.stack`: one node with many parents."""
        return Value(np.stack([v.data for v in values]), tuple(values),
                     lambda grad: tuple(grad))

    def register_hook(self, hook: Hook) -> RemovableHandle:
        # --- step 1: store the hook under a new handle's id ---
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle
        # --- end of step 1 ---


# %% [markdown]
# ## Step 2: `count_dependencies(root)`
#
# For every Value that `root` was computed from (and `root` itself), count how many times
# it is used as a parent in that graph: in `b = a + a`, `a` counts 2. Walk the graph with
# a stack, not with recursion, so that a chain of thousands of operations works.
#
# ## Step 3: `run_hooks(value, grad)`
#
# Call the Value's hooks in order, each with the gradient as it stands; a result that is
# not `None` replaces it. A replacement of another shape is an error: raise
# `RuntimeError(f"hook '{hook.__name__}' has changed the size of value")`, as PyTorch does.
#
# ## Step 4: `backward(root)`
#
# Start with a gradient of ones for `root`. Keep a heap (`heapq`) of the Values whose
# gradients have all arrived (their count from step 2 reached 0), as `Ready` entries:
# `Ready(-value.sequence_nr, value)`. For each Value popped: run its hooks on its summed
# gradient; a leaf adds the result into `.grad`, any other Value passes it to
# `backward_fn` and sends each result to its parent.
#
# `Ready` compares by priority alone, with no tie-breaker, like the entries of PyTorch's
# ready queue, a C++ `std::priority_queue`. Every leaf has the same priority, so among
# leaves that are ready together the heap's own sifting picks the order, and Python's
# `heapq` sifts exactly as C++'s heap does.

# %%
@dataclass(eq=False)
class Ready:
    """An entry of the ready heap: the highest priority (lowest number) pops first."""

    priority: float
    value: Value

    def __lt__(self, other: Ready) -> bool:
        return self.priority < other.priority


def count_dependencies(root: Value) -> dict[Value, int]:
    # --- step 2: how many times each Value is used, walking with a stack ---
    counts = {root: 0}
    stack = [root]
    while stack:
        for parent in stack.pop().parents:
            if parent not in counts:
                counts[parent] = 0
                stack.append(parent)
            counts[parent] += 1
    return counts
    # --- end of step 2 ---


def run_hooks(value: Value, grad: np.ndarray) -> np.ndarray:
    # --- step 3: each hook may replace the gradient, keeping its shape ---
    for hook in tuple(value._backward_hooks.values()):
        result = hook(grad)
        if result is not None:
            if np.shape(result) != np.shape(grad):
                raise RuntimeError(f"hook '{hook.__name__}' has changed the size of value")
            grad = result
    return grad
    # --- end of step 3 ---


def backward(root: Value) -> None:
    # --- step 4: the ready heap, hooks, accumulation into leaves ---
    dependencies = count_dependencies(root)
    grads = {root: np.ones_like(root.data)}
    ready = [Ready(-root.sequence_nr, root)]
    while ready:
        value = heapq.heappop(ready).value
        grad = run_hooks(value, grads.pop(value))
        if value.is_leaf:
            value.grad = grad if value.grad is None else value.grad + grad
            continue
        for parent, parent_grad in zip(value.parents, value.backward_fn(grad)):
            grads[parent] = grads[parent] + parent_grad if parent in grads else parent_grad
            dependencies[parent] -= 1
            if dependencies[parent] == 0:
                heapq.heappush(ready, Ready(-parent.sequence_nr, parent))
    # --- end of step 4 ---


# %% [markdown]
# ## Try it
#
# micrograd's classic question: in `b = a + a`, `a` must receive both gradients before
# its hooks run, which is why the engine counts dependencies first. And a hook on the
# intermediate `b` changes what reaches `a`.

# %%
if __name__ == "__main__":
    a = Value([1.0, 2.0])
    b = a + a
    c = (b * b).sum()
    a.register_hook(lambda grad: print("a's hook receives", grad))
    b.register_hook(lambda grad: print("b's hook receives", grad, "and halves it") or grad / 2)
    c.backward()
    print("a.grad =", a.grad, "(d/da of (2a)^2 is 8a; halved at b: 4a)")

    deep = x = Value(1.0)
    for _ in range(5000):
        deep = deep * Value(1.0)
    deep.backward()
    print("a chain of 5000 products, and no RecursionError: x.grad =", x.grad)

    order = []
    leaves = [Value([float(i)]) for i in range(5)]
    for i, leaf in enumerate(leaves):
        leaf.register_hook(lambda grad, i=i: order.append(i))
    Value.stack(leaves).sum().backward()
    print("five leaves ready together, their hooks in the heap's order:", order)
