"""Matrix products: ``matmul`` (``@``), ``mm``, ``addmm``.

For ``C = A @ B`` the gradients are ``dA = dC @ B^T`` and ``dB = A^T @ dC``. ``matmul``
records the node PyTorch records for each case (``DotBackward0`` for two vectors,
``MvBackward0``, ``MmBackward0``, and a fold of batch dimensions for larger inputs).
See <https://docs.pytorch.org/docs/2.13/generated/torch.matmul.html>
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _blas
from .._allocation import allocating
from .._tensor import Tensor, _c_name
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record, saved_for_each_other
from .conversion import contiguous
from .pointwise import broadcast_shapes
from .shape import (
    SqueezeBackward1,
    SqueezeBackward4,
    _squeeze,
    _unsafe_view,
    expand,
    expanded_shape,
    reshape,
    squeeze,
    t,
    transpose_last,
    unsqueeze,
)


def _is_column_major(matrix: np.ndarray) -> bool:
    """Whether ``matrix`` is a transposed row-major matrix, such as ``weight.t()`` in
    ``nn.Linear``: PyTorch's test in ``mm_mat1_backward`` and ``mm_mat2_backward``."""
    row_stride, column_stride = matrix.strides
    return row_stride == matrix.itemsize and column_stride == matrix.itemsize * matrix.shape[0]


class _MatrixProductBackward(Node):
    """For ``mat1 @ mat2``: ``d mat1 = grad @ mat2^T`` and ``d mat2 = mat1^T @ grad``.

    Like PyTorch, each gradient is laid out as its matrix was: for a column-major ``mat2``
    (the ``weight.t()`` of ``nn.Linear``) it computes ``(grad^T @ mat1)^T``, the same
    values, so that after ``TBackward0`` the weight's gradient is row-major like the weight.
    Then ``.grad`` is contiguous, and the optimiser's update runs over memory in order.
    """

    # Each matrix's sizes, and its strides where its gradient will be computed (else
    # ``()``): what PyTorch's node keeps to lay that gradient out, shown as
    # ``_saved_mat1_sym_sizes``, ``_saved_mat1_sym_strides``...
    __slots__ = ("sizes", "strides")
    # PyTorch saves inputs in the alphabetical order of their names: ``mm(self, mat2)``
    # saves ``mat2`` first, ``addmm(input, mat1, mat2)`` saves ``mat1`` first.
    mat2_saved_first = False

    @property
    def mat1_sym_sizes(self) -> tuple[int, ...]:
        return self.sizes[0]

    @property
    def mat1_sym_strides(self) -> tuple[int, ...]:
        return self.strides[0]

    @property
    def mat2_sym_sizes(self) -> tuple[int, ...]:
        return self.sizes[1]

    @property
    def mat2_sym_strides(self) -> tuple[int, ...]:
        return self.strides[1]

    def _product_grads(self, grad: np.ndarray) -> tuple:
        # As for ``mul``, each side is saved only when the other side needs its gradient.
        first, second, mat1_column_major, mat2_column_major = self.saved_arrays()
        mat1, mat2 = (second, first) if self.mat2_saved_first else (first, second)
        grad_mat1 = grad_mat2 = None
        if mat2 is not None:
            grad_mat1 = (formula.t(_blas.matmul(mat2, formula.t(grad))) if mat1_column_major
                         else _blas.matmul(grad, formula.t(mat2)))
        if mat1 is not None:
            grad_mat2 = (formula.t(_blas.matmul(formula.t(grad), mat1)) if mat2_column_major
                         else _blas.matmul(formula.t(mat1), grad))
        return grad_mat1, grad_mat2


def _record_product(data: np.ndarray, node_type: type[_MatrixProductBackward], inputs: tuple,
                    mat1: Tensor, mat2: Tensor) -> Tensor:
    """Record ``mm`` or ``addmm``. Like PyTorch's node, it saves each matrix for the other's
    gradient, and the layout of each matrix whose gradient it will compute."""
    matrices = saved_for_each_other(mat1, mat2)
    if node_type.mat2_saved_first:
        matrices = matrices[::-1]
    return record(data, node_type, inputs,
                  saved=(*matrices,
                         mat1._requires_grad and _is_column_major(mat1._data),
                         mat2._requires_grad and _is_column_major(mat2._data)),
                  sizes=(mat1._data.shape, mat2._data.shape),
                  strides=tuple(matrix.stride() if matrix._requires_grad else ()
                                for matrix in (mat1, mat2)))


