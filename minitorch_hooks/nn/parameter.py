"""``Parameter``: a tensor that a Module registers as one of its weights.

Assigning a Parameter to a module attribute registers it, so it appears in
``parameters()`` and ``state_dict()``; it is a leaf that requires grad by default.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.parameter.Parameter.html>
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from .. import _creation
from .._tensor import Tensor, wrap


class Parameter(Tensor):
    """A leaf tensor that modules treat as a learnable weight."""

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        return wrap(np.zeros(0, dtype=np.float32) if data is None else data._data, cls=cls)

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        # PyTorch's Parameter words this refusal as its factories do, capitalised.
        self._set_requires_grad(
            requires_grad, "Only Tensors of floating point and complex dtype can require gradients")

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(wrap(np.array(self._data, copy=True)), self._requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol: int) -> tuple:
        # Hooks are not saved; like PyTorch's, the copy gets an empty hook dictionary.
        return (_rebuild_parameter, (np.array(self._data), self._requires_grad, OrderedDict()))


class _BufferMeta(type):
    """``isinstance(t, Buffer)`` is True for any tensor that ``Buffer(...)`` marked."""

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that, assigned to a module attribute, registers itself as a buffer.

    Assigning a plain tensor only sets an attribute; marking it as a ``Buffer`` says "this
    is module state" (running statistics, a mask) without calling ``register_buffer``.
    PyTorch's ``Buffer(...)`` does not return a new kind of tensor: it returns a detached
    ``Tensor`` with two attributes, ``persistent`` and ``_is_buffer``, and ``isinstance``
    looks for the mark.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.parameter.Buffer.html>
    """

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Tensor:
        if data is None:
            data = wrap(np.zeros(0, dtype=np.float32))
        tensor = data.detach().requires_grad_(data.requires_grad)
        tensor.persistent = persistent
        tensor._is_buffer = True
        return tensor


class UninitializedTensorMixin:
    r"""A parameter or buffer whose shape is not known yet: a lazy module (``LazyLinear``)
    creates its weights this way and ``materialize``\ s them at its first call, when the
    input shows the size. Until then there are no values to use, and asking for the shape
    is PyTorch's error.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.parameter.UninitializedParameter.html>
    """

    cls_to_become: type

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Give the tensor ``shape`` (uninitialised values; the module then initialises
        them) and turn it into an ordinary ``Parameter`` (or tensor, for a buffer)."""
        if dtype is None:
            dtype = self.dtype
        self._data = np.zeros(tuple(shape) if isinstance(shape, (tuple, list)) else (shape,),
                              dtype=dtype.numpy_type)
        self.__class__ = self.cls_to_become

    @property
    def shape(self) -> Any:
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error "
            "usually happens in `load_state_dict` when trying to load an uninitialized "
            "parameter into an initialized one. Call `forward` to initialize the parameters "
            "before accessing their attributes.")

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def __reduce_ex__(self, protocol: int) -> tuple:
        return (type(self), (self.requires_grad,))

    def __deepcopy__(self, memo: dict) -> Any:
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, dtype=self.dtype)
        return memo[id(self)]


def is_lazy(param: Any) -> bool:
    """Whether ``param`` is still uninitialised (an ``Uninitialized*`` tensor)."""
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A ``Parameter`` of unknown shape; ``materialize`` makes it a ``Parameter``."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device: Any = None,
                dtype: Any = None) -> UninitializedParameter:
        return super().__new__(cls, _creation.empty(0, device=device, dtype=dtype))

    def __init__(self, requires_grad: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(None, requires_grad)


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer of unknown shape; ``materialize`` makes it an ordinary tensor."""

    cls_to_become = Tensor

    def __new__(cls, requires_grad: bool = False, device: Any = None,
                dtype: Any = None) -> UninitializedBuffer:
        return wrap(_creation.empty(0, device=device, dtype=dtype)._data, requires_grad, cls)


def _rebuild_parameter(data: np.ndarray, requires_grad: bool,
                       backward_hooks: OrderedDict | None = None) -> Parameter:
    parameter = Parameter(wrap(data), requires_grad)
    if backward_hooks is not None:
        parameter._backward_hooks = backward_hooks
    return parameter

