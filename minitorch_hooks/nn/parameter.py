"""``Parameter``: a tensor that a Module registers as one of its weights.

Assigning a Parameter to a module attribute registers it, so it appears in
``parameters()`` and ``state_dict()``; it is a leaf that requires grad by default.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.parameter.Parameter.html>
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from .._tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that modules treat as a learnable weight."""

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        values = np.zeros(0, dtype=np.float32) if data is None else data._data
        self._init(values)
        # PyTorch's Parameter words this refusal as its factories do, capitalised.
        self._set_requires_grad(
            requires_grad, "Only Tensors of floating point and complex dtype can require gradients")

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        return object.__new__(cls)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(Tensor._wrap(np.array(self._data, copy=True)), self._requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol: int) -> tuple:
        # Hooks are not saved; like PyTorch's, the copy gets an empty hook dictionary.
        return (_rebuild_parameter, (np.array(self._data), self._requires_grad, OrderedDict()))


def _rebuild_parameter(data: np.ndarray, requires_grad: bool,
                       backward_hooks: OrderedDict | None = None) -> Parameter:
    parameter = Parameter(Tensor._wrap(data), requires_grad)
    if backward_hooks is not None:
        parameter._backward_hooks = backward_hooks
    return parameter

