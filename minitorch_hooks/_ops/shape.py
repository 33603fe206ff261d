"""Operations that rearrange elements: views, ``cat`` and ``stack``, ``split`` and ``unbind``.
(Indexing, ``x[index]``, is in ``indexing.py``.)

A view (``view``, ``transpose``, basic indexing, ...) shares memory with its base, as in
PyTorch, and also its version counter: changing either in place is seen by both. The
backward of a rearrangement puts each gradient element back where its value came from.
See <https://docs.pytorch.org/docs/2.13/tensor_view.html>
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _dtype
from .._allocation import check_numel, check_numpy_can_hold
from .._size_argument import NOT_GIVEN, _is_integer, size_argument
from .._tensor import Tensor, _shape_from, _wrap_dim, wrap
from .._warnings import warn_once
from ..autograd import _formula as formula
from ..autograd.grad_mode import _State
from ..autograd.graph import Node
from ..utils.hooks import type_name
from ._arguments import check_tensor_sequence
from ._record import promote_types, record, shown_dim
from .conversion import contiguous


def _as_view(out: Tensor, base: Tensor) -> Tensor:
    """Mark ``out`` as a view of ``base`` if it shares its memory (an empty result, such
    as ``x[:0]``, shares none, yet PyTorch's view operations make it a view all the same)."""
    data = out._data
    return _mark_view(out, base) if data.size == 0 or np.shares_memory(data, base._data) else out


def _mark_view(out: Tensor, base: Tensor) -> Tensor:
    """Make ``out`` a view of ``base``: same memory, same version counter. A view made
    under ``no_grad`` is marked: PyTorch refuses to record in-place changes to it."""
    out._version_counter = base._version_counter
    out._base = base if base._base is None else base._base
    out._view_version = base._version_counter[0]
    if not _State.enabled:
        out._creation_meta = "no_grad"
    elif base._creation_meta in ("no_grad", "multi_output"):  # a view of such a view is too
        out._creation_meta = base._creation_meta
    return out


def _infer_shape(shape: Sequence[int], numel: int) -> tuple[int, ...]:
    """``shape`` with its one ``-1`` filled in, checked as PyTorch's ``infer_size`` does."""
    inferred, known = None, 1
    for i, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = i
        elif size >= 0:
            known *= size
        else:
            raise RuntimeError(f"invalid shape dimension {size} at index {i} of shape "
                               f"{list(shape)}")
    known = (known + 2**63) % 2**64 - 2**63  # multiplied as int64, wrapping as C++ does
    if numel == known and inferred is None:
        check_numel(tuple(shape))  # (2**32 x 2**32 wrapped to 0 elements: refused here)
        return tuple(shape)
    if inferred is not None and known > 0 and numel % known == 0:
        return tuple(shape[:inferred]) + (numel // known,) + tuple(shape[inferred + 1:])
    if inferred is not None and numel == known == 0:
        raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} "
                           "because the unspecified dimension size -1 can be any value and is "
                           "ambiguous")
    raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")


