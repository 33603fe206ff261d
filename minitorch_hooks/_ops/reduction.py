"""Reductions: ``sum``, ``nansum``, ``mean``, ``max``/``min``, ``norm``.

A reduction's backward spreads the output gradient back over the elements that were
reduced: every element for ``sum``, equal shares for ``mean``, only the winners for
``max``/``min``.
See <https://docs.pytorch.org/docs/2.13/torch.html#reduction-ops>
"""

from __future__ import annotations

import builtins
import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import return_types
from .._tensor import Tensor, _wrap_dim, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import record, shown_dim

Dims = int | Sequence[int] | None

def _axes(dim: Dims, ndim: int) -> tuple[int, ...] | None:
    if dim is None:
        return None
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    axes = tuple(_wrap_dim(d, ndim) for d in dims)
    for position, axis in enumerate(axes):
        if axis in axes[:position]:
            raise RuntimeError(f"dim {axis} appears multiple times in the list of dims")
    # A 0-d tensor accepts dim 0 (or -1) as if it were 1-d, but has no axis to reduce.
    return axes if ndim else ()


def _spread(grad: Any, shape: tuple[int, ...]) -> Any:
    """``grad`` repeated over ``shape``, as a new array: each reduced element gets the same
    gradient. (A sum's gradient is a view instead, see ``SumBackward0``; PyTorch's mean
    divides that view, which makes a new tensor.)"""
    return formula.full(shape, grad)


def _unreduce(grad: Any, axes: tuple[int, ...] | None, keepdim: bool) -> Any:
    """Re-insert the reduced dimensions, of size 1, that ``keepdim=False`` removed."""
    if axes is not None and not keepdim:
        return formula.expand_dims(grad, axes)
    return grad


class SumBackward0(Node):
    """The gradient of a sum is the output's gradient *expanded* over the input, without
    copying, as in PyTorch: a tensor hook that edits it in place gets PyTorch's error
    about elements sharing memory, and ``is_contiguous()`` is False."""

    __slots__ = ("shape",)
    saved_attributes = ("self_sym_sizes",)

    @property
    def self_sym_sizes(self) -> tuple[int, ...]:
        return self.shape

    def backward(self, grad):
        return formula.expand(grad, self.shape)


class SumBackward1(SumBackward0):
    __slots__ = ("axes", "keepdim", "dim")  # ``dim`` as given, as ``_saved_dim`` shows it
    saved_attributes = ("dim", "keepdim")

    def backward(self, grad):
        return formula.expand(_unreduce(grad, self.axes, self.keepdim), self.shape)


def sum(input: Tensor, dim: Dims = None, keepdim: bool = False, *,  # noqa: A001
        dtype: Any = None) -> Tensor:
    """Sum over ``dim`` (all elements when omitted). Integers and bools sum to int64."""
    data = input._data
    if dtype is not None:
        data = data.astype(dtype.numpy_type)
    elif data.dtype.kind in "biu":
        data = data.astype(np.int64)
    if dim is None:
        return record(data.sum(), SumBackward0, (input,), shape=data.shape)
    axes = _axes(dim, data.ndim)
    return record(data.sum(axis=axes, keepdims=keepdim), SumBackward1, (input,),
                  shape=data.shape, axes=axes, keepdim=keepdim,
                  dim=tuple(shown_dim(d) for d in _given_dims(dim)))


class NansumBackward0(Node):
    """PyTorch's ``nansum_backward``: the sum's gradient, spread over the input, times a
    mask that is 0 where the input was nan (so a nan element gets no gradient, even an
    infinite one gives nan there, as ``inf * 0`` does in PyTorch)."""

    __slots__ = ("axes", "keepdim", "dim")  # ``dim`` as given (None for all elements)
    saved_names = ("self",)
    saved_attributes = ("dim", "keepdim")

    def backward(self, grad):
        (x,) = self.saved_arrays()
        x = formula.array(x)
        spread = formula.expand(_unreduce(grad, self.axes, self.keepdim), x.shape)
        return spread * formula.like((~np.isnan(x)).astype(formula.dtype(grad)), grad)


