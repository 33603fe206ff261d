"""Batches of sequences of different lengths, mirroring ``torch/nn/utils/rnn.py``.

A batch of sentences is padded to the longest one, ``(T, B, *)``. An RNN that ran over
the padding would waste work and mix padding into its last hidden state, so PyTorch
*packs* the batch: ``pack_padded_sequence`` keeps, time step after time step, only the
sequences still running. Its ``data`` holds the real entries and ``batch_sizes`` how many
sequences each step has; an RNN reads step ``t`` as the next ``batch_sizes[t]`` rows of
``data``. For that the sequences must be sorted longest first; with
``enforce_sorted=False`` they are sorted here, and ``sorted_indices`` /
``unsorted_indices`` remember the permutation so that ``pad_packed_sequence`` gives the
batch back in its original order.

For hooks: a module that takes a ``PackedSequence`` receives the namedtuple in its hooks'
``args`` (``nn.RNN``, ``nn.LSTM`` and ``nn.GRU`` run on it and return one, so their
forward hooks get ``(PackedSequence, h_n)``), and the gradient reaches the padded input
through ``PackPaddedSequenceBackward0``.
See <https://docs.pytorch.org/docs/2.13/nn.html#utilities-for-rnn>
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

import numpy as np

from ... import _creation, _dtype
from ..._ops._record import record
from ..._tensor import Tensor, wrap
from ...autograd import _formula as formula
from ...autograd.graph import Node

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pack_sequence", "pad_packed_sequence", "pad_sequence", "unpack_sequence",
           "unpad_sequence"]

_T = TypeVar("_T")


class PackedSequence_(NamedTuple):  # noqa: N801 - torch's name
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


def bind(optional: _T | None, fn: Callable[[_T], Any]) -> Any:
    return None if optional is None else fn(optional)


class PackedSequence(PackedSequence_):
    """The packed entries of a batch of sequences (``data``), how many sequences each time
    step has (``batch_sizes``, an int64 tensor on the CPU), and the permutation that sorted
    the batch (``sorted_indices``) with its inverse (``unsorted_indices``), or None.

    Made by :func:`pack_padded_sequence` and :func:`pack_sequence`, not by hand.
    """

    def __new__(cls, data: Tensor, batch_sizes: Tensor | None = None,
                sorted_indices: Tensor | None = None,
                unsorted_indices: Tensor | None = None) -> PackedSequence:
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence((data, batch_sizes))
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """``data`` converted as ``Tensor.to`` converts it; the sequence itself if nothing
        changes. ``batch_sizes`` stays as it is."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self) -> PackedSequence:
        return self.to("cpu")

    def cuda(self, *args: Any, **kwargs: Any) -> PackedSequence:
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def double(self) -> PackedSequence:
        return self.to(dtype=_dtype.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=_dtype.float32)

    def half(self) -> PackedSequence:
        return self.to(dtype=_dtype.float16)

    def long(self) -> PackedSequence:
        return self.to(dtype=_dtype.int64)

    def int(self) -> PackedSequence:
        return self.to(dtype=_dtype.int32)

    def byte(self) -> PackedSequence:
        return self.to(dtype=_dtype.uint8)

    @property
    def is_cuda(self) -> bool:
        return self.data.is_cuda


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The permutation that undoes ``permutation``: ``out[permutation[i]] = i``."""
    if permutation is None:
        return None
    output = np.empty_like(permutation._data)
    output[permutation._data] = np.arange(permutation._data.size)
    return wrap(output)


# -- the two primitives: each a single operation, as in ATen ------------------------------------

class PackPaddedSequenceBackward0(Node):
    """The gradient of the packed rows, put back at their places in a zero padded batch."""

    __slots__ = ("input_size", "batch_sizes", "batch_first")

    def backward(self, grad):
        # Row r of ``data`` came from (time step, sequence) = (steps[r], sequences[r]).
        steps = np.repeat(np.arange(len(self.batch_sizes)), self.batch_sizes)
        sequences = np.concatenate([np.arange(count) for count in self.batch_sizes])
        key = (sequences, steps) if self.batch_first else (steps, sequences)
        return formula.scatter(tuple(self.input_size), key, grad)


def _check_long_tensor(tensor: Tensor) -> None:
    if tensor.dim() != 1 or tensor.dtype is not _dtype.int64:
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{tensor.dim()}D cpu {tensor.dtype.scalar_name} tensor")


def _pack_padded_sequence(input: Tensor, lengths: Tensor, batch_first: bool
                          ) -> tuple[Tensor, Tensor]:
    """``(data, batch_sizes)``: the rows of each time step that belong to a sequence still
    running, one step after the other (ATen's ``_pack_padded_sequence``)."""
    _check_long_tensor(lengths)
    padded = input._data.swapaxes(0, 1) if batch_first else input._data
    batch_size = padded.shape[1] if padded.ndim > 1 else 0
    lengths_array = lengths._data
    if padded.size == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if lengths_array.shape[0] != batch_size:
        raise RuntimeError("Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{lengths_array.shape[0]} (batch_size={batch_size})")
    if lengths_array[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if (np.diff(lengths_array) > 0).any():
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
            "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
            "pack_sequence to sidestep this requirement if you do not need ONNX "
            "exportability.")
    # Step t keeps the sequences longer than t: the first batch_sizes[t] of them.
    batch_sizes = np.array([(lengths_array > step).sum() for step in range(lengths_array[0])],
                           dtype=np.int64)
    data = np.concatenate([padded[step, :count] for step, count in enumerate(batch_sizes)])
    packed = record(data, PackPaddedSequenceBackward0, (input,), input_size=input.shape,
                    batch_sizes=batch_sizes.tolist(), batch_first=batch_first)
    return packed, wrap(batch_sizes)


def _pad_packed_sequence(data: Tensor, batch_sizes: Tensor, batch_first: bool,
                         padding_value: float, total_length: int) -> tuple[Tensor, Tensor]:
    """The padded batch ``(T, B, *)`` and each sequence's length: ATen's
    ``_pad_packed_sequence``, which copies each block of steps with the same batch size
    into a tensor full of ``padding_value`` (so its gradient goes through CopySlices)."""
    _check_long_tensor(batch_sizes)
    sizes = batch_sizes._data.tolist()
    max_batch_size, max_real_seq_length = sizes[0], len(sizes)
    max_seq_length = max(total_length, max_real_seq_length)
    output = _creation.full((max_seq_length, max_batch_size, *data.shape[1:]), padding_value,
                            dtype=data.dtype)
    lengths = np.empty(max_batch_size, dtype=np.int64)
    data_offset, prev_batch_size, prev_i = 0, max_batch_size, 0
    for i in range(max_real_seq_length + 1):
        batch_size = sizes[i] if i != max_real_seq_length else 0
        if batch_size != prev_batch_size:
            rows = prev_batch_size * (i - prev_i)
            block = data[data_offset:data_offset + rows]
            output[prev_i:i, :prev_batch_size] = block.view(i - prev_i, prev_batch_size,
                                                            *data.shape[1:])
            data_offset += rows
            prev_i = i
        lengths[batch_size:prev_batch_size] = i  # the sequences that ended at step i
        prev_batch_size = batch_size
    if batch_first:
        output = output.transpose(0, 1)
    return output, wrap(lengths)


# -- the public functions -------------------------------------------------------------------------

def pack_padded_sequence(input: Tensor, lengths: Tensor | list[int], batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch ``(T, B, *)`` (``(B, T, *)`` with ``batch_first``) whose
    sequences have the given ``lengths``. With ``enforce_sorted=True`` they must be sorted
    longest first; with False they are sorted here, and the permutation is kept.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.rnn.pack_padded_sequence.html>
    """
    if not isinstance(lengths, Tensor):
        lengths = _creation.as_tensor(lengths, dtype=_dtype.int64)
    else:
        lengths = lengths.to(dtype=_dtype.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        # PyTorch's sort, longest first; equal lengths keep their order.
        order = np.argsort(-lengths._data, kind="stable")
        lengths = wrap(lengths._data[order])
        sorted_indices = wrap(order.astype(np.int64))
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0, total_length: int | None = None
                        ) -> tuple[Tensor, Tensor]:
    """Undo :func:`pack_padded_sequence`: the padded batch, in the original order, and the
    length of each sequence. ``total_length`` pads to that many steps.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.rnn.pad_packed_sequence.html>
    """
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {max_seq_length}")
        max_seq_length = total_length
    padded_output, lengths = _pad_packed_sequence(sequence.data, sequence.batch_sizes,
                                                  batch_first, padding_value, max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return (padded_output.index_select(batch_dim, unsorted_indices),
                lengths[unsorted_indices.cpu()])
    return padded_output, lengths


def pad_sequence(sequences: Tensor | Iterable[Tensor], batch_first: bool = False,
                 padding_value: float = 0.0, padding_side: str = "right") -> Tensor:
    """Stack sequences of different lengths (``L_i x *``) into one padded batch,
    ``(T, B, *)`` (``(B, T, *)`` with ``batch_first``), padding on the right or the left.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.rnn.pad_sequence.html>
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg "
                           f"of type: {type(sequences)}")
    sequences = tuple(sequences)
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError("Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    max_len = max(sequence.size(0) for sequence in sequences)
    trailing_dims = tuple(sequences[0].shape[1:])
    out_dims = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = _creation.full(out_dims + trailing_dims, padding_value, dtype=sequences[0].dtype)
    for i, sequence in enumerate(sequences):
        length = sequence.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out[i, start:start + length] = sequence
        else:
            out[start:start + length, i] = sequence
    return out


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False
                   ) -> list[Tensor]:
    """Undo :func:`pad_sequence`: the list of sequences, each cut to its length. Like
    PyTorch's, it transposes ``padded_sequences`` *in place* when not ``batch_first``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.rnn.unpad_sequence.html>
    """
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = _creation.arange(max_length)
    for seq, length in zip(padded_sequences, lengths, strict=True):
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences


def pack_sequence(sequences: list[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """:func:`pad_sequence`, then :func:`pack_padded_sequence` with each one's length.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.rnn.pack_sequence.html>
    """
    lengths = _creation.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """Undo :func:`pack_sequence`: the list of sequences, in their original order.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.rnn.unpack_sequence.html>
    """
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
