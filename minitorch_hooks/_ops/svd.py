"""The singular value decomposition: ``torch.linalg.svd``, ``torch.linalg.svdvals`` and
the older ``torch.svd``, and its gradient (PyTorch's ``svd_backward``).

Every matrix ``A`` (m x n) is ``U @ diag(S) @ Vh``, with ``U`` and ``Vh`` orthonormal and
the singular values ``S`` non-negative, largest first. The 2-norm of a matrix is its largest
singular value, the nuclear norm their sum (``linalg.matrix_norm`` calls ``svdvals``).

``S`` is unique; ``U`` and ``Vh`` are not: a column of ``U`` and the matching row of ``Vh``
may both change sign (and repeated singular values allow any rotation of their vectors), so
LAPACK libraries, and PyTorch and NumPy, may return different ones. Only what does not
depend on that choice should be compared: ``S``, and ``U @ diag(S) @ Vh``.

The decomposition is computed in float64 and rounded to the input's dtype: LAPACK's float32
routines, and the BLAS kernels under them, differ from one CPU to the next in the last bits,
while float64's 29 extra bits absorb those differences, so the rounded float32 result is the
same everywhere (and within PyTorch's own float32 rounding of the exact values).

The gradient assumes distinct singular values (where two are equal it divides by their
difference, 0, as PyTorch does), and, when only ``S`` is used (``svdvals``, the norms), is
just ``U @ diag(grad_S) @ Vh``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.linalg.svd.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.linalg.svdvals.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _blas, _dtype, return_types
from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record
from .shape import transpose


class _LinAlgError(RuntimeError):
    """``torch.linalg.LinAlgError``: a decomposition that failed (here, an SVD of a matrix
    with a NaN). A RuntimeError, so code that catches those still catches it."""

    __module__ = "torch._C"


class LinalgSvdBackward0(Node):
    """One node for the three results (``U``, ``S``, ``Vh``), saving all three."""

    __slots__ = ("num_outputs", "full_matrices", "S_sym_argsize_minus_1")
    saved_names = ("U", "S", "Vh")
    saved_attributes = ("S_sym_argsize_minus_1", "full_matrices")

    def backward(self, grad_u, grad_s, grad_vh):
        u, s, vh = self.saved_arrays()
        k = formula.array(s).shape[-1]
        if self.full_matrices:  # only the first k vectors take part in A = U S Vh
            u, vh = u[..., :k], vh[..., :k, :]
            grad_u = None if grad_u is None else grad_u[..., :k]
            grad_vh = None if grad_vh is None else grad_vh[..., :k, :]
        return svd_backward(grad_u, grad_s, grad_vh, u, s, vh)


def _mh(x: Any) -> Any:
    """The (conjugate) transpose of the last two axes."""
    return formula.swapaxes(x, -1, -2)


def svd_backward(grad_u: Any, grad_s: Any, grad_vh: Any, u: Any, s: Any, vh: Any) -> Any:
    """PyTorch's ``svd_backward`` (real case), step for step:
    ``gA = U [ (skew(U^T gU) S + S skew(V^T gV)) / E + diag(gS) ] V^T``, where
    ``E[i, j] = S[j]^2 - S[i]^2`` (1 on the diagonal) and ``skew(X) = X - X^T``, plus the
    parts of ``gU`` (or ``gV``) outside the span of ``U`` (``V``) for a tall (wide) ``A``.
    """
    m, n = formula.array(u).shape[-2], formula.array(vh).shape[-1]
    column, row = formula.expand_dims(s, -1), formula.expand_dims(s, -2)
    if grad_u is None and grad_vh is None:
        if grad_s is None:
            return None
        scaled = (formula.expand_dims(grad_s, -1) * vh if m >= n
                  else u * formula.expand_dims(grad_s, -2))
        return _blas.matmul(u, scaled) if m >= n else _blas.matmul(scaled, vh)
    k = formula.array(s).shape[-1]
    diagonal = np.eye(k, dtype=bool)
    squares = formula.expand_dims(s * s, -2) - formula.expand_dims(s * s, -1)
    gaps = formula.where(formula.like(diagonal, s), 1, squares)  # any nonzero: 0 / 1 there

    def skew(x):
        return x - _mh(x)

    if grad_u is not None and grad_vh is not None:
        inner = (skew(_blas.matmul(_mh(u), grad_u)) * row
                 + column * skew(_blas.matmul(vh, _mh(grad_vh)))) / gaps
    elif grad_u is None:
        inner = column * (skew(_blas.matmul(vh, _mh(grad_vh))) / gaps)
    else:
        inner = (skew(_blas.matmul(_mh(u), grad_u)) / gaps) * row
    if grad_s is not None:
        inner = inner + formula.expand_dims(grad_s, -1) * formula.like(
            np.eye(k, dtype=formula.dtype(s)), s)
    if m > n and grad_u is not None:
        grad_u_over_s = grad_u / row
        grad = (_blas.matmul(u, inner) + grad_u_over_s
                - _blas.matmul(u, _blas.matmul(_mh(u), grad_u_over_s)))
        return _blas.matmul(grad, vh)
    if m < n and grad_vh is not None:
        grad_vh_over_s = grad_vh / column
        grad = (_blas.matmul(inner, vh) + grad_vh_over_s
                - _blas.matmul(_blas.matmul(grad_vh_over_s, _mh(vh)), vh))
        return _blas.matmul(u, grad)
    if m >= n:
        return _blas.matmul(u, _blas.matmul(inner, vh))
    return _blas.matmul(_blas.matmul(u, inner), vh)


def _check_matrix(A: Tensor, too_small: str) -> None:  # noqa: N803 - PyTorch's name
    if A.dim() < 2:
        raise RuntimeError(too_small)
    if not A.is_floating_point():
        raise RuntimeError("linalg.svd: Expected a floating point or complex tensor as "
                           f"input. Got {A.dtype.scalar_name}")
    if A.dtype is _dtype.float16:  # LAPACK has no half precision routines
        raise NotImplementedError(f'"linalg_svd_cpu" not implemented for '
                                  f"'{A.dtype.scalar_name}'")


def _decompose(A: Tensor, full_matrices: bool) -> tuple[np.ndarray, ...]:  # noqa: N803
    """``U, S, Vh`` of every matrix of ``A``, computed in float64 (see the module's
    docstring) and rounded to ``A``'s dtype; a NaN fails as in PyTorch (LAPACK's iteration
    does not converge), naming the first matrix that has one."""
    data = A._data
    if data.size == 0:  # NumPy refuses empty matrices; the factors are empty or identities
        m, n = data.shape[-2:]
        batch, k = data.shape[:-2], min(m, n)
        u = np.broadcast_to(np.eye(m, m if full_matrices else k), (*batch, m,
                                                                   m if full_matrices else k))
        vh = np.broadcast_to(np.eye(n if full_matrices else k, n),
                             (*batch, n if full_matrices else k, n))
        return (u.astype(data.dtype), np.zeros((*batch, k), dtype=data.dtype),
                vh.astype(data.dtype))
    try:
        u, s, vh = np.linalg.svd(data.astype(np.float64), full_matrices=full_matrices)
    except np.linalg.LinAlgError:
        where = ""
        if data.ndim > 2:
            failed = np.isnan(data).reshape(-1, *data.shape[-2:]).any(axis=(-2, -1))
            where = f"(Batch element {int(np.argmax(failed))}): "
        raise _LinAlgError(f"linalg.svd: {where}The algorithm failed to converge because the "
                           "input matrix contained non-finite values.") from None
    return tuple(part.astype(data.dtype) for part in (u, s, vh))


def _recorded(A: Tensor, full_matrices: bool) -> tuple[Tensor, Tensor, Tensor]:  # noqa: N803
    """``U, S, Vh`` as the three outputs of one ``LinalgSvdBackward0``, which saves them."""
    u, s, vh = _decompose(A, full_matrices)
    first = record(u, LinalgSvdBackward0, (A,), num_outputs=3, full_matrices=full_matrices,
                   S_sym_argsize_minus_1=s.shape[-1])
    outs = (first, wrap(s), wrap(vh))
    node = first.grad_fn
    if node is not None:
        for output_nr, out in enumerate(outs[1:], start=1):
            out.grad_fn, out._output_nr, out._requires_grad = node, output_nr, True
        for out in outs:
            node._save_output(out)
    return outs


def linalg_svd(A: Tensor, full_matrices: bool = True, *,  # noqa: N803 - PyTorch's name
               driver: str | None = None) -> return_types.linalg_svd:
    """``(U, S, Vh)`` with ``A = U @ diag(S) @ Vh``; ``full_matrices=False`` keeps only
    the ``min(m, n)`` vectors the product uses.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.linalg.svd.html>
    """
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    _check_matrix(A, "linalg.svd: The input tensor A must have at least 2 dimensions.")
    return return_types.linalg_svd(*_recorded(A, full_matrices))


def svdvals(A: Tensor, *, driver: str | None = None) -> Tensor:  # noqa: N803
    """The singular values of ``A``, largest first. When ``A`` requires grad, PyTorch still
    computes (and saves) ``U`` and ``Vh``, which its gradient needs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.linalg.svdvals.html>
    """
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    _check_matrix(A, "linalg.svd: The input tensor A must have at least 2 dimensions.")
    return _recorded(A, False)[1]


def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> return_types.svd:
    """The older ``torch.svd``: ``(U, S, V)`` with ``V`` rather than ``Vh`` (a transposed
    view of it), ``some`` for ``not full_matrices``; with ``compute_uv=False``, ``U`` and
    ``V`` are zeros of the full sizes.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.svd.html>
    """
    _check_matrix(input, "linalg.svd: input should have at least 2 dimensions, but has "
                         f"{input.dim()} dimensions instead")
    if not compute_uv:
        m, n = input.shape[-2:]
        s = _recorded(input, False)[1]
        batch = tuple(input.shape[:-2])
        return return_types.svd(wrap(np.zeros((*batch, m, m), dtype=input._data.dtype)), s,
                                wrap(np.zeros((*batch, n, n), dtype=input._data.dtype)))
    u, s, vh = _recorded(input, not some)
    return return_types.svd(u, s, transpose(vh, -2, -1))
