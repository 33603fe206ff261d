"""Every tensor operation, and the Tensor methods and operators that call them.

The operations are plain functions (``mul(a, b)``); this module attaches them to
:class:`~minitorch_hooks._tensor.Tensor` so that ``a * b`` and ``a.mul(b)`` work as in
PyTorch.
"""

from __future__ import annotations

from numbers import Number

import numpy as np

from .. import _creation, _tensor_new
from .._tensor import Tensor
from . import (
    blending,
    broadcasting,
    clamping,
    closeness,
    conversion,
    counting,
    diagonals,
    distances,
    division,
    elementary,
    gather_scatter,
    histogram,
    index_add,
    indexing,
    inplace,
    linalg,
    logical,
    matrix_functions,
    nonzero,
    norms,
    pointwise,
    products,
    quantiles,
    reduction,
    repeating,
    rounding,
    sampling,
    setitem,
    shape,
    shape_inplace,
    softmax,
    sorting,
    svd,
    tensor_split,
    unsafe_split,
)
from ._arguments import checked


def _swap(operation):
    """The reflected operator: ``2 ** t`` calls ``t.__rpow__(2)``, which is ``pow(2, t)``.

    ``+`` and ``*`` need no swap: PyTorch records ``2 * t`` as ``t * 2``, tensor first."""
    def reflected(self, other):
        return operation(other, self)

    return reflected


def _operator(operation):
    """An operator method (``t + x``) that gives ``NotImplemented`` when ``x`` is neither a
    tensor nor a number, as PyTorch's do. Python then carries on as it does for
    PyTorch: it tries the other operand (``[1] * t`` repeats the list if ``t`` can be an
    index), compares identities for ``==`` and ``!=`` (``t == None`` is False), or raises
    its usual "unsupported operand type(s) for +: 'Tensor' and 'str'". A NumPy array
    goes on to the operation, which refuses it: left to NumPy, ``t + array`` would quietly
    give an array, outside the graph."""
    def operator(self, other):
        kind = type(other)
        if (kind is Tensor or kind is float or kind is int
                or isinstance(other, (Tensor, Number, np.ndarray))):
            return operation(self, other)
        return NotImplemented

    return operator


# The operators with two operands, each wrapped by ``_operator``.
_OPERATORS = {
    "__add__": pointwise.add, "__radd__": pointwise.add,
    "__sub__": pointwise.sub, "__rsub__": pointwise._rsub,
    "__mul__": pointwise.mul, "__rmul__": pointwise.mul,
    "__truediv__": pointwise.div, "__rtruediv__": pointwise._rdiv,
    "__pow__": pointwise.pow, "__rpow__": _swap(pointwise.pow),
    "__eq__": pointwise.eq, "__ne__": pointwise.ne, "__lt__": pointwise.lt,
    "__le__": pointwise.le, "__gt__": pointwise.gt, "__ge__": pointwise.ge,
    "__iadd__": inplace.add_, "__isub__": inplace.sub_, "__imul__": inplace.mul_,
    "__itruediv__": inplace.div_,
    "__floordiv__": division.floor_divide, "__rfloordiv__": division._rfloordiv,
    "__mod__": division.remainder, "__rmod__": division._rmod,
    "__ifloordiv__": inplace.floor_divide_, "__imod__": inplace.remainder_,
    **logical.OPERATORS, "__iand__": inplace.LOGICAL_["bitwise_and_"],
    "__ior__": inplace.LOGICAL_["bitwise_or_"], "__ixor__": inplace.LOGICAL_["bitwise_xor_"],
}

