"""Making tensors: ``tensor``, ``zeros``, ``ones``, ``full``, ``arange``, ``eye``, random ones.

Defaults follow PyTorch: Python floats become float32 (the default dtype), Python ints
int64, bools bool.
See <https://docs.pytorch.org/docs/2.13/torch.html#creation-ops>
"""

from __future__ import annotations

import builtins
import functools
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from . import _dtype
from ._allocation import allocating, check_numpy_can_hold, check_sizes
from ._device import check_available
from ._size_argument import NOT_GIVEN, size_argument
from ._tensor import Tensor, _to_array_like, wrap
from ._warnings import warn_once
from .random import default_generator
from .utils.hooks import type_name

_FLOAT32 = np.dtype(np.float32)


def _numpy_dtype(dtype: _dtype.dtype | None, default: np.dtype) -> np.dtype:
    if dtype is None:
        return default
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"dtype must be a torch.dtype, not {type(dtype).__name__}")
    return dtype.numpy_type


def _inferred_dtype(array: np.ndarray) -> np.dtype:
    """The dtype PyTorch infers from Python data: floats are float32, ints int64."""
    kind = array.dtype.kind
    if kind == "f":
        return _FLOAT32
    if kind in "iu":
        if array.dtype == np.uint64 and array.size and array.max() > np.iinfo(np.int64).max:
            raise ValueError("Overflow when unpacking long long")
        return np.dtype(np.int64)
    if kind == "b":
        return np.dtype(np.bool_)
    if kind in "US":
        raise TypeError("new(): invalid data type 'str'")
    odd = [x for x in array.flat if not isinstance(x, (bool, int, float, np.generic))]
    if not odd:  # numbers all, but an integer beyond 64 bits
        raise ValueError("Overflow when unpacking long long")
    if isinstance(odd[0], str):
        raise TypeError("new(): invalid data type 'str'")
    raise RuntimeError(f"Could not infer dtype of {type_name(odd[0])}")


def _array_from_nested(data: Any) -> np.ndarray:
    """NumPy's array of nested lists, with PyTorch's message for uneven lengths: it takes
    the shape from the first element at each depth and checks every list against it."""
    sizes = nested_sizes(data)
    try:
        array = np.array(_to_array_like(data))
    except ValueError:
        check_lengths(data, sizes, _no_list_below(data))
        raise
    if array.dtype == object:  # a ragged list NumPy took as objects
        check_lengths(data, sizes, _no_list_below(data))
    return array


def nested_sizes(data: Any) -> list[int]:
    """The shape nested lists promise: the length of the first element at each depth
    (``[[], []]`` promises ``(2, 0)``)."""
    sizes, first = [], data
    while isinstance(first, (list, tuple)):
        sizes.append(len(first))
        if not first:
            break
        first = first[0]
    if isinstance(first, str) and first is not data:  # PyTorch reads it as a sequence
        raise ValueError("too many dimensions 'str'")
    return sizes


def _leaf_error(data: Any) -> str:
    """What PyTorch says of a list where a number belongs: it converts to the dtype it
    inferred from all the numbers, float or integer."""
    def numbers(item: Any) -> Iterator[Any]:
        if isinstance(item, (list, tuple)):
            for inner in item:
                yield from numbers(inner)
        else:
            yield item

    if builtins.any(isinstance(x, float) for x in numbers(data)):
        return "must be real number, not {}"
    return "'{}' object cannot be interpreted as an integer"


def check_lengths(data: Any, sizes: list[int], check_leaf: Callable[[Any], None],
                  sequences: tuple[type, ...] = (list, tuple), dim: int = 0) -> None:
    """PyTorch's walk through nested sequences: their lengths must follow those of the
    first elements (``sizes``), and ``check_leaf`` raises for what may not lie at the
    bottom."""
    if dim == len(sizes):
        check_leaf(data)
        return
    if not isinstance(data, sequences):
        raise TypeError("not a sequence")
    if len(data) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got "
                         f"{len(data)})")
    for item in data:
        check_lengths(item, sizes, check_leaf, sequences, dim + 1)


def _no_list_below(data: Any) -> Callable[[Any], None]:
    """The leaf check of ``torch.tensor``: a list where a number belongs is refused."""
    leaf_error = _leaf_error(data)

    def check_leaf(leaf: Any) -> None:
        if isinstance(leaf, (list, tuple)):
            raise TypeError(leaf_error.format(type_name(leaf)))
    return check_leaf