def nansum(input: Tensor, dim: Dims = None, keepdim: bool = False, *,
           dtype: Any = None) -> Tensor:
    """``sum`` that counts nan as zero. Integers and bools sum to int64, as for ``sum``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nansum.html>
    """
    data = input._data
    if data.dtype.kind == "f":  # the nans become zeros before a cast to ``dtype``
        data = np.where(np.isnan(data), data.dtype.type(0), data)
    if dtype is not None:
        data = data.astype(dtype.numpy_type)
    elif data.dtype.kind in "biu":
        data = data.astype(np.int64)
    axes = None if dim is None else _axes(dim, data.ndim)
    shown = None if dim is None else tuple(shown_dim(d) for d in _given_dims(dim))
    return record(np.asarray(data.sum(axis=axes, keepdims=keepdim), dtype=data.dtype),
                  NansumBackward0, (input,), saved=(input,), axes=axes, keepdim=keepdim,
                  dim=shown)


class TraceBackward0(Node):
    """The trace adds the diagonal, so its gradient is the output's gradient on the
    diagonal and zero elsewhere; PyTorch keeps the input's sizes to build it."""

    __slots__ = ("self_sym_sizes",)
    saved_attributes = ("self_sym_sizes",)

    def backward(self, grad):
        # The main diagonal, also of a matrix that is not square: an identity-like mask
        # times the gradient, so the formula is itself differentiable.
        rows, cols = self.self_sym_sizes
        return formula.like(np.eye(rows, cols, dtype=formula.dtype(grad)), grad) * grad


def trace(input: Tensor) -> Tensor:
    """The sum of a matrix's main diagonal. Integers sum to int64, as for ``sum``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.trace.html>
    """
    data = input._data
    if data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {data.ndim}")
    if data.dtype == np.bool_:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    dtype = np.int64 if data.dtype.kind in "iu" else data.dtype
    return record(np.asarray(np.trace(data), dtype=dtype), TraceBackward0, (input,),
                  self_sym_sizes=data.shape)


class MeanBackward0(Node):
    __slots__ = ("shape",)
    saved_attributes = ("self_sym_numel", "self_sym_sizes")

    @property
    def self_sym_sizes(self) -> tuple[int, ...]:
        return self.shape

    @property
    def self_sym_numel(self) -> int:
        return math.prod(self.shape)

    def backward(self, grad):
        # ``max`` is this module's reduction; an empty input still divides by 1.
        return _spread(grad / builtins.max(math.prod(self.shape), 1), self.shape)


class MeanBackward1(MeanBackward0):
    __slots__ = ("axes", "keepdim", "dim")  # ``dim`` as given, as ``_saved_dim`` shows it
    saved_attributes = ("dim", "keepdim")

    def backward(self, grad):
        count = math.prod(self.shape[a] for a in self.axes)
        return _spread(_unreduce(grad / count, self.axes, self.keepdim), self.shape)


def mean(input: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
    data = input._data
    if data.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating "
            f"point or complex dtype. Got: {input.dtype.scalar_name}")
    if dim is None:
        return record(formula.array_mean(data, None, False), MeanBackward0, (input,),
                      shape=data.shape)
    axes = _axes(dim, data.ndim)
    return record(formula.array_mean(data, axes, keepdim), MeanBackward1, (input,),
                  shape=data.shape, axes=axes, keepdim=keepdim,
                  dim=tuple(shown_dim(d) for d in _given_dims(dim)))


