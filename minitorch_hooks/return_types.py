"""The named tuples some operations return, as in ``torch.return_types``.

``x.max(dim)`` finds the largest values along a dimension and where they are: both come
back in one tuple whose fields have names (``result.values``, ``result.indices``), and
print as PyTorch prints them.
"""

from __future__ import annotations

from collections import namedtuple


class _NamedResult:
    """What every named result shares: PyTorch's way of printing them, a field a line."""

    __slots__ = ()

    def __repr__(self) -> str:
        fields = ",\n".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
        return f"torch.return_types.{type(self).__name__}(\n{fields})"


class max(_NamedResult, namedtuple("max", ["values", "indices"])):  # noqa: A001, N801
    """``x.max(dim)``: the largest values along ``dim``, and their indices."""

    __slots__ = ()


class min(_NamedResult, namedtuple("min", ["values", "indices"])):  # noqa: A001, N801
    """``x.min(dim)``: the smallest values along ``dim``, and their indices."""

    __slots__ = ()


class sort(_NamedResult, namedtuple("sort", ["values", "indices"])):  # noqa: N801
    """``x.sort(dim)``: the values in order along ``dim``, and where each came from."""

    __slots__ = ()


class topk(_NamedResult, namedtuple("topk", ["values", "indices"])):  # noqa: N801
    """``x.topk(k)``: the ``k`` largest (or smallest) values along ``dim``, and their
    indices."""

    __slots__ = ()


class kthvalue(_NamedResult, namedtuple("kthvalue", ["values", "indices"])):  # noqa: N801
    """``x.kthvalue(k, dim)``: the ``k``-th smallest values along ``dim``, and their
    indices."""

    __slots__ = ()


class median(_NamedResult, namedtuple("median", ["values", "indices"])):  # noqa: N801
    """``x.median(dim)``: the lower medians along ``dim``, and their indices."""

    __slots__ = ()


class nanmedian(_NamedResult, namedtuple("nanmedian", ["values", "indices"])):  # noqa: N801
    """``x.nanmedian(dim)``: the medians of the values that are not NaN, and their
    indices."""

    __slots__ = ()


class linalg_svd(_NamedResult, namedtuple("linalg_svd", ["U", "S", "Vh"])):  # noqa: N801
    """``torch.linalg.svd(A)``: ``A = U @ diag(S) @ Vh``."""

    __slots__ = ()


class svd(_NamedResult, namedtuple("svd", ["U", "S", "V"])):  # noqa: N801
    """``torch.svd(A)``: ``A = U @ diag(S) @ V.mT``."""

    __slots__ = ()
