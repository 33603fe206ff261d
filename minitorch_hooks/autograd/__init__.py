"""Automatic differentiation: ``backward``, ``grad``, grad modes and custom Functions.

See <https://docs.pytorch.org/docs/2.13/autograd.html>
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _missing
from .._tensor import Tensor, wrap
from .._warnings import warn_once
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import run_backward
from .function import Function, FunctionCtx
from .grad_mode import (
    _force_original_view_tracking,  # noqa: F401 - torch.autograd's name
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import Node, _is_checkpoint_valid  # noqa: F401 - torch.autograd's name
from .variable import Variable

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "Node", "gradcheck", "gradgradcheck", "GradcheckError",
           "Function", "FunctionCtx", "Variable", "inference_mode", "is_inference_mode_enabled",
           "detect_anomaly", "set_detect_anomaly"]


def _as_tuple(x):
    if x is None or isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _root_grads(outputs: tuple, grad_outputs: tuple, create_graph: bool) -> list:
    """The gradient to start from at each output: given, or 1 for a scalar output. Arrays,
    or under ``create_graph`` Tensors: a given one as it is, so that the gradients depend
    on it too (a Hessian-vector product differentiates through ``v``). Checked pair by
    pair, as PyTorch's ``_make_grads`` does, then counted, as its engine does."""
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
            ones = np.ones_like(output._data)
            grads.append(wrap(ones) if create_graph else ones)
            continue
        if grad.shape != output.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{grad.shape} and output[{i}] has a shape of {output.shape}.")
        if create_graph:
            grads.append(grad if grad.dtype is output.dtype else grad.to(output.dtype))
        else:
            grads.append(grad._data.astype(output._data.dtype, copy=False))
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    return grads


# PyTorch warns once per process (a C++ ``TORCH_WARN_ONCE``; every time under
# ``torch.set_warn_always(True)``): with ``backward(create_graph=True)`` a leaf's ``.grad``
# has a graph that leads back to the leaf.
_CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this "
    "function, make sure to reset the .grad fields of your parameters to None after use to "
    "break the cycle and avoid the leak.")


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs=None) -> None:
    """Accumulate into ``.grad`` of the graph's leaves the gradient of ``tensors``; with
    ``inputs``, into theirs only, running only the part of the graph that leads to them.

    The pass runs with grad mode set to ``create_graph``; with ``create_graph=True`` it is
    recorded, so ``.grad`` can be differentiated again. ``retain_graph`` defaults to
    ``create_graph``, as in PyTorch: a graph one means to differentiate again is kept.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.autograd.backward.html>
    """
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
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warn_once(_CREATE_GRAPH_CYCLE)
    run_backward(outputs, _root_grads(outputs, grad_outputs, create_graph), bool(retain_graph),
                 inputs=inputs, accumulate=inputs is not None, create_graph=create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None, *,
         materialize_grads: bool = False) -> tuple:
    """The gradients of ``outputs`` with respect to ``inputs``, returned rather than
    accumulated; only the part of the graph between them runs.

    With ``create_graph=True`` the gradients have a ``grad_fn`` and can be differentiated
    again; ``retain_graph`` defaults to ``create_graph``. An input the outputs do not depend
    on gets None with ``allow_unused=True`` (an error otherwise); ``materialize_grads=True``
    gives it zeros instead, for code that adds gradients up, and implies ``allow_unused``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.autograd.grad.html>
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    grads = run_backward(outputs, _root_grads(outputs, grad_outputs, create_graph),
                         bool(retain_graph), inputs=inputs,
                         allow_unused=bool(allow_unused or materialize_grads),
                         create_graph=create_graph)
    if not create_graph:
        grads = [None if g is None else wrap(np.array(g, copy=True)) for g in grads]
    if materialize_grads:  # zeros that require grad under create_graph, as in PyTorch
        grads = [wrap(np.zeros_like(x._data), create_graph) if g is None else g
                 for g, x in zip(grads, inputs)]
    return tuple(grads)


# A name of PyTorch's that is missing here (``forward_ad``, ``functional``...) says so.
__getattr__ = _missing.module_getattr(__name__, "torch.autograd")
