"""``nn.Linear`` (``y = x A^T + b``) and ``nn.Identity``.

A new ``Linear`` draws its weights at once, in PyTorch's order and with PyTorch's
formulas (see ``reset_parameters``), so a seeded script builds the same model here as in
PyTorch, bit for bit.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Linear.html>
"""

from __future__ import annotations

import math
from typing import Any

from ... import _dtype
from ..._creation import empty
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module


class Identity(Module):
    """Returns its input unchanged; arguments are accepted and ignored, so it can stand in
    for any layer (to switch one off, or as a named place to hook into)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """An affine map: ``weight`` is ``(out_features, in_features)``, ``bias`` is
    ``(out_features,)`` or, with ``bias=False``, a registered ``None``."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: _dtype.dtype | None = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """The default initialisation: weight first, then bias, each ``U(-k, k)`` with
        ``k = 1 / sqrt(in_features)``.

        The weight's bound comes from ``kaiming_uniform_(a=sqrt(5))``, which equals
        ``1 / sqrt(fan_in)`` mathematically but not always in the last bit of a double, so
        we take PyTorch's road to it (https://github.com/pytorch/pytorch/issues/57109).
        """
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    r"""A ``Linear`` whose ``in_features`` is the size of the last dimension of its first
    input. Until then its weight and bias are ``UninitializedParameter``\ s; the first
    call initialises them exactly as ``Linear`` would (same random draws), and the module
    becomes a ``Linear``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.LazyLinear.html>
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        super().__init__(0, 0, False)  # no bias: it would only be replaced at once
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        """Take ``in_features`` from the input's last dimension, then initialise. After a
        checkpoint was loaded the weights exist already: only ``in_features`` is set."""
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} "
                                     "is not equal to in_features from self.weight: "
                                     f"{self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class NonDynamicallyQuantizableLinear(Linear):
    """A plain ``Linear`` under another name: PyTorch gives ``MultiheadAttention.out_proj``
    this class so its quantization tools leave it alone, and the name shows in the repr.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.MultiheadAttention.html>
    """
