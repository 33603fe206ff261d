"""What the op conformance tests share: deterministic inputs, the shape of a backward graph,
and one forward-plus-backward run that returns everything worth comparing with PyTorch.

Every helper takes the ``torch`` namespace of the scenario, so the same code runs on
minitorch_hooks and on real PyTorch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def values(shape: Sequence[int], seed: int = 0, low: float = -2.0, high: float = 2.0,
           dtype: Any = np.float32) -> np.ndarray:
    """Reproducible values in ``[low, high)``, away from the kinks of ``abs`` and ``relu``:
    no element is closer to 0 than 0.05."""
    rng = np.random.default_rng(seed)
    data = rng.uniform(low, high, size=tuple(shape))
    if low < 0 < high:
        data = np.where(np.abs(data) < 0.05, 0.05 + np.abs(data), data)
    return data.astype(dtype)


def upstream(torch: Any, out: Any) -> Any:
    """A non-trivial gradient for ``out``: every element different, signs mixed."""
    weights = np.cos(np.arange(out.numel(), dtype=np.float64) + 1).reshape(tuple(out.shape))
    return torch.tensor(weights, dtype=out.dtype)


def graph(node: Any) -> Any:
    """A backward node as ``(name, ((next node, input_nr), ...))``, walked to the leaves."""
    if node is None:
        return None
    return (node.name(), tuple((graph(child), nr) for child, nr in node.next_functions))


def node_counts(tensor: Any) -> list[tuple[str, int]]:
    """The names of the nodes of the graph behind ``tensor``, each with how many there are:
    for graphs too large to compare whole with :func:`graph` (a recurrent layer's)."""
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(child for child, _ in node.next_functions)
    return sorted(Counter(node.name() for node in seen).items())


def leaf(torch: Any, array: Any, requires_grad: bool | None = None) -> Any:
    """A leaf tensor from a NumPy array or number; floating-point ones require grad."""
    data = np.asarray(array)
    if requires_grad is None:
        requires_grad = data.dtype.kind == "f"
    return torch.tensor(data, requires_grad=requires_grad)


def layout(value: Any) -> Any:
    """How a tensor (or each tensor of a tuple or list) sits in memory: its ``stride()``
    and ``is_contiguous()``. PyTorch code relies on both: ``x.view(-1, n)`` after a pooling
    works only because the pooled tensor is contiguous. ``None`` stays ``None``."""
    if isinstance(value, (tuple, list)):
        return [layout(v) for v in value]
    if value is None:
        return None
    if value.numel() == 0:  # no element to step over: strides are not compared
        return ((), value.is_contiguous())
    return (tuple(value.stride()), value.is_contiguous())


def run(torch: Any, op: Callable[..., Any], *arrays: Any) -> dict[str, Any]:
    """``op(torch, *leaves)`` with leaves made from ``arrays``, then backward with
    ``upstream`` weights.

    The result records the output (values, dtype, shape, strides and contiguity), its
    ``grad_fn`` graph and ``requires_grad``, and the gradient each leaf received (with its
    strides and contiguity).
    """
    leaves = [leaf(torch, a) for a in arrays]
    out = op(torch, *leaves)
    result = {"out": out, "layout": layout(out), "graph": graph(out.grad_fn),
              "requires_grad": out.requires_grad}
    if out.requires_grad:
        (out * upstream(torch, out)).sum().backward()
        result["grads"] = [t.grad for t in leaves]
        result["grads layout"] = layout(result["grads"])
    return result


def saved(node: Any) -> tuple[str, dict[str, Any]]:
    """What a node shows of itself: its name and every ``_saved_*`` attribute."""
    names = sorted(n for n in dir(node) if n.startswith("_saved_"))
    return node.name(), {n: getattr(node, n) for n in names}


def second_order(torch: Any, op: Callable, *arrays: Any) -> tuple:
    """First and second derivatives of ``sum(op(x) ** 2 * w)`` in float64: the first with
    ``create_graph``, the second through the first's graph."""
    leaves = [leaf(torch, np.asarray(a, dtype=np.float64)) for a in arrays]
    out = op(torch, *leaves)
    loss = (out * out * upstream(torch, out)).sum()
    first = torch.autograd.grad(loss, leaves, create_graph=True)
    second = torch.autograd.grad(sum(g.sum() for g in first), leaves, allow_unused=True)
    return first, second


def caught(call: Callable[[], Any]) -> Any:
    """What ``call()`` returned, or the type and message of what it raised."""
    try:
        return call()
    except (RuntimeError, TypeError, ValueError, IndexError, NotImplementedError) as error:
        return type(error).__name__, str(error)