class _AllExtremumBackward(Node):
    """``x.max()``: the gradient is shared evenly among the elements equal to the max (the
    NaNs, when the max is NaN), and the others get a selected 0, as PyTorch's
    ``evenly_distribute_backward`` fills them: an infinite gradient reaches no loser."""

    __slots__ = ()
    saved_names = ("self", "result")

    def backward(self, grad):
        x, result = map(formula.array, self.saved_arrays())
        winners = np.isnan(x) if np.isnan(result) else x == result
        return formula.where(winners, grad / winners.sum(), 0)


class MaxBackward1(_AllExtremumBackward):
    __slots__ = ()


class MinBackward1(_AllExtremumBackward):
    __slots__ = ()


class _DimExtremumBackward(Node):
    """``x.max(dim)``: the gradient goes to the one index that won along ``dim``."""

    __slots__ = ("shape", "axis", "keepdim")
    saved_names = ("indices",)

    def backward(self, grad):
        (winners,) = self.saved_arrays()  # the indices output, which PyTorch saves
        shape = self.shape or (1,)
        indices = formula.array(winners).reshape(shape[:self.axis] + (1,) + shape[self.axis + 1:])
        key = tuple(indices if d == self.axis else np.arange(size).reshape(
            (-1,) + (1,) * (len(shape) - d - 1)) for d, size in enumerate(shape))
        return formula.scatter(shape, key, grad.reshape(indices.shape),
                         node_type=formula.ScatterBackward0).reshape(self.shape)


class _PickedAlongDimBackward(_DimExtremumBackward):
    """The same gradient for a value picked along ``dim`` by rank (a median, the ``k``-th
    smallest), whose node also shows ``dim`` and the input's sizes, as PyTorch's does."""

    __slots__ = ("dim",)
    saved_attributes = ("dim", "keepdim", "self_sym_sizes")

    @property
    def self_sym_sizes(self) -> tuple[int, ...]:
        return self.shape


class MaxBackward0(_DimExtremumBackward):
    __slots__ = ()


class MinBackward0(_DimExtremumBackward):
    __slots__ = ()


def _extremum(input: Tensor, dim: Any, keepdim: bool, largest: bool) -> Any:
    data = input._data
    name = "max" if largest else "min"
    if isinstance(dim, Tensor):  # x.max(other) is the element-wise maximum
        from .pointwise import maximum, minimum

        return maximum(input, dim) if largest else minimum(input, dim)
    if data.size == 0:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() "
                           "== 0. Specify the reduction dim with the 'dim' argument.")
    if dim is None:
        result = data.max() if largest else data.min()
        node_type = MaxBackward1 if largest else MinBackward1
        return record(result, node_type, (input,), saved=(input,), save_output=True)
    axis = _wrap_dim(dim, data.ndim)
    work = data.reshape(1) if data.ndim == 0 else data  # 0-d reduces like a 1-element vector
    indices = (work.argmax if largest else work.argmin)(axis=axis, keepdims=True)
    values = np.take_along_axis(work, indices, axis=axis)
    kept = keepdim and data.ndim > 0
    node_type = MaxBackward0 if largest else MinBackward0
    out = record(values if kept else values.squeeze(axis), node_type, (input,),
                 shape=data.shape, axis=axis, keepdim=kept)
    winners = wrap((indices if kept else indices.squeeze(axis)).astype(np.int64))
    if out._grad_fn is not None:
        out._grad_fn._save_output(winners)
    return getattr(return_types, name)(out, winners)


