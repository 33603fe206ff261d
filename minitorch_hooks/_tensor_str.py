"""Printing tensors exactly as PyTorch 2.13 prints them.

This mirrors ``torch/_tensor_str.py``
(https://github.com/pytorch/pytorch/blob/v2.13.0/torch/_tensor_str.py): the text of
``repr(t)`` is ``tensor(`` + the values + the suffixes (``dtype=...``, ``grad_fn=<...>``,
``requires_grad=True``) + ``)``.  Matching it character for character lets the tests compare
our output with PyTorch's as plain text, and lets a student read the same picture in both.

How the values are written is decided once per tensor, by a ``_Formatter`` that looks at
every element that will be shown, so that all columns line up and share one notation.
The knobs are PyTorch's print options,
see <https://docs.pytorch.org/docs/2.13/generated/torch.set_printoptions.html>
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from minitorch_hooks import _dtype

# PyTorch leaves out the dtype suffix for the dtypes a literal would get anyway: the default
# float dtype (we have no ``set_default_dtype``, so it is always float32), int64 and bool.
_DEFAULT_FLOAT_DTYPE = _dtype.float32
_IMPLIED_DTYPES = (_DEFAULT_FLOAT_DTYPE, _dtype.int64, _dtype.bool)


@dataclasses.dataclass
class _PrintOptions:
    """The current print options; the field order is the order ``get_printoptions`` reports."""

    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrintOptions()

# A profile resets the four numeric options (not ``sci_mode``) before the explicit arguments
# are applied, so ``set_printoptions(profile="short", precision=3)`` means "short, but 3 digits".
_PROFILES = {
    "default": _PrintOptions(),
    "short": _PrintOptions(precision=2, edgeitems=2),
    "full": _PrintOptions(threshold=math.inf),
}
_NUMERIC_OPTIONS = ("precision", "threshold", "edgeitems", "linewidth")


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set how tensors are printed, like ``torch.set_printoptions``.

    ``precision`` is the number of digits after the decimal point, ``threshold`` the number of
    elements above which a tensor is summarised with ``...``, ``edgeitems`` how many items a
    summary keeps at each end of each dimension, ``linewidth`` where rows wrap.  ``profile``
    ("default", "short" or "full") first resets those four; an unknown profile is ignored, as
    in PyTorch.  ``sci_mode`` forces (True) or forbids (False) scientific notation; note that,
    as in PyTorch, *every* call sets it, so leaving it out turns it back to automatic (None).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.set_printoptions.html>
    """
    if profile in _PROFILES:
        for name in _NUMERIC_OPTIONS:
            setattr(PRINT_OPTS, name, getattr(_PROFILES[profile], name))
    for name, value in zip(
        _NUMERIC_OPTIONS, (precision, threshold, edgeitems, linewidth), strict=True
    ):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current print options, as keyword arguments for ``set_printoptions``.

    PyTorch keeps this (and ``printoptions``) in ``torch._tensor_str`` without a docs page;
    it is what lets ``printoptions`` put the old options back.
    """
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Use the given print options inside a ``with`` block, then restore the previous ones.

    The arguments are those of ``set_printoptions``; PyTorch's is
    ``torch._tensor_str.printoptions``.
    """
    previous = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**previous)