_METHODS = {
    # arithmetic (``@`` gives NotImplemented itself)
    "add": pointwise.add, "sub": pointwise.sub, "mul": pointwise.mul, "div": division.div,
    "divide": division.div,
    "pow": pointwise.pow,
    "matmul": linalg.matmul, "__matmul__": linalg.matmul_operator, "mm": linalg.mm,
    "bmm": linalg.bmm, "baddbmm": linalg.baddbmm, "dot": linalg.dot, "mv": linalg.mv,
    "outer": linalg.outer, "ger": linalg.outer, "matrix_exp": matrix_functions.matrix_exp,
    **rounding.METHODS, **inplace.ROUNDING_, "abs_": inplace.abs_,
    "triu": diagonals.triu, "tril": diagonals.tril, "diag": diagonals.diag,
    "diagonal": diagonals.diagonal, "logsumexp": softmax.logsumexp,
    "repeat": repeating.repeat, "tile": repeating.tile, "roll": repeating.roll,
    "nonzero": nonzero.nonzero, "argwhere": nonzero.argwhere,
    "count_nonzero": nonzero.count_nonzero,
    "nan_to_num": pointwise.nan_to_num, "nan_to_num_": inplace.nan_to_num_,
    "neg": pointwise.neg, "__neg__": pointwise.neg, "reciprocal": pointwise.reciprocal,
    "square": pointwise.square, "abs": pointwise.abs, "__abs__": pointwise.abs,
    "exp": pointwise.exp, "log": pointwise.log, "sqrt": pointwise.sqrt,
    "relu": pointwise.relu, "tanh": pointwise.tanh, "sigmoid": pointwise.sigmoid,
    "clamp": pointwise.clamp, "clip": pointwise.clamp, "maximum": pointwise.maximum,
    "minimum": pointwise.minimum, "clamp_min": clamping.clamp_min,
    "clamp_max": clamping.clamp_max, "lerp": blending.lerp, "addcmul": blending.addcmul,
    "addcdiv": blending.addcdiv, "repeat_interleave": repeating.repeat_interleave,
    "index_add": index_add.index_add, "index_add_": index_add.index_add_,
    "tensor_split": tensor_split.tensor_split, "broadcast_to": broadcasting.broadcast_to,
    "unique": counting.unique, "bincount": counting.bincount, "median": quantiles.median,
    "nanmedian": quantiles.nanmedian, "quantile": quantiles.quantile,
    "nanquantile": quantiles.nanquantile,
    **elementary.UNARY,
    "floor_divide": division.floor_divide, "remainder": division.remainder,
    "fmod": division.fmod,
    # comparisons
    "eq": pointwise.eq, "ne": pointwise.ne, "lt": pointwise.lt, "le": pointwise.le,
    "gt": pointwise.gt, "ge": pointwise.ge,
    "equal": pointwise.equal, "logical_not": pointwise.logical_not, "isnan": pointwise.isnan,
    "isinf": pointwise.isinf, "isfinite": pointwise.isfinite, "sign": pointwise.sign,
    **logical.METHODS,
    "isclose": closeness.isclose, "allclose": closeness.allclose,
    # reductions
    "sum": reduction.sum, "nansum": reduction.nansum, "mean": reduction.mean, "max": reduction.max,
    "min": reduction.min, "argmax": reduction.argmax, "argmin": reduction.argmin,
    "amax": reduction.amax, "amin": reduction.amin, "norm": norms.tensor_norm,
    "prod": products.prod, "cumsum": products.cumsum, "cumprod": products.cumprod,
    "histc": histogram.histc, "sort": sorting.sort, "argsort": sorting.argsort,
    "topk": sorting.topk, "kthvalue": sorting.kthvalue_method,
    "multinomial": sampling.multinomial_method,
    "any": reduction.any, "all": reduction.all, "std": reduction.std, "var": reduction.var,
    "trace": reduction.trace, "svd": svd.svd,
    "softmax": softmax.softmax, "log_softmax": softmax.log_softmax,
    # shapes and views
    "view": shape.view, "view_as": shape.view_as, "reshape": shape.reshape,
    "flatten": shape.flatten,
    "permute": shape.permute, "flip": shape.flip, "narrow": shape.narrow,
    "movedim": shape.movedim, "moveaxis": shape.movedim, "transpose": shape.transpose, "t": shape.t,
    "unsqueeze": shape.unsqueeze, "squeeze": shape.squeeze, "expand": shape.expand,
    "reshape_as": shape.reshape_as, "expand_as": shape.expand_as,
    "swapdims": shape.transpose, "swapaxes": shape.transpose,
    "unsqueeze_": shape_inplace.unsqueeze_, "squeeze_": shape_inplace.squeeze_,
    "t_": shape_inplace.t_, "transpose_": shape_inplace.transpose_,
    "swapdims_": shape_inplace.transpose_, "swapaxes_": shape_inplace.transpose_,
    "split": shape.split, "chunk": shape.chunk, "unbind": shape.unbind,
    "unsafe_chunk": unsafe_split.unsafe_chunk,
    "__getitem__": indexing.getitem,
    "gather": gather_scatter.gather, "scatter": gather_scatter.scatter,
    "scatter_add": gather_scatter.scatter_add, "index_select": gather_scatter.index_select,
    "masked_select": gather_scatter.masked_select,
    "masked_scatter": gather_scatter.masked_scatter,
    "scatter_": inplace.scatter_, "scatter_add_": inplace.scatter_add_,
    "masked_scatter_": inplace.masked_scatter_,
    "__setitem__": setitem.setitem,
    "masked_fill": setitem.masked_fill, "masked_fill_": setitem.masked_fill_,
    # copies and conversions
    "clone": conversion.clone, "contiguous": conversion.contiguous, "to": conversion.to,
    "float": conversion.float, "double": conversion.double, "half": conversion.half,
    "long": conversion.long, "int": conversion.int, "bool": conversion.bool,
    "type_as": conversion.type_as,
    # new tensors of the same dtype
    "new_tensor": _creation.new_tensor, "new_full": _creation.new_full,
    "new_zeros": _creation.new_zeros, "new_ones": _creation.new_ones,
    "new_empty": _creation.new_empty, "new": _tensor_new.new,
    "cpu": conversion.cpu, "type": conversion.type, "cuda": conversion.cuda,
    # in place
    "add_": inplace.add_, "sub_": inplace.sub_, "mul_": inplace.mul_, "div_": inplace.div_,
    "pow_": inplace.pow_,
    "neg_": inplace.neg_, "exp_": inplace.exp_, "relu_": inplace.relu_,
    "tanh_": inplace.tanh_, "sigmoid_": inplace.sigmoid_, "clamp_": clamping.clamp_,
    "clip_": clamping.clamp_, "clamp_min_": clamping.clamp_min_,
    "clamp_max_": clamping.clamp_max_, "lerp_": blending.lerp_, "addcmul_": blending.addcmul_,
    "addcdiv_": blending.addcdiv_,
    "sqrt_": inplace.sqrt_, **inplace.ELEMENTARY_, **inplace.LOGICAL_,
    "floor_divide_": inplace.floor_divide_,
    "remainder_": inplace.remainder_, "fmod_": inplace.fmod_,
    "fill_": inplace.fill_, "zero_": inplace.zero_, "copy_": inplace.copy_,
    "uniform_": inplace.uniform_, "normal_": inplace.normal_, "bernoulli_": inplace.bernoulli_,
    "random_": inplace.random_,
}

for _name, _operation in _METHODS.items():  # checked: see _arguments.py
    setattr(Tensor, _name, checked(_operation, _name, method=True))
for _name, _operation in _OPERATORS.items():
    setattr(Tensor, _name, _operator(_operation))
Tensor.T = property(shape._T)
Tensor.mT = property(shape.transpose_last)
