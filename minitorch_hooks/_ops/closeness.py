"""``isclose`` and ``allclose``: equality up to a tolerance, for comparing floats.

``|input - other| <= atol + rtol * |other|``, element by element; infinities are close
only to themselves, and nan to nothing unless ``equal_nan``. The tolerance is asymmetric
(it scales with ``other``), as in NumPy. No gradient: the answer is a bool.
See <https://docs.pytorch.org/docs/2.13/generated/torch.isclose.html>
"""

from __future__ import annotations

import builtins

import numpy as np

from .._tensor import Tensor, wrap
from .pointwise import broadcast_shapes


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    if not isinstance(other, Tensor):
        raise TypeError("isclose(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{input.dtype.scalar_name} did not match {other.dtype.scalar_name}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    broadcast_shapes(input._data.shape, other._data.shape)
    if input._data.dtype == np.bool_:  # NumPy cannot subtract bools; equal is close
        return wrap(input._data == other._data)
    with np.errstate(all="ignore"):
        return wrap(np.isclose(input._data, other._data, rtol=rtol, atol=atol,
                                       equal_nan=equal_nan))


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> builtins.bool:
    """Whether every element is ``isclose``: a Python bool."""
    return builtins.bool(isclose(input, other, rtol, atol, equal_nan)._data.all())
