"""Tensor arguments are checked first, with PyTorch's TypeError, as its argument parser does.

PyTorch parses every call of ``torch.mul``, ``Tensor.mul`` or ``F.linear`` in C++ against
the function's signature before anything runs, so a dict where a Tensor belongs is refused
at once: ``linear(): argument 'input' (position 1) must be Tensor, not dict``. Our
operations are plain Python, which would fail later and elsewhere (``'dict' object has no
attribute '_data'``). So the public names are the operations wrapped by :func:`checked`,
which checks the tensor parameters listed in :data:`TENSOR_PARAMETERS` and then calls the
operation. A method counts its arguments after ``self``: ``x.mul(None)`` names 'other'
(position 1), ``torch.mul(x, None)`` position 2; a keyword argument has no position.

Only the wrapped names pay for the check. A method whose one tensor is ``self`` (a tensor
by construction), like ``x.tanh()``, is not wrapped, and neither are the operators: ``x *
None`` is Python's business (``_ops/__init__.py``).
See <https://docs.pytorch.org/docs/2.13/notes/extending.html>
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from numbers import Number
from typing import Any, NamedTuple

import numpy as np

from .._tensor import Tensor
from ..utils.hooks import type_name

# Each function's leading parameters that take tensors, in the order of its signature
# (PyTorch's names: ``mm(input, mat2)``). ``other#`` also takes a number, ``bias?`` None.
_UNARY = ("input",)
TENSOR_PARAMETERS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("abs", "exp", "log", "sqrt", "neg", "relu", "tanh", "sigmoid", "sign", "square",
         "reciprocal", "isnan", "isinf", "isfinite", "logical_not", "clone", "flatten", "t",
         "transpose", "permute", "squeeze", "unsqueeze", "reshape", "chunk", "unbind",
         "argmax", "sum", "nansum", "mean", "max", "min", "softmax", "log_softmax", "numel",
         "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
         "dropout", "sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan",
         "sinh", "cosh", "erf", "rsqrt", "log1p", "expm1", "prod", "cumsum", "cumprod",
         "amax", "amin", "argmin", "flip", "histc", "is_floating_point", "triu", "tril",
         "sort", "argsort", "topk", "log2", "log10", "floor", "ceil", "round", "trunc",
         "kthvalue", "frac", "narrow", "movedim", "diagonal", "logsumexp", "roll", "tile",
         "nonzero", "argwhere", "count_nonzero",
         "diag", "nan_to_num", "clamp_min", "clamp_max", "clamp_min_", "clamp_max_",
         "broadcast_to", "tensor_split", "index_add", "index_add_", "unique", "bincount",
         "median", "nanmedian", "quantile", "nanquantile", "matrix_exp"),
        _UNARY),
    **dict.fromkeys(("add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_", "copy_"),
                    ("input#", "other#")),
    **dict.fromkeys(("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_and_", "bitwise_or_",
                     "bitwise_xor_"), ("input#", "other#")),
    **dict.fromkeys(("logical_and", "logical_or", "logical_xor", "logical_and_", "logical_or_",
                     "logical_xor_"), ("input", "other")),
    **dict.fromkeys(("lerp", "lerp_"), ("input", "end")),
    **dict.fromkeys(("addcmul", "addcdiv", "addcmul_", "addcdiv_"),
                    ("input", "tensor1", "tensor2")),
    **dict.fromkeys(("maximum", "minimum", "matmul", "equal", "expand_as", "view_as", "reshape_as",
                     "type_as", "allclose", "isclose"), ("input", "other")),
    "mm": ("input", "mat2"),
    "cdist": ("x1", "x2"),
    "dot": ("input", "tensor"),
    "mv": ("input", "vec"),
    "outer": ("input", "vec2"),
    **dict.fromkeys(("gather", "index_select", "scatter", "scatter_add"), _UNARY),
    "masked_select": ("input", "mask"),
    **dict.fromkeys(("masked_scatter", "masked_scatter_"), ("input", "mask", "source")),
    "bmm": ("input", "mat2"),
    "baddbmm": ("input", "batch1", "batch2"),
    "addmm": ("input", "mat1", "mat2"),
    "linear": ("input", "weight", "bias?"),
    "prelu": ("input", "weight"),
    "cross_entropy_loss": ("input", "target", "weight?"),
    "nll_loss_nd": ("input", "target", "weight?"),
}

class _Parameter(NamedTuple):
    name: str
    index: int  # in the call's positional arguments
    number: bool  # a number is accepted too
    optional: bool  # None is accepted too


def _where(position: int | None) -> str:
    return "" if position is None else f" (position {position})"


def not_a_tensor(function: str, name: str, position: int | None, value: Any) -> TypeError:
    """PyTorch's error for a value that is not a tensor where one must be."""
    return TypeError(f"{function}(): argument '{name}'{_where(position)} must be Tensor, "
                     f"not {type_name(value)}")


