"""The Tensor: a NumPy array plus what autograd needs to send gradients back to it.

A tensor holds its values (``_data``), whether gradients should flow to it
(``requires_grad``), the node that produced it (``grad_fn``; ``None`` for a leaf), and its
hooks. Operations live in ``minitorch_hooks/_ops/`` and are attached as methods there.
See <https://docs.pytorch.org/docs/2.13/tensors.html>
"""

from __future__ import annotations

import copy
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from . import _dtype
from ._device import device
from ._size import Size
from ._warnings import warn_once
from .storage import TypedStorage, UntypedStorage, storage_of
from .utils.hooks import RemovableHandle, add_hook

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)

_DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution."
)


_CPU = device("cpu")


class InferenceState:
    """Whether ``torch.inference_mode()`` is on: the tensors made meanwhile are *inference
    tensors*, which autograd never records, then or later (see ``autograd/grad_mode.py``)."""

    enabled = False


class TensorBase:
    """``torch._C.TensorBase``: in PyTorch the C++ half of every tensor, which
    ``torch.Tensor`` extends in Python. Here it is empty; it exists so that
    ``isinstance(x, torch._C.TensorBase)`` holds, as it does in PyTorch."""

    __module__ = "minitorch_hooks._C"  # where PyTorch's is

    __slots__ = ()


