"""``Size``: the tuple that ``tensor.shape`` returns, printed as PyTorch prints it."""

from __future__ import annotations


class Size(tuple):
    """A tuple of dimension sizes; ``repr`` is ``torch.Size([3, 10])`` as in PyTorch.

    See <https://docs.pytorch.org/docs/2.13/size.html>
    """

    __module__ = "minitorch_hooks"  # its public home, as ``torch.Size`` is PyTorch's

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def __getitem__(self, index):  # type: ignore[override]
        result = tuple.__getitem__(self, index)
        return Size(result) if isinstance(index, slice) else result

    def __add__(self, other: tuple) -> Size:  # type: ignore[override]
        return Size(tuple.__add__(self, tuple(other)))

    def __radd__(self, other: tuple) -> Size:
        return Size(tuple(other) + tuple(self))

    def __mul__(self, times: int) -> Size:  # type: ignore[override]
        return Size(tuple.__mul__(self, times))

    __rmul__ = __mul__

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds."""
        count = 1
        for size in self:
            count *= size
        return count
