"""``Tensor.unsafe_chunk``: ``chunk`` whose pieces autograd does not treat as views.

PyTorch's recurrent cells split their gate pre-activations with it and then change each
piece in place (``sigmoid_``, ``tanh_``): pieces of an ordinary ``chunk`` are views of one
node's outputs, and an in-place change to one of them is refused. ``unsafe_chunk``'s pieces
are plain results of ``UnsafeSplitBackward0``, each with its own version counter, so they
may be changed. Here each piece is a copy: nothing can see the memory they would share.
See <https://docs.pytorch.org/docs/2.13/generated/torch.Tensor.unsafe_chunk.html>
"""

from __future__ import annotations

from .._tensor import Tensor, wrap
from ._record import record
from .shape import SplitBackward0, _pieces_along, _wrap_dim


class UnsafeSplitBackward0(SplitBackward0):
    """The pieces' gradients side by side again, zeros for a piece that got none."""

    __slots__ = ()


def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``chunks`` pieces of equal size along ``dim`` (the last may be shorter)."""
    data = input._data
    axis = _wrap_dim(dim, data.ndim)
    length = data.shape[axis]
    split_size = -(-length // chunks)
    count = max(-(-length // split_size), 1)
    sizes = [split_size] * (count - 1) + [length - split_size * (count - 1)]
    pieces = [piece.copy() for piece in _pieces_along(data, axis, sizes)]
    first = record(pieces[0], UnsafeSplitBackward0, (input,), num_outputs=len(pieces),
                   shape=data.shape, axis=axis, sizes=sizes)
    outs = [first] + [wrap(piece) for piece in pieces[1:]]
    node = first.grad_fn
    if node is not None:
        for output_nr, out in enumerate(outs[1:], start=1):
            out.grad_fn, out._output_nr, out._requires_grad = node, output_nr, True
    return tuple(outs)
