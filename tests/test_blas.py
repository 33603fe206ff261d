"""The seam of the matrix products (``minitorch_hooks/_blas.py``) and its perturbed mode.

``MTH_PERTURB_PRODUCTS=1`` must change the last bits of every matrix product of the
library, as another BLAS kernel would, and nothing more: each element stays within
float32's rounding of the exact product. It is only worth running if every product goes
through it, so each operation that multiplies matrices is checked to move with it.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import within_rounding

import minitorch_hooks as torch
from minitorch_hooks import _blas

RNG = np.random.default_rng(0)


def exact(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a.astype(np.float64) @ b.astype(np.float64)


@pytest.mark.parametrize(("a_shape", "b_shape"), [
    ((64, 72), (72, 16)), ((3, 40, 9), (3, 9, 8)), ((33,), (33, 5)), ((7, 20), (20,)),
    ((50,), (50,))], ids=["matrices", "batched", "vector-matrix", "matrix-vector", "dot"])
def test_the_perturbed_product_is_as_accurate_as_blas_and_differs_in_the_last_bits(
        a_shape, b_shape):
    a = RNG.standard_normal(a_shape).astype(np.float32)
    b = RNG.standard_normal(b_shape).astype(np.float32)
    perturbed, blas = _blas.perturbed_matmul(a, b), a @ b
    assert perturbed.dtype == blas.dtype and np.shape(perturbed) == np.shape(blas)
    # Any order of a sum of k terms is within about k * 2**-24 of the sum of magnitudes.
    bound = a_shape[-1] * 2.0**-24 * (np.abs(a).astype(np.float64) @ np.abs(b))
    assert np.all(np.abs(perturbed - exact(a, b)) <= bound)
    if np.ndim(blas) > 0:
        assert np.any(perturbed != blas), "the perturbed product changed no element"


def test_equal_rows_round_differently_by_position_as_in_a_tiled_kernel():
    row = RNG.standard_normal(72).astype(np.float32)
    a, b = np.tile(row, (256, 1)), RNG.standard_normal((72, 16)).astype(np.float32)
    perturbed = _blas.perturbed_matmul(a, b)
    assert max(len(set(perturbed[:, j].tolist())) for j in range(16)) > 1


def test_integer_products_stay_exact():
    a, b = np.arange(12).reshape(3, 4), np.arange(8).reshape(4, 2)
    assert np.array_equal(_blas.perturbed_matmul(a, b), a @ b)


def _conv(x: torch.Tensor, w: torch.Tensor) -> tuple[torch.Tensor, ...]:
    image = x.reshape(1, 16, 12, 12).detach().requires_grad_()
    kernel = w.flatten()[:576].reshape(4, 16, 3, 3).detach().requires_grad_()
    conv = torch.nn.functional.conv2d(image, kernel, padding=1)
    conv.backward(torch.ones_like(conv))
    return conv, image.grad, kernel.grad


def _mm_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_()
    (leaf @ w).sum().backward()
    return leaf.grad


# Each operation that multiplies matrices, forward and backward.
PRODUCTS = {
    "mm": lambda x, w: torch.mm(x, w), "matmul": lambda x, w: x @ w,
    "addmm": lambda x, w: torch.addmm(w[0], x, w),
    "batched matmul (bmm)": lambda x, w: x.reshape(4, 9, 64) @ w.expand(4, 64, 64),
    "mv": lambda x, w: w @ x[0], "dot": lambda x, w: x[0] @ w[:, 0],
    "linear": lambda x, w: torch.nn.functional.linear(x, w.t()),
    "conv2d, its input and weight gradients": _conv,
    "mm grad": _mm_grad,
}


def _arrays(result: torch.Tensor | tuple[torch.Tensor, ...]) -> list[np.ndarray]:
    results = result if isinstance(result, tuple) else (result,)
    return [r.detach().numpy() for r in results]


def test_every_matrix_product_goes_through_the_seam(monkeypatch):
    """Each operation calls ``_blas.matmul`` (a spy counts the calls: whether a perturbed
    sum happens to equal the plain one depends on the CPU's kernel), and in the perturbed
    mode its results stay within float32's rounding of the plain ones."""
    torch.manual_seed(0)
    x, w = torch.randn(36, 64), torch.randn(64, 64)
    calls = []
    real = _blas.matmul
    monkeypatch.setattr(_blas, "matmul", lambda *args, **kwargs: calls.append(1) or real(
        *args, **kwargs))
    unseen = []
    for name, product in PRODUCTS.items():
        calls.clear()
        monkeypatch.setattr(_blas, "PERTURBED", False)
        plain = _arrays(product(x, w))
        if not calls:
            unseen.append(name)
        monkeypatch.setattr(_blas, "PERTURBED", True)
        for perturbed, expected in zip(_arrays(product(x, w)), plain):
            within_rounding(perturbed, expected, 1e-5, name,
                            "another order of the same float32 sums")
    assert not unseen, f"not computed through minitorch_hooks._blas.matmul: {unseen}"


def test_a_numeric_mismatch_explains_itself():
    with pytest.raises(AssertionError) as failure:
        within_rounding(np.array([1.0, 2.0, 3.5]), np.array([1.0, 2.0, 3.0]), 1e-4,
                        "the weights", "one float32 step")
    message = str(failure.value)
    assert "the weights at [2]: 3.5 here, 3 in PyTorch" in message
    assert "difference 0.5 > tolerance 0.0003" in message
    assert "the tolerance: one float32 step" in message and "BLAS: " in message
    assert len(message.splitlines()) <= 5
