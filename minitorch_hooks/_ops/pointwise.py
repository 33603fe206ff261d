"""Element-wise operations and their derivatives.

Each node's ``backward`` is the chain rule for one operation, as in micrograd: the
gradient of the output times the local derivative. It is written with operators and the
helpers of ``autograd/_formula.py`` (imported as ``formula``), so that it runs on NumPy
arrays and, under ``create_graph``, on Tensors (then it is recorded, and can be
differentiated again).
Broadcasting is undone by the engine, so a formula may return a gradient of the broadcast
shape.
See <https://docs.pytorch.org/docs/2.13/torch.html#pointwise-ops>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _creation
from .._allocation import allocation_failed
from .._tensor import Tensor, wrap
from ..autograd import _formula as formula
from ..autograd.graph import Node
from ._record import as_number, promote, record, saved_for, saved_for_each_other, value_of


def broadcast_shapes(shape_a: tuple[int, ...], shape_b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape two shapes broadcast to, with PyTorch's message when they do not (NumPy's
    is different)."""
    for i in range(1, min(len(shape_a), len(shape_b)) + 1):
        size_a, size_b = shape_a[-i], shape_b[-i]
        if size_a != size_b and size_a != 1 and size_b != 1:
            dim = max(len(shape_a), len(shape_b)) - i
            raise RuntimeError(f"The size of tensor a ({size_a}) must match the size of tensor "
                               f"b ({size_b}) at non-singleton dimension {dim}")
    return np.broadcast_shapes(shape_a, shape_b)


def _broadcast_check(a: Any, b: Any) -> None:
    """Raise PyTorch's message if the values ``a`` and ``b`` do not broadcast."""
    broadcast_shapes(np.shape(a), np.shape(b))


def _binary(x: Any, y: Any, compute: Any) -> np.ndarray:
    a, b = promote(x, y)
    try:
        return compute(a, b)
    except ValueError:
        _broadcast_check(a, b)
        raise
    except MemoryError as error:  # broadcasting may ask for far more than its inputs
        raise allocation_failed(error) from None


# -- arithmetic ---------------------------------------------------------------------------

class AddBackward0(Node):
    __slots__ = ("alpha",)
    saved_attributes = ("alpha",)

    def backward(self, grad):
        return grad, (grad if self.alpha == 1 else grad * self.alpha)


def add(input: Any, other: Any, *, alpha: float = 1) -> Tensor:
    """``input + alpha * other``."""
    if alpha == 1:
        data = _binary(input, other, np.add)
    else:
        data = _binary(input, other, lambda a, b: a + alpha * b)
    return record(data, AddBackward0, (input, other), alpha=alpha)


class AddBackward1(Node):
    """ATen's ``add.Scalar``, a tensor plus a number, as PyTorch's C++ functions add them
    (``x1 - x2 + eps`` in ``F.pairwise_distance``). Python's ``x + 1.0`` wraps the number
    in a tensor and records ``AddBackward0`` instead. Nothing to save; one input."""

    __slots__ = ()

    def backward(self, grad):
        return grad


def add_scalar(input: Tensor, other: float) -> Tensor:
    """``input + other`` for a number ``other``, recorded as ATen's ``add.Scalar``."""
    return record(_binary(input, other, np.add), AddBackward1, (input,))


class SubBackward0(Node):
    __slots__ = ("alpha",)
    saved_attributes = ("alpha",)

    def backward(self, grad):
        return grad, -grad if self.alpha == 1 else -grad * self.alpha


def _is_bool(x: Any) -> bool:
    return isinstance(x, bool) or (isinstance(x, Tensor) and x._data.dtype == np.bool_)


def _check_not_bool(x: Any, y: Any) -> None:
    """PyTorch refuses ``-`` on bools (NumPy would compute it), pointing to the operator the
    user probably meant."""
    if _is_bool(x) and _is_bool(y):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(x) or _is_bool(y):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


def sub(input: Any, other: Any, *, alpha: float = 1) -> Tensor:
    """``input - alpha * other``."""
    _check_not_bool(input, other)
    if alpha == 1:
        data = _binary(input, other, np.subtract)
    else:
        data = _binary(input, other, lambda a, b: a - alpha * b)
    return record(data, SubBackward0, (input, other), alpha=alpha)


class RsubBackward1(Node):
    __slots__ = ()

    def backward(self, grad):
        return -grad


def _rsub(self: Tensor, other: Any) -> Tensor:
    """``number - tensor``: one input, as PyTorch records it."""
    _check_not_bool(other, self)
    return record(_binary(other, self, np.subtract), RsubBackward1, (self,))


