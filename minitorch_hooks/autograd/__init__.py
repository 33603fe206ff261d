"""Automatic differentiation: ``backward``, ``grad``, grad modes and custom Functions.

See https://pytorch.org/docs/stable/autograd.html
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .engine import run_backward
from .function import Function, FunctionCtx
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .gradcheck import GradcheckError, gradcheck
from .graph import Node

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "Node", "gradcheck", "GradcheckError",
           "Function", "FunctionCtx"]


def _as_tuple(x):
    if x is None or isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _root_grads(outputs: tuple, grad_outputs: tuple) -> list[np.ndarray]:
    """The gradient to start from at each output: given, or 1 for a scalar output. Checked
    pair by pair, as PyTorch's ``_make_grads`` does, then counted, as its engine does."""
    grads = []
    for i, (output, grad) in enumerate(zip(outputs, grad_outputs)):
        if grad is not None and not isinstance(grad, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got "
                            f"{type(grad).__name__}")
        if grad is None:
            if output._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if output._data.dtype.kind != "f":
                raise RuntimeError("grad can be implicitly created only for real scalar "
                                   f"outputs but got {output.dtype.scalar_name}")
            grads.append(np.ones_like(output._data))
            continue
        if grad.shape != output.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{grad.shape} and output[{i}] has a shape of {output.shape}.")
        grads.append(grad._data.astype(output._data.dtype, copy=False))
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    return grads


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs=None) -> None:
    """Accumulate into ``.grad`` of the graph's leaves the gradient of ``tensors``; with
    ``inputs``, into theirs only, running only the part of the graph that leads to them.

    See https://pytorch.org/docs/stable/generated/torch.autograd.backward.html
    """
    if create_graph:
        raise NotImplementedError("minitorch_hooks does not build graphs of the backward pass "
                                  "(create_graph=True)")
    outputs = _as_tuple(tensors)
    grad_outputs = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(outputs)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for tensor in inputs:
            # As PyTorch does: a non-leaf input keeps its gradient in ``.grad`` from now on
            # (a leaf's lands there anyway), and one that does not require grad is refused.
            tensor.retain_grad()
    run_backward(outputs, _root_grads(outputs, grad_outputs), bool(retain_graph),
                 inputs=inputs, accumulate=inputs is not None)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None, *,
         materialize_grads: bool = False) -> tuple:
    """The gradients of ``outputs`` with respect to ``inputs``, returned rather than
    accumulated; only the part of the graph between them runs.

    An input the outputs do not depend on gets None with ``allow_unused=True`` (an error
    otherwise); ``materialize_grads=True`` gives it zeros instead, for code that adds
    gradients up, and implies ``allow_unused``.

    See https://pytorch.org/docs/stable/generated/torch.autograd.grad.html
    """
    if create_graph:
        raise NotImplementedError("minitorch_hooks does not build graphs of the backward pass "
                                  "(create_graph=True)")
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    grads = run_backward(outputs, _root_grads(outputs, grad_outputs), bool(retain_graph),
                         inputs=inputs, allow_unused=bool(allow_unused or materialize_grads))
    return tuple(Tensor._wrap(np.array(g, copy=True)) if g is not None
                 else Tensor._wrap(np.zeros_like(x._data)) if materialize_grads else None
                 for g, x in zip(grads, inputs))