def _view_of(data: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """``data`` seen with another shape without copying, or None where its strides do not
    allow it (as after a transpose)."""
    viewed = data.view()
    try:
        viewed.shape = shape
    except AttributeError:
        return None
    return viewed


class ViewBackward0(Node):
    __slots__ = ("shape",)
    saved_attributes = ("self_sym_sizes",)

    @property
    def self_sym_sizes(self) -> tuple[int, ...]:
        return self.shape

    def backward(self, grad):
        return grad.reshape(self.shape)


class UnsafeViewBackward0(ViewBackward0):
    __slots__ = ()


class ReshapeAliasBackward0(ViewBackward0):
    __slots__ = ()


def _view_size(args: tuple, size: Any, keywords: dict[str, Any]) -> tuple[int, ...]:
    """``view``'s size, given as arguments or as ``size=``. ``view`` has a second
    signature, ``view(dtype)``, so an argument that is neither a size nor a dtype, or an
    unknown keyword, matches neither, and PyTorch lists both."""
    if "dtype" in keywords or args and isinstance(args[0], _dtype.dtype):
        raise NotImplementedError("minitorch_hooks does not implement Tensor.view(dtype), "
                                  "which reads the same bytes as another dtype")
    if keywords or size is not NOT_GIVEN and not args and not isinstance(size, (tuple, list)):
        keywords = keywords or {"size": size}
        got = "".join(f"{name}={type_name(value)}, " for name, value in keywords.items())
        wrong = ("      didn't match because some of the keywords were incorrect: "
                 f"{', '.join(keywords)}\n")
        why = wrong if "size" not in keywords else (
            "      didn't match because some of the arguments have invalid types: "
            f"(!size={type_name(size)}!, )\n")
        raise TypeError(f"view() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n * (torch.dtype dtype)\n{wrong}"
                        f" * (tuple of ints size)\n{why}")
    if args and not isinstance(args[0], (tuple, list)) and not _is_integer(args[0]):
        got = ", ".join(type_name(arg) for arg in args)
        why = ("" if len(args) > 1 else "      didn't match because some of the arguments "
               f"have invalid types: (!{got}!)\n")
        raise TypeError(f"view() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n * (torch.dtype dtype)\n{why}"
                        f" * (tuple of ints size)\n{why}")
    return size_argument("view", args, size)


def _new_view_shape(input: Tensor, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape a view or reshape of ``input`` asks for, with ``-1`` filled in, checked
    as PyTorch checks it, and one NumPy can hold."""
    new_shape = _infer_shape(shape, input._data.size)
    check_numpy_can_hold(new_shape, input._data.itemsize)
    return new_shape


def view(input: Tensor, *shape: Any, size: Any = NOT_GIVEN, **keywords: Any) -> Tensor:
    """The same memory with another shape; only possible where the strides allow it.
    The shape is given as arguments, as a tuple, or as ``size=``."""
    data = input._data
    viewed = _view_of(data, _new_view_shape(input, _view_size(shape, size, keywords)))
    if viewed is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride "
                           "(at least one dimension spans across two contiguous subspaces). "
                           "Use .reshape(...) instead.")
    return _as_view(record(viewed, ViewBackward0, (input,), shape=data.shape), input)


def view_as(input: Tensor, other: Tensor) -> Tensor:
    """``input.view(other.shape)``. ``x.view_as(x)`` is the idiom for "the same values, a new
    tensor": a custom Function's forward returns it so that its output is not its input."""
    return view(input, other.shape)


def reshape(input: Tensor, *args: Any, shape: Any = NOT_GIVEN, **keywords: Any) -> Tensor:
    """A view where the strides allow one, otherwise a copy. PyTorch records a ``view`` of a
    contiguous tensor, a ``_reshape_alias`` (a view with computed strides) of another, and
    a copy as ``contiguous`` followed by an ``_unsafe_view`` of the copy. The shape is
    given as arguments, as a tuple, or as ``shape=``."""
    if keywords and not args and shape is NOT_GIVEN:
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    if keywords:
        raise TypeError(f"reshape() got an unexpected keyword argument '{next(iter(keywords))}'")
    data = input._data
    new_shape = _new_view_shape(input, size_argument("reshape", args, shape, name="shape"))
    if data.flags.c_contiguous:
        return view(input, new_shape)
    viewed = _view_of(data, new_shape)
    if viewed is None:
        return _unsafe_view(contiguous(input), new_shape)
    return _as_view(record(viewed, ReshapeAliasBackward0, (input,), shape=data.shape), input)


def torch_reshape(input: Tensor, *args: Any, shape: Any = NOT_GIVEN) -> Tensor:
    """``torch.reshape(input, shape)``: unlike the method, it takes the shape as one
    argument, a tuple (``torch.reshape(x, 2)`` is refused), never as several.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.reshape.html>
    """
    if len(args) > 1:
        raise TypeError(f"reshape() takes 2 positional arguments but {len(args) + 1} were given")
    return reshape(input, size_argument("reshape", args, shape, name="shape", position=2,
                                        varargs=False))


def _unsafe_view(input: Tensor, shape: Sequence[int]) -> Tensor:
    """The reshape PyTorch records on a fresh copy (after ``reshape`` copied, or after
    ``matmul`` folded batch dimensions): nobody else sees that memory, so no view."""
    data = input._data
    return record(data.reshape(shape), UnsafeViewBackward0, (input,), shape=data.shape)


def reshape_as(input: Tensor, other: Tensor) -> Tensor:
    """``reshape(other.size())``."""
    return reshape(input, other._data.shape)


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    shape = input._data.shape
    if not shape:
        return reshape(input, 1)
    start, end = _wrap_dim(start_dim, len(shape)), _wrap_dim(end_dim, len(shape))
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    new_shape = shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:]
    return reshape(input, new_shape)


class PermuteBackward0(Node):
    __slots__ = ("dims",)

    def backward(self, grad):
        return formula.permute(grad, np.argsort(self.dims))


def permute(input: Tensor, *dims: Any) -> Tensor:
    dims = size_argument("permute", dims, name="dims")
    ndim = input._data.ndim
    if len(dims) != ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {ndim} is not equal to len(dims) = {len(dims)}")
    dims = tuple(_wrap_dim(d, ndim) for d in dims)
    if len(set(dims)) != ndim:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _as_view(record(input._data.transpose(dims), PermuteBackward0, (input,), dims=dims),
                    input)


class TransposeBackward0(Node):
    __slots__ = ("dim0", "dim1")

    def backward(self, grad):
        return formula.swapaxes(grad, self.dim0, self.dim1)


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    ndim = input._data.ndim
    dim0, dim1 = _wrap_dim(dim0, ndim), _wrap_dim(dim1, ndim)
    return _as_view(record(np.swapaxes(input._data, dim0, dim1), TransposeBackward0, (input,),
                           dim0=dim0, dim1=dim1), input)


class TBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return formula.t(grad)


def transpose_last(input: Tensor) -> Tensor:
    """``x.mT``: swap the last two dimensions (a batch of matrices, each transposed)."""
    return transpose(input, -2, -1)


def t(input: Tensor) -> Tensor:
    """Transpose a matrix; 0-d and 1-d tensors come back as they are."""
    ndim = input._data.ndim
    if ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D")
    return _mark_view(record(input._data.T, TBackward0, (input,)), input)  # always shares


def _T(input: Tensor) -> Tensor:  # noqa: N802 - the property is called ``T``
    """``x.T`` reverses all dimensions; PyTorch deprecates it for ndim other than 2."""
    ndim = input._data.ndim
    if ndim == 0:
        warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                   "these cases.")
    elif ndim != 2:
        warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their "
                   "shape is deprecated and it will throw an error in a future release. "
                   "Consider `x.mT` to transpose batches of matrices or `x.permute(*torch."
                   "arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")
    return permute(input, tuple(range(ndim - 1, -1, -1)))