def max(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    """The largest value, or ``(values, indices)`` along ``dim``."""
    return _extremum(input, dim, keepdim, largest=True)


def min(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    """The smallest value, or ``(values, indices)`` along ``dim``."""
    return _extremum(input, dim, keepdim, largest=False)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Where the largest value is (the first place, among ties; a nan counts as largest).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.argmax.html>
    """
    return _arg_extremum(np.argmax, input, dim, keepdim)


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Where the smallest value is (the first place, among ties; a nan counts as smallest).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.argmin.html>
    """
    return _arg_extremum(np.argmin, input, dim, keepdim)


def _arg_extremum(find: Any, input: Tensor, dim: int | None, keepdim: bool) -> Tensor:
    data = input._data
    if dim is None:
        return wrap(np.int64(find(data)))
    # NumPy's indices are its intp, 32 bits on a 32-bit platform (the browser's WebAssembly)
    return wrap(find(data, axis=_wrap_dim(dim, data.ndim), keepdims=keepdim).astype(np.int64))


class AmaxBackward0(Node):
    """``amax``: the gradient is shared evenly among the elements equal to the maximum of
    their slice (unlike ``max(dim)``, which gives it all to one index)."""

    __slots__ = ("axes", "dim", "keepdim")
    saved_names = ("self", "result")
    saved_attributes = ("dim", "keepdim")

    def backward(self, grad):
        x, result = self.saved_arrays()
        grad, result = _unreduce(grad, self.axes, self.keepdim), \
            _unreduce(result, self.axes, self.keepdim)
        winners = formula.astype(formula.like(formula.array(x == result), grad),
                                 formula.dtype(grad))
        count = formula.sum(winners, self.axes, keepdims=True)
        return grad * winners / count


class AminBackward0(AmaxBackward0):
    __slots__ = ()


def _extreme_values(name: str, reduce: Any, node_type: type[Node], input: Tensor,
                    dim: Dims, keepdim: bool) -> Tensor:
    data = input._data
    dims = () if dim is None else _given_dims(dim)
    axes = _axes(dims, data.ndim) if dims else tuple(range(data.ndim))
    if data.size == 0:
        if not dims:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        for given, axis in zip(dims, axes):  # (the message shows the dim as given)
            if data.shape[axis] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {given} to have non-zero "
                                 "size.")
    result = reduce(data, axis=axes, keepdims=keepdim)
    return record(result, node_type, (input,), saved=(input,), save_output=True, axes=axes,
                  dim=tuple(shown_dim(d) for d in dims), keepdim=keepdim)


def amax(input: Tensor, dim: Dims = (), keepdim: bool = False) -> Tensor:
    """The largest value along ``dim`` (every dimension when it is empty), without the
    indices that ``max(dim)`` returns; a nan is the largest.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.amax.html>
    """
    return _extreme_values("amax", np.max, AmaxBackward0, input, dim, keepdim)


def amin(input: Tensor, dim: Dims = (), keepdim: bool = False) -> Tensor:
    """The smallest value along ``dim`` (every dimension when it is empty); a nan is the
    smallest.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.amin.html>
    """
    return _extreme_values("amin", np.min, AminBackward0, input, dim, keepdim)


def _logical_reduction(reduce: Any, input: Tensor, dim: Dims, keepdim: bool) -> Tensor:
    data = input._data
    result = reduce(data, axis=_axes(dim, data.ndim), keepdims=keepdim)
    # A uint8 tensor (an old-style mask) answers in uint8, as in PyTorch; the rest in bool.
    return wrap(result.astype(np.uint8) if data.dtype == np.uint8 else result)


def any(input: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether some element (along ``dim``) is non-zero.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.any.html>
    """
    return _logical_reduction(np.any, input, dim, keepdim)


def all(input: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether every element (along ``dim``) is non-zero.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.all.html>
    """
    return _logical_reduction(np.all, input, dim, keepdim)


# -- variance and standard deviation ---------------------------------------------------------

class VarBackward0(Node):
    """``d var / d x = 2 (x - mean) / (N - correction)``, for each of the N elements that
    were reduced together."""

    __slots__ = ("axes", "keepdim", "correction")
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return _var_backward(grad, x, self.axes, self.keepdim, self.correction)


def _var_backward(grad: Any, x: Any, axes: tuple[int, ...] | None,
                  keepdim: bool, correction: float) -> Any:
    centred = x - formula.mean(x, axes)
    count = formula.numel(x) if axes is None else math.prod(x.shape[a] for a in axes)
    dof = float(count - correction)
    if (axes is None or x.ndim == 0) and dof <= 0:
        # PyTorch's special case: 2 / 0 is inf, and inf * 0 is nan where x is the mean.
        infinite = np.where(formula.array(centred) == 0, np.nan, np.inf).astype(formula.dtype(x))
        return grad * formula.like(infinite, grad)
    scale = float(np.divide(2.0, dof))  # inf for no degrees of freedom, as in PyTorch
    return formula.astype(scale * _unreduce(grad, axes, keepdim) * centred, formula.dtype(x))


class StdBackward0(Node):
    """``std = sqrt(var)``, so its gradient is ``var``'s divided by ``2 std``; where
    ``std`` is 0, PyTorch sends 0 rather than dividing by it."""

    __slots__ = ("axes", "keepdim", "correction")
    saved_names = ("self", "result")

    def backward(self, grad):
        x, std = self.saved_arrays()
        if self.axes is not None and not self.keepdim:
            std = formula.expand_dims(std, self.axes)
            grad = formula.expand_dims(grad, self.axes)
        grad_var = formula.where(std == 0, 0, grad / (2 * std))
        return _var_backward(grad_var, x, self.axes, True, self.correction)


def _var(name: str, input: Tensor, dim: Any, unbiased: bool | None, keepdim: bool,
         correction: float | None) -> tuple[np.ndarray, tuple[int, ...] | None, float]:
    """The variance, with the axes and correction it used, checked and warned as PyTorch
    does. ``x.var(False)`` is ``unbiased=False``: a bool is never a dimension."""
    data = input._data
    if data.dtype.kind != "f":
        kind = name if name.endswith("_mean") else "std and var"
        raise RuntimeError(f"{kind} only support floating point and complex dtypes")
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:  # PyTorch has no overload for both
        raise TypeError(f"{name}() received an invalid combination of arguments: give "
                        "unbiased or correction, not both")
    if correction is None:
        correction = 0 if unbiased is False else 1
    axes = _axes(dim, data.ndim)
    count = data.size if axes is None else math.prod(data.shape[a] for a in axes)
    if count - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=3)
    centred = data - formula.array_mean(data, axes, True)
    with np.errstate(divide="ignore", invalid="ignore"):
        result = (centred * centred).sum(axis=axes, keepdims=keepdim) / \
            np.float64(builtins.max(count - correction, 0))
    return result.astype(data.dtype), axes, correction


def var(input: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False,
        *, correction: float | None = None) -> Tensor:
    """The variance over ``dim`` (everything when omitted), divided by ``N - correction``:
    ``correction=1`` (Bessel's, the default; ``unbiased=True``) estimates the variance of
    the population the elements were drawn from, ``correction=0`` is the plain mean square.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.var.html>
    """
    result, axes, correction = _var("var", input, dim, unbiased, keepdim, correction)
    return record(result, VarBackward0, (input,), saved=(input,), axes=axes, keepdim=keepdim,
                  correction=correction)


def std(input: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False,
        *, correction: float | None = None) -> Tensor:
    """The square root of ``var``, with the same arguments.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.std.html>
    """
    result, axes, correction = _var("std", input, dim, unbiased, keepdim, correction)
    return record(np.sqrt(result), StdBackward0, (input,), saved=(input,), save_output=True,
                  axes=axes, keepdim=keepdim, correction=correction)


# -- variance (or standard deviation) and mean together ------------------------------------------

class VarMeanBackward0(Node):
    """One node for both results (output 0 the variance, output 1 the mean): the input's
    gradient is the sum of what each sends back, and a result that got no gradient sends
    nothing. ``dim`` and ``correction`` are shown as PyTorch's C++ stores them."""

    __slots__ = ("num_outputs", "axes", "dof_correction", "correction", "dim", "keepdim")
    saved_names = ("self",)
    saved_attributes = ("correction", "dim", "keepdim")

    def backward(self, grad_var, grad_mean):
        (x,) = self.saved_arrays()
        return self._with_mean(x, None if grad_var is None else _var_backward(
            grad_var, x, self.axes, self.keepdim, self.dof_correction), grad_mean)

    def _with_mean(self, x: Any, grad: Any, grad_mean: Any) -> Any:
        if grad_mean is not None:
            count = (formula.numel(x) if self.axes is None
                     else math.prod(x.shape[a] for a in self.axes))
            from_mean = _unreduce(grad_mean, self.axes, self.keepdim) / count
            grad = from_mean if grad is None else grad + from_mean
        return formula.astype(formula.expand(grad, x.shape), formula.dtype(x))


class StdMeanBackward0(VarMeanBackward0):
    """``std_mean``: the standard deviation's gradient is the variance's divided by
    ``2 std`` (0 where ``std`` is 0, as for ``std``)."""

    __slots__ = ()
    saved_names = ("self", "result0")

    def backward(self, grad_std, grad_mean):
        x, std = self.saved_arrays()
        grad = None
        if grad_std is not None:
            std, grad_std = _unreduce(std, self.axes, self.keepdim), \
                _unreduce(grad_std, self.axes, self.keepdim)
            grad_var = formula.where(std == 0, 0, grad_std / (2 * std))
            grad = _var_backward(grad_var, x, self.axes, True, self.dof_correction)
        return self._with_mean(x, grad, grad_mean)


def _moments(name: str, node_type: type[Node], input: Tensor, dim: Any,
             unbiased: bool | None, keepdim: bool, correction: float | None
             ) -> tuple[Tensor, Tensor]:
    """``(var or std, mean)`` of ``input``, recorded as the two outputs of one node."""
    variance, axes, used = _var(name, input, dim, unbiased, keepdim, correction)
    first = np.sqrt(variance) if node_type is StdMeanBackward0 else variance
    average = input._data.mean(axis=axes, keepdims=keepdim).astype(input._data.dtype)
    dims = None if axes is None else tuple(shown_dim(d) for d in _given_dims(dim))
    out = record(first, node_type, (input,), saved=(input,),
                 save_output=node_type is StdMeanBackward0, num_outputs=2, axes=axes,
                 dof_correction=used, correction=_shown_correction(dim, unbiased, correction),
                 dim=dims, keepdim=keepdim)
    second = wrap(average)
    if out.grad_fn is not None:
        second._grad_fn, second._output_nr, second._requires_grad = out.grad_fn, 1, True
    return out, second


def _shown_correction(dim: Any, unbiased: bool | None, correction: float | None
                      ) -> float | None:
    """The correction as PyTorch's node keeps it: None when nothing chose one."""
    if correction is not None:
        return correction
    if isinstance(dim, bool):  # ``var_mean(x, False)`` is ``unbiased=False``
        return int(dim)
    if unbiased is not None:
        return int(unbiased)
    return None if dim is None else 1


def _given_dims(dim: Any) -> tuple[int, ...]:
    return tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)


def var_mean(input: Tensor, dim: Any = None, unbiased: bool | None = None,
             keepdim: bool = False, *, correction: float | None = None
             ) -> tuple[Tensor, Tensor]:
    """``(var, mean)`` in one pass, with ``var``'s arguments; one node for both.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.var_mean.html>
    """
    return _moments("var_mean", VarMeanBackward0, input, dim, unbiased, keepdim, correction)


def std_mean(input: Tensor, dim: Any = None, unbiased: bool | None = None,
             keepdim: bool = False, *, correction: float | None = None
             ) -> tuple[Tensor, Tensor]:
    """``(std, mean)`` in one pass, with ``std``'s arguments; one node for both.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.std_mean.html>
    """
    return _moments("std_mean", StdMeanBackward0, input, dim, unbiased, keepdim, correction)