class Tensor(TensorBase):
    """An n-dimensional array that records the operations applied to it.

    ``Tensor([1., 2.])`` is PyTorch's legacy constructor (always float32);
    ``minitorch_hooks.tensor(...)`` is the usual one.
    """

    __module__ = "minitorch_hooks"  # its public home, as ``torch.Tensor`` is PyTorch's

    # Every tensor has these six; an operation sets them for each result it makes. A view's
    # ``_base`` is the tensor it shares memory with; a result's ``_output_nr`` is its place
    # among its operation's outputs.
    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_version_counter", "_base",
                 "_output_nr", "__weakref__", "__dict__")
    # The rest is rarely set (a grad, hooks, a view's base...), so it defaults here, on the
    # class, and an instance stores its own value only once it has one.
    _grad: Tensor | None = None
    _is_inference = False  # made under inference_mode(); see ``InferenceState``
    _backward_hooks: OrderedDict | None = None
    _post_accumulate_grad_hooks: OrderedDict | None = None
    _grad_accumulator: Any = None
    _retains_grad: bool = False
    # A view's own: the version its grad_fn was made at (PyTorch's ``attr_version``), and
    # how it was made, if in a way that forbids changing it in place ("no_grad",
    # "multi_output", "custom_function"; None for an ordinary view).
    _view_version: int = 0
    _creation_meta: str | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        """``torch.Tensor(...)``, the legacy constructor: see ``_tensor_new.py``. A
        subclass's constructor makes an instance of the subclass the same way."""
        from ._tensor_new import legacy_new

        tensor = legacy_new(None, args, kwargs)
        return tensor if cls is Tensor else wrap(tensor._data, cls=cls)

    # -- what a tensor is ------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Size | int:
        if dim is None:
            return Size(self._data.shape)
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype.from_numpy_dtype(self._data.dtype)

    @property
    def device(self) -> device:
        return _CPU

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def is_sparse(self) -> bool:
        """Whether only the non-zero elements are stored (PyTorch's sparse COO layout):
        never here, every tensor is dense (``torch.strided``)."""
        return False

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    def get_device(self) -> int:
        """The index of the GPU this tensor is on: -1, the CPU's answer."""
        return -1

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_contiguous(self) -> bool:
        return bool(self._data.flags.c_contiguous)

    # -- memory layout: how the elements sit in memory ----------------------------------------
    def stride(self, dim: int | None = None) -> tuple[int, ...] | int:
        """How many elements to step in memory to move one place along each dimension.

        PyTorch counts strides in elements, NumPy in bytes, hence the division. A view
        shows why strides matter: ``x.t()`` swaps them instead of moving any element, and
        an expanded dimension has stride 0, its elements all one place in memory.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.stride.html>
        """
        strides = tuple(step // self._data.itemsize for step in self._data.strides)
        if dim is None:
            return strides
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return strides[_wrap_dim(dim, self._data.ndim)]

    def storage_offset(self) -> int:
        """Where this tensor's first element is in the memory it shares, in elements: 0 for
        a tensor that owns its memory, more for a view that starts further in (``x[1:]``).

        NumPy has no storages: the memory belongs to the array at the end of the chain of
        ``.base`` arrays, and the offset is the distance from its start.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.storage_offset.html>
        """
        owner = self._data
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        start = self._data.__array_interface__["data"][0]
        return (start - owner.__array_interface__["data"][0]) // self._data.itemsize

    def data_ptr(self) -> int:
        """The memory address of the first element: two tensors that start at the same
        place share it (a view and its base, ``x[1:]`` one element further on).
        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.data_ptr.html>
        """
        return self._data.__array_interface__["data"][0]

    def untyped_storage(self) -> UntypedStorage:
        """The memory this tensor views, shared with its base and its other views, as an
        ``UntypedStorage`` of bytes (``storage.py``).
        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.untyped_storage.html>
        """
        return storage_of(self._data)

    def storage(self) -> TypedStorage:
        """The memory this tensor views, read as elements of its dtype: a ``TypedStorage``,
        deprecated in PyTorch 2 (it warns once) in favour of ``untyped_storage()``.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.storage.html>
        """
        warn_once("TypedStorage is deprecated. It will be removed in the future and "
                  "UntypedStorage will be the only storage class. This should only matter "
                  "to you if you are using storages directly.  To access UntypedStorage "
                  "directly, use tensor.untyped_storage() instead of tensor.storage()")
        return TypedStorage(storage_of(self._data), self.dtype)

    def element_size(self) -> int:
        """The size of one element in bytes (4 for float32)."""
        return self._data.itemsize

    @property
    def itemsize(self) -> int:
        """The size of one element in bytes, as ``element_size()``."""
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        """``numel() * itemsize``: the bytes the elements would take, even where they share
        memory (an expanded tensor counts every repeated element).
        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.nbytes.html>
        """
        return self._data.size * self._data.itemsize

    @property
    def _version(self) -> int:
        """How many times this tensor (or a view sharing its memory) was changed in place."""
        return self._version_counter[0]

    def _is_view(self) -> bool:
        return self._base is not None

    # -- autograd state ----------------------------------------------------------------------
    @property
    def grad_fn(self) -> Any:
        """The node that produced this tensor; None for a leaf.

        A view shares its base's memory, so an in-place change of the base (or of another
        view of it) changes the view's values too, and the node that made the view no
        longer describes them. PyTorch notices on this lookup, by the version counter, and
        gives the view a new node that reads it out of the base's new history
        (``AsStridedBackward0``); so do we (``_ops.view_history.regenerate_view_grad_fn``).
        """
        if self._base is not None and self._view_version != self._version_counter[0]:
            from ._ops.view_history import regenerate_view_grad_fn

            regenerate_view_grad_fn(self)
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node: Any) -> None:
        self._grad_fn = node

    def is_inference(self) -> bool:
        """Whether the tensor was made under ``torch.inference_mode()``."""
        return self._is_inference

    @property
    def is_leaf(self) -> bool:
        """A leaf was made by the user, not by a recorded operation; only leaves get
        ``.grad`` filled in by backward (unless ``retain_grad()`` asks for it)."""
        return self.grad_fn is None

    @property
    def requires_grad(self) -> bool:
        if not self._requires_grad and self._base is not None:
            # A view requires grad when its base does, as PyTorch's views say: also one made
            # under no_grad (which has no grad_fn), and one whose base has come to require
            # grad through an in-place change of another view of it.
            return self._base.requires_grad
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._set_requires_grad(
            value, "only Tensors of floating point and complex dtype can require gradients")

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        self._set_requires_grad(
            requires_grad, "only Tensors of floating point dtype can require gradients")
        return self

    def _set_requires_grad(self, value: bool, not_floating: str) -> None:
        """Only leaves may change the flag, and only floating-point tensors may set it.

        PyTorch words the second refusal differently for ``requires_grad_()``, for the
        attribute and for ``requires_grad=True`` in a factory, hence ``not_floating``.
        """
        if self.grad_fn is not None:
            if not value:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want "
                    "to use a computed variable in a subgraph that doesn't require "
                    "differentiation use var_no_grad = var.detach().")
            return
        if value and self._data.dtype.kind != "f":
            raise RuntimeError(not_floating)
        if value and self._is_inference and not InferenceState.enabled:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = bool(value)

    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient. Reading it on a non-leaf warns, as in PyTorch, because
        backward fills it only for leaves and tensors that called ``retain_grad()``."""
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError("assigned grad expected to be a Tensor or None but got grad "
                                f"of type {type(value).__name__}")
            if value.dtype is not self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_c_name(value.dtype)}' to a "
                    f"tensor with grad_dtype '{self.dtype.scalar_name}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can "
                    "set the tensor's grad_dtype attribute with a specific dtype, or None to "
                    "allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a "
                    "tensor and its gradient may break downstream systems that assume they "
                    "match.")
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a "
                    f"tensor of size '{list(self.shape)}'. Please ensure that the gradient "
                    "and the tensor are the same size")
        self._grad = value

    @property
    def output_nr(self) -> int:
        return self._output_nr

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    @property
    def data(self) -> Tensor:
        """The same values, outside autograd: no grad_fn, no requires_grad, and changes to
        it are not seen by the version counter (unlike ``detach()``)."""
        return wrap(self._data)

    @data.setter
    def data(self, value: Tensor) -> None:
        self._data = value._data

    def detach(self) -> Tensor:
        """A new leaf sharing this tensor's memory and version counter, cut from the graph."""
        out = wrap(self._data)
        out._version_counter = self._version_counter
        return out

    def module_load(self, other: Tensor, assign: bool = False) -> Tensor:
        """What ``load_state_dict`` swaps into this parameter when the swap switch of
        ``torch.__future__`` is on: ``other`` itself with ``assign``, else this tensor's
        own values after copying ``other`` into them (detached either way). A subclass may
        override it to load differently."""
        return other.detach() if assign else self.copy_(other).detach()

    def detach_(self) -> Tensor:
        """Cut this tensor from the graph, in place. A view cannot be: it shares its
        base's memory and history, so PyTorch refuses and points to ``detach()``."""
        if self._base is not None:
            raise RuntimeError(_DETACH_VIEW)
        self.grad_fn = None
        self._requires_grad = False
        return self

    # -- backward and hooks --------------------------------------------------------------------
    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Sequence[Tensor] | None = None) -> None:
        """Compute the gradient of this tensor with respect to the graph's leaves.

        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.backward.html>
        """
        from .autograd import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` each time this tensor's gradient is computed.

        A returned tensor replaces the gradient (same size and dtype). On a leaf the hook
        runs before the gradient is added into ``.grad``.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.register_hook.html>
        """
        self._check_requires_grad_for_hook()
        if self._backward_hooks is None:
            self._backward_hooks = OrderedDict()
            if self.grad_fn is not None:  # the node that produces this tensor runs them
                self.grad_fn._register_tensor_hooks(self._output_nr, self._backward_hooks)
        return add_hook(self._backward_hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]
                                           ) -> RemovableHandle:
        """Call ``hook(tensor)`` after a gradient was accumulated into this leaf's ``.grad``:
        the place for per-parameter optimiser steps.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.register_post_accumulate_grad_hook.html>
        """
        self._check_requires_grad_for_hook()
        if self.grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_accumulate_grad_hooks is None:
            self._post_accumulate_grad_hooks = OrderedDict()
        return add_hook(self._post_accumulate_grad_hooks, hook)

    def _check_requires_grad_for_hook(self) -> None:
        if not self._requires_grad:
            raise RuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient")

    def retain_grad(self) -> None:
        """Ask backward to fill ``.grad`` for this non-leaf too (a no-op on leaves)."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self.grad_fn._register_retains_grad(self)
        self._retains_grad = True

    # -- conversions -----------------------------------------------------------------------
    def item(self) -> float | int | bool:
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        return self._data.tolist()

    def numpy(self) -> np.ndarray:
        """The NumPy array behind this tensor (shared memory, as in PyTorch)."""
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()))

    def __float__(self) -> float:
        if self.requires_grad:  # the value leaves the graph: PyTorch cautions, once
            warn_once("Converting a tensor with requires_grad=True to a scalar may lead to "
                      "unexpected behavior.\nConsider using tensor.detach() first.")
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def _scalar(self) -> float | int | bool:
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        from . import _tensor_str

        return _tensor_str._str(self)

    def __format__(self, format_spec: str) -> str:
        if self._data.ndim == 0:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def __reduce_ex__(self, protocol: int) -> tuple:
        from .utils.hooks import warn_if_has_hooks

        warn_if_has_hooks(self)
        # The hooks are not saved, but like PyTorch's the copy gets an empty hook dictionary.
        return (_rebuild_tensor, (type(self), np.array(self._data), self._requires_grad,
                                  OrderedDict()))

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        if id(self) in memo:
            return memo[id(self)]
        new = _rebuild_tensor(type(self), np.array(self._data), self._requires_grad)
        memo[id(self)] = new
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        # Attributes a user set on the tensor are copied; autograd state and hooks are not.
        user_attributes = {k: v for k, v in self.__dict__.items() if k not in _AUTOGRAD_STATE}
        new.__dict__.update(copy.deepcopy(user_attributes, memo))
        return new



def wrap(data: Any, requires_grad: bool = False, cls: type[Tensor] = Tensor) -> Tensor:
    """A new leaf around a NumPy array (or a NumPy scalar), not copied: the one constructor
    of a tensor. Every operation's result is made here, and so is every ``Tensor(...)``,
    ``Parameter(...)`` (``cls``: the subclass to make)."""
    if type(data) is not np.ndarray:
        data = np.asarray(data)
    tensor = object.__new__(cls)
    tensor._data, tensor._requires_grad, tensor._grad_fn = data, requires_grad, None
    tensor._version_counter, tensor._base, tensor._output_nr = [0], None, 0
    if InferenceState.enabled:
        tensor._is_inference = True
    return tensor

_AUTOGRAD_STATE = frozenset({"_grad", "_output_nr", "_backward_hooks",
                             "_post_accumulate_grad_hooks", "_grad_accumulator",
                             "_retains_grad", "_base"})


def _rebuild_tensor(cls: type, data: np.ndarray, requires_grad: bool,
                    backward_hooks: OrderedDict | None = None) -> Tensor:
    tensor = wrap(data, requires_grad)
    if cls is not Tensor:
        tensor = cls(tensor, requires_grad)
    if backward_hooks is not None:
        tensor._backward_hooks = backward_hooks
    return tensor


_C_NAMES = {"Float": "float", "Double": "double", "Half": "c10::Half", "Long": "long int",
            "Int": "int", "Byte": "unsigned char", "Bool": "bool", "Char": "signed char",
            "Short": "short int"}


def _c_name(dtype: _dtype.dtype) -> str:
    """The C++ name some PyTorch messages use for a dtype: ``float``, ``long int`` ..."""
    return _C_NAMES[dtype.scalar_name]


def _wrap_dim(dim: int, ndim: int) -> int:
    """A dimension index checked and made non-negative, with PyTorch's IndexError."""
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not low <= dim <= high:
        raise IndexError(f"Dimension out of range (expected to be in range of [{low}, {high}], "
                         f"but got {dim})")
    return dim % max(ndim, 1)


def _shape_from(args: Sequence[Any]) -> tuple[int, ...]:
    """``zeros(2, 3)``, ``zeros((2, 3))`` and ``zeros(Size([2, 3]))`` mean the same shape."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = args[0]
    return tuple(int(a) for a in args)


def _to_array_like(data: Any) -> Any:
    """Accept one-element tensors nested in lists, as numbers: ``torch.tensor([t1, t2])``
    converts each as ``t.item()`` would, with its error for a bigger tensor."""
    if isinstance(data, Tensor):
        if data._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data._data.reshape(())
    if isinstance(data, (list, tuple)):
        return [_to_array_like(d) for d in data]
    return data
