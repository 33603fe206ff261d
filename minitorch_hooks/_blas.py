"""Every matrix product of NumPy arrays goes through :func:`matmul`: the one place where
minitorch_hooks hands work to a BLAS library, and the seam for testing that no verdict
depends on which one.

NumPy computes ``a @ b`` for floating-point arrays with the BLAS it was built with
(OpenBLAS in the wheels from PyPI, Accelerate on macOS, MKL in some distributions). Each
adds the products of a row and a column in its own order, chosen for the CPU it runs on
(OpenBLAS picks AVX-512, AVX2 or older kernels at start-up) and for the number of threads.
Every order is correct, but float32 keeps 24 bits, so two orders can round the last bit of
a result differently; a training loop then carries that difference from step to step.
PyTorch behaves the same way: its results change in the last bits between a CPU and a
GPU, between thread counts and with the ``torch.backends`` flags (see
<https://docs.pytorch.org/docs/2.13/notes/numerical_accuracy.html>).

A test or a page that printed the last digits of a trained number would then pass on one
learner's machine and fail on the next. To find such checks without owning every CPU, set
``MTH_PERTURB_PRODUCTS=1``: every product is then computed in another, equally correct
order (see :func:`perturbed_matmul`), so the last bits move as they would on another
kernel, and every check must still give the same verdict.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

# Read once, at import: the mode is for a whole test run (CI sets it for one step).
PERTURBED = os.environ.get("MTH_PERTURB_PRODUCTS", "") not in ("", "0")


def matmul(a: Any, b: Any) -> Any:
    """``a @ b``. On NumPy arrays that is BLAS's product, or in the perturbed mode
    :func:`perturbed_matmul`; on Tensors (the backward formulas under ``create_graph``) it is
    the ``matmul`` operation, which comes back here with arrays."""
    if PERTURBED and type(a) is np.ndarray and type(b) is np.ndarray:
        return perturbed_matmul(a, b)
    return a @ b


def perturbed_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` summed in other orders: each element is the sum of two partial products,
    the inner dimension cut at its half or at its third, by turns along the rows and
    columns of the result (a chessboard). Every element is as accurate as BLAS's own order
    and differs from it only by rounding, in the last bits.

    Two kinds of difference are seen between kernels, and this gives both: the same
    element rounds differently (another order of addition), and equal rows or columns of
    the result round differently *by position*, because a kernel computes the result a
    tile at a time, with other code at a tile's edge. The second one breaks ties: a max
    pool's window of equal values then picks another element, and training takes another
    path from there on.
    """
    inner = a.shape[-1]
    if inner < 2 or a.dtype.kind not in "fc" or b.dtype.kind not in "fc":
        return a @ b  # one term, or integers: every order gives the same exact result
    halves, thirds = _cut_product(a, b, inner // 2), _cut_product(a, b, inner // 3)
    if halves.ndim == 0:  # two vectors: one element
        return halves
    columns = np.arange(halves.shape[-1])
    rows = np.arange(halves.shape[-2])[:, None] if a.ndim > 1 and b.ndim > 1 else 0
    return np.where((rows + columns) % 2 == 1, thirds, halves)


def _cut_product(a: np.ndarray, b: np.ndarray, cut: int) -> np.ndarray:
    """``a @ b`` as the product over the inner indices before ``cut`` plus the product
    over the rest."""
    if b.ndim == 1:
        return a[..., :cut] @ b[:cut] + a[..., cut:] @ b[cut:]
    return a[..., :cut] @ b[..., :cut, :] + a[..., cut:] @ b[..., cut:, :]
