"""The helpers a backward formula may call, for NumPy arrays and for Tensors alike.

Every op has one backward formula, used by two kinds of backward pass:

* the usual one, where gradients and saved values are NumPy arrays, and a formula costs
  no more than the NumPy it runs;
* ``create_graph=True``, where grad mode is on and they are Tensors, so that the same
  formula records nodes like forward code: the gradients it returns have a ``grad_fn`` and
  can be differentiated again (gradient penalties, Hessian-vector products).

Operators (``*``, ``/``, ``-``, ``@``, ``>``, ``.T``, ``.reshape``, ``.sum()``) work on both
kinds already. Anything else a formula needs comes from this module, which looks at the
argument: an array goes to NumPy, a Tensor to the differentiable Tensor operation. So a
formula reads ``_formula.where(mask, grad, 0)`` where it would have read ``np.where``, and
that is all it takes for an op to support double backward. PyTorch's counterpart is the
file of hand-written derivative helpers, ``FunctionsManual.cpp``, which are written on
Tensors (its single kind of backward pass always runs on Tensors).
See <https://docs.pytorch.org/docs/2.13/notes/extending.html#double-backward>
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from .graph import Node


def array(x: Any) -> Any:
    """The NumPy array of ``x``: for values used as constants (an index, a mask's positions),
    never differentiated."""
    return x._data if type(x) is Tensor else x


def like(value: np.ndarray, reference: Any) -> Any:
    """A constant ``value`` in the form of ``reference``: as an array next to arrays, as a
    Tensor (that requires no grad) next to Tensors."""
    return wrap(value) if type(reference) is Tensor else value


def dtype(x: Any) -> np.dtype:
    return array(x).dtype


def numel(x: Any) -> int:
    return math.prod(array(x).shape)


def astype(x: Any, target: np.dtype) -> Any:
    if type(x) is Tensor:
        from .._dtype import from_numpy_dtype
        return x.to(from_numpy_dtype(np.dtype(target)))
    return x.astype(target)


def copy(x: Tensor) -> Tensor:
    """A copy of a gradient that keeps its history: ``empty_like(x).copy_(x)``, as PyTorch's
    ``AccumulateGrad`` copies the first gradient under create_graph (``CopyBackwards``)."""
    return wrap(np.empty_like(x._data)).copy_(x)


# -- values ----------------------------------------------------------------------------------

def zeros_like(x: Any) -> Any:
    return like(np.zeros_like(array(x)), x)


def zeros(shape: tuple[int, ...], like_: Any) -> Any:
    """Zeros of ``shape`` in ``like_``'s dtype and form."""
    return like(np.zeros(shape, dtype=dtype(like_)), like_)


def where(condition: Any, x: Any, y: Any) -> Any:
    """``x`` where ``condition`` holds, else ``y``; a number on either side stays one."""
    if type(x) is Tensor or type(y) is Tensor:
        from .._ops.pointwise import where as tensor_where
        return tensor_where(wrap(array(condition)), x, y)
    return np.where(condition, x, y)


def _elementwise(ufunc: np.ufunc) -> Callable[[Any], Any]:
    """A helper for one element-wise function: NumPy's ``ufunc`` on an array, the Tensor
    method of the same name on a Tensor. A formula that needs another function (``cos``
    for ``sin``) gets one more line below."""
    name = ufunc.__name__

    def apply(x: Any) -> Any:
        return getattr(x, name)() if type(x) is Tensor else ufunc(x)

    apply.__name__ = name
    return apply


log = _elementwise(np.log)
exp = _elementwise(np.exp)
sin = _elementwise(np.sin)
cos = _elementwise(np.cos)
sinh = _elementwise(np.sinh)
cosh = _elementwise(np.cosh)
tanh = _elementwise(np.tanh)
sqrt = _elementwise(np.sqrt)


def sign(x: Any) -> Any:
    """-1, 0 or 1; 0 for NaN too, as PyTorch's ``sign`` and ``sgn`` (NumPy's gives NaN), so
    ``abs`` and the 1-norm send no NaN back from a NaN input."""
    if type(x) is Tensor:
        return x.sign()
    return np.where(x != x, x.dtype.type(0), np.sign(x)) if x.dtype.kind == "f" else np.sign(x)


def erf(x: Any) -> Any:
    """NumPy has no ``erf``: the op's own values (``math.erf``) on arrays, the op on Tensors."""
    from .._ops.elementary import _erf
    return x.erf() if type(x) is Tensor else _erf(x)


# -- reductions and shapes -------------------------------------------------------------------

def sum(x: Any, axes: int | tuple[int, ...] | None, keepdims: bool = False) -> Any:  # noqa: A001
    if type(x) is Tensor:
        if axes is None:
            return x.sum()
        return x.sum(dim=axes, keepdim=keepdims)
    return x.sum(axis=axes, keepdims=keepdims)


def mean(x: Any, axes: tuple[int, ...] | None) -> Any:
    """The mean over ``axes`` (all when None), keeping the reduced dimensions."""
    if type(x) is Tensor:
        return x.mean(dim=axes if axes is not None else tuple(range(x.ndim)), keepdim=True)
    return array_mean(x, axes, True)


def array_mean(data: np.ndarray, axes: tuple[int, ...] | None, keepdim: bool) -> np.ndarray:
    """NumPy's mean, without its "Mean of empty slice" warning: the mean of nothing is
    0 / 0, nan, silently, as in PyTorch (see ``_silent_numpy.py``)."""
    count = data.size if axes is None else math.prod(data.shape[a] for a in axes)
    wide = np.float32 if data.dtype == np.float16 else data.dtype  # NumPy's accumulator
    total = data.sum(axis=axes, keepdims=keepdim, dtype=wide)
    return np.true_divide(total, count, dtype=wide).astype(data.dtype, copy=False)


def sum_to_shape(grad: Any, shape: tuple[int, ...]) -> Any:
    """Undo broadcasting: sum the gradient over the dimensions that were expanded."""
    grad_shape = array(grad).shape
    extra = len(grad_shape) - len(shape)
    axes = tuple(range(extra)) + tuple(
        i + extra for i, size in enumerate(shape) if size == 1 and grad_shape[i + extra] != 1)
    if axes:
        grad = sum(grad, axes, keepdims=True)
    return grad.reshape(shape)


def expand(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` repeated along its size-1 (and new leading) dimensions, without copying."""
    if type(x) is Tensor:
        return x.expand(shape)
    return expanded(np.asarray(x), shape)


def expanded(data: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``data`` repeated along its size-1 (and new leading) dimensions without copying.

    Those dimensions get stride 0: all their elements are one element in memory, as in
    PyTorch's ``expand``. Unlike ``np.broadcast_to`` the view is writable, because PyTorch
    lets ``fill_`` and ``zero_`` write through it; the other in-place operations refuse
    such a tensor (``inplace.check_no_internal_overlap``).
    """
    lead = len(shape) - data.ndim
    strides = [stride if size == new_size else 0 for size, new_size, stride
               in zip(data.shape, shape[lead:], data.strides)]
    for i in reversed(range(lead)):  # a new dimension of size 1 steps over the ones after it
        after = shape[i + 1] * strides[0] if strides else 0
        strides.insert(0, after if shape[i] == 1 else 0)
    strides = tuple(strides)
    if data.flags.c_contiguous:  # the usual case, built straight on its memory: 4x faster
        return np.ndarray(shape, data.dtype, data, 0, strides)
    return np.lib.stride_tricks.as_strided(data, shape, strides)


def full(shape: tuple[int, ...], x: Any) -> Any:
    """``x`` repeated over ``shape`` as a new array (on Tensors an expand: the same values)."""
    return x.expand(shape) if type(x) is Tensor else np.full(shape, x)


def expand_dims(x: Any, axes: int | tuple[int, ...]) -> Any:
    if type(x) is Tensor:
        for axis in sorted((axes,) if isinstance(axes, int) else axes):
            x = x.unsqueeze(axis)
        return x
    return np.expand_dims(x, axes)


def squeeze(x: Any, axis: int) -> Any:
    return x.squeeze(axis) if type(x) is Tensor else np.squeeze(x, axis)


def swapaxes(x: Any, axis0: int, axis1: int) -> Any:
    return x.transpose(axis0, axis1) if type(x) is Tensor else np.swapaxes(x, axis0, axis1)


def permute(x: Any, order: Sequence[int]) -> Any:
    return x.permute(tuple(int(d) for d in order)) if type(x) is Tensor else x.transpose(order)


def t(x: Any) -> Any:
    """A matrix transposed: ``x.t()`` on a Tensor (``TBackward0``, as PyTorch's formulas
    record it; ``.T`` would record a permute)."""
    return x.t() if type(x) is Tensor else x.T


def flip(x: Any, axes: tuple[int, ...]) -> Any:
    """``x`` reversed along ``axes`` (a copy on Tensors, as ``torch.flip``)."""
    return x.flip(axes) if type(x) is Tensor else np.flip(x, axes)


def cumsum(x: Any, axis: int) -> Any:
    return x.cumsum(axis) if type(x) is Tensor else np.cumsum(x, axis)


def cumprod(x: Any, axis: int) -> Any:
    return x.cumprod(axis) if type(x) is Tensor else np.cumprod(x, axis)


def outer(x: Any, y: Any) -> Any:
    return x.unsqueeze(1) * y if type(x) is Tensor else np.outer(x, y)


def concatenate(pieces: Sequence[Any], axis: int) -> Any:
    if any(type(p) is Tensor for p in pieces):
        from .._ops.shape import cat
        return cat([p if type(p) is Tensor else wrap(p) for p in pieces], axis)
    return np.concatenate(pieces, axis=axis)


def split(x: Any, sizes: Sequence[int], axis: int) -> tuple:
    if type(x) is Tensor:
        return x.split(list(sizes), axis)
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=axis))


def unbind(x: Any, axis: int) -> tuple:
    return x.unbind(axis) if type(x) is Tensor else tuple(np.moveaxis(x, axis, 0))


# -- writing into a region: the backward of indexing -------------------------------------------
# (Reading a region, ``x[key]``, is an operator: a NumPy key indexes arrays and Tensors alike.)

def zero_at(x: Any, key: Any) -> Any:
    """A copy of ``x`` with zeros at ``key``."""
    if type(x) is Tensor:
        mask = np.ones(x._data.shape, dtype=x._data.dtype)
        mask[key] = 0
        return x * wrap(mask)
    result = x.copy()
    result[key] = 0
    return result


def scatter(shape: tuple[int, ...], key: Any, values: Any, accumulate: bool = False,
            node_type: type[Node] | None = None) -> Any:
    """Zeros of ``shape`` with ``values`` written at ``key`` (added up where ``key``
    repeats a position, with ``accumulate``). On Tensors a node of ``node_type`` (named as
    PyTorch's double-backward node) records it: its own backward takes ``grad[key]``."""
    result = np.zeros(shape, dtype=dtype(values))
    if accumulate:
        np.add.at(result, key, array(values))
    else:
        result[key] = array(values)
    if type(values) is not Tensor:
        return result
    from .._ops._record import record
    return record(result, node_type or IndexPutImplBackward0, (values,), key=key)


class _ScatterBackward(Node):
    """The node of :func:`scatter` on Tensors: the gradient of the values is ``grad[key]``."""

    __slots__ = ("key",)

    def backward(self, grad):
        return grad[self.key]


class IndexPutImplBackward0(_ScatterBackward):
    """PyTorch's node for the gradient of ``x[indices]``."""

    __slots__ = ()


class SelectBackwardBackward0(_ScatterBackward):
    __slots__ = ()


class SliceBackwardBackward0(_ScatterBackward):
    __slots__ = ()


class ScatterBackward0(_ScatterBackward):
    """PyTorch's node for the gradient of ``max(dim)`` and ``min(dim)``."""

    __slots__ = ()


# -- convolution: its gradients are convolutions too --------------------------------------------

def convolution(input: Any, weight: Any, stride: Sequence[int], padding: Sequence[int],
                dilation: Sequence[int], transposed: bool, output_padding: Sequence[int],
                groups: int) -> Any:
    """A convolution without bias (``transposed``: its transpose), as in ``_ops/conv.py``:
    NumPy on arrays, the recorded operation on Tensors."""
    from .._ops import conv
    if type(input) is Tensor or type(weight) is Tensor:
        input, weight = (x if type(x) is Tensor else wrap(x) for x in (input, weight))
        return conv.convolution(input, weight, None, stride, padding, dilation, transposed,
                                output_padding, groups)
    return conv.convolve(input, weight, stride, padding, dilation, transposed, output_padding,
                         groups)
