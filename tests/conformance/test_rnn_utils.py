"""``torch.nn.utils.rnn``, against real PyTorch: padding and packing batches of sequences
of different lengths, the permutation kept when they are not sorted, the gradients back
to every sequence, the nodes autograd records, and hooks that receive a
``PackedSequence``."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome


def _sequences(torch):
    return [torch.tensor(values, requires_grad=True)
            for values in ([1.0, 2.0, 3.0], [4.0, 5.0], [6.0])]


def _described(packed):
    return (type(packed).__name__, isinstance(packed, tuple), packed._fields, packed.data,
            packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("padding_side", ["right", "left"])
def test_pad_sequence(batch_first, padding_side):
    def scenario(torch):
        seqs = _sequences(torch)
        padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=batch_first,
                                                 padding_value=-1.0, padding_side=padding_side)
        (padded * torch.arange(9.0).reshape(3, 3)).sum().backward()
        return padded, padded.grad_fn.name(), [s.grad for s in seqs]

    assert_same_outcome(scenario)


def test_pad_sequence_of_matrices_and_integers():
    def scenario(torch):
        pad = torch.nn.utils.rnn.pad_sequence
        return (pad([torch.ones(2, 2), torch.ones(1, 2)]),
                pad([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True),
                pad(torch.arange(6.0).reshape(2, 3)))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("batch_first", [False, True])
def test_pack_and_pad_back_sorted(batch_first):
    def scenario(torch):
        rnn = torch.nn.utils.rnn
        seqs = _sequences(torch)
        padded = rnn.pad_sequence(seqs, batch_first=batch_first)
        packed = rnn.pack_padded_sequence(padded, torch.tensor([3, 2, 1]),
                                          batch_first=batch_first)
        out, lengths = rnn.pad_packed_sequence(packed, batch_first=batch_first)
        (out * out).sum().backward()
        return (_described(packed), packed.data.grad_fn.name(), out, lengths,
                out.grad_fn.name(), [s.grad for s in seqs])

    assert_same_outcome(scenario)


def test_unsorted_sequences_keep_their_order():
    def scenario(torch):
        rnn = torch.nn.utils.rnn
        a, b, c = _sequences(torch)
        packed = rnn.pack_sequence([b, a, c], enforce_sorted=False)
        out, lengths = rnn.pad_packed_sequence(packed, batch_first=True)
        (out * torch.arange(9.0).reshape(3, 3)).sum().backward()
        return (_described(packed), out, lengths, out.grad_fn.name(),
                rnn.unpack_sequence(packed), a.grad, b.grad, c.grad)

    assert_same_outcome(scenario)


def test_equal_lengths_are_sorted_stably():
    def scenario(torch):
        packed = torch.nn.utils.rnn.pack_padded_sequence(
            torch.arange(15.0).reshape(3, 5), torch.tensor([2, 3, 2, 3, 1]),
            enforce_sorted=False)
        return _described(packed)

    assert_same_outcome(scenario)


def test_total_length_and_padding_value():
    def scenario(torch):
        rnn = torch.nn.utils.rnn
        packed = rnn.pack_sequence(_sequences(torch))
        return rnn.pad_packed_sequence(packed, total_length=5, padding_value=9.0)

    assert_same_outcome(scenario)


def test_unpad_sequence():
    """Not ``batch_first``: PyTorch transposes the padded tensor it is given, in place."""
    def scenario(torch):
        rnn = torch.nn.utils.rnn
        padded = torch.arange(6.0).reshape(3, 2)
        lengths = torch.tensor([3, 1])
        first = rnn.unpad_sequence(padded.t(), lengths, batch_first=True)
        second = rnn.unpad_sequence(padded, lengths)
        return first, second, padded.shape

    assert_same_outcome(scenario)


def test_conversions_of_a_packed_sequence():
    def scenario(torch):
        packed = torch.nn.utils.rnn.pack_sequence(_sequences(torch))
        double = packed.double()
        return (double.data.dtype, double.batch_sizes.dtype, packed.to(torch.float32) is packed,
                packed.float() is packed, packed.long().data, packed.is_cuda,
                type(double).__name__)

    assert_same_outcome(scenario)


BAD = {
    "unsorted": lambda rnn, torch: rnn.pack_padded_sequence(torch.zeros(3, 3), [2, 3, 1]),
    "zero length": lambda rnn, torch: rnn.pack_padded_sequence(torch.zeros(3, 3), [3, 2, 0]),
    "too few lengths": lambda rnn, torch: rnn.pack_padded_sequence(torch.zeros(3, 3), [3, 2]),
    "2-d lengths": lambda rnn, torch: rnn.pack_padded_sequence(torch.zeros(3, 3),
                                                               torch.tensor([[3, 2, 1]])),
    "empty": lambda rnn, torch: rnn.pack_padded_sequence(torch.zeros(0, 3), [1, 1, 1]),
    "short total_length": lambda rnn, torch: rnn.pad_packed_sequence(
        rnn.pack_sequence([torch.ones(3)]), total_length=2),
    "no sequences": lambda rnn, torch: rnn.pack_sequence([]),
    "not iterable": lambda rnn, torch: rnn.pad_sequence(3),
    "padding side": lambda rnn, torch: rnn.pad_sequence([torch.ones(2)], padding_side="top"),
}


@pytest.mark.parametrize("call", BAD.values(), ids=BAD.keys())
def test_bad_arguments(call):
    assert_same_outcome(lambda torch: call(torch.nn.utils.rnn, torch))


def test_hooks_see_the_packed_sequence_and_its_gradient():
    """A module given a ``PackedSequence`` receives the namedtuple in its forward
    pre-hook; a tensor hook on ``data`` sees the packed gradient, in packing order."""
    def scenario(torch):
        rnn = torch.nn.utils.rnn
        log = []

        class Doubler(torch.nn.Module):
            def forward(self, packed):
                return rnn.PackedSequence(packed.data * 2, packed.batch_sizes,
                                          packed.sorted_indices, packed.unsorted_indices)

        module = Doubler()
        module.register_forward_pre_hook(
            lambda m, args: log.append(("pre", type(args[0]).__name__, args[0].batch_sizes)))
        module.register_forward_hook(
            lambda m, args, out: log.append(("forward", type(out).__name__, out.data)))
        a, b, c = _sequences(torch)
        packed = rnn.pack_sequence([b, a, c], enforce_sorted=False)
        packed.data.register_hook(lambda grad: log.append(("grad of data", grad)))
        out, _ = rnn.pad_packed_sequence(module(packed))
        (out * torch.arange(9.0).reshape(3, 3)).sum().backward()
        return log, a.grad

    assert_same_outcome(scenario)


def test_index_select():
    def scenario(torch):
        x = torch.arange(6.0).reshape(3, 2).requires_grad_()
        picked = x.index_select(0, torch.tensor([2, 0, 2]))
        columns = torch.index_select(x, 1, torch.tensor([1]))
        (picked.sum() + 10 * columns.sum()).backward()
        results = [picked, columns, picked.grad_fn.name(), picked.grad_fn._saved_index, x.grad,
                   torch.index_select(torch.tensor(5.0), 0, torch.tensor([0])),
                   x.index_select(-1, torch.tensor([], dtype=torch.int64))]
        for index in (torch.tensor([[0]]), torch.tensor([0.0]), torch.tensor([3]),
                      torch.tensor([-1])):
            try:
                x.index_select(0, index)
            except (IndexError, RuntimeError) as error:
                results.append((type(error).__name__, str(error)))
        return results

    assert_same_outcome(scenario)