def _check_device(device: Any) -> None:
    if device is not None:
        check_available(device)  # the only device is the CPU: anything else is an error


def _finish(data: np.ndarray, requires_grad: bool, device: Any = None) -> Tensor:
    _check_device(device)
    out = wrap(data)
    if requires_grad:
        out._set_requires_grad(
            True, "Only Tensors of floating point and complex dtype can require gradients")
    return out


def _warn_copy_construct(name: str) -> None:
    """Copying a tensor through a constructor looks like it keeps the graph, and does not."""
    warnings.warn(
        "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
        "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
        f"{name}(sourceTensor).", UserWarning, stacklevel=3)


def tensor(data: Any, *, dtype: _dtype.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (numbers, nested lists, arrays).

    See <https://docs.pytorch.org/docs/2.13/generated/torch.tensor.html>
    """
    if isinstance(data, Tensor):
        _warn_copy_construct("torch.tensor")
    source = data._data if isinstance(data, Tensor) else data
    if isinstance(source, (np.ndarray, np.generic)):  # NumPy values keep their dtype
        if isinstance(source, np.ndarray) and not isinstance(data, Tensor):
            _check_array(source)  # PyTorch reads an array as from_numpy does, then copies
        array = np.array(source, dtype=_numpy_dtype(dtype, source.dtype))  # always a copy
        _dtype.from_numpy_dtype(array.dtype)  # a clear error for unsupported dtypes
    else:
        array = _array_from_nested(source)
        target = _numpy_dtype(dtype, _inferred_dtype(array))
        _check_fits(array, target)
        array = array.astype(target)
    return _finish(array, requires_grad, device)


def _check_fits(array: np.ndarray, target: np.dtype) -> None:
    """PyTorch stores each Python number into an integer tensor with a range check: a
    float must lie within the type's range (nan and inf never do), an integer too, except
    that a negative one wraps into an unsigned type, as in C (-1 is 255 in uint8). Out of
    range is an error, not NumPy's silent garbage."""
    if target.kind not in "iu" or array.dtype.kind not in "fiu" or not array.size:
        return
    limits = np.iinfo(target)
    high = limits.max
    low = -high if target.kind == "u" and array.dtype.kind != "f" else limits.min
    if not np.all((array >= low) & (array <= high)):  # nan fails both comparisons
        raise RuntimeError(f"value cannot be converted to type {target.name} without "
                           "overflow")


def as_tensor(data: Any, dtype: _dtype.dtype | None = None, device: Any = None) -> Tensor:
    """Like ``tensor``, but without a copy where none is needed: a tensor comes back as it
    is (or through ``to(dtype)``, which stays in the graph), a NumPy array shares its memory
    as with ``from_numpy`` (unless it must be cast to ``dtype``).

    See <https://docs.pytorch.org/docs/2.13/generated/torch.as_tensor.html>
    """
    if isinstance(data, np.ndarray):
        data = from_numpy(data)
    if isinstance(data, Tensor):
        _check_device(device)
        return data if dtype is None else data.to(dtype)
    return tensor(data, dtype=dtype, device=device)


_NEGATIVE_STRIDES = (
    "At least one stride in the given numpy array is negative, and tensors with negative "
    "strides are not currently supported. (You can probably work around this by making a "
    "copy of your array  with array.copy().) ")
_NOT_WRITABLE = (
    "The given NumPy array is not writable, and PyTorch does not support non-writable "
    "tensors. This means writing to this tensor will result in undefined behavior. You may "
    "want to copy the array to protect its data or make it writable before converting it to "
    "a tensor. This type of warning will be suppressed for the rest of this program.")


_PYTORCH_NUMPY_TYPES = ("float64, float32, float16, complex64, complex128, int64, int32, int16, "
                        "int8, uint64, uint32, uint16, uint8, and bool")


def _check_array(array: np.ndarray) -> None:
    """Refuse the arrays no tensor can share: of a dtype without a tensor type (PyTorch's
    message where PyTorch has none either: objects, strings, dates), or with a negative
    stride (a tensor's strides count forward)."""
    if array.dtype.kind not in "biufc":
        raise TypeError(f"can't convert np.ndarray of type numpy.{array.dtype.type.__name__}. "
                        f"The only supported types are: {_PYTORCH_NUMPY_TYPES}.")
    _dtype.from_numpy_dtype(array.dtype)
    if any(stride < 0 for stride in array.strides):
        raise ValueError(_NEGATIVE_STRIDES)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing ``array``'s memory: a change to one shows in the other.

    PyTorch's tensor gets a storage that starts at the array's first element, so its
    ``storage_offset()`` is 0 even when the array is a slice of a bigger one.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.from_numpy.html>
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type_name(array)})")
    _check_array(array)
    if not array.flags.writeable:
        warn_once(_NOT_WRITABLE)
    # ``as_strided`` makes an array over the same memory whose chain of ``.base`` arrays
    # ends at itself: where ``Tensor.storage_offset`` starts counting.
    return wrap(np.lib.stride_tricks.as_strided(array, array.shape, array.strides))