class _Formatter:
    """Writes the elements of one tensor, all in one notation and right-aligned to one width.

    For floats the notation follows from the nonzero finite values (zeros, ``nan`` and ``inf``
    read the same in any notation, so they do not vote), checked in this order:

    * scientific, ``1.0000e+10``, when the largest magnitude is over 1000 times the smallest,
      over 1e8, or under 1e-4: fixed-point digits would then hide the small values or run
      too long.  ``PRINT_OPTS.sci_mode`` overrides this automatic choice;
    * all of them integers: ``116.`` (the dot says "this is a float tensor");
    * otherwise fixed-point with ``PRINT_OPTS.precision`` digits: ``3.1416``.

    With no voters at all (only zeros, ``nan`` and ``inf``) the integer style wins, even over
    ``sci_mode=True``: ``tensor([0., nan])``.  The width is that of the longest voter;
    ``nan``/``inf`` may be longer and then stick out of the column, as in PyTorch.
    """

    def __init__(self, values: np.ndarray, is_floating_point: bool) -> None:
        self.is_floating_point = is_floating_point
        self.int_mode = True
        self.sci_mode = False
        if not is_floating_point:
            self.width = max((len(str(v)) for v in values.ravel().tolist()), default=1)
            return
        flat = values.ravel()
        voters = flat[np.isfinite(flat) & (flat != 0)]
        self.width = 1
        if voters.size == 0:
            return
        # Compare magnitudes as Python floats (float64), so that a float16 ratio cannot overflow.
        magnitudes = np.abs(voters)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(voters == np.ceil(voters)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        self.width = max(len(self._unpadded(v)) for v in voters.tolist())

    def _unpadded(self, value: float | bool) -> str:
        if not self.is_floating_point:
            return str(value)
        if self.sci_mode:
            return f"{value:.{PRINT_OPTS.precision}e}"
        if self.int_mode:
            return f"{value:.0f}" + ("." if math.isfinite(value) else "")
        return f"{value:.{PRINT_OPTS.precision}f}"

    def format(self, value: float | bool) -> str:
        """``value`` (a Python number) written in this tensor's notation, padded to its width."""
        return self._unpadded(value).rjust(self.width)


def _kept_indices(size: int, summarise: bool) -> list[int] | None:
    """The indices a summary keeps along a dimension of ``size``; None if it keeps them all."""
    edge = PRINT_OPTS.edgeitems
    if summarise and size > 2 * edge:
        return [*range(edge), *range(size - edge, size)]
    return None


def _summarised_data(data: np.ndarray) -> np.ndarray:
    """Only the elements a summary shows, so that hidden values do not sway the formatter."""
    for axis, size in enumerate(data.shape):
        kept = _kept_indices(size, summarise=True)
        if kept is not None:
            data = data.take(kept, axis=axis)
    return data


def _join_with_ellipsis(
    size: int, summarise: bool, item: Callable[[int], str], gap: str
) -> list[str]:
    """``item(i)`` for every shown index ``i``, with ``gap`` where a summary skips some.

    With ``edgeitems=0`` a summary shows nothing but ``...``.
    """
    kept = _kept_indices(size, summarise)
    if kept is None:
        return [item(i) for i in range(size)]
    if not kept:
        return ["..."]
    half = len(kept) // 2
    return [*map(item, kept[:half]), gap, *map(item, kept[half:])]


def _vector_str(row: np.ndarray, indent: int, summarise: bool, formatter: _Formatter) -> str:
    """A 1-d row, wrapped to the line width.

    Each line holds as many elements as fit; continuation lines are indented to sit under
    the first element.  Skipped elements show as `` ...``, which the ``, `` separators turn
    into ``2.,  ..., 7.`` (a matrix's skipped rows show as ``...``, with no extra space).
    """
    values = row.tolist()
    items = _join_with_ellipsis(
        len(values), summarise, lambda i: formatter.format(values[i]), " ..."
    )
    # Every element takes its width plus ", " (PyTorch reserves this even for the last one).
    per_line = max(1, (PRINT_OPTS.linewidth - indent) // (formatter.width + 2))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _values_str(data: np.ndarray, indent: int, summarise: bool, formatter: _Formatter) -> str:
    """The bracketed values of ``data``; ``indent`` is the column of its opening bracket.

    Sub-tensors of a d-dimensional tensor are separated by d-1 newlines, so a 3-d tensor
    shows its matrices as paragraphs separated by a blank line.
    """
    if data.ndim == 0:
        return formatter.format(data.item())
    if data.ndim == 1:
        return _vector_str(data, indent, summarise, formatter)
    slices = _join_with_ellipsis(
        len(data),
        summarise,
        lambda i: _values_str(data[i], indent + 1, summarise, formatter),
        "...",
    )
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` for each suffix and the closing parenthesis.

    A suffix that would overflow the line width goes on its own line, under the first value.
    The running line length is PyTorch's own count, which starts two characters above the
    visible length of the last line; matching it keeps our wrapping identical.
    """
    parts = [text]
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line_length += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _str(self: Any, *, tensor_contents: str | None = None) -> str:
    """The ``repr`` (and ``str``) of the tensor ``self``, as PyTorch 2.13 writes it.

    ``self`` needs ``_data`` (its NumPy array), ``dtype``, ``requires_grad`` and ``grad_fn``.
    ``tensor_contents``, if given, replaces the printed values (PyTorch's hook for subclasses)
    while the suffixes are still computed from ``self``.

    The suffixes, in PyTorch's order, add what the values alone do not tell:

    * ``size=(0, 3)`` for an empty tensor that is not 1-d (``[]`` hides its shape), and for
      every tensor while ``edgeitems`` is 0 (a summary then shows nothing but ``...``);
    * ``dtype=torch.float64`` unless the dtype is the one a literal of these values would
      get: float32, int64 or bool; an empty tensor has no values to go by, so it shows any
      dtype but float32;
    * ``grad_fn=<AddBackward0>`` for the result of a recorded operation, otherwise
      ``requires_grad=True`` for a tensor that requires grad (a leaf, then).

    See <https://docs.pytorch.org/docs/2.13/tensors.html>
    """
    prefix = "tensor("
    indent = len(prefix)
    data = self._data
    suffixes = []
    if data.size == 0:
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if self.dtype is not _DEFAULT_FLOAT_DTYPE:
            suffixes.append(f"dtype={self.dtype!r}")
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(data.shape)}")
        if self.dtype not in _IMPLIED_DTYPES:
            suffixes.append(f"dtype={self.dtype!r}")
    if self.grad_fn is not None:
        # The node's class name, which for C++ nodes is shorter than ``name()``:
        # ``grad_fn=<CopySlices>``, not ``torch::autograd::CopySlices``.
        suffixes.append(f"grad_fn=<{type(self.grad_fn).__name__}>")
    elif self.requires_grad:
        suffixes.append("requires_grad=True")

    if tensor_contents is not None:
        values = tensor_contents
    elif data.size == 0:
        values = "[]"
    else:
        summarise = data.size > PRINT_OPTS.threshold
        formatter = _Formatter(
            _summarised_data(data) if summarise else data, self.dtype.is_floating_point
        )
        values = _values_str(data, indent, summarise, formatter)
    return _add_suffixes(prefix + values, suffixes, indent)
