"""``torch.einsum``: products and sums named by subscripts, ``"bij,bjk->bik"``.

Each operand's dimensions get a letter; a letter in the output is kept, a letter that is
not is summed over, and a letter repeated within one operand takes its diagonal. Here the
equation is computed the direct way, which reads as its definition: every operand is laid
out with one axis per letter (a size-1 axis for a letter it lacks), the operands are
multiplied, broadcasting, and the letters missing from the output are summed out. The
gradients follow from those recorded steps.

PyTorch computes the same values by contracting the operands pairwise with ``bmm``, so its
graph is a different chain of nodes (``PermuteBackward0``, ``ViewBackward0``,
``BmmBackward0``, ...); the values and gradients agree, the ``grad_fn`` graph does not.
See <https://docs.pytorch.org/docs/2.13/generated/torch.einsum.html>
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tensor import Tensor
from .indexing import getitem
from .pointwise import mul
from .reduction import sum as tensor_sum
from .shape import permute, reshape

_LETTERS = set(string.ascii_letters)
_ELLIPSIS = "."  # stands for the dimensions an ellipsis covers, in the parsed subscripts


def _parse_term(term: str, offset: int) -> list[str]:
    """A term's subscripts, ``...`` as one ``_ELLIPSIS`` entry; bad characters refused with
    their index in the whole equation."""
    labels, i = [], 0
    while i < len(term):
        if term.startswith("...", i):
            labels.append(_ELLIPSIS)
            i += 3
            continue
        if term[i] not in _LETTERS:
            raise RuntimeError(f"einsum(): invalid subscript given at index {offset + i} in the "
                               "equation string, subscripts must be in [a-zA-Z]")
        labels.append(term[i])
        i += 1
    return labels


def _expand_ellipsis(labels: list[str], ndim: int, number: int, width: int) -> list[str]:
    """The operand's labels with its ellipsis replaced by one label per dimension it covers,
    named by their place from the right (``.0`` the last), so that they broadcast."""
    if _ELLIPSIS not in labels:
        if len(labels) != ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(labels)}) does not match the number of dimensions "
                               f"({ndim}) for operand {number} and no ellipsis was given")
        return labels
    at = labels.index(_ELLIPSIS)
    covered = ndim - (len(labels) - 1)
    return labels[:at] + [f".{width - covered + k}" for k in range(covered)] + labels[at + 1:]


def _diagonals(operand: Tensor, labels: list[str], number: int) -> tuple[Tensor, list[str]]:
    """Take the diagonal over each label repeated in one operand (``"ii->i"``)."""
    while len(set(labels)) < len(labels):
        label = next(lab for lab in labels if labels.count(lab) > 1)
        first, second = (i for i, lab in enumerate(labels) if lab == label)
        sizes = operand.shape
        if sizes[first] != sizes[second]:
            raise RuntimeError(f"einsum(): subscript {label} is repeated for operand {number} "
                               f"but the sizes don't match, {sizes[second]} != {sizes[first]}")
        steps = np.arange(sizes[first])
        key = tuple(steps if d in (first, second) else slice(None) for d in range(len(labels)))
        operand = getitem(operand, key)  # the two axes become one, where the first one was
        labels = [lab for d, lab in enumerate(labels) if d != second]
    return operand, labels


def einsum(equation: str, *operands: Any) -> Tensor:
    """The sum over the letters missing from the output of the product of the operands,
    each indexed by its subscripts."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    left, arrow, right = equation.partition("->")
    terms, offsets, position = left.split(","), [], 0
    for term in terms:
        offsets.append(position)
        position += len(term) + 1
    if len(operands) > len(terms):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    if len(operands) < len(terms):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                           "equation")
    for operand in operands[1:]:  # PyTorch's products do not promote
        if operand.dtype is not operands[0].dtype:
            raise RuntimeError(f"expected scalar type {operands[0].dtype.scalar_name} but "
                               f"found {operand.dtype.scalar_name}")
    width = max((operand.ndim - len(_parse_term(term, offset)) + 1
                 for term, offset, operand in zip(terms, offsets, operands)
                 if "..." in term), default=0)
    laid_out, sizes = [], {}
    for number, (term, offset, operand) in enumerate(zip(terms, offsets, operands)):
        labels = _expand_ellipsis(_parse_term(term, offset), operand.ndim, number, width)
        operand, labels = _diagonals(operand, labels, number)
        for label, size in zip(labels, operand.shape):
            seen = sizes.setdefault(label, size)
            if seen != size and 1 not in (seen, size):
                raise RuntimeError(f"einsum(): subscript {label} has size {size} for operand "
                                   f"{number} which does not broadcast with previously seen "
                                   f"size {seen}")
            sizes[label] = max(seen, size) if 1 in (seen, size) else seen
        laid_out.append((operand, labels))
    output = _output_labels(terms, right if arrow else None, width, sizes)
    order = output + sorted(set(sizes) - set(output))
    result = None
    for operand, labels in laid_out:
        aligned = _align(operand, labels, order)
        result = aligned if result is None else mul(result, aligned)
    summed = tuple(range(len(output), len(order)))
    if summed:
        result = tensor_sum(result, summed)
    if result.shape != tuple(sizes[label] for label in output):
        result = result.expand(tuple(sizes[label] for label in output))
    return result


def _output_labels(terms: Sequence[str], right: str | None, width: int,
                   sizes: dict[str, int]) -> list[str]:
    ellipsis = [f".{k}" for k in range(width)]
    if right is None:  # implicit: the ellipsis, then the letters used once, sorted
        letters = [c for term in terms for c in term if c in _LETTERS]
        return ellipsis + sorted({c for c in letters if letters.count(c) == 1})
    labels = _parse_term(right, 0)
    output = []
    for label in labels:
        if label == _ELLIPSIS:
            output += ellipsis
            continue
        if label not in sizes:
            raise RuntimeError(f"einsum(): output subscript {label} does not appear in the "
                               "equation for any input operand")
        if label in output:
            raise RuntimeError(f"einsum(): output subscript {label} appears more than once in "
                               "the output")
        output.append(label)
    return output


def _align(operand: Tensor, labels: list[str], order: list[str]) -> Tensor:
    """``operand`` with one axis per label of ``order``, in that order (size 1 where it has
    no such label)."""
    present = [label for label in order if label in labels]
    permuted = operand
    if [labels.index(label) for label in present] != list(range(len(labels))):
        permuted = permute(operand, [labels.index(label) for label in present])
    shape = [permuted.shape[present.index(label)] if label in labels else 1 for label in order]
    return reshape(permuted, shape) if tuple(shape) != permuted.shape else permuted