class MulBackward0(Node):
    __slots__ = ()
    saved_names = ("other", "self")

    def backward(self, grad):
        # Each factor's gradient needs the other factor, which is saved only if needed.
        b, a = self.saved_arrays()
        return None if b is None else grad * b, None if a is None else grad * a


def mul(input: Any, other: Any) -> Tensor:
    # PyTorch saves an operation's inputs in the alphabetical order of their names, here
    # ``other`` before ``self``: the order in which a saved-tensor hook sees them.
    return record(_binary(input, other, np.multiply), MulBackward0, (input, other),
                  saved=saved_for_each_other(other, input))


class DivBackward0(Node):
    __slots__ = ()
    saved_names = ("other", "self")

    def backward(self, grad):
        b, a = self.saved_arrays()  # ``a`` is saved only for the gradient of ``b``
        return grad / b, None if a is None else -grad * a / (b * b)


def _is_floating(x: Any) -> bool:
    return isinstance(x, float) or (isinstance(x, Tensor) and x._data.dtype.kind == "f")


def _float32(x: Any) -> Any:
    return wrap(x._data.astype(np.float32)) if isinstance(x, Tensor) else x


def div(input: Any, other: Any) -> Tensor:
    """True division: integers (and bools) divide in float32, the default dtype, as in
    PyTorch."""
    with np.errstate(divide="ignore", invalid="ignore"):  # x/0 is inf or nan, silently
        if _is_floating(input) or _is_floating(other):
            data = _binary(input, other, np.true_divide)
        else:
            data = _binary(_float32(input), _float32(other), np.true_divide)
    return record(data, DivBackward0, (input, other), saved=(other, saved_for(input, other)))


class ReciprocalBackward0(Node):
    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return -grad * result * result


def reciprocal(input: Tensor) -> Tensor:
    data = input._data if input._data.dtype.kind == "f" else input._data.astype(np.float32)
    with np.errstate(divide="ignore"):  # 1/0 is inf, silently, as in PyTorch
        result = 1 / data
    return record(result, ReciprocalBackward0, (input,), save_output=True)


def _rdiv(self: Tensor, other: Any) -> Tensor:
    """``number / tensor`` is ``reciprocal(tensor) * number`` in PyTorch's graph."""
    return mul(reciprocal(self), other)


class PowBackward0(Node):
    __slots__ = ("exponent",)
    saved_names = ("self",)
    saved_attributes = ("exponent",)

    def backward(self, grad):
        (base,) = self.saved_arrays()
        if self.exponent == 0:
            return formula.zeros_like(grad)
        return grad * self.exponent * base ** (self.exponent - 1)


class PowBackward1(Node):
    __slots__ = ()
    saved_names = ("exponent", "self", "result")

    def backward(self, grad):
        exponent, base, result = self.saved_arrays()
        grad_base = grad * exponent * base ** (exponent - 1)
        positive = base > 0
        log_base = formula.where(positive, formula.log(formula.where(positive, base, 1)), 0)
        return grad_base, grad * result * log_base


class PowBackward2(Node):
    __slots__ = ("base",)
    saved_names = ("exponent", "result")

    def backward(self, grad):
        _, result = self.saved_arrays()  # the exponent is saved too, as PyTorch saves it
        return grad * result * float(np.log(self.base))


def _power(a: Any, b: Any) -> np.ndarray:
    """NumPy's power with PyTorch's integer rules. Where NumPy refuses a negative integer
    exponent, PyTorch truncates ``1 / a**|b|`` to an integer: 0, unless ``a`` is 1 or -1.
    And bools stay bools (``x ** True`` is ``x``), where NumPy would give int8."""
    kind = np.result_type(a, b).kind
    if kind == "b":
        if not isinstance(b, bool):  # only a Python bool may be the exponent of bools
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        return np.power(a, b).astype(np.bool_)
    if kind in "iu" and np.any(np.less(b, 0)):
        return np.where(np.less(b, 0) & (np.abs(a) != 1), 0, np.power(a, np.abs(b)))
    return np.power(a, b)


