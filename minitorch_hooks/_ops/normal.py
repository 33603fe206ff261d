"""``torch.normal``: normal samples with given means and standard deviations.

Four signatures, as in PyTorch: a tensor of means and a tensor of standard deviations
(broadcast against each other), a tensor of means and one number, one number and a tensor,
or two numbers and a ``size``. PyTorch draws standard normal samples into the output
(``normal_(0, 1)``, or ``normal_(0, std)`` for a number ``std``) and then scales and shifts
them in place (``mul_(std).add_(mean)``), so the numbers are those of ``Tensor.normal_``
followed by that arithmetic: this file does the same. A sample does not depend
differentiably on ``mean`` and ``std`` here (``rsample`` in ``torch.distributions`` is how
to get that), so their gradient is zero: ``NormalBackward1/2/3`` return zeros.
See <https://docs.pytorch.org/docs/2.13/generated/torch.normal.html>
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import numpy as np

from .. import _creation
from .._generator_math import _SCALAR_TYPE_NAMES
from .._tensor import Tensor
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ..random import default_generator
from ._arguments import invalid_combination
from ._record import record
from .pointwise import broadcast_shapes

_SIGNATURES = (
    "(Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)",
    "(Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)",
    "(float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)",
    "(float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor "
    "out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = "
    "None, bool pin_memory = False, bool requires_grad = False)",
)


def _zeros(shape: tuple[int, ...], grad: Any) -> Any:
    return formula.like(np.zeros(shape, dtype=formula.dtype(grad)), grad)


class NormalBackward1(Node):
    """``normal(Tensor mean, float std)``: a zero gradient for ``mean``."""

    __slots__ = ("mean_sym_sizes",)
    saved_attributes = ("mean_sym_sizes",)

    def backward(self, grad):
        return _zeros(self.mean_sym_sizes, grad)


class NormalBackward2(Node):
    """``normal(float mean, Tensor std)``: a zero gradient for ``std``."""

    __slots__ = ("std_sym_sizes",)
    saved_attributes = ("std_sym_sizes",)

    def backward(self, grad):
        return _zeros(self.std_sym_sizes, grad)


class NormalBackward3(Node):
    """``normal(Tensor mean, Tensor std)``: zero gradients for both."""

    __slots__ = ("mean_sym_sizes", "std_sym_sizes")
    saved_attributes = ("mean_sym_sizes", "std_sym_sizes")

    def backward(self, grad):
        return _zeros(self.mean_sym_sizes, grad), _zeros(self.std_sym_sizes, grad)


def _standard_samples(shape: tuple[int, ...], dtype: np.dtype, std: float,
                      generator: Any) -> np.ndarray:
    """``torch.empty(shape, dtype).normal_(0, std, generator=generator)``."""
    if dtype.kind != "f":
        raise NotImplementedError(f"\"normal_kernel_cpu\" not implemented for "
                                  f"'{_SCALAR_TYPE_NAMES[dtype.name]}'")
    samples = np.empty(shape, dtype=dtype)
    (generator or default_generator)._normal_(samples, 0.0, std)
    return samples


def normal(mean: Any, std: Any = 1.0, size: Any = None, *, generator: Any = None,
           out: Any = None, dtype: Any = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """Normal samples: ``mean + std * N(0, 1)``, elementwise over the broadcast tensors, or
    ``size`` of them for two numbers. ``out=`` is not implemented.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.normal.html>
    """
    if out is not None:
        raise NotImplementedError("minitorch_hooks does not implement out=")
    mean_is_tensor, std_is_tensor = isinstance(mean, Tensor), isinstance(std, Tensor)
    tensor_only = size is None and dtype is None and device is None and not requires_grad
    if mean_is_tensor and std_is_tensor and tensor_only:
        if std._data.size and not (std._data >= 0).all():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        shape = broadcast_shapes(mean._data.shape, std._data.shape)
        samples = _standard_samples(shape, mean._data.dtype, 1.0, generator)  # mean's dtype
        result = (samples * std._data + mean._data).astype(samples.dtype, copy=False)
        return record(result, NormalBackward3, (mean, std),
                      mean_sym_sizes=mean._data.shape, std_sym_sizes=std._data.shape)
    if mean_is_tensor and isinstance(std, Number) and tensor_only:
        if not std >= 0.0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        samples = _standard_samples(mean._data.shape, mean._data.dtype, float(std), generator)
        return record(samples + mean._data, NormalBackward1, (mean,),
                      mean_sym_sizes=mean._data.shape)
    if isinstance(mean, Number) and std_is_tensor and tensor_only:
        if std._data.size and not (std._data >= 0).all():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        samples = _standard_samples(std._data.shape, std._data.dtype, 1.0, generator)
        return record(samples * std._data + std._data.dtype.type(mean), NormalBackward2,
                      (std,), std_sym_sizes=std._data.shape)
    if isinstance(mean, Number) and isinstance(std, Number) and size is not None:
        made = _creation.empty(size, dtype=dtype, device=device)
        made.normal_(mean, std, generator=generator)
        return made.requires_grad_(requires_grad)
    raise invalid_combination("normal", (mean, std), {}, _SIGNATURES)
