"""How a ``size`` argument is read: ``zeros(2, 3)``, ``zeros((2, 3))``, ``zeros(size=...)``.

PyTorch reads the ``size`` of ``torch.zeros``, ``torch.empty``, ``torch.full``,
``x.new_zeros`` and their kin in C++, in its argument parser
(``torch/csrc/utils/python_arg_parser.cpp``), before any Python runs. It reads in two
steps, and each has its own error:

1. **Matching the signature.** A tuple or list matches "tuple of ints" when it is empty or
   its *first* element is an integer: a Python ``int``, a NumPy integer, anything with
   ``__index__``, or a one-element integer tensor, but never a ``bool`` (``True`` is an
   ``int`` to Python, not a size to PyTorch). Where the signature has one positional size
   (``zeros(*size)``, not ``full(size, fill_value)``), an integer first argument makes
   every positional argument an element of the size: ``zeros(2, 3)``. Anything else is
   refused as the wrong type: ``must be tuple of ints, not float``.
2. **Unpacking the elements.** Each element is then converted with ``__index__``, which
   a ``bool`` passes, so ``zeros(2, True)`` is a ``2 x 1`` tensor while ``zeros(True, 2)``
   is refused: a float, a string or ``None`` there fails with ``failed to unpack the
   object at pos N``, counted from 1 (where step 1 counts from 0), and so does an integer
   that does not fit in a C++ ``long long`` (``2**63``), with ``Overflow when unpacking
   long long``.

A size is never a float, even ``3.0``: PyTorch refuses to guess whether ``2.5`` should
become 2 or 3. See <https://docs.pytorch.org/docs/2.13/generated/torch.zeros.html>.
"""

from __future__ import annotations

import operator
from typing import Any

from ._tensor import Tensor
from .utils.hooks import type_name

NOT_GIVEN: Any = object()  # ``size=`` not passed as a keyword


def _is_integer(value: Any) -> bool:
    """Whether PyTorch's parser takes ``value`` as an integer when matching a signature."""
    if isinstance(value, Tensor):
        return value.numel() == 1 and not value.is_floating_point()
    if isinstance(value, bool):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def _unpacked(function: str, elements: tuple | list, name: str) -> tuple[int, ...]:
    """Step 2: each element as a Python int, or PyTorch's error naming its position."""
    sizes = []
    for position, element in enumerate(elements, 1):
        try:
            if isinstance(element, Tensor):
                if not _is_integer(element):
                    raise TypeError
                sizes.append(int(element.item()))
            else:
                sizes.append(operator.index(element))
        except TypeError:
            raise TypeError(f"{function}(): argument '{name}' failed to unpack the object at pos "
                            f"{position} with error \"type must be tuple of ints,but got "
                            f"{type_name(element)}\"") from None
        if not -2**63 <= sizes[-1] < 2**63:  # PyTorch reads each into a C++ long long
            raise TypeError(f"{function}(): argument '{name}' failed to unpack the object at pos "
                            f'{position} with error "Overflow when unpacking long long')
    return tuple(sizes)


def size_argument(function: str, args: tuple, size: Any = NOT_GIVEN, *, name: str = "size",
                  position: int = 1, varargs: bool = True) -> tuple[int, ...]:
    """The shape that ``function``'s ``size`` argument names, read as PyTorch reads it.

    ``args`` are the positional arguments that may hold the size (all of them for
    ``zeros(*size)``, with ``varargs``; one for ``full(size, ...)``), ``size`` the keyword
    ``size=`` if given; ``name`` is the parameter's name (``reshape``'s is ``shape``) and
    ``position`` its position in the signature, which PyTorch's messages name."""
    if size is not NOT_GIVEN:
        if args:
            raise TypeError(f"{function}() got multiple values for argument '{name}'")
        if isinstance(size, (tuple, list)) and (not size or _is_integer(size[0])):
            return _unpacked(function, size, name)
        raise TypeError(f"{function}(): argument '{name}' must be tuple of ints, not "
                        f"{type_name(size)}")
    if not args:
        return ()
    first = args[0]
    where = f"{function}(): argument '{name}' (position {position}) must be tuple of ints"
    if isinstance(first, (tuple, list)):
        if first and not _is_integer(first[0]):
            raise TypeError(f"{where}, but found element of type {type_name(first[0])} at "
                            "pos 0")
        if len(args) > 1:
            raise TypeError(f"{function}() takes 1 positional argument but {len(args)} were "
                            "given")
        return _unpacked(function, first, name)
    if varargs and _is_integer(first):
        return _unpacked(function, args, name)
    if len(args) > 1:
        raise TypeError(f"{function}() takes 1 positional argument but {len(args)} were given")
    raise TypeError(f"{where}, not {type_name(first)}")
