"""``gradcheck``: compare autograd's gradients with finite differences.

For every input element, nudge it by ``±eps`` and watch how each output element moves
(the numerical Jacobian); then ask autograd for the same Jacobian one output element at
a time. In float64 the two agree closely when the backward formulas are right.
See <https://docs.pytorch.org/docs/2.13/generated/torch.autograd.gradcheck.html>

``gradgradcheck`` does the same for second derivatives: it gradchecks the function that
computes the gradients with ``create_graph=True``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


class GradcheckError(RuntimeError):
    """Raised by :func:`gradcheck` when the two Jacobians disagree."""


def _as_tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _numerical_jacobian(func: Callable, inputs: tuple, index: int, eps: float) -> np.ndarray:
    """Central differences for one input: one column per input element. (Grad mode stays
    as it is: ``func`` may itself differentiate, as in :func:`gradgradcheck`.)"""
    target = inputs[index]
    outputs = _as_tuple(func(*inputs))
    columns = []
    flat = target._data.reshape(-1)  # a view, so the nudges reach the tensor
    for i in range(flat.size):
        original = flat[i]
        flat[i] = original + eps
        plus = [o._data.astype(np.float64).ravel() for o in _as_tuple(func(*inputs))]
        flat[i] = original - eps
        minus = [o._data.astype(np.float64).ravel() for o in _as_tuple(func(*inputs))]
        flat[i] = original
        columns.append(np.concatenate([(p - m) / (2 * eps) for p, m in zip(plus, minus)]))
    rows = sum(o._data.size for o in outputs)
    return np.stack(columns, axis=1) if columns else np.zeros((rows, 0))


def _analytical_jacobian(func: Callable, inputs: tuple, index: int) -> np.ndarray:
    """Backward from each output element in turn: one row per output element."""
    from .. import autograd
    from .._tensor import wrap

    outputs = list(_as_tuple(func(*inputs)))
    target = inputs[index]
    rows = []
    for output in outputs:
        if not output.requires_grad:  # no graph: its Jacobian is zero
            rows += [np.zeros(target._data.size)] * output._data.size
            continue
        for i in range(output._data.size):
            seed = np.zeros(output._data.shape, dtype=output._data.dtype)
            seed.reshape(-1)[i] = 1
            (grad,) = autograd.grad(output, target, wrap(seed), retain_graph=True,
                                    allow_unused=True)
            rows.append(np.zeros(target._data.size) if grad is None
                        else grad._data.astype(np.float64).ravel())
    return np.stack(rows) if rows else np.zeros((0, target._data.size))


def gradcheck(func: Callable, inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True) -> bool:
    """True when autograd's gradients of ``func`` match finite differences at ``inputs``.

    Inputs that require grad should be float64, as in PyTorch: float32 rounding would
    swamp the finite differences.
    """
    inputs = _as_tuple(inputs)
    for index, tensor in enumerate(inputs):
        if not getattr(tensor, "_requires_grad", False):
            continue
        numerical = _numerical_jacobian(func, inputs, index, eps)
        analytical = _analytical_jacobian(func, inputs, index)
        if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
            if raise_exception:
                raise GradcheckError(
                    f"Jacobian mismatch for output 0 with respect to input {index},\n"
                    f"numerical:{numerical}\nanalytical:{analytical}\n")
            return False
    return True


def gradgradcheck(func: Callable, inputs: Any, grad_outputs: Any = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  raise_exception: bool = True) -> bool:
    """True when the second derivatives of ``func`` at ``inputs`` match finite differences.

    As in PyTorch: with ``grad_outputs`` (one per output; random ones in ``[-1, 1)`` that
    require grad when omitted) the function ``(inputs, grad_outputs) -> gradients of the
    inputs`` is built with ``create_graph=True`` and handed to :func:`gradcheck`, so both
    the inputs and the ``grad_outputs`` are checked.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.autograd.gradcheck.gradgradcheck.html>
    """
    from .. import autograd
    from .._tensor import Tensor, wrap

    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            wrap(rng.uniform(-1, 1, o._data.shape).astype(o._data.dtype),
                         requires_grad=True)
            for o in _as_tuple(func(*inputs)) if o.requires_grad)
    grad_outputs = _as_tuple(grad_outputs)
    count = len(grad_outputs)

    def first_derivatives(*args: Any) -> tuple:
        outputs = [o for o in _as_tuple(func(*args[:-count])) if o.requires_grad]
        differentiable = [x for x in args[:-count]
                          if isinstance(x, Tensor) and x.requires_grad]
        grads = autograd.grad(outputs, differentiable, args[-count:], create_graph=True,
                              allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