class MmBackward0(_MatrixProductBackward):
    __slots__ = ()
    saved_names = ("mat2", "self")
    saved_attributes = ("mat2_sym_sizes", "mat2_sym_strides", "self_sym_sizes",
                        "self_sym_strides")
    mat2_saved_first = True
    self_sym_sizes = _MatrixProductBackward.mat1_sym_sizes  # ``mm(self, mat2)``
    self_sym_strides = _MatrixProductBackward.mat1_sym_strides

    def backward(self, grad):
        return self._product_grads(grad)


class MvBackward0(Node):
    __slots__ = ()
    saved_names = ("self", "vec")

    def backward(self, grad):
        matrix, vector = self.saved_arrays()
        return (None if vector is None else formula.outer(grad, vector),
                None if matrix is None else _blas.matmul(formula.t(matrix), grad))


class DotBackward0(Node):
    __slots__ = ()
    saved_names = ("self", "tensor")

    def backward(self, grad):
        a, b = self.saved_arrays()
        return None if b is None else grad * b, None if a is None else grad * a


class BmmBackward0(Node):
    __slots__ = ()
    saved_names = ("mat2", "self")

    def backward(self, grad):
        b, a = self.saved_arrays()  # ``mat2`` was saved first (see _MatrixProductBackward)
        return (None if b is None else _blas.matmul(grad, formula.swapaxes(b, -1, -2)),
                None if a is None else _blas.matmul(formula.swapaxes(a, -1, -2), grad))


def _check_same_dtype(a: Tensor, b: Tensor, message: str) -> None:
    """Matrix products do not promote: PyTorch wants one dtype, and says so in each
    kernel's own words (``message`` is formatted with the two dtypes)."""
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(message.format(a=a.dtype, b=b.dtype, c_a=_c_name(a.dtype),
                                          c_b=_c_name(b.dtype)))


def _product(a: Tensor, b: Tensor, node_type: type[Node]) -> Tensor:
    return record(_blas.matmul(a._data, b._data), node_type, (a, b),
                  saved=saved_for_each_other(a, b))


def _check_matrix(tensor: Tensor, name: str) -> None:
    if tensor._data.ndim != 2:
        raise RuntimeError(f"{name} must be a matrix")


@allocating
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """The product of two matrices."""
    _check_matrix(input, "self")
    _check_matrix(mat2, "mat2")
    return _mm(input, mat2)


def _mm(input: Tensor, mat2: Tensor) -> Tensor:
    """``mm`` for ``matmul``, which passes it only matrices and reports a failed allocation
    itself."""
    (n, k), (k2, m) = input._data.shape, mat2._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    _check_same_dtype(input, mat2, "expected m1 and m2 to have the same dtype, but got: "
                                   "{c_a} != {c_b}")
    return _record_product(_blas.matmul(input._data, mat2._data), MmBackward0, (input, mat2),
                           input, mat2)


def _mv(matrix: Tensor, vector: Tensor) -> Tensor:
    (n, k), (k2,) = matrix._data.shape, vector._data.shape
    if k != k2:
        raise RuntimeError(f"size mismatch, got input ({n}), mat ({n}x{k}), vec ({k2})")
    _check_same_dtype(vector, matrix, "addmv input tensors must have the same dtype, but got "
                                      "{a.scalar_name}, {b.scalar_name}, and {a.scalar_name}")
    return _product(matrix, vector, MvBackward0)


def _dot(a: Tensor, b: Tensor) -> Tensor:
    if a._data.shape != b._data.shape:
        n, m = a._data.size, b._data.size
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
            f"number of elements, but got {n} and {m} elements respectively")
    _check_same_dtype(a, b, "dot : expected both vectors to have same dtype, but found "
                            "{a.scalar_name} and {b.scalar_name}")
    return _product(a, b, DotBackward0)


def _bmm(a: Tensor, b: Tensor) -> Tensor:
    (batch, _, k), (batch2, k2, _) = a._data.shape, b._data.shape
    if (batch2, k2) != (batch, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{batch}, {k}] but got: [{batch2}, {k2}].")
    _check_same_dtype(a, b, "expected scalar type {a.scalar_name} but found {b.scalar_name}")
    return record(_blas.matmul(a._data, b._data), BmmBackward0, (a, b),
                  saved=saved_for_each_other(b, a))


