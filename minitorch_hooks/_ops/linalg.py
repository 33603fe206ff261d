"""Matrix products: ``matmul`` (``@``), ``mm``, ``addmm``.

For ``C = A @ B`` the gradients are ``dA = dC @ B^T`` and ``dB = A^T @ dC``. ``matmul``
records the node PyTorch records for each case (``DotBackward0`` for two vectors,
``MvBackward0``, ``MmBackward0``, and a fold of batch dimensions for larger inputs).
See https://pytorch.org/docs/stable/generated/torch.matmul.html
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.graph import Node
from ._record import promote, record
from .shape import _unsafe_view, reshape, squeeze, unsqueeze


class MmBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        a, b = self.saved_arrays()
        return grad @ b.T, a.T @ grad


class MvBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        matrix, vector = self.saved_arrays()
        return np.outer(grad, vector), matrix.T @ grad


class DotBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        a, b = self.saved_arrays()
        return grad * b, grad * a


class BmmBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        a, b = self.saved_arrays()
        return grad @ np.swapaxes(b, -1, -2), np.swapaxes(a, -1, -2) @ grad


def _product(a: Tensor, b: Tensor, node_type: type[Node]) -> Tensor:
    x, y = promote(a, b)
    return record(x @ y, node_type, (a, b), saved=(a, b))


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """The product of two matrices."""
    (n, k), (k2, m) = input._data.shape, mat2._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    return _product(input, mat2, MmBackward0)


def matmul(input: Tensor, other: Any) -> Tensor:
    """``input @ other`` for any ranks, recorded as PyTorch records it."""
    if not isinstance(other, Tensor):
        raise TypeError(f"matmul(): argument 'other' must be Tensor, not {type(other).__name__}")
    a_dim, b_dim = input._data.ndim, other._data.ndim
    if a_dim == 0 or b_dim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a_dim}D and {b_dim}D")
    if a_dim == 1 and b_dim == 1:
        if input._data.shape != other._data.shape:
            n, m = input._data.size, other._data.size
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the "
                f"same number of elements, but got {n} and {m} elements respectively")
        return _product(input, other, DotBackward0)
    if a_dim == 2 and b_dim == 1:
        if input._data.shape[1] != other._data.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({input._data.shape[0]}), mat "
                               f"({input._data.shape[0]}x{input._data.shape[1]}), vec "
                               f"({other._data.shape[0]})")
        return _product(input, other, MvBackward0)
    if a_dim == 1 and b_dim == 2:
        return squeeze(mm(unsqueeze(input, 0), other), 0)
    if a_dim == 2 and b_dim == 2:
        return mm(input, other)
    if b_dim <= 2:  # fold the batch dimensions of ``input`` into one matrix product
        batch = input._data.shape[:-1]
        folded = mm(reshape(input, -1, input._data.shape[-1]),
                    other if b_dim == 2 else unsqueeze(other, 1))
        shape = batch if b_dim == 1 else batch + (other._data.shape[-1],)
        return _unsafe_view(folded, shape)
    return _product(input, other, BmmBackward0)


class AddmmBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        a, b = self.saved_arrays()
        return grad, grad @ b.T, a.T @ grad


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor) -> Tensor:
    """``input + mat1 @ mat2`` in one node: what ``nn.Linear`` records for a batch."""
    (n, k), (k2, m) = mat1._data.shape, mat2._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    x, y = promote(mat1, mat2)
    return record(input._data + x @ y, AddmmBackward0, (input, mat1, mat2),
                  saved=(mat1, mat2))