def check_tensor_sequence(function: str, tensors: Any) -> None:
    """``torch.cat`` and ``torch.stack`` take a tuple or list whose every element is a
    tensor; PyTorch counts the elements from 0 and the arguments from 0 here."""
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(f"{function}(): argument 'tensors' (position 1) must be tuple of "
                        f"Tensors, not {type_name(tensors)}")
    for i, tensor in enumerate(tensors):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type_name(tensor)}")


def argument_type_name(value: Any) -> str:
    """How PyTorch's argument parser names the type of an argument in its errors."""
    from .._dtype import dtype
    from .._generator import Generator
    from .._size import Size

    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, dtype):
        return "torch.dtype"
    if isinstance(value, Generator):
        return "torch._C.Generator"  # the C++ class's name, as the parser prints it
    if isinstance(value, Size):
        return "torch.Size"
    return type_name(value)


def invalid_combination(function: str, args: tuple, kwargs: dict,
                        signatures: tuple[str, ...], reasons: dict[int, str] | None = None
                        ) -> TypeError:
    """PyTorch's argument parser's refusal of arguments that fit none of ``function``'s
    ``signatures``: what it got (the keywords in reverse order, as its parser lists
    them), then each signature, with the line of ``reasons`` given for it."""
    given = [argument_type_name(a) for a in args] + [
        f"{k}={argument_type_name(v)}" for k, v in reversed(kwargs.items())]
    got = ", ".join(given) if args or not kwargs else ", ".join(given) + ", "
    reasons = reasons or {}
    return TypeError(
        f"{function}() received an invalid combination of arguments - got ({got}), but "
        "expected one of:\n" + "".join(
            f" * {signature}\n" + (f"      didn't match because {reasons[i]}\n"
                                   if i in reasons else "")
            for i, signature in enumerate(signatures)))


def _accepts(parameter: _Parameter, value: Any) -> bool:
    if isinstance(value, Tensor):
        return True
    if parameter.optional and value is None:
        return True
    return parameter.number and isinstance(value, (Number, np.generic))


# PyTorch's argument parser also takes NumPy's names for two parameters: ``x.sum(axis=1)``,
# ``x.mean(axis=0, keepdims=True)``, ``torch.argmax(x, axis=-1)``.
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}


def _numpy_aliases(operation: Callable[..., Any]) -> dict[str, str]:
    """The NumPy names ``operation`` accepts: those of its parameters that have one."""
    try:
        own = inspect.signature(operation).parameters
    except (TypeError, ValueError):  # a builtin or a class without a signature
        return {}
    return {alias: name for alias, name in _NUMPY_NAMES.items()
            if name in own and alias not in own}


def checked(operation: Callable[..., Any], name: str | None = None, *,
            method: bool = False) -> Callable[..., Any]:
    """``operation`` as the public function (or, with ``method``, Tensor method) ``name``,
    checking its tensor parameters first and reading NumPy's names of ``dim`` and
    ``keepdim``; the operation itself when there is nothing to check or rename."""
    name = name or operation.__name__
    listed = TENSOR_PARAMETERS.get(name, ())[1 if method else 0:]
    parameters = tuple(_Parameter(p.rstrip("#?"), i + method, p.endswith("#"), p.endswith("?"))
                       for i, p in enumerate(listed))
    aliases = _numpy_aliases(operation)
    if not parameters and not aliases:
        return operation

    @functools.wraps(operation)
    def with_checked_arguments(*args: Any, **kwargs: Any) -> Any:
        if kwargs and aliases:
            for alias, own in aliases.items():
                if alias in kwargs:
                    kwargs[own] = kwargs.pop(alias)
        for parameter in parameters:
            if parameter.index < len(args):
                value, position = args[parameter.index], parameter.index + 1 - method
            elif parameter.name in kwargs:
                value, position = kwargs[parameter.name], None
            else:
                continue  # not given: the operation says what is missing
            if not isinstance(value, Tensor) and not _accepts(parameter, value):
                raise not_a_tensor(name, parameter.name, position, value)
        return operation(*args, **kwargs)

    return with_checked_arguments
