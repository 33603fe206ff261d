"""``_ntuple`` and its named cases: a layer's size argument as one tuple.

A layer that takes a size per dimension (a kernel, a stride, a padding per side) also takes
one number for all of them, as ``Conv2d(1, 1, 3)`` means a 3x3 kernel. PyTorch turns either
form into a tuple with these, in ``torch/nn/modules/utils.py``: anything iterable is taken
as given (its length is not checked here; ``F.pad`` and the convolutions check it), a
number is repeated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import repeat
from typing import Any


def _ntuple(n: int, name: str = "parse") -> Callable[[Any], tuple]:
    """A function that makes ``x`` an ``n``-tuple: ``tuple(x)`` if it is iterable, else
    ``(x,) * n``."""

    def parse(x: Any) -> tuple:
        if isinstance(x, Iterable):
            return tuple(x)
        return tuple(repeat(x, n))

    parse.__name__ = name
    return parse


_pair = _ntuple(2, "_pair")
_quadruple = _ntuple(4, "_quadruple")
