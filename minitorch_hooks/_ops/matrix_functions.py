"""The matrix functions that ``parametrizations.orthogonal`` is built from:
``torch.matrix_exp``, and ``linalg.solve``, ``linalg.householder_product`` and ``geqrf``
as ``orthogonal`` calls them.

Each maps matrices (the last two dimensions; any before them are a batch) to matrices,
is computed with NumPy in float64 and rounded to the input's dtype once, and is one node
whose backward is written with the same functions, so it has second derivatives too:

* ``matrix_exp(A)``, the sum of ``A^j / j!``. Its gradient for an upstream ``G`` is the
  upper right block of ``matrix_exp([[A^T, G], [0, A^T]])`` (Mathias' theorem, as
  PyTorch's ``linalg_matrix_exp_differential``);
* ``solve(A, B)``, the ``X`` with ``A @ X = B``: ``grad_B = solve(A^T, G)`` and
  ``grad_A = -grad_B @ X^T``;
* ``householder_product(V, tau)``, the first columns of ``H_1 @ ... @ H_k`` with
  ``H_i = I - tau_i v_i v_i^T`` (``v_i``: column ``i`` of ``V`` below the diagonal, with
  a 1 on it), what LAPACK's ``orgqr`` computes from ``geqrf``'s reflectors. Its backward
  walks the reflections back, one at a time;
* ``geqrf(A)``, the QR factorisation in LAPACK's compact form (the reflectors below the
  diagonal, ``R`` on and above it, and the ``tau``), never differentiated.

See <https://docs.pytorch.org/docs/2.13/generated/torch.linalg.matrix_exp.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.linalg.householder_product.html>
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _blas
from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record

_TAYLOR_TERMS = 18  # for a norm at most 1/2, the 19th term is below 1e-22: float64's last bit


def _transposed(x: Any) -> Any:
    return formula.swapaxes(x, -1, -2)


def _exp_of_matrices(a: np.ndarray) -> np.ndarray:
    """``exp`` of each matrix of ``a`` (float64), by scaling and squaring: ``exp(A) =
    exp(A / 2^s)^(2^s)``, with ``s`` chosen so that ``A / 2^s`` has a 1-norm of at most
    1/2, where the Taylor series converges within float64's precision in 18 terms."""
    norm = float(np.abs(a).sum(axis=-2).max()) if a.size else 0.0
    squarings = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0.5 else 0
    scaled = a / 2.0 ** squarings
    term = result = np.broadcast_to(np.eye(a.shape[-1]), a.shape).copy()
    for j in range(1, _TAYLOR_TERMS + 1):
        term = _blas.matmul(term, scaled) / j
        result = result + term
    for _ in range(squarings):
        result = _blas.matmul(result, result)
    return result


def _check_square(input: Tensor, function: str) -> None:
    if input.dim() < 2:
        raise RuntimeError(f"{function}: The input tensor A must have at least 2 dimensions.")
    rows, cols = input.shape[-2:]
    if rows != cols:
        raise RuntimeError(f"{function}: A must be batches of square matrices, but they are "
                           f"{rows} by {cols} matrices")


class LinalgMatrixExpBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (a,) = self.saved_arrays()
        n = formula.array(a).shape[-1]
        at = _transposed(a)
        block = formula.concatenate(
            [formula.concatenate([at, grad], -1),
             formula.concatenate([formula.zeros_like(at), at], -1)], -2)
        if type(block) is Tensor:  # under create_graph: recorded, so differentiable again
            exp = matrix_exp(block)
        else:
            exp = _exp_of_matrices(block.astype(np.float64)).astype(block.dtype)
        return exp[..., :n, n:]


def matrix_exp(input: Tensor) -> Tensor:
    """The exponential of each square matrix of ``input``: ``I + A + A^2 / 2 + ...``. Of
    a skew-symmetric matrix it is orthogonal, which is how ``orthogonal`` uses it.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.linalg.matrix_exp.html>
    """
    _check_square(input, "linalg.matrix_exp")
    if not input.is_floating_point():
        raise RuntimeError("linalg.matrix_exp: Expected a floating point or complex tensor as "
                           f"input. Got {input.dtype.scalar_name}")
    x = input._data
    result = _exp_of_matrices(x.astype(np.float64)).astype(x.dtype)
    return record(np.ascontiguousarray(result), LinalgMatrixExpBackward0, (input,),
                  saved=(input,))


class LinalgSolveExBackward0(Node):
    __slots__ = ()
    saved_names = ("A", "result")

    def backward(self, grad):
        a, x = self.saved_arrays()
        grad_b = _solve_any(_transposed(a), grad)
        return -_blas.matmul(grad_b, _transposed(x)), grad_b