def _new_shape(shape: tuple[int, ...], dtype: np.dtype, function: str) -> tuple[int, ...]:
    """The shape of a new tensor of ``dtype`` made by ``function``, with PyTorch's checks
    and errors: a size must fit in an int64 (PyTorch's argument parser reads it as a C++
    ``long long``), be at least 0, and the whole must fit in memory's address range."""
    for position, length in enumerate(shape, 1):
        if not -_INT64_LIMIT <= length < _INT64_LIMIT:
            raise TypeError(f"{function}(): argument 'size' failed to unpack the object at "
                            f'pos {position} with error "Overflow when unpacking long long')
    for length in shape:
        if length < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {length}: "
                               f"{list(shape)}")
    check_sizes(shape, dtype.itemsize)
    check_numpy_can_hold(shape, dtype.itemsize)
    return shape


_INT64_LIMIT = 2**63


@allocating
def _filled(function: str, value: Any, size: tuple[int, ...], dtype: _dtype.dtype | None,
            requires_grad: bool, device: Any, default: np.dtype = _FLOAT32) -> Tensor:
    from ._ops.inplace import scalar_for  # the check fill_ makes; a cycle at import time

    target = _numpy_dtype(dtype, default)
    shape = _new_shape(size, target, function)
    return _finish(np.full(shape, scalar_for(value, target), dtype=target), requires_grad, device)


# -- a size is required: ``torch.zeros()`` is an error, not a 0-d tensor -----------------

_RANDOM_SIGNATURES = tuple(
    f"(tuple of ints size, *, {generator}Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)" for generator in ("torch.Generator generator, ", ""))


def _size_required(function: str, *, random: bool = False
                   ) -> Callable[[Callable[..., Tensor]], Callable[..., Tensor]]:
    """Refuse a call without any size, as PyTorch's argument parser does, before the
    function runs: ``zeros()`` (whatever keywords come with it) misses its ``size``. ``rand``
    and ``randn`` have two signatures (with and without ``generator``), and the parser
    names the missing size only when exactly one keyword was given; otherwise it lists
    both signatures and the keywords, last given first."""
    def decorate(operation: Callable[..., Tensor]) -> Callable[..., Tensor]:
        @functools.wraps(operation)
        def with_size(*args: Any, **kwargs: Any) -> Tensor:
            if not args and "size" not in kwargs:
                if random and len(kwargs) != 1:
                    from ._ops._arguments import invalid_combination

                    raise invalid_combination(function, (), kwargs, _RANDOM_SIGNATURES)
                raise TypeError(f'{function}() missing 1 required positional arguments: "size"')
            return operation(*args, **kwargs)

        return with_size

    return decorate


@_size_required("zeros")
def zeros(*args: Any, size: Any = NOT_GIVEN, dtype: _dtype.dtype | None = None,
          device: Any = None, requires_grad: bool = False) -> Tensor:
    shape = size_argument("zeros", args, size)
    if builtins.any(-_INT64_LIMIT <= length < 0 for length in shape):  # its own message
        raise RuntimeError("zeros: Dimension size must be non-negative.")
    return _filled("zeros", 0, shape, dtype, requires_grad, device)


@_size_required("ones")
def ones(*args: Any, size: Any = NOT_GIVEN, dtype: _dtype.dtype | None = None,
         device: Any = None, requires_grad: bool = False) -> Tensor:
    return _filled("ones", 1, size_argument("ones", args, size), dtype, requires_grad, device)


@_size_required("empty")
def empty(*args: Any, size: Any = NOT_GIVEN, dtype: _dtype.dtype | None = None,
          device: Any = None, requires_grad: bool = False) -> Tensor:
    """Uninitialised in PyTorch; zeros here, which is one possible content."""
    return _filled("empty", 0, size_argument("empty", args, size), dtype, requires_grad,
                   device)