def pow(input: Any, exponent: Any) -> Tensor:  # noqa: A001 - torch's name
    """``input ** exponent`` for a tensor or number on either side."""
    if not isinstance(input, Tensor):
        base = as_number(input)
        return record(_binary(base, exponent, _power), PowBackward2, (exponent,),
                      saved=(exponent,), save_output=True, base=base)
    if isinstance(exponent, Tensor):
        return record(_binary(input, exponent, _power), PowBackward1, (input, exponent),
                      saved=(exponent, input), save_output=True)
    exponent = as_number(exponent)
    if input._data.dtype.kind in "iub" and type(exponent) is int and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return record(_binary(input, exponent, _power), PowBackward0, (input,), saved=(input,),
                  exponent=exponent)


def square(input: Tensor) -> Tensor:
    return pow(input, 2)


class NegBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return -grad


def neg(input: Tensor) -> Tensor:
    if input._data.dtype == np.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    return record(np.negative(input._data), NegBackward0, (input,))


# -- functions of one tensor --------------------------------------------------------------

def _floating(input: Tensor) -> np.ndarray:
    """Values to apply a floating-point function to: integers become float32 first."""
    data = input._data
    return data if data.dtype.kind == "f" else data.astype(np.float32)


class ExpBackward0(Node):
    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return grad * result


def exp(input: Tensor) -> Tensor:
    return record(np.exp(_floating(input)), ExpBackward0, (input,), save_output=True)


class LogBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad / x


def log(input: Tensor) -> Tensor:
    with np.errstate(divide="ignore", invalid="ignore"):
        data = np.log(_floating(input))
    return record(data, LogBackward0, (input,), saved=(input,))


class SqrtBackward0(Node):
    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return grad / (2 * result)


def sqrt(input: Tensor) -> Tensor:
    with np.errstate(invalid="ignore"):
        data = np.sqrt(_floating(input))
    return record(data, SqrtBackward0, (input,), save_output=True)


class AbsBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad * formula.sign(x)


def abs(input: Tensor) -> Tensor:  # noqa: A001 - torch's name
    return record(np.abs(input._data), AbsBackward0, (input,), saved=(input,))


class SignBackward0(Node):
    """``sign`` is flat everywhere it is defined (and jumps at 0), so PyTorch gives it a zero
    gradient: no gradient flows through a sign."""

    __slots__ = ()

    def backward(self, grad):
        return formula.zeros_like(grad)


def sign(input: Tensor) -> Tensor:
    """-1, 0 or 1 by the sign of each element, in the input's dtype (a bool is its own sign).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.sign.html>
    """
    data = input._data
    return record(data.copy() if data.dtype == np.bool_ else formula.sign(data), SignBackward0,
                  (input,))


class ReluBackward0(Node):
    """PyTorch's ``threshold_backward(grad, result, 0)``: the gradient where the result is
    positive (or NaN), a 0 *selected* elsewhere. Multiplying by a 0/1 mask would give
    ``inf * 0 = nan`` where ``sqrt(relu(x))`` sends an infinite gradient to a clipped 0."""

    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return formula.where(result <= 0, 0, grad)


def relu(input: Tensor) -> Tensor:
    data = input._data
    return record(np.maximum(data, data.dtype.type(0)), ReluBackward0, (input,),
                  save_output=True)


class TanhBackward0(Node):
    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return grad * (1 - result * result)


def tanh(input: Tensor) -> Tensor:
    return record(np.tanh(_floating(input)), TanhBackward0, (input,), save_output=True)


class SigmoidBackward0(Node):
    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_arrays()
        return grad * result * (1 - result)


def sigmoid(input: Tensor) -> Tensor:
    x = _floating(input)
    with np.errstate(over="ignore"):
        data = 1 / (1 + np.exp(-x))
    return record(data.astype(x.dtype, copy=False), SigmoidBackward0, (input,),
                  save_output=True)


class ClampBackward1(Node):
    __slots__ = ("min", "max")
    saved_names = ("self",)
    saved_attributes = ("min", "max")

    def backward(self, grad):
        (x,) = self.saved_arrays()
        if self.min is not None:
            grad = formula.where(x >= self.min, grad, 0)
        if self.max is not None:
            grad = formula.where(x <= self.max, grad, 0)
        return grad


