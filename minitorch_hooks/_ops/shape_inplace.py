"""In-place view operations: ``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_`` and
``swapdims_``/``swapaxes_``.

They change how a tensor *looks at* its memory (its shape and strides), not the values in
it: ``x.unsqueeze_(0)`` is ``x = x.unsqueeze(0)`` without a new tensor object. So, unlike
``add_``, nothing is written and nothing is recorded on a base: the tensor itself gets the
view's node, in its in-place variant (``UnsqueezeBackward1`` where ``unsqueeze`` records
``UnsqueezeBackward0``), whose input is the tensor as it was. A view stays a view of the
same base. As any in-place operation they bump the version counter (so a node that saved
the tensor notices) and refuse a leaf that requires grad while recording.
See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.unsqueeze_.html>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._tensor import Tensor, _wrap_dim
from ..autograd.grad_mode import _State, no_grad
from ..autograd.graph import Node
from ._record import shown_dim
from .inplace import bump_version, check_in_place
from .shape import (
    SqueezeBackward3,
    SqueezeBackward4,
    TBackward0,
    TransposeBackward0,
    UnsqueezeBackward0,
    squeeze,
    t,
    transpose,
    unsqueeze,
)


class UnsqueezeBackward1(UnsqueezeBackward0):
    __slots__ = ("shown_dim",)

    @property
    def _saved_dim(self) -> int:
        return self.shown_dim


class TBackward1(TBackward0):
    __slots__ = ()


class TransposeBackward1(TransposeBackward0):
    __slots__ = ("shown_dims",)

    @property
    def _saved_dim0(self) -> int:
        return self.shown_dims[0]

    @property
    def _saved_dim1(self) -> int:
        return self.shown_dims[1]


def _in_place_view(tensor: Tensor, view: Callable[..., Tensor], args: tuple,
                   node_type: type[Node], **attributes: Any) -> Tensor:
    """Make ``tensor`` look as ``view(tensor, *args)`` would, recording ``node_type``
    (with ``attributes``, like the out-of-place node's) as its new grad_fn."""
    check_in_place(tensor)
    with no_grad():
        viewed = view(tensor, *args)
    recording = _State.enabled and tensor.requires_grad
    node = node_type((tensor,)) if recording else None  # its input: the tensor as it was
    tensor._data = viewed._data
    bump_version(tensor)
    if tensor._base is not None:  # its node describes it as it is now
        tensor._view_version = tensor._version_counter[0]
    if node is not None:
        for name, value in attributes.items():
            setattr(node, name, value)
        # Unlike after ``add_`` (``view_history.set_history``), the tensor's hooks and
        # ``retain_grad`` stay where they were, on the old node, as in PyTorch: a hook
        # registered before (or, adding to the same dictionary, after) sees the gradient
        # of the old shape.
        tensor._grad_fn, tensor._output_nr, tensor._requires_grad = node, 0, True
    return tensor


def unsqueeze_(input: Tensor, dim: int) -> Tensor:
    """``unsqueeze`` in place: a new dimension of size 1 at ``dim``."""
    axis = _wrap_dim(dim, input._data.ndim + 1)
    return _in_place_view(input, unsqueeze, (dim,), UnsqueezeBackward1, dim=axis,
                          shown_dim=shown_dim(dim))


def squeeze_(input: Tensor, dim: int | None = None) -> Tensor:
    """``squeeze`` in place: drop the dimensions of size 1 (only ``dim``, when given)."""
    shape = input._data.shape
    if dim is None:
        return _in_place_view(input, squeeze, (), SqueezeBackward3, shape=shape)
    _wrap_dim(dim, input._data.ndim)
    return _in_place_view(input, squeeze, (dim,), SqueezeBackward4, shape=shape,
                          shown_dim=shown_dim(dim))


def t_(input: Tensor) -> Tensor:
    """``t`` in place: a matrix transposed (a 0-d or 1-d tensor is left as it is)."""
    ndim = input._data.ndim
    if ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {ndim}D")
    return _in_place_view(input, t, (), TBackward1)


def transpose_(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """``transpose`` in place: swap two dimensions (``swapdims_`` and ``swapaxes_`` too)."""
    ndim = input._data.ndim
    axes = _wrap_dim(dim0, ndim), _wrap_dim(dim1, ndim)
    return _in_place_view(input, transpose, (dim0, dim1), TransposeBackward1, dim0=axes[0],
                          dim1=axes[1], shown_dims=(shown_dim(dim0), shown_dim(dim1)))
