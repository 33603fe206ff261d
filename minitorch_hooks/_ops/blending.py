"""``lerp``, ``addcmul`` and ``addcdiv``: an input plus a scaled product or quotient of two
others, the fused steps of optimisers (Adam's ``exp_avg.lerp_(grad, 1 - beta1)`` and
``param.addcdiv_(exp_avg, denom, value=-lr)``) and of exponential moving averages.

``lerp(start, end, weight)`` is ``start + weight * (end - start)``. PyTorch computes it
from the nearer end, ``end - (end - start) * (1 - weight)`` once ``weight >= 0.5``, so that
``weight = 1`` gives ``end`` exactly; so does this file. Its gradients are
``1 - weight`` for ``start``, ``weight`` for ``end`` and ``end - start`` for a tensor
weight.
See <https://docs.pytorch.org/docs/2.13/generated/torch.lerp.html>,
<https://docs.pytorch.org/docs/2.13/generated/torch.addcmul.html> and
<https://docs.pytorch.org/docs/2.13/generated/torch.addcdiv.html>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, _c_name
from ..autograd.graph import Node
from ._record import promote_types, record, saved_for
from .inplace import _in_place
from .pointwise import broadcast_shapes


def _arrays(*tensors: Tensor) -> list[np.ndarray]:
    """The values of tensors, checked to broadcast together and cast to the dtype PyTorch
    computes them in (float32 with int64 is float32, not NumPy's float64)."""
    arrays = [t._data for t in tensors]
    shape, common = arrays[0].shape, arrays[0].dtype
    for array in arrays[1:]:
        shape = broadcast_shapes(shape, array.shape)
        common = promote_types(common, array.dtype)
    return [array.astype(common, copy=False) for array in arrays]


def _check_same_dtype(input: Tensor, other: Tensor, what: str) -> None:
    if other.dtype is not input.dtype:
        raise RuntimeError(f"expected dtype {_c_name(input.dtype)} for `{what}` but got "
                           f"dtype {_c_name(other.dtype)}")


class LerpBackward0(Node):
    __slots__ = ("weight",)
    saved_attributes = ("weight",)

    def backward(self, grad):
        return grad * (1 - self.weight), grad * self.weight


class LerpBackward1(Node):
    __slots__ = ()
    saved_names = ("end", "self", "weight")

    def backward(self, grad):
        end, start, weight = self.saved_arrays()
        return (grad * (1 - weight), grad * weight,
                None if start is None else grad * (end - start))


def lerp(input: Tensor, end: Tensor, weight: Any) -> Tensor:
    """``input + weight * (end - input)``, for a number or a tensor ``weight``."""
    _check_same_dtype(input, end, "end")
    if isinstance(weight, Tensor):
        _check_same_dtype(input, weight, "weight")
        start, stop, w = _arrays(input, end, weight)
    else:
        start, stop = _arrays(input, end)
        w = start.dtype.type(weight)
    with np.errstate(invalid="ignore", over="ignore"):
        data = np.where(np.abs(w) < 0.5, start + w * (stop - start),
                        stop - (stop - start) * (1 - w)).astype(start.dtype, copy=False)
    if not isinstance(weight, Tensor):
        return record(data, LerpBackward0, (input, end), weight=weight)
    return record(data, LerpBackward1, (input, end, weight),
                  saved=(saved_for(end, weight), saved_for(input, weight), weight))


class AddcmulBackward0(Node):
    __slots__ = ("value",)
    saved_names = ("tensor1", "tensor2")
    saved_attributes = ("value",)

    def backward(self, grad):
        t1, t2 = self.saved_arrays()
        return (grad, None if t2 is None else grad * t2 * self.value,
                None if t1 is None else grad * t1 * self.value)


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``."""
    a, b, c = _arrays(input, tensor1, tensor2)
    data = a + (b * b.dtype.type(value)) * c
    return record(data, AddcmulBackward0, (input, tensor1, tensor2),
                  saved=(saved_for(tensor1, tensor2), saved_for(tensor2, tensor1)),
                  value=value)


class AddcdivBackward0(Node):
    __slots__ = ("value",)
    saved_names = ("tensor1", "tensor2")
    saved_attributes = ("value",)

    def backward(self, grad):
        t1, t2 = self.saved_arrays()
        return (grad, grad * self.value / t2,
                None if t1 is None else -grad * self.value * t1 / (t2 * t2))


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``."""
    if tensor1._data.dtype.kind in "biu" and tensor2._data.dtype.kind in "biu":
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic "
            "addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / "
            "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
            "tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes.")
    a, b, c = _arrays(input, tensor1, tensor2)
    with np.errstate(divide="ignore", invalid="ignore"):
        data = a + (b * b.dtype.type(value)) / c
    return record(data, AddcdivBackward0, (input, tensor1, tensor2),
                  saved=(saved_for(tensor1, tensor2), tensor2), value=value)


def _lerp_(input: Tensor, end: Tensor, weight: Any) -> Tensor:
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"lerp_kernel_scalar" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return lerp(input, end, weight)


lerp_ = _in_place(_lerp_)
addcmul_ = _in_place(addcmul)
addcdiv_ = _in_place(addcdiv)
