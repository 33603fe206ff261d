"""The legacy constructors: ``torch.Tensor(...)``, ``x.new(...)`` and the typed tensor
classes ``torch.FloatTensor``, ``torch.LongTensor``, ...

Before ``torch.tensor`` and ``dtype=`` existed (PyTorch 0.3), a tensor's type *was* its
class: ``torch.FloatTensor(2, 3)`` made a float32 tensor, ``isinstance(t,
torch.FloatTensor)`` asked for one, and ``t.type(torch.LongTensor)`` converted. Published
model code and hook libraries still use all three, so PyTorch keeps them. Since 0.4 every
tensor is a ``torch.Tensor``: the typed "classes" are instances of the metaclass
:class:`tensortype`, which makes calling one construct a plain Tensor of its dtype and
``isinstance`` compare dtypes. None of them is a subclass of ``torch.Tensor``.

All the constructors read their arguments one way (PyTorch's ``legacy_tensor_ctor`` and
``legacy_tensor_new`` in ``torch/csrc/utils/tensor_new.cpp``):

* nothing: an empty tensor, of shape ``(0,)``;
* sizes, as integers or one ``torch.Size``: a new tensor of that shape (uninitialised in
  PyTorch, zeros here, as ``torch.empty``);
* a tensor: that tensor's memory, as an alias (``AliasBackward0`` when it requires grad);
  a typed constructor or ``new`` refuses a tensor of another dtype;
* anything else that is a sequence (a list, a tuple, a NumPy array): its values, converted
  to the constructor's dtype (``torch.LongTensor([1.5])`` truncates to 1).

See <https://docs.pytorch.org/docs/2.13/tensors.html#data-types> and
<https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.new_tensor.html>
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _dtype
from ._ops._arguments import argument_type_name, invalid_combination
from ._size import Size
from ._tensor import Tensor, _c_name, device, wrap
from .utils.hooks import type_name


def _options(dtype: _dtype.dtype) -> str:
    """How PyTorch's C++ prints the options of a tensor of ``dtype`` on the CPU."""
    return (f"TensorOptions(dtype={_c_name(dtype)}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


def _is_size(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


_SIGNATURES = ("(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
               "(tuple of ints size, *, torch.device device = None)",
               "(object data, *, torch.device device = None)")


def _described(value: Any) -> str:
    """How PyTorch's argument parser describes an argument that matched nothing: a list or
    tuple with the type of each element (``list of [int, float]``, ``torch.Size of
    (int,)``)."""
    names = [argument_type_name(item) for item in value] if isinstance(value, (list, tuple)) else []
    if isinstance(value, list):
        return f"list of [{', '.join(names)}]"
    if isinstance(value, tuple):
        inside = f"{names[0]}," if len(names) == 1 else ", ".join(names)
        return f"{argument_type_name(value)} of ({inside})"
    return argument_type_name(value)


def _invalid_combination(args: tuple, kwargs: dict) -> TypeError:
    """PyTorch's refusal of arguments that fit none of the constructors' signatures. Of
    the reasons it gives under some of them, the one for positional arguments that are
    neither sizes nor one piece of data (``torch.FloatTensor(2.0, 3)``) is given; those
    for keywords are not."""
    reasons = {}
    if not kwargs:
        marked = ", ".join(f"!{_described(a)}!" for a in args)
        reasons[0] = f"some of the arguments have invalid types: ({marked})"
    return invalid_combination("new", args, kwargs, _SIGNATURES, reasons)


def legacy_new(dtype: _dtype.dtype | None, args: tuple, kwargs: dict) -> Tensor:
    """A tensor made from a legacy constructor's arguments: float32 values (or any dtype
    for a tensor argument) when ``dtype`` is None, as ``torch.Tensor(...)``; else that
    dtype, as ``torch.FloatTensor(...)`` and ``x.new(...)``."""
    from ._creation import empty
    from ._ops.indexing import alias

    if not args and isinstance(kwargs.get("size"), (tuple, list)):
        args = tuple(kwargs.pop("size"))  # ``torch.FloatTensor(size=(2, 3))``
    if kwargs.keys() - {"device"}:
        raise _invalid_combination(args, kwargs)
    if kwargs.get("device") is not None:
        device(kwargs["device"])  # the CPU, or an error
    target = dtype or _dtype.float32
    if not args:
        return empty(0, dtype=target)
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if dtype is not None and first.dtype is not dtype:
            raise TypeError(f"expected {_options(dtype)} (got {_options(first.dtype)})")
        return alias(first)
    if len(args) == 1 and isinstance(first, Size):
        return empty(*first, dtype=target)
    if all(_is_size(a) for a in args):
        return empty(*args, dtype=target)
    if len(args) > 1 and not _is_size(first):
        raise _invalid_combination(args, {})
    if len(args) > 1:
        position = next(i for i, a in enumerate(args) if not _is_size(a))
        raise TypeError(f"new(): argument 'size' failed to unpack the object at pos "
                        f"{position + 1} with error \"type must be tuple of ints,but got "
                        f"{type(args[position]).__name__}\"")
    return wrap(_values(first, target))


def _values(data: Any, dtype: _dtype.dtype) -> np.ndarray:
    """The values of a sequence, in ``dtype``, checked as ``torch.tensor`` checks them (an
    integer type refuses what it cannot hold); a lone number or a string is an error."""
    from ._creation import _array_from_nested, _check_fits, check_lengths, nested_sizes

    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(data, (list, tuple, np.ndarray)):
        kind = type(data)
        name = kind.__name__ if kind.__module__ == "builtins" else (
            f"{kind.__module__}.{kind.__name__}")
        raise TypeError(f"new(): data must be a sequence (got {name})")
    if isinstance(data, np.ndarray):
        array = data
    else:
        sizes = nested_sizes(data)
        if 0 in sizes:  # no element: PyTorch stores nothing, so it looks at nothing
            return np.zeros(sizes, dtype=dtype.numpy_type)
        check_lengths(data, sizes, _number_check(dtype), (list, tuple, str))
        array = _array_from_nested(data)
    _check_fits(array, dtype.numpy_type)
    return array.astype(dtype.numpy_type)


def _number_check(dtype: _dtype.dtype) -> Callable[[Any], None]:
    """The leaf check of a legacy constructor, which stores each element straight into the
    tensor of ``dtype``: what lies at the bottom must be a number, or PyTorch's conversion
    to a float or an integer says what it got. (A string counts as a sequence there.)"""
    def check_leaf(leaf: Any) -> None:
        if isinstance(leaf, (numbers.Number, np.generic, Tensor)):
            return
        if dtype.is_floating_point:
            raise TypeError(f"must be real number, not {type_name(leaf)}")
        raise TypeError(f"'{type_name(leaf)}' object cannot be interpreted as an integer")
    return check_leaf


class tensortype(type):  # noqa: N801 - torch's name
    """The type of ``torch.FloatTensor`` and its kin: each is a constructor for one dtype,
    and ``isinstance(t, torch.FloatTensor)`` holds for any float32 tensor (on the CPU, the
    only device here)."""

    dtype: _dtype.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return legacy_new(cls.dtype, args, kwargs)

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, Tensor) and instance.dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class '{cls.__module__}.{cls.__name__}'>"


def _tensor_type(dtype: _dtype.dtype) -> tensortype:
    name = dtype.legacy_name.removeprefix("torch.")
    return tensortype(name, (), {"dtype": dtype, "is_cuda": False, "is_sparse": False,
                                 "__module__": "torch", "__qualname__": name,
                                 "__doc__": f"Legacy constructor of {dtype!r} tensors."})


FloatTensor = _tensor_type(_dtype.float32)
DoubleTensor = _tensor_type(_dtype.float64)
HalfTensor = _tensor_type(_dtype.float16)
LongTensor = _tensor_type(_dtype.int64)
IntTensor = _tensor_type(_dtype.int32)
ByteTensor = _tensor_type(_dtype.uint8)
CharTensor = _tensor_type(_dtype.int8)
ShortTensor = _tensor_type(_dtype.int16)
BoolTensor = _tensor_type(_dtype.bool)

# ``t.type(torch.LongTensor)`` and ``t.type("torch.LongTensor")`` name the same dtype.
BY_NAME = {t.dtype.legacy_name: t.dtype for t in (FloatTensor, DoubleTensor, HalfTensor,
                                                   LongTensor, IntTensor, ByteTensor,
                                                   CharTensor, ShortTensor,
                                                   BoolTensor)}


def new(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``x.new(...)``: the legacy constructor with ``x``'s dtype (``x.new(2, 3)``, ``x.new([1,
    2])``, ``x.new()``). ``new_zeros``, ``new_tensor`` and the rest are its modern, explicit
    forms."""
    return legacy_new(self.dtype, args, kwargs)