def clamp(input: Tensor, min: float | None = None, max: float | None = None) -> Tensor:  # noqa: A002
    """Limit values to ``[min, max]``; the gradient passes only where no limit applied."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    data = input._data
    if min is not None:  # (NaN stays NaN, and an integer tensor with a float limit is
        data = _binary(wrap(data), min, np.maximum)  # float32, as PyTorch promotes)
    if max is not None:
        data = _binary(wrap(data), max, np.minimum)
    return record(data, ClampBackward1, (input,), saved=(input,), min=min, max=max)


class WhereBackward0(Node):
    __slots__ = ()
    saved_names = ("condition",)

    def backward(self, grad):
        (condition,) = self.saved_arrays()
        return formula.where(condition, grad, 0), formula.where(condition, 0, grad)


def where(condition: Tensor, input: Any, other: Any) -> Tensor:
    """Pick from ``input`` where ``condition`` holds, from ``other`` elsewhere.

    Two plain numbers count as 0-d tensors of their default dtypes, so
    ``where(mask, 1.0, 0.0)`` is float32 and ``where(mask, 1, 0)`` int64.
    """
    if condition._data.dtype != np.bool_:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {condition.dtype.scalar_name}")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        input = _creation.tensor(as_number(input))
    a, b = promote(input, other)
    broadcast_shapes(broadcast_shapes(condition._data.shape, np.shape(a)), np.shape(b))
    data = np.where(condition._data, a, b)
    return record(data, WhereBackward0, (input, other), saved=(condition,))


class MaximumBackward0(Node):
    __slots__ = ()
    saved_names = ("other", "self")

    def backward(self, grad):
        """Ties split the gradient evenly; the smaller side gets a *selected* 0 (an infinite
        gradient stays out of it) and a NaN on either side lets the gradient through to
        both, as PyTorch's ``where(self == other, grad / 2, grad).masked_fill_(self < other,
        0)`` does."""
        b, a = self.saved_arrays()
        shared = formula.where(a == b, grad / 2, grad)
        return formula.where(a < b, 0, shared), formula.where(a > b, 0, shared)


def maximum(input: Tensor, other: Tensor) -> Tensor:
    return record(_binary(input, other, np.maximum), MaximumBackward0, (input, other),
                  saved=(other, input))


class MinimumBackward0(Node):
    __slots__ = ()
    saved_names = ("other", "self")

    def backward(self, grad):
        """``maximum``'s formula mirrored: the larger side gets a selected 0."""
        b, a = self.saved_arrays()
        shared = formula.where(a == b, grad / 2, grad)
        return formula.where(a > b, 0, shared), formula.where(a < b, 0, shared)


def minimum(input: Tensor, other: Tensor) -> Tensor:
    """The element-wise minimum; a NaN on either side gives NaN, as in PyTorch.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.minimum.html>
    """
    return record(_binary(input, other, np.minimum), MinimumBackward0, (input, other),
                  saved=(other, input))


# -- comparisons (no gradient) --------------------------------------------------------------

def _comparison(ufunc: np.ufunc):
    def compare(input: Tensor, other: Any) -> Tensor:
        return wrap(_binary(input, other, ufunc))

    compare.__name__ = ufunc.__name__
    return compare


eq, ne = _comparison(np.equal), _comparison(np.not_equal)
lt, le = _comparison(np.less), _comparison(np.less_equal)
gt, ge = _comparison(np.greater), _comparison(np.greater_equal)


def equal(input: Tensor, other: Tensor) -> bool:
    """Whether two tensors have the same size and the same values (nan is never equal)."""
    return input._data.shape == other._data.shape and bool(np.all(input._data == other._data))


def logical_not(input: Tensor) -> Tensor:
    return wrap(np.logical_not(input._data))


def isnan(input: Tensor) -> Tensor:
    return wrap(np.isnan(value_of(input)))


def isinf(input: Tensor) -> Tensor:
    """Where the values are +inf or -inf (never, for integers)."""
    return wrap(np.isinf(input._data))


def isfinite(input: Tensor) -> Tensor:
    """Where the values are neither inf nor nan: the check a hook makes on a gradient."""
    return wrap(np.isfinite(input._data))


class NanToNumBackward0(Node):
    """Where the input was finite the value passed through; where it was nan or an
    infinity it was replaced by a constant, so no gradient flows there."""

    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (x,) = self.saved_arrays()
        return grad * formula.like(np.isfinite(formula.array(x)), grad)


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """nan replaced by ``nan`` (0), +inf and -inf by ``posinf`` and ``neginf`` (by default
    the dtype's largest and smallest finite values); integers come back as they are.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nan_to_num.html>
    """
    data = input._data
    if data.dtype.kind != "f":
        return record(data.copy(), NanToNumBackward0, (input,), saved=(input,))
    limits = np.finfo(data.dtype)
    replaced = np.nan_to_num(data, nan=nan, posinf=limits.max if posinf is None else posinf,
                             neginf=limits.min if neginf is None else neginf)
    return record(replaced, NanToNumBackward0, (input,), saved=(input,))