@allocating
def matmul(input: Tensor, other: Tensor) -> Tensor:
    """``input @ other`` for any ranks, decomposed into the operations PyTorch records.

    Vectors and matrices map to ``dot``, ``mv`` and ``mm``. A batch of matrices times a
    matrix or vector is *folded* into one ``mm``/``mv`` (its batch dimensions become rows)
    when that needs no copy, or when the smaller side requires grad: then its gradient is
    one matrix product instead of a batch of them summed. Everything else broadcasts the
    batch dimensions, flattens them and calls ``bmm``.
    See ``_matmul_impl`` in PyTorch's aten/src/ATen/native/LinearAlgebra.cpp.
    """
    a_dim, b_dim = input._data.ndim, other._data.ndim
    if a_dim == 0 or b_dim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a_dim}D and {b_dim}D")
    if a_dim == 1 and b_dim == 1:
        return _dot(input, other)
    if a_dim == 2 and b_dim == 1:
        return _mv(input, other)
    if a_dim == 1 and b_dim == 2:
        return _squeeze(_mm(unsqueeze(input, 0), other), 0, SqueezeBackward4, shown_dim=0)
    if a_dim == 2 and b_dim == 2:
        return _mm(input, other)
    if _should_fold(input, other):
        return _folded_matmul(input, other)
    return _batched_matmul(input, other)


def matmul_operator(input: Tensor, other: Any) -> Tensor:
    """``input @ other``. A non-tensor ``other`` gives ``NotImplemented``, so that Python
    raises its usual "unsupported operand type(s)" TypeError, as with PyTorch."""
    return matmul(input, other) if isinstance(other, Tensor) else NotImplemented


def _should_fold(a: Tensor, b: Tensor) -> bool:
    """Whether ``a @ b`` (one side 3D or more, the other 1D or 2D) becomes one ``mm``/``mv``."""
    large, small = (a, b) if a._data.ndim >= b._data.ndim else (b, a)
    if not (large._data.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small._requires_grad:
        return True
    if a._data.ndim == 2:  # folding would need a transposed copy of the result
        return False
    folded = large._data if large is a else np.swapaxes(large._data, -1, -2)
    if folded.size == 0:
        return True
    shape, strides = folded.shape, folded.strides
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(folded.ndim - 2))


def _folded_matmul(a: Tensor, b: Tensor) -> Tensor:
    transpose = b._data.ndim > a._data.ndim  # then compute (b^T @ a^T)^T
    t1 = transpose_last(b) if transpose else a
    t2 = (t(a) if a._data.ndim == 2 else a) if transpose else b
    *batch, rows = t1._data.shape
    folded = reshape(t1, math.prod(batch), rows)
    if t2._data.ndim == 1:
        return _unsafe_view(_mv(folded, t2), tuple(batch))
    output = _unsafe_view(_mm(folded, t2), (*batch, t2._data.shape[1]))
    return contiguous(transpose_last(output)) if transpose else output


def _batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    a_dim, b_dim = a._data.ndim, b._data.ndim
    n = a._data.shape[-2] if a_dim > 1 else 1
    m1 = a._data.shape[-1]
    m2 = b._data.shape[-2] if b_dim > 1 else b._data.shape[0]
    p = b._data.shape[-1] if b_dim > 1 else 1
    batch_a, batch_b = a._data.shape[:max(a_dim - 2, 0)], b._data.shape[:max(b_dim - 2, 0)]
    # A batch of one that requires grad is squeezed so that the product can be folded.
    if a_dim == 3 and b_dim == 3 and batch_a[0] != batch_b[0]:
        if batch_a[0] == 1 and a._requires_grad:
            return matmul(squeeze(a, 0), b)
        if batch_b[0] == 1 and b._requires_grad:
            return matmul(a, squeeze(b, 0))
    batch = broadcast_shapes(batch_a, batch_b)
    count = math.prod(batch)
    a_batched = reshape(expand(a, (*batch, n, m1)), count, n, m1)
    if b_dim == 1:
        b_batched = unsqueeze(reshape(expand(b, (*batch, m2)), count, m2), 2)
        product = _squeeze(_bmm(a_batched, b_batched), -1, SqueezeBackward1)
    else:
        product = _bmm(a_batched, reshape(expand(b, (*batch, m2, p)), count, m2, p))
    shape = (*batch, *((n,) if a_dim > 1 else ()), *((p,) if b_dim > 1 else ()))
    return _unsafe_view(product, shape)


class AddmmBackward0(_MatrixProductBackward):
    __slots__ = ()
    saved_names = ("mat1", "mat2")
    saved_attributes = ("alpha", "beta", "mat1_sym_sizes", "mat1_sym_strides",
                        "mat2_sym_sizes", "mat2_sym_strides")
    alpha = beta = 1  # ``addmm``'s scales, which ``nn.Linear`` leaves at 1

    def backward(self, grad):
        return (grad, *self._product_grads(grad))


