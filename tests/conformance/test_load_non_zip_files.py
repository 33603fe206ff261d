"""``torch.load`` of a file that is not a zip archive, against real PyTorch.

PyTorch takes such a file for its legacy format (before 1.6), whose first pickle is a
magic number, and reads that pickle as it would read the whole file: under
``weights_only=True`` with the weights-only unpickler, which knows only the instructions of
pickle protocol 2. So a plain ``pickle.dump`` of a later protocol is refused with an
``UnpicklingError`` ("Weights only load failed", "Unsupported operand 149": the ``FRAME``
instruction) and a warning about the protocol; a pickle of anything else than the magic
number is a "corrupt file"; bytes that are no pickle fail as the unpickler fails.
"""

from __future__ import annotations

import io
import pickle

import pytest
from harness import assert_same_outcome

FILES = {
    **{f"a dict pickled with protocol {p}": pickle.dumps({"weight": [1.0, 2.0]}, protocol=p)
       for p in (2, 3, 4, 5)},
    "a number pickled with protocol 2": pickle.dumps(123, protocol=2),
    "text": b"garbage, not a pickle at all",
    "a truncated pickle": b"\x80\x02K",
    "a truncated protocol 4 pickle": b"\x80\x04\x95",
}


@pytest.mark.parametrize("weights_only", [True, False], ids=["weights_only", "full"])
@pytest.mark.parametrize("blob", FILES.values(), ids=FILES.keys())
def test_a_file_that_is_not_a_zip_archive(blob, weights_only):
    assert_same_outcome(lambda torch: torch.load(io.BytesIO(blob), weights_only=weights_only))
