"""The named tuples some operations return, as in ``torch.return_types``.

``x.max(dim)`` finds the largest values along a dimension and where they are: both come
back in one tuple whose fields have names (``result.values``, ``result.indices``), and
print as PyTorch prints them.
"""

from __future__ import annotations

from collections import namedtuple


class _ValuesAndIndices:
    """What ``max`` and ``min`` share: PyTorch's way of printing them."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (f"torch.return_types.{type(self).__name__}(\nvalues={self.values!r},\n"
                f"indices={self.indices!r})")


class max(_ValuesAndIndices, namedtuple("max", ["values", "indices"])):  # noqa: A001, N801
    """``x.max(dim)``: the largest values along ``dim``, and their indices."""

    __slots__ = ()


class min(_ValuesAndIndices, namedtuple("min", ["values", "indices"])):  # noqa: A001, N801
    """``x.min(dim)``: the smallest values along ``dim``, and their indices."""

    __slots__ = ()


class sort(_ValuesAndIndices, namedtuple("sort", ["values", "indices"])):  # noqa: N801
    """``x.sort(dim)``: the values in order along ``dim``, and where each came from."""

    __slots__ = ()


class topk(_ValuesAndIndices, namedtuple("topk", ["values", "indices"])):  # noqa: N801
    """``x.topk(k)``: the ``k`` largest (or smallest) values along ``dim``, and their
    indices."""

    __slots__ = ()


class kthvalue(_ValuesAndIndices, namedtuple("kthvalue", ["values", "indices"])):  # noqa: N801
    """``x.kthvalue(k, dim)``: the ``k``-th smallest values along ``dim``, and their
    indices."""

    __slots__ = ()


class median(_ValuesAndIndices, namedtuple("median", ["values", "indices"])):  # noqa: N801
    """``x.median(dim)``: the lower medians along ``dim``, and their indices."""

    __slots__ = ()


class nanmedian(_ValuesAndIndices, namedtuple("nanmedian", ["values", "indices"])):  # noqa: N801
    """``x.nanmedian(dim)``: the medians of the values that are not NaN, and their
    indices."""

    __slots__ = ()