@allocating
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor) -> Tensor:
    """``input + mat1 @ mat2`` in one node: what ``nn.Linear`` records for a batch."""
    (n, k), (k2, m) = mat1._data.shape, mat2._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    _check_same_dtype(mat1, mat2, "mat1 and mat2 must have the same dtype, but got "
                                  "{a.scalar_name} and {b.scalar_name}")
    _check_same_dtype(input, mat2, "self and mat2 must have the same dtype, but got "
                                   "{a.scalar_name} and {b.scalar_name}")
    if input._data.shape != (m,):  # the bias must expand to the product's shape
        expanded_shape(input, (n, m))
    return _record_product(input._data + _blas.matmul(mat1._data, mat2._data), AddmmBackward0,
                           (input, mat1, mat2), mat1, mat2)


# -- batches of matrices ----------------------------------------------------------------------

def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """The inner product of two vectors of the same length and dtype.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.dot.html>
    """
    for vector in (input, tensor):
        if vector._data.ndim != 1:
            raise RuntimeError("1D tensors expected, but got "
                               f"{input._data.ndim}D and {tensor._data.ndim}D tensors")
    return _dot(input, tensor)


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """A matrix times a vector.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.mv.html>
    """
    if input._data.ndim != 2 or vec._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input._data.ndim}, "
                           f"{vec._data.ndim}")
    return _mv(input, vec)


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """Every product of an element of ``input`` with one of ``vec2``: PyTorch records it as
    ``input.reshape(-1, 1) * vec2``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.outer.html>
    """
    from .pointwise import mul
    from .shape import reshape

    for vector in (input, vec2):
        if vector._data.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument self, but got "
                               f"{input._data.ndim}-D" if vector is input else
                               f"outer: Expected 1-D argument vec2, but got "
                               f"{vec2._data.ndim}-D")
    return mul(reshape(input, (input._data.size, 1)), vec2)


def _check_batches(batch1: Tensor, batch2: Tensor) -> None:
    for name, batch in (("batch1", batch1), ("batch2", batch2)):
        if batch._data.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """A batch of matrix products: ``input[i] @ mat2[i]`` for each ``i``, both 3-D with the
    same batch size (no broadcasting, unlike ``matmul``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.bmm.html>
    """
    _check_batches(input, mat2)
    return _bmm(input, mat2)


class BaddbmmBackward0(Node):
    """``beta * input + alpha * batch1 @ batch2``: the product's gradients are ``bmm``'s
    scaled by ``alpha``, the input's the gradient scaled by ``beta`` (summed back over the
    dimensions it was broadcast along)."""

    __slots__ = ("alpha", "beta")
    saved_names = ("batch1", "batch2")
    saved_attributes = ("alpha", "beta")

    def backward(self, grad):
        batch1, batch2 = self.saved_arrays()
        grad_input = grad if self.beta == 1 else grad * self.beta
        scaled = grad if self.alpha == 1 else grad * self.alpha
        return (grad_input,
                None if batch2 is None else scaled @ formula.swapaxes(batch2, -1, -2),
                None if batch1 is None else formula.swapaxes(batch1, -1, -2) @ scaled)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1,
            alpha: float = 1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)`` in one node; ``input`` broadcasts to
    the product's shape. With ``beta=0`` the input's values are ignored (a nan in it does
    not reach the result), as PyTorch documents.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.baddbmm.html>
    """
    _check_batches(batch1, batch2)
    if input._data.dtype != batch1._data.dtype or input._data.dtype != batch2._data.dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input {_c_name(input.dtype)}, "
                           f"batch1: {_c_name(batch1.dtype)}, batch2: "
                           f"{_c_name(batch2.dtype)}")
    (batch, n, k), (batch_2, k_2, m) = batch1._data.shape, batch2._data.shape
    if (batch_2, k_2) != (batch, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{batch}, {k}] but got: [{batch_2}, {k_2}].")
    expanded_shape(input, (batch, n, m))
    product = batch1._data @ batch2._data
    if alpha != 1:
        product = product * alpha
    data = product if beta == 0 else product + (input._data if beta == 1
                                                 else input._data * beta)
    saved = saved_for_each_other(batch1, batch2)
    return record(data.astype(batch1._data.dtype, copy=False), BaddbmmBackward0,
                  (input, batch1, batch2), saved=saved, alpha=alpha, beta=beta)
