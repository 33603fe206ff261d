"""``torch.multinomial``: draw category indices, row by row, with probability proportional
to the weights, drawing exactly the random numbers PyTorch's CPU kernel draws.

PyTorch has two algorithms (``ATen/native/Distributions.cpp`` and
``native/cpu/MultinomialKernel.cpp``), and which one runs decides which numbers are drawn:

* **Without replacement, or a single sample**: the "Gumbel" trick. One exponential sample
  ``q`` per weight, and the indices of the largest ``weight / q`` (``argmax`` for one
  sample, ``topk`` for more, with ``topk``'s own order among ties). The weights are
  checked first, all at once: no ``inf``, ``nan`` or negative weight, no row summing to 0.
* **With replacement, several samples**: the inverse CDF. Row by row, the cumulative sums
  of the weights (in the weights' dtype, float for half), divided by the total, the last
  one set to exactly 1; then per sample one double uniform ``u``, and the first index whose
  cumulative sum reaches ``u`` (the kernel's binary search is ``searchsorted``). This one
  checks each row as it reaches it, so the rows before a bad one have used their draws.

Categorical distributions (``torch.distributions.Categorical.sample``) and samplers of
data sets call it.
See <https://docs.pytorch.org/docs/2.13/generated/torch.multinomial.html>
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np

from .._generator import Generator
from .._generator_math import _SCALAR_TYPE_NAMES
from .._tensor import Tensor, wrap
from ..random import default_generator
from ..utils.hooks import type_name
from ._arguments import not_a_tensor
from .sorting import topk

# The index is computed in float inside the kernel, so a row can have at most 2**24 weights.
_FLOAT32_MAX_CONSECUTIVE_INT = 2**24


def _check_arguments(input: Any, num_samples: Any, replacement: bool,
                     positions: tuple[int | None, int | None]) -> None:
    """PyTorch's argument parser (types), then the checks of ``multinomial_out`` (shapes)."""
    if not isinstance(input, Tensor):
        raise not_a_tensor("multinomial", "input", positions[0], input)
    if not isinstance(num_samples, Integral) or isinstance(num_samples, bool):
        where = "" if positions[1] is None else f" (position {positions[1]})"
        raise TypeError(f"multinomial(): argument 'num_samples'{where} must be int, not "
                        f"{type_name(num_samples)}")
    data = input._data
    if not 1 <= data.ndim <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if data.dtype.kind != "f":
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{_SCALAR_TYPE_NAMES[data.dtype.name]}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > data.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if data.shape[-1] > _FLOAT32_MAX_CONSECUTIVE_INT:
        raise RuntimeError("number of categories cannot exceed 2^24")


def _is_dense(array: np.ndarray) -> bool:
    """Whether the elements of ``array`` tile a block of memory, without gaps or overlaps
    (no stride 0, as an ``expand`` makes), in some order of the dimensions."""
    expected = array.itemsize
    for axis in sorted(range(array.ndim), key=lambda axis: abs(array.strides[axis])):
        if array.shape[axis] != 1:
            if abs(array.strides[axis]) != expected:
                return False
            expected *= array.shape[axis]
    return True


def _empty_like(probs: np.ndarray) -> np.ndarray:
    """``empty_like(probs)`` as PyTorch lays it out (``preserve_format``): with the input's
    strides when it is dense, so a transposed input is filled in another order than its
    contiguous copy; row-major otherwise (an expanded input)."""
    return np.empty_like(probs) if _is_dense(probs) else np.empty(probs.shape, probs.dtype)


def _largest_ratios(probs: np.ndarray, num_samples: int, generator: Generator) -> np.ndarray:
    """The first algorithm: the indices of the ``num_samples`` largest ``probs / q``."""
    if probs.size == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    if not (probs.max() < np.inf and probs.min() >= 0):  # False for a nan too
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (probs.sum(-1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    exponentials = _empty_like(probs)
    generator._exponential_(exponentials)  # in that memory's order
    ratios = probs / exponentials
    if num_samples == 1:
        return np.argmax(ratios, axis=-1, keepdims=True).astype(np.int64)
    return topk(wrap(ratios), num_samples)[1]._data


def _row_error(row: np.ndarray) -> str | None:
    """What the kernel says of one row of weights, checking them in order: a weight that
    is not ``>= 0`` (a nan is not), then one that is not finite, then the total."""
    for value in row.tolist():
        if not value >= 0:
            return "invalid multinomial distribution (encountering probability entry < 0)"
        if not np.isfinite(value):
            return ("invalid multinomial distribution (encountering probability entry = "
                    "infinity or NaN)")
    return None


def _inverse_cdf(probs: np.ndarray, num_samples: int, generator: Generator) -> np.ndarray:
    """The second algorithm, one row after another."""
    rows = np.atleast_2d(probs).astype(np.float32 if probs.dtype == np.float16 else probs.dtype)
    samples = np.empty((len(rows), num_samples), dtype=np.int64)
    for i, row in enumerate(rows):
        cumulative = np.cumsum(row)  # added one after another, as the kernel's loop does
        total = cumulative[-1] if row.size else row.dtype.type(0)
        error = _row_error(row) or (None if total > 0 else
                                    "invalid multinomial distribution (sum of probabilities "
                                    "<= 0)")
        if error:
            raise RuntimeError(error)
        cumulative /= total
        cumulative[-1] = 1
        uniforms = generator._uniform_double(num_samples)
        samples[i] = np.searchsorted(cumulative.astype(np.float64), uniforms, side="left")
    return samples.reshape(probs.shape[:-1] + (num_samples,))


def _multinomial(input: Any, num_samples: Any, replacement: bool, generator: Generator | None,
                 positions: tuple[int | None, int | None]) -> Tensor:
    _check_arguments(input, num_samples, replacement, positions)
    probs = input._data
    if probs.ndim == 2 and probs.shape[0] == 0:
        return wrap(np.empty((0, num_samples), dtype=np.int64))
    generator = generator or default_generator
    if not replacement or num_samples == 1:
        return wrap(_largest_ratios(probs, num_samples, generator))
    return wrap(_inverse_cdf(probs, num_samples, generator))


def _by_name(input: Any, num_samples: Any, replacement: bool = False, *,
             generator: Generator | None = None, out: Tensor | None = None
             ) -> tuple[Any, Any, bool, Any]:
    """The arguments by name, as ``multinomial``'s signature binds them."""
    if out is not None:
        raise NotImplementedError("minitorch_hooks does not implement out=")
    return input, num_samples, replacement, generator


def multinomial(*args: Any, **kwargs: Any) -> Tensor:
    """``torch.multinomial(input, num_samples, replacement=False, *, generator=None)``
    (``out=`` is not implemented):
    ``num_samples`` indices per row of the weights ``input`` (1-D or 2-D), an int64 tensor.
    Its arguments are taken as ``*args`` so that an error can say at which position the
    bad one was given, as PyTorch's parser does.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.multinomial.html>
    """
    input, num_samples, replacement, generator = _by_name(*args, **kwargs)
    positions = (1 if args else None, 2 if len(args) > 1 else None)
    return _multinomial(input, num_samples, replacement, generator, positions)


def multinomial_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``Tensor.multinomial(num_samples, replacement=False, *, generator=None)``."""
    _, num_samples, replacement, generator = _by_name(self, *args, **kwargs)
    return _multinomial(self, num_samples, replacement, generator, (None, 1 if args else None))