class UnsqueezeBackward0(Node):
    __slots__ = ("dim",)

    def backward(self, grad):
        return formula.squeeze(grad, self.dim)


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    dim = _wrap_dim(dim, input._data.ndim + 1)
    return _as_view(record(np.expand_dims(input._data, dim), UnsqueezeBackward0, (input,),
                           dim=dim), input)


class SqueezeBackward0(Node):
    __slots__ = ("shape",)

    def backward(self, grad):
        return grad.reshape(self.shape)


class SqueezeBackward1(SqueezeBackward0):
    """``squeeze(dim)``."""

    __slots__ = ()


class SqueezeBackward3(SqueezeBackward0):
    """``squeeze_()``, in place (``shape_inplace.py``): every dimension of size 1."""

    __slots__ = ()
    saved_attributes = ("self_sym_sizes",)

    @property
    def self_sym_sizes(self) -> tuple[int, ...]:
        return self.shape


class SqueezeBackward4(SqueezeBackward3):
    """``squeeze_(dim)``, in place: also how ``matmul`` drops the row it added to a
    vector. PyTorch's node shows ``dim`` as it was given."""

    __slots__ = ("shown_dim",)

    @property
    def _saved_dim(self) -> int:
        return self.shown_dim


class SqueezeBackward2(SqueezeBackward0):
    """``squeeze(dims)``, a tuple of dimensions; PyTorch's node shows them as given."""

    __slots__ = ("dim",)
    saved_attributes = ("dim", "self_sym_sizes")

    @property
    def self_sym_sizes(self) -> tuple[int, ...]:
        return self.shape


