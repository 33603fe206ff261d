"""The floor: the least a Python autograd on NumPy can do per operation.

``bench_core.py`` times minitorch_hooks against PyTorch per op. This module answers a
different question: how fast could *any* autograd written in Python over NumPy run that
workload? It keeps only what the design itself needs, as in micrograd's ``engine.py``:

- a tensor with a version counter, and a node per operation with its edges, a sequence
  number, the input shapes (to check gradients against) and versioned saved values;
- PyTorch's engine: count dependencies, then run ready nodes newest first from a heap,
  summing gradients into buffers and into leaves' ``.grad``.

And nothing else: no dtype promotion, no hooks, no views, no grad mode, no error
messages, only the four operations of the chain (``*``, ``+``, ``tanh``, ``sum``).
Whatever minitorch_hooks costs above this floor pays for those features.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any

import numpy as np

_sequence_nr = itertools.count()


class Tensor:
    __slots__ = ("data", "requires_grad", "grad_fn", "version", "grad", "accumulator")

    def __init__(self, data: np.ndarray, requires_grad: bool = False) -> None:
        self.data, self.requires_grad, self.grad_fn = data, requires_grad, None
        self.version, self.grad, self.accumulator = [0], None, None

    def __mul__(self, other: Tensor) -> Tensor:
        return _record(self.data * other.data, Mul, (self, other), (other, self))

    def __add__(self, other: Tensor) -> Tensor:
        return _record(self.data + other.data, Add, (self, other), ())

    def tanh(self) -> Tensor:
        out = _record(np.tanh(self.data), Tanh, (self,), ())
        if out.grad_fn is not None:
            out.grad_fn.saved = ((out.data, out.version, 0),)
        return out

    def sum(self) -> Tensor:
        return _record(self.data.sum(), Sum, (self,), ())

    def backward(self) -> None:
        _run_backward(self.grad_fn, np.ones_like(self.data))


def tensor(values: Any, requires_grad: bool = False) -> Tensor:
    return Tensor(np.array(values, dtype=np.float32), requires_grad)


class Node:
    __slots__ = ("next_functions", "shapes", "sequence_nr", "saved")

    def __init__(self, inputs: tuple, saved: tuple) -> None:
        edges, shapes = [], []
        for x in inputs:  # plain loops throughout: cheaper than generator expressions
            edges.append(_edge(x))
            shapes.append(x.data.shape)
        self.next_functions, self.shapes = tuple(edges), tuple(shapes)
        self.sequence_nr = next(_sequence_nr)
        self.saved = saved

    def saved_values(self) -> list:
        values = []
        for data, version, saved_version in self.saved:
            if version[0] != saved_version:
                raise RuntimeError("modified by an inplace operation")
            values.append(data)
        return values


class AccumulateGrad:
    __slots__ = ("variable", "next_functions", "sequence_nr")

    def __init__(self, variable: Tensor) -> None:
        self.variable, self.next_functions, self.sequence_nr = variable, (), float("inf")


class Mul(Node):
    __slots__ = ()

    def backward(self, grad: np.ndarray) -> tuple:
        a, b = self.saved_values()
        return grad * a, grad * b


class Add(Node):
    __slots__ = ()

    def backward(self, grad: np.ndarray) -> tuple:
        return grad, grad


class Tanh(Node):
    __slots__ = ()

    def backward(self, grad: np.ndarray) -> tuple:
        (result,) = self.saved_values()
        return (grad * (1 - result * result),)


class Sum(Node):
    __slots__ = ()

    def backward(self, grad: np.ndarray) -> tuple:
        return (np.broadcast_to(grad, self.shapes[0]),)


def _record(data: np.ndarray, node_type: type, inputs: tuple, saved: tuple) -> Tensor:
    out = Tensor(data)
    for x in inputs:
        if x.requires_grad:
            break
    else:
        return out
    versioned = []
    for x in saved:
        versioned.append((x.data, x.version, x.version[0]))
    out.grad_fn, out.requires_grad = node_type(inputs, tuple(versioned)), True
    return out


def _edge(x: Tensor) -> tuple:
    if x.grad_fn is not None:
        return (x.grad_fn, 0)
    if x.requires_grad:
        if x.accumulator is None:
            x.accumulator = AccumulateGrad(x)
        return (x.accumulator, 0)
    return (None, 0)


def _run_backward(root: Node, grad: np.ndarray) -> None:
    dependencies, stack = {root: 1}, [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in dependencies:
                    stack.append(child)
                dependencies[child] = dependencies.get(child, 0) + 1
    buffers, ready = {root: grad}, [(-root.sequence_nr, root)]
    while ready:
        node = heapq.heappop(ready)[1]
        grad = buffers.pop(node)
        if type(node) is AccumulateGrad:
            leaf = node.variable
            leaf.grad = grad.copy() if leaf.grad is None else leaf.grad + grad
            continue
        for (child, _), child_grad, shape in zip(node.next_functions, node.backward(grad),
                                                 node.shapes):
            if child is None:
                continue
            if child_grad.shape != shape:
                raise RuntimeError("the gradient's shape does not match its input's")
            previous = buffers.get(child)
            buffers[child] = child_grad if previous is None else previous + child_grad
            dependencies[child] -= 1
            if dependencies[child] == 0:
                heapq.heappush(ready, (-child.sequence_nr, child))
        node.saved = None