def full(size: Any, fill_value: Any, *, dtype: _dtype.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    default = _inferred_dtype(np.array(fill_value))
    shape = size_argument("full", (size,), varargs=False)
    return _filled("full", fill_value, shape, dtype, requires_grad, device, default)


@allocating
def _empty_like(input: Tensor, dtype: _dtype.dtype | None) -> np.ndarray:
    """A new array shaped like ``input`` and laid out like it in memory: PyTorch's
    ``preserve_format``, which matters because random fills follow memory order."""
    return np.empty_like(input._data, dtype=(dtype or input.dtype).numpy_type)


def _like(name: str, value: Any):
    def like(input: Tensor, *, dtype: _dtype.dtype | None = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
        data = _empty_like(input, dtype)
        data.fill(value)
        return _finish(data, requires_grad, device)

    like.__name__ = name
    like.__doc__ = f"A tensor of {value}s with the shape, dtype and layout of ``input``."
    return like


zeros_like, ones_like = _like("zeros_like", 0), _like("ones_like", 1)
empty_like = _like("empty_like", 0)


def full_like(input: Tensor, fill_value: Any, *, dtype: _dtype.dtype | None = None,
              requires_grad: bool = False) -> Tensor:
    return full(input._data.shape, fill_value, dtype=dtype or input.dtype,
                requires_grad=requires_grad)


# -- ``x.new_zeros(...)`` and friends: a new tensor with ``x``'s dtype (and device) -------
# They let code that receives a tensor (a hook, for one) make another of the same kind
# without naming its dtype. See <https://docs.pytorch.org/docs/2.13/tensors.html#initializing-and-basic-operations>

def new_tensor(self: Tensor, data: Any, *, dtype: _dtype.dtype | None = None,
               device: Any = None, requires_grad: bool = False) -> Tensor:
    """``torch.tensor(data)``, in ``self``'s dtype unless ``dtype`` is given.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.new_tensor.html>
    """
    if isinstance(data, Tensor):
        _warn_copy_construct("tensor.new_tensor")
        data = data._data  # warned once, here, not again by ``tensor``
    return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


def new_full(self: Tensor, size: Any, fill_value: Any, *, dtype: _dtype.dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """``torch.full(size, fill_value)`` in ``self``'s dtype unless ``dtype`` is given."""
    shape = size_argument("new_full", (size,), varargs=False)
    return _filled("new_full", fill_value, shape, dtype or self.dtype, requires_grad, device)


def _new_filled(name: str, value: int):
    def new(self: Tensor, *args: Any, size: Any = NOT_GIVEN, dtype: _dtype.dtype | None = None,
            device: Any = None, requires_grad: bool = False) -> Tensor:
        shape = size_argument(name, args, size)
        return _filled(name, value, shape, dtype or self.dtype, requires_grad, device)

    new.__name__ = name
    new.__doc__ = (f"A tensor of {value}s of the given size, in ``self``'s dtype unless "
                   "``dtype`` is given.")
    return new


new_zeros, new_ones = _new_filled("new_zeros", 0), _new_filled("new_ones", 1)
new_empty = _new_filled("new_empty", 0)  # uninitialised in PyTorch, as ``empty``


@allocating
def arange(start: float, end: float | None = None, step: float = 1, *,
           dtype: _dtype.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """``[start, end)`` in steps; int64 when every bound is an integer, else float32."""
    if end is None:
        start, end = 0, start
    integral = builtins.all(isinstance(v, int) for v in (start, end, step))
    default = np.dtype(np.int64) if integral else _FLOAT32
    values = np.arange(start, end, step, dtype=np.float64 if not integral else np.int64)
    return _finish(values.astype(_numpy_dtype(dtype, default)), requires_grad, device)


def linspace(start: Any, end: Any, steps: int, *, dtype: _dtype.dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end``, both included.

    As PyTorch's kernel does, the first half steps up from ``start`` and the second half
    down from ``end`` (``end - step * (steps - 1 - i)``), so both ends are exact; in the
    output's floating-point dtype, or in double for an integer dtype, then truncated.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.linspace.html>
    """
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    target = _numpy_dtype(dtype, _FLOAT32)
    work = target if target.kind == "f" else np.dtype(np.float64)
    first, last = (work.type(v.item() if isinstance(v, Tensor) else v) for v in (start, end))
    index = np.arange(steps)
    step = (last - first) / work.type(max(steps - 1, 1))
    with np.errstate(over="ignore", invalid="ignore"):
        values = np.where(index < steps // 2, first + step * index.astype(work),
                          last - step * (steps - 1 - index).astype(work))
    if steps == 1:  # one value: ``start``
        values = np.full(1, first)
    return _finish(values.astype(work).astype(target), requires_grad, device)


def eye(n: int, m: int | None = None, *, dtype: _dtype.dtype | None = None,
        device: Any = None, requires_grad: bool = False) -> Tensor:
    return _finish(np.eye(n, m, dtype=_numpy_dtype(dtype, _FLOAT32)), requires_grad, device)


# -- random tensors: the generator in ``_generator.py`` draws exactly as PyTorch's ---------

def _random(data: np.ndarray, requires_grad: bool, generator: Any, fill: str,
            *args: Any, device: Any = None) -> Tensor:
    if device is not None:
        check_available(device)  # checked before drawing, so a refused call draws nothing
    getattr(generator or default_generator, fill)(data, *args)
    return _finish(data, requires_grad)


@allocating
def _new_random_array(function: str, args: tuple, size: Any,
                      dtype: _dtype.dtype | None) -> np.ndarray:
    target = _numpy_dtype(dtype, _FLOAT32)
    shape = _new_shape(size_argument(function, args, size), target, function)
    return np.empty(shape, dtype=target)


@_size_required("rand", random=True)
def rand(*args: Any, size: Any = NOT_GIVEN, generator: Any = None,
         dtype: _dtype.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """Uniform samples in ``[0, 1)``."""
    data = _new_random_array("rand", args, size, dtype)
    return _random(data, requires_grad, generator, "_uniform_", 0.0, 1.0, device=device)


@_size_required("randn", random=True)
def randn(*args: Any, size: Any = NOT_GIVEN, generator: Any = None,
          dtype: _dtype.dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    """Standard normal samples."""
    data = _new_random_array("randn", args, size, dtype)
    return _random(data, requires_grad, generator, "_normal_", 0.0, 1.0, device=device)


def rand_like(input: Tensor, *, dtype: _dtype.dtype | None = None,
              requires_grad: bool = False) -> Tensor:
    return _random(_empty_like(input, dtype), requires_grad, None, "_uniform_", 0.0, 1.0)


def randn_like(input: Tensor, *, dtype: _dtype.dtype | None = None,
               requires_grad: bool = False) -> Tensor:
    return _random(_empty_like(input, dtype), requires_grad, None, "_normal_", 0.0, 1.0)


_RANDINT_SIGNATURES = "".join(
    f" * ({first}tuple of ints size, *, {generator}Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n"
    for first in ("int high, ", "int low, int high, ")
    for generator in ("torch.Generator generator, ", ""))


@allocating
def randint(low: int, high: int | None = None, size: Any = None, *, generator: Any = None,
            dtype: _dtype.dtype | None = None) -> Tensor:
    """Integers in ``[low, high)`` (``randint(high, size)`` starts at 0)."""
    position = 3
    if size is None:  # ``randint(high, size)``
        low, high, size, position = 0, low, high, 2
    elif high is None:  # ``randint(high, size=size)``
        low, high = 0, low
    elif not isinstance(size, (tuple, list)):
        # Three numbers match none of randint's signatures (a size is a tuple): PyTorch
        # lists them all rather than naming the argument.
        got = ", ".join(type_name(value) for value in (low, high, size))
        raise TypeError(f"randint() received an invalid combination of arguments - got "
                        f"({got}), but expected one of:\n{_RANDINT_SIGNATURES}")
    target = _numpy_dtype(dtype, np.dtype(np.int64))
    shape = size_argument("randint", (size,), position=position, varargs=False)
    data = np.empty(_new_shape(shape, target, "randint"), dtype=target)
    (generator or default_generator)._random_(data, low, high)
    return wrap(data)


def randperm(n: int, *, generator: Any = None, dtype: _dtype.dtype | None = None) -> Tensor:
    """A random permutation of ``0 .. n-1``."""
    data = (generator or default_generator)._randperm(n)
    return wrap(data.astype(_numpy_dtype(dtype, np.dtype(np.int64)), copy=False))


def bernoulli(input: Tensor, p: float | None = None, *, generator: Any = None) -> Tensor:
    """0/1 samples: with probability ``input`` element-wise, or ``p`` for every element."""
    gen = generator or default_generator
    if p is None:
        return wrap(gen._bernoulli_tensor(input._data))
    data = np.empty_like(input._data)
    gen._bernoulli_(data, p)
    return wrap(data)
