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


def _products(x: torch.Tensor, w: torch.Tensor) -> dict[str, torch.Tensor]:
    """Each operation that multiplies matrices, forward and backward."""
    results = {"mm": torch.mm(x, w), "matmul": x @ w, "addmm": torch.addmm(w[0], x, w),
               "batched matmul (bmm)": x.reshape(4, 9, 64) @ w.expand(4, 64, 64),
               "mv": w @ x[0], "dot": x[0] @ w[:, 0],
               "linear": torch.nn.functional.linear(x, w.t())}
    image = x.reshape(1, 16, 12, 12).detach().requires_grad_()
    kernel = w.flatten()[:576].reshape(4, 16, 3, 3).detach().requires_grad_()
    conv = torch.nn.functional.conv2d(image, kernel, padding=1)
    conv.backward(torch.ones_like(conv))
    results |= {"conv2d": conv, "conv2d input grad": image.grad, "conv2d weight grad":
                kernel.grad, "bilinear": torch.nn.functional.interpolate(
                    image.detach(), size=(17, 17), mode="bilinear", align_corners=False)}
    leaf = x.detach().requires_grad_()
    (leaf @ w).sum().backward()
    return results | {"mm grad": leaf.grad}


def test_every_matrix_product_goes_through_the_seam(monkeypatch):
    torch.manual_seed(0)
    x, w = torch.randn(36, 64), torch.randn(64, 64)
    monkeypatch.setattr(_blas, "PERTURBED", False)
    plain = _products(x, w)
    monkeypatch.setattr(_blas, "PERTURBED", True)
    perturbed = _products(x, w)
    unmoved = [name for name in plain
               if np.array_equal(plain[name].detach().numpy(), perturbed[name].detach().numpy())]
    assert not unmoved, f"not computed through minitorch_hooks._blas.matmul: {unmoved}"
    for name in plain:
        within_rounding(perturbed[name].detach().numpy(), plain[name].detach().numpy(), 1e-5,
                        name, "another order of the same float32 sums")


def test_a_numeric_mismatch_explains_itself():
    with pytest.raises(AssertionError) as failure:
        within_rounding(np.array([1.0, 2.0, 3.5]), np.array([1.0, 2.0, 3.0]), 1e-4,
                        "the weights", "one float32 step")
    message = str(failure.value)
    assert "the weights at [2]: 3.5 here, 3 in PyTorch" in message
    assert "difference 0.5 > tolerance 0.0003" in message
    assert "the tolerance: one float32 step" in message and "BLAS: " in message
    assert len(message.splitlines()) <= 5
