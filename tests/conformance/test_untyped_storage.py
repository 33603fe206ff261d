"""``Tensor.untyped_storage()`` against real PyTorch: one block of bytes shared by a tensor
and its views (sliced, transposed, expanded), its size, address and bytes, the same object
asked twice, and what ``sys.getsizeof`` counts (torchinfo sums it over a model's inputs).
Also ``torch.serialization.DEFAULT_PROTOCOL``, which Torch-Pruning imports as it loads.
"""

from __future__ import annotations

import importlib
import sys

import pytest
from harness import assert_same_outcome

VIEWS = {
    "itself": lambda x: x,
    "a slice": lambda x: x[1:],
    "a transpose": lambda x: x.t(),
    "an expanded row": lambda x: x[0].expand(5, 3),
    "a contiguous copy": lambda x: x.t().contiguous(),
    "a float64 copy": lambda x: x.double(),
    "an element": lambda x: x[2, 1],
}


@pytest.mark.parametrize("view", VIEWS.values(), ids=VIEWS.keys())
def test_a_view_shares_its_bases_storage(view):
    def scenario(torch):
        base = torch.arange(12, dtype=torch.float32).reshape(4, 3)
        tensor = view(base)
        storage = tensor.untyped_storage()
        start = tensor.data_ptr() - tensor.storage_offset() * tensor.element_size()
        return (storage.nbytes(), storage.size(), len(storage), storage.element_size(),
                str(storage.device), storage.data_ptr() == start,
                storage.data_ptr() == base.untyped_storage().data_ptr(),
                storage is tensor.untyped_storage(),
                sys.getsizeof(storage) - sys.getsizeof(torch.empty(0).untyped_storage()))

    assert_same_outcome(scenario)


def test_the_bytes_and_the_printed_storage():
    def scenario(torch):
        storage = torch.tensor([1.0, 2.0]).untyped_storage()
        empty = torch.empty(0).untyped_storage()
        return (storage.tolist(), storage[0], storage[3], storage[-1], str(storage),
                repr(storage), empty.nbytes(), empty.data_ptr(), str(empty),
                torch.ones(3, dtype=torch.uint8).untyped_storage().tolist())

    assert_same_outcome(scenario)


def test_an_index_past_the_end():
    assert_same_outcome(lambda torch: torch.ones(2).untyped_storage()[8])


def test_the_default_pickle_protocol():
    def scenario(torch):  # (an ``import torch.serialization`` here would be PyTorch's)
        return importlib.import_module(f"{torch.__name__}.serialization").DEFAULT_PROTOCOL

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dtype", ["float32", "int32", "float64", "bool"])
def test_the_deprecated_typed_storage(dtype):
    """``x.storage()``: the same bytes read as ``x``'s dtype. Its deprecation warning is
    given once per process, so whether a case sees it depends on the cases before: it is
    not compared."""
    def scenario(torch):
        base = torch.arange(6).reshape(2, 3).to(getattr(torch, dtype))
        storage = base[1:].storage()
        return (storage.size(), len(storage), str(storage.dtype), storage.element_size(),
                storage.nbytes(), storage.data_ptr() == base.data_ptr(), str(storage.device),
                storage.tolist(), storage[1], storage.untyped() is base.untyped_storage(),
                storage.is_shared(), storage.is_cuda, storage.type(), repr(storage))

    assert_same_outcome(scenario, check_warnings=False)
