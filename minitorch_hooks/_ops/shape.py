"""Operations that rearrange elements: views, indexing, ``cat`` and ``stack``.

A view (``view``, ``transpose``, basic indexing, ...) shares memory with its base, as in
PyTorch, and also its version counter: changing either in place is seen by both. The
backward of a rearrangement puts each gradient element back where its value came from.
See https://pytorch.org/docs/stable/tensor_view.html
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor, _shape_from, _wrap_dim
from ..autograd.graph import Node
from ._record import record


def _as_view(out: Tensor, base: Tensor) -> Tensor:
    """Mark ``out`` as a view of ``base``: same memory, same version counter."""
    if np.shares_memory(out._data, base._data):
        out._version_counter = base._version_counter
        out._base = base if base._base is None else base._base
    return out


def _reshaped(data: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    try:
        return data.reshape(shape)
    except ValueError:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {data.size}"
                           ) from None


class ViewBackward0(Node):
    __slots__ = ("shape",)

    def backward(self, grad):
        return grad.reshape(self.shape)


class UnsafeViewBackward0(ViewBackward0):
    __slots__ = ()


def view(input: Tensor, *shape: Any) -> Tensor:
    """The same memory with another shape; only possible where the strides allow it."""
    data = input._data
    new_shape = _reshaped(data, _shape_from(shape)).shape
    viewed = data.view()
    try:
        viewed.shape = new_shape
    except AttributeError:
        raise RuntimeError("view size is not compatible with input tensor's size and stride "
                           "(at least one dimension spans across two contiguous subspaces). "
                           "Use .reshape(...) instead.") from None
    return _as_view(record(viewed, ViewBackward0, (input,), shape=data.shape), input)


def reshape(input: Tensor, *shape: Any) -> Tensor:
    """Like ``view`` where possible; a copy otherwise."""
    data = input._data
    return _as_view(record(_reshaped(data, _shape_from(shape)), ViewBackward0, (input,),
                           shape=data.shape), input)


def _unsafe_view(input: Tensor, shape: Sequence[int]) -> Tensor:
    """The reshape that ``matmul`` records after folding batch dimensions."""
    data = input._data
    return record(data.reshape(shape), UnsafeViewBackward0, (input,), shape=data.shape)


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    shape = input._data.shape
    if not shape:
        return reshape(input, 1)
    start, end = _wrap_dim(start_dim, len(shape)), _wrap_dim(end_dim, len(shape))
    if start == end:
        return input
    new_shape = shape[:start] + (int(np.prod(shape[start:end + 1])),) + shape[end + 1:]
    return reshape(input, new_shape)


class PermuteBackward0(Node):
    __slots__ = ("dims",)

    def backward(self, grad):
        return grad.transpose(np.argsort(self.dims))


def permute(input: Tensor, *dims: Any) -> Tensor:
    dims = _shape_from(dims)
    ndim = input._data.ndim
    if len(dims) != ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {ndim} is not equal to len(dims) = {len(dims)}")
    dims = tuple(_wrap_dim(d, ndim) for d in dims)
    return _as_view(record(input._data.transpose(dims), PermuteBackward0, (input,), dims=dims),
                    input)


class TransposeBackward0(Node):
    __slots__ = ("dim0", "dim1")

    def backward(self, grad):
        return np.swapaxes(grad, self.dim0, self.dim1)


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    ndim = input._data.ndim
    dim0, dim1 = _wrap_dim(dim0, ndim), _wrap_dim(dim1, ndim)
    return _as_view(record(np.swapaxes(input._data, dim0, dim1), TransposeBackward0, (input,),
                           dim0=dim0, dim1=dim1), input)


class TBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad.T


def t(input: Tensor) -> Tensor:
    """Transpose a matrix; 0-d and 1-d tensors come back as they are."""
    ndim = input._data.ndim
    if ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D")
    return _as_view(record(input._data.T, TBackward0, (input,)), input)


def _T(input: Tensor) -> Tensor:  # noqa: N802 - the property is called ``T``
    """``x.T`` reverses all dimensions (PyTorch warns about it for ndim other than 2)."""
    ndim = input._data.ndim
    if ndim != 2:
        if ndim == 0:
            return input
        import warnings

        warnings.warn("The use of `x.T` on tensors of dimension other than 2 to reverse their "
                      "shape is deprecated and it will throw an error in a future release. "
                      "Consider `x.mT` to transpose batches of matrices or `x.permute(*torch."
                      "arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
                      UserWarning, stacklevel=3)
    return permute(input, tuple(range(ndim - 1, -1, -1)))


class UnsqueezeBackward0(Node):
    __slots__ = ("dim",)

    def backward(self, grad):
        return np.squeeze(grad, self.dim)


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    dim = _wrap_dim(dim, input._data.ndim + 1)
    return _as_view(record(np.expand_dims(input._data, dim), UnsqueezeBackward0, (input,),
                           dim=dim), input)


class SqueezeBackward0(Node):
    __slots__ = ("shape",)

    def backward(self, grad):
        return grad.reshape(self.shape)


class SqueezeBackward1(SqueezeBackward0):
    __slots__ = ()


def squeeze(input: Tensor, dim: int | None = None) -> Tensor:
    """Drop dimensions of size 1 (only ``dim``, when given; a no-op if it is not size 1)."""
    data = input._data
    if dim is None:
        return _as_view(record(np.squeeze(data), SqueezeBackward0, (input,), shape=data.shape),
                        input)
    axis = _wrap_dim(dim, data.ndim)
    squeezed = np.squeeze(data, axis) if data.ndim and data.shape[axis] == 1 else data.view()
    return _as_view(record(squeezed, SqueezeBackward1, (input,), shape=data.shape), input)


class ExpandBackward0(Node):
    __slots__ = ("shape",)

    def backward(self, grad):
        return grad  # the engine sums broadcast dimensions back to ``shape``


def expand(input: Tensor, *sizes: Any) -> Tensor:
    data = input._data
    sizes = _shape_from(sizes)
    lead = len(sizes) - data.ndim
    target = tuple(data.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
    try:
        expanded = np.broadcast_to(data, target)
    except ValueError:
        raise RuntimeError(f"The expanded size of the tensor ({target[-1]}) must match the "
                           f"existing size ({data.shape[-1]}) at non-singleton dimension "
                           f"{len(target) - 1}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                           f"{list(data.shape)}") from None
    return _as_view(record(expanded, ExpandBackward0, (input,), shape=data.shape), input)


# -- indexing --------------------------------------------------------------------------

class SelectBackward0(Node):
    __slots__ = ("shape", "index")

    def backward(self, grad):
        grad_input = np.zeros(self.shape, dtype=grad.dtype)
        grad_input[self.index] = grad
        return grad_input


class SliceBackward0(SelectBackward0):
    __slots__ = ()


class IndexBackward0(Node):
    __slots__ = ("shape", "index")

    def backward(self, grad):
        grad_input = np.zeros(self.shape, dtype=grad.dtype)
        np.add.at(grad_input, self.index, grad)  # repeated indices add up
        return grad_input


def _index_value(item: Any) -> Any:
    if isinstance(item, Tensor):
        return item._data
    if isinstance(item, list):
        return np.asarray([_index_value(i) for i in item])
    return item


def _is_advanced(item: Any) -> bool:
    return isinstance(item, (np.ndarray, list, Tensor)) or isinstance(item, bool)


def getitem(input: Tensor, index: Any) -> Tensor:
    """``x[index]``. Basic indices (ints, slices, ``None``, ``...``) give views, applied one
    dimension at a time as PyTorch records them (``SelectBackward0``, ``SliceBackward0``);
    integer and boolean arrays give a copy (``IndexBackward0``)."""
    items = index if isinstance(index, tuple) else (index,)
    items = tuple(int(i) if isinstance(i, np.integer) else i for i in items)
    if any(_is_advanced(i) for i in items):
        np_index = tuple(_index_value(i) for i in items)
        np_index = np_index[0] if len(np_index) == 1 else np_index
        try:
            data = input._data[np_index]
        except IndexError as error:
            raise IndexError(str(error)) from None
        return record(data, IndexBackward0, (input,), shape=input._data.shape, index=np_index)
    result, dim = input, 0
    explicit = sum(1 for i in items if i is not None and i is not Ellipsis)
    for item in items:
        if item is Ellipsis:
            dim += result._data.ndim - dim - explicit
            continue
        if item is None:
            result = unsqueeze(result, dim)
            dim += 1
            continue
        explicit -= 1
        result = _select_or_slice(result, dim, item)
        if not isinstance(item, int):
            dim += 1
    return result if result is not input else _as_view(
        record(input._data.view(), SliceBackward0, (input,), shape=input._data.shape,
               index=(slice(None),)), input)


def _select_or_slice(input: Tensor, dim: int, item: Any) -> Tensor:
    data = input._data
    if data.ndim <= dim:
        raise IndexError(f"too many indices for tensor of dimension {data.ndim}")
    key = (slice(None),) * dim + (item,)
    if isinstance(item, slice):
        return _as_view(record(data[key], SliceBackward0, (input,), shape=data.shape,
                               index=key), input)
    size = data.shape[dim]
    if not -size <= item < size:
        raise IndexError(f"index {item} is out of bounds for dimension {dim} with size {size}")
    return _as_view(record(data[key], SelectBackward0, (input,), shape=data.shape, index=key),
                    input)


# -- joining -----------------------------------------------------------------------------

class CatBackward0(Node):
    __slots__ = ("axis", "sizes")

    def backward(self, grad):
        return tuple(np.split(grad, np.cumsum(self.sizes)[:-1], axis=self.axis))


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along an existing dimension."""
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    arrays = [t._data for t in tensors]
    axis = _wrap_dim(dim, arrays[0].ndim)
    for number, array in enumerate(arrays[1:], start=1):
        for d, (want, got) in enumerate(zip(arrays[0].shape, array.shape)):
            if d != axis and want != got:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {axis}. Expected size "
                    f"{want} but got size {got} for tensor number {number} in the list.")
    dtype = np.result_type(*arrays)
    data = np.concatenate([a.astype(dtype, copy=False) for a in arrays], axis=axis)
    return record(data, CatBackward0, tuple(tensors), axis=axis,
                  sizes=[a.shape[axis] for a in arrays])


class StackBackward0(Node):
    __slots__ = ("axis",)

    def backward(self, grad):
        return tuple(np.moveaxis(grad, self.axis, 0))


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along a new dimension."""
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    arrays = [t._data for t in tensors]
    for number, array in enumerate(arrays[1:], start=1):
        if array.shape != arrays[0].shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(arrays[0].shape)} "
                f"at entry 0 and {list(array.shape)} at entry {number}")
    axis = _wrap_dim(dim, arrays[0].ndim + 1)
    return record(np.stack(arrays, axis=axis), StackBackward0, tuple(tensors), axis=axis)