def _solve_any(a: Any, b: Any) -> Any:
    """``solve`` on arrays, or the recorded op on tensors (under create_graph)."""
    if type(a) is Tensor or type(b) is Tensor:
        return solve(*(x if type(x) is Tensor else wrap(x) for x in (a, b)))
    return np.linalg.solve(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype)


def solve(a: Tensor, b: Tensor) -> Tensor:
    """The ``X`` with ``a @ X = b``, for square matrices ``a`` and matrices ``b`` (as
    ``orthogonal``'s Cayley map calls ``torch.linalg.solve``)."""
    x = _solve_any(a._data, b._data)
    return record(np.ascontiguousarray(x), LinalgSolveExBackward0, (a, b), saved=(a,),
                  save_output=True)


def _reflectors(v: Any, k: int) -> Any:
    """The reflectors' vectors: the columns of ``v`` strictly below the diagonal, with a 1 on
    it (LAPACK's unit lower trapezoid), for the first ``k`` columns."""
    n = formula.array(v).shape[-2]
    below = formula.like(np.tril(np.ones((n, k)), -1), v)
    return v[..., :k] * below + formula.like(np.eye(n, k), v)


def _reflector(vectors: Any, tau: Any, i: int) -> tuple[Any, Any]:
    """``v_i`` as a column and ``tau_i`` shaped to multiply it, batch dimensions kept."""
    t = tau[..., i:i + 1]
    return vectors[..., i:i + 1], (t.unsqueeze(-1) if type(t) is Tensor else t[..., None])


def _reflect(v: Any, t: Any, p: Any) -> Any:
    """``H @ p`` with ``H = I - t v v^T``, without making ``H``."""
    return p - t * _blas.matmul(v, _blas.matmul(_transposed(v), p))


class LinalgHouseholderProductBackward0(Node):
    __slots__ = ()
    saved_names = ("input", "tau")

    def backward(self, grad):
        v_in, tau = self.saved_arrays()
        n, m = formula.array(v_in).shape[-2:]
        k = formula.array(tau).shape[-1]
        vectors = _reflectors(v_in, k)
        # The products from the right, H_{i+1} ... H_k [I; 0], that each reflection met.
        batch = formula.array(v_in).shape[:-2]
        partial = [formula.like(np.broadcast_to(np.eye(n, m), (*batch, n, m)), grad)]
        for i in reversed(range(1, k)):
            partial.append(_reflect(*_reflector(vectors, tau, i), partial[-1]))
        partial.reverse()
        grad_vectors, grad_tau = [], []
        for i in range(k):  # ``grad`` is the gradient of H_i ... H_k [I; 0], passed on
            p = partial[i]
            v, t = _reflector(vectors, tau, i)
            v_grad, v_p = _blas.matmul(_transposed(v), grad), _blas.matmul(_transposed(v), p)
            grad_vectors.append(-t * (_blas.matmul(grad, _transposed(v_p))
                                      + _blas.matmul(p, _transposed(v_grad))))
            grad_tau.append(-formula.sum(v_grad * v_p, -1))
            grad = grad - t * _blas.matmul(v, v_grad)
        below = formula.like(np.tril(np.ones((n, k)), -1), grad)
        grad_input = formula.concatenate(grad_vectors, -1) * below
        if k < m:  # columns without a reflector
            grad_input = formula.concatenate(
                [grad_input, formula.zeros((*batch, n, m - k), grad)], -1)
        return grad_input, formula.concatenate(grad_tau, -1)


def householder_product(input: Tensor, tau: Tensor) -> Tensor:
    """The first ``input.shape[-1]`` columns of ``H_1 @ ... @ H_k`` (``k = tau.shape[-1]``),
    from reflectors stored below the diagonal of ``input``, as in ``geqrf``'s output."""
    v, t = input._data.astype(np.float64), tau._data.astype(np.float64)
    n, m = v.shape[-2:]
    vectors = _reflectors(v, t.shape[-1])
    q = np.broadcast_to(np.eye(n, m), v.shape).copy()
    for i in reversed(range(t.shape[-1])):
        q = _reflect(*_reflector(vectors, t, i), q)
    return record(np.ascontiguousarray(q.astype(input._data.dtype)),
                  LinalgHouseholderProductBackward0, (input, tau), saved=(input, tau))


def geqrf(input: Tensor) -> tuple[Tensor, Tensor]:
    """LAPACK's QR factorisation of each matrix, in its compact form: ``R`` on and above
    the diagonal, the Householder vectors below it, and their ``tau``."""
    x = input._data
    compact, tau = np.linalg.qr(x.astype(np.float64), mode="raw")  # (Fortran's layout)
    return (wrap(np.ascontiguousarray(np.swapaxes(compact, -1, -2)).astype(x.dtype)),
            wrap(tau.astype(x.dtype)))