def squeeze(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """Drop dimensions of size 1 (only those among ``dim``, an int or a tuple, when given;
    the others stay)."""
    data = input._data
    if dim is None:
        return _as_view(record(np.squeeze(data), SqueezeBackward0, (input,), shape=data.shape),
                        input)
    if isinstance(dim, (tuple, list)):
        axes = [_wrap_dim(d, data.ndim) for d in dim]
        for axis in axes:
            if axes.count(axis) > 1:
                raise RuntimeError(f"dim {axis} appears multiple times in the list of dims")
        ones = tuple(a for a in axes if data.ndim and data.shape[a] == 1)
        return _as_view(record(np.squeeze(data, ones) if ones else data.view(), SqueezeBackward2,
                               (input,), shape=data.shape,
                               dim=tuple(shown_dim(d) for d in dim)), input)
    return _squeeze(input, dim, SqueezeBackward1)


def _squeeze(input: Tensor, dim: int, node_type: type[Node], **attributes: Any) -> Tensor:
    data = input._data
    axis = _wrap_dim(dim, data.ndim)
    squeezed = np.squeeze(data, axis) if data.ndim and data.shape[axis] == 1 else data.view()
    return _as_view(record(squeezed, node_type, (input,), shape=data.shape, **attributes),
                    input)


class ExpandBackward0(Node):
    __slots__ = ("shape",)

    def backward(self, grad):
        return grad  # the engine sums broadcast dimensions back to ``shape``


def expand(input: Tensor, *sizes: Any, size: Any = NOT_GIVEN) -> Tensor:
    """A view repeating dimensions of size 1 (and new leading ones) without copying;
    ``-1`` keeps a dimension's size."""
    data = input._data
    target = expanded_shape(input, size_argument("expand", sizes, size))
    check_numel(target)
    check_numpy_can_hold(target, data.itemsize)
    return _as_view(record(formula.expanded(data, target), ExpandBackward0, (input,),
                           shape=data.shape), input)


def expanded_shape(input: Tensor, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of ``input.expand(*sizes)``, or PyTorch's error where it cannot expand
    (also the error of ``addmm`` when the bias does not fit the product)."""
    data = input._data
    lead = len(sizes) - data.ndim
    if lead < 0:
        raise RuntimeError(f"expand({input.dtype.legacy_name}{{{list(data.shape)}}}, "
                           f"size={list(sizes)}): the number of sizes provided ({len(sizes)}) "
                           "must be greater or equal to the number of dimensions in the tensor "
                           f"({data.ndim})")
    target = list(sizes)
    for i, size in enumerate(sizes):
        if i < lead:
            if size == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            continue
        existing = data.shape[i - lead]
        if size == -1:
            target[i] = existing
        elif existing not in (1, size):
            raise RuntimeError(f"The expanded size of the tensor ({size}) must match the "
                               f"existing size ({existing}) at non-singleton dimension {i}.  "
                               f"Target sizes: {list(sizes)}.  Tensor sizes: {list(data.shape)}")
    return tuple(target)


def expand_as(input: Tensor, other: Tensor) -> Tensor:
    """``expand(other.size())``: broadcast to another tensor's shape, without copying."""
    return expand(input, other._data.shape)


# -- joining -----------------------------------------------------------------------------

class CatBackward0(Node):
    __slots__ = ("axis", "sizes")

    def backward(self, grad):
        return formula.split(grad, self.sizes, self.axis)


def _joined_arrays(tensors: Sequence[Tensor]) -> list[np.ndarray]:
    """The values of the tensors to join, cast to their common dtype (PyTorch's promotion)."""
    arrays = [t._data for t in tensors]
    dtype = functools.reduce(promote_types, (a.dtype for a in arrays))
    return [a.astype(dtype, copy=False) for a in arrays]


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along an existing dimension."""
    check_tensor_sequence("cat", tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    arrays = _joined_arrays(tensors)
    for number, array in enumerate(arrays):
        if array.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {number}) cannot be "
                               "concatenated")
    axis = _wrap_dim(dim, arrays[0].ndim)
    for number, array in enumerate(arrays[1:], start=1):
        if array.ndim != arrays[0].ndim:
            raise RuntimeError("Tensors must have same number of dimensions: got "
                               f"{arrays[0].ndim} and {array.ndim}")
        for d, (want, got) in enumerate(zip(arrays[0].shape, array.shape)):
            if d != axis and want != got:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {axis}. Expected size "
                    f"{want} but got size {got} for tensor number {number} in the list.")
    return record(np.concatenate(arrays, axis=axis), CatBackward0, tuple(tensors), axis=axis,
                  sizes=[a.shape[axis] for a in arrays])


class StackBackward0(Node):
    __slots__ = ("axis",)

    def backward(self, grad):
        return formula.unbind(grad, self.axis)


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along a new dimension."""
    check_tensor_sequence("stack", tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    arrays = _joined_arrays(tensors)
    for number, array in enumerate(arrays[1:], start=1):
        if array.shape != arrays[0].shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(arrays[0].shape)} "
                f"at entry 0 and {list(array.shape)} at entry {number}")
    axis = _wrap_dim(dim, arrays[0].ndim + 1)
    return record(np.stack(arrays, axis=axis), StackBackward0, tuple(tensors), axis=axis)


# -- splitting: several views made by one node ------------------------------------------------

class SplitBackward0(Node):
    """One node for all the pieces: piece ``i`` is its output ``i`` (``output_nr``), as in
    PyTorch. Its backward puts the pieces' gradients side by side again; a piece that got
    no gradient (it was not used) contributes zeros."""

    __slots__ = ("num_outputs", "shape", "axis", "sizes")

    def backward(self, *grads):
        return formula.concatenate(self._pieces(grads), self.axis)

    def _pieces(self, grads: tuple) -> list[Any]:
        given = next(g for g in grads if g is not None)
        pieces = []
        for grad, size in zip(grads, self.sizes):
            if grad is None:
                piece_shape = self.shape[:self.axis] + (size,) + self.shape[self.axis + 1:]
                grad = formula.zeros(piece_shape, given)
            pieces.append(grad)
        return pieces


class SplitWithSizesBackward0(SplitBackward0):
    """``split`` with a list of sizes."""

    __slots__ = ()


class UnbindBackward0(SplitBackward0):
    """``unbind``: the pieces lost the dimension, so their gradients are stacked along it."""

    __slots__ = ()

    def backward(self, *grads):
        pieces = self._pieces(tuple(None if g is None else formula.expand_dims(g, self.axis)
                                    for g in grads))
        return formula.concatenate(pieces, self.axis)


def _record_pieces(input: Tensor, pieces: list[np.ndarray], node_type: type[Node],
                   axis: int, sizes: list[int]) -> tuple[Tensor, ...]:
    """Wrap ``pieces`` (views of ``input``'s memory) as the outputs of one node."""
    if not pieces:  # unbind along a dimension of size 0
        return ()
    # Every piece is a view, even an empty one that shares no memory with ``input``.
    first = _mark_view(record(pieces[0], node_type, (input,), num_outputs=len(pieces),
                              shape=input._data.shape, axis=axis, sizes=sizes), input)
    outs = [first] + [_mark_view(wrap(piece), input) for piece in pieces[1:]]
    if _State.enabled:  # one node for all pieces: a change to one could not be recorded
        for out in outs:
            out._creation_meta = "multi_output"
    node = first.grad_fn
    if node is not None:
        for output_nr, out in enumerate(outs[1:], start=1):
            out.grad_fn, out._output_nr, out._requires_grad = node, output_nr, True
    return tuple(outs)


def _pieces_along(data: np.ndarray, axis: int, sizes: list[int]) -> list[np.ndarray]:
    starts = np.cumsum([0] + sizes[:-1])
    return [data[(slice(None),) * axis + (slice(start, start + size),)]
            for start, size in zip(starts, sizes)]


def split(input: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0
          ) -> tuple[Tensor, ...]:
    """Views of consecutive pieces along ``dim``: each ``split_size`` long (the last may be
    shorter), or of the listed sizes. They share memory with ``input``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.split.html>
    """
    data = input._data
    sections = split_size_or_sections
    name = "split" if isinstance(sections, int) else "split_with_sizes"
    if data.ndim == 0:
        raise RuntimeError(f"{name} expects at least a 1-dimensional tensor")
    axis = _wrap_dim(dim, data.ndim)
    length = data.shape[axis]
    if isinstance(sections, int):
        if sections < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got "
                               f"split_size={sections}")
        if sections == 0 and length != 0:
            raise RuntimeError("split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {length}")
        count = max(-(-length // sections), 1) if sections else 1
        sizes = [sections] * (count - 1) + [length - sections * (count - 1)]
        node_type = SplitBackward0
    else:
        sizes = [int(s) for s in sections]
        if any(s < 0 for s in sizes):
            raise RuntimeError("split_with_sizes expects split_sizes have only non-negative "
                               f"entries, but got split_sizes={sizes}")
        if sum(sizes) != length:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {length}"
                               f" (input tensor's size at dimension {dim}), but got "
                               f"split_sizes={sizes}")
        node_type = SplitWithSizesBackward0
    return _record_pieces(input, _pieces_along(data, axis, sizes), node_type, axis, sizes)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``split`` into ``chunks`` pieces of equal size, rounded up, so there can be fewer
    (a length of 4 in 3 chunks gives two of 2).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.chunk.html>
    """
    data = input._data
    if data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    length = data.shape[_wrap_dim(dim, data.ndim)]
    if length == 0:  # ``chunks`` empty pieces, as split_with_sizes
        return split(input, [0] * chunks, dim)
    return split(input, -(-length // chunks), dim)


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """Every slice along ``dim``, each without that dimension (``x[0], x[1], ...``), as
    views made by one node.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.unbind.html>
    """
    data = input._data
    if data.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    axis = _wrap_dim(dim, data.ndim)
    pieces = [data[(slice(None),) * axis + (i, Ellipsis)] for i in range(data.shape[axis])]
    return _record_pieces(input, pieces, UnbindBackward0, axis, [1] * len(pieces))


# -- reversing -----------------------------------------------------------------------------

class FlipBackward0(Node):
    __slots__ = ("axes", "dims")
    saved_attributes = ("dims",)

    def backward(self, grad):
        return formula.flip(grad, self.axes)


def flip(input: Tensor, *dims: Any) -> Tensor:
    """The elements in reverse order along ``dims``: a copy, not a view (PyTorch's strides
    cannot be negative).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.flip.html>
    """
    dims = _shape_from(dims)
    ndim = input._data.ndim
    axes = tuple(_wrap_dim(d, ndim) for d in dims)
    for axis in axes:
        if axes.count(axis) > 1:
            raise RuntimeError(f"dim {axis} appears multiple times in the list of dims")
    data = np.ascontiguousarray(np.flip(input._data, axes)) if ndim else input._data.copy()
    return record(data, FlipBackward0, (input,), axes=axes,
                  dims=tuple(shown_dim(d) for d in dims))


def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """``length`` elements along ``dim`` from ``start``: the view ``x[..., start:start +
    length]``, recorded as a slice (``SliceBackward0``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.narrow.html>
    """
    from .indexing import _slice

    ndim = input._data.ndim
    if ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    axis = _wrap_dim(dim, ndim)
    size = input._data.shape[axis]
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    start = start % size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return _slice(input, axis, slice(start, start + length))


def movedim(input: Tensor, source: Any, destination: Any) -> Tensor:
    """The ``source`` dimensions moved to the ``destination`` places, the others keeping
    their order: a ``permute``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.movedim.html>
    """
    ndim = input._data.ndim
    sources = [_wrap_dim(d, ndim) for d in ((source,) if isinstance(source, int) else source)]
    targets = [_wrap_dim(d, ndim) for d in
               ((destination,) if isinstance(destination, int) else destination)]
    if len(sources) != len(targets):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({sources} "
                           f"dims) should contain the same number of dims as destination "
                           f"({targets} dims)")
    order = [d for d in range(ndim) if d not in sources]
    for target, source_dim in sorted(zip(targets, sources)):
        order.insert(target, source_dim)
    return permute(input, order)
