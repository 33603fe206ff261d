"""``hstack``, ``vstack``, ``dstack``, ``column_stack`` and the ``atleast_*d`` functions.

Each stack is ``cat`` after bringing every tensor up to the rank it joins along: ``vstack``
makes vectors into rows (``atleast_2d``: a vector ``(n,)`` becomes ``(1, n)``) and joins
along dimension 0, ``dstack`` makes everything at least 3-d and joins along dimension 2,
``hstack`` joins vectors end to end and anything else along dimension 1. The graph shows
those steps as PyTorch records them: an ``UnsqueezeBackward0`` or ``ViewBackward0`` per
tensor it reshaped, and one ``CatBackward0``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.vstack.html>
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .._tensor import Tensor
from ._arguments import check_tensor_sequence
from .shape import cat, reshape, unsqueeze


def _each(promote: Callable[[Tensor], Tensor], tensors: tuple) -> Any:
    """``atleast_*d`` of one tensor, or of several (given one by one or as one sequence)."""
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return promote(tensors[0])
    if len(tensors) == 1:
        tensors = tuple(tensors[0])
    return tuple(promote(t) for t in tensors)


def _at_least_1d(t: Tensor) -> Tensor:
    return reshape(t, 1) if t.ndim == 0 else t


def _at_least_2d(t: Tensor) -> Tensor:
    if t.ndim == 0:
        return reshape(t, (1, 1))
    return unsqueeze(t, 0) if t.ndim == 1 else t


def _at_least_3d(t: Tensor) -> Tensor:
    if t.ndim == 0:
        return reshape(t, (1, 1, 1))
    if t.ndim == 1:
        return unsqueeze(unsqueeze(t, 0), -1)
    return unsqueeze(t, -1) if t.ndim == 2 else t


def atleast_1d(*tensors: Any) -> Any:
    """A 0-d tensor as a vector of one element; others as they are (the same tensor)."""
    return _each(_at_least_1d, tensors)


def atleast_2d(*tensors: Any) -> Any:
    """A vector as a row ``(1, n)``, a 0-d tensor as ``(1, 1)``; others as they are."""
    return _each(_at_least_2d, tensors)


def atleast_3d(*tensors: Any) -> Any:
    """A vector as ``(1, n, 1)``, a matrix as ``(m, n, 1)``, a 0-d tensor as ``(1, 1, 1)``."""
    return _each(_at_least_3d, tensors)


def _checked(name: str, tensors: Sequence[Tensor]) -> None:
    check_tensor_sequence(name, tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")


def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """Rows on top of each other: ``cat`` along dimension 0 of ``atleast_2d`` of each."""
    _checked("vstack", tensors)
    return cat([_at_least_2d(t) for t in tensors], 0)


row_stack = vstack


def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Side by side: vectors end to end, anything else along dimension 1."""
    _checked("hstack", tensors)
    pieces = [_at_least_1d(t) for t in tensors]
    return cat(pieces, 0 if pieces[0].ndim == 1 else 1)


def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """In depth: ``cat`` along dimension 2 of ``atleast_3d`` of each."""
    _checked("dstack", tensors)
    return cat([_at_least_3d(t) for t in tensors], 2)


def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """Vectors (and 0-d tensors) as columns ``(n, 1)``, then side by side along
    dimension 1."""
    _checked("column_stack", tensors)
    return cat([reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t for t in tensors], 1)
