"""``torch.UntypedStorage``: the memory a tensor and its views share, as bytes; and the
deprecated ``TypedStorage`` that ``Tensor.storage()`` still returns, the same memory read
as elements of one dtype.

In PyTorch a tensor is a view of a storage: a block of bytes with a size, a place and a
device, shared by every view of it (``x``, ``x[1:]``, ``x.t()``, ``x.expand(...)``). Code
around hooks asks for it to measure memory (torchinfo sums ``sys.getsizeof`` of the
inputs' storages), or to tell whether two tensors share memory
(``a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()``), as saved-tensor
hooks that deduplicate do. NumPy has no storages: the memory belongs to the array at the
end of the chain of ``.base`` arrays, which is what this class stands for. As in PyTorch,
asking twice gives the same object while it is alive.

See <https://docs.pytorch.org/docs/2.13/storage.html>
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ._device import device

__all__ = ["TypedStorage", "UntypedStorage"]


class UntypedStorage:
    """The bytes of a block of memory that tensors view."""

    def __init__(self, owner: np.ndarray) -> None:
        self._owner = owner
        self.device = device("cpu")

    def nbytes(self) -> int:
        """The size of the whole block in bytes, also where a view sees only part of it."""
        return self._owner.nbytes

    def size(self) -> int:
        """The number of elements, which are bytes: ``nbytes()``."""
        return self.nbytes()

    def __len__(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        """1: the elements of an untyped storage are bytes."""
        return 1

    def data_ptr(self) -> int:
        """The address of the block's first byte (``x.data_ptr()`` of a tensor that starts
        there; 0 for an empty one)."""
        return self._owner.__array_interface__["data"][0] if self.nbytes() else 0

    def _bytes(self) -> np.ndarray:
        return np.frombuffer(self._owner.tobytes(order="A"), dtype=np.uint8)

    def tolist(self) -> list[int]:
        """The bytes, as integers."""
        return self._bytes().tolist()

    def __getitem__(self, index: int) -> int:
        if not -self.nbytes() <= index < self.nbytes():
            raise IndexError(f"index {index} out of range for storage of size "
                             f"{self.nbytes()}")
        return int(self._bytes()[index])

    def __sizeof__(self) -> int:
        """The object and its bytes, as PyTorch counts them for ``sys.getsizeof``."""
        return super().__sizeof__() + self.nbytes()

    def __repr__(self) -> str:
        values = "\n".join(f" {value}" for value in self.tolist()) or " "
        return (f"{values}\n[torch.storage.UntypedStorage(device={self.device}) of size "
                f"{self.nbytes()}]")

    __str__ = __repr__


class TypedStorage:
    """A storage read as elements of ``dtype`` (``x.storage()``, deprecated since PyTorch
    2.0 in favour of ``untyped_storage()``, but still in older hook code)."""

    def __init__(self, untyped: UntypedStorage, dtype: Any) -> None:
        self._untyped, self.dtype, self.device = untyped, dtype, untyped.device

    def untyped(self) -> UntypedStorage:
        """The bytes underneath: the tensor's ``untyped_storage()``."""
        return self._untyped

    def element_size(self) -> int:
        return self.dtype.numpy_type.itemsize

    def size(self) -> int:
        """The number of elements of ``dtype`` in the whole block."""
        return self._untyped.nbytes() // self.element_size()

    def __len__(self) -> int:
        return self.size()

    def nbytes(self) -> int:
        return self._untyped.nbytes()

    def data_ptr(self) -> int:
        return self._untyped.data_ptr()

    def is_shared(self) -> bool:
        """False: no memory is shared between processes here."""
        return False

    is_cuda = False

    def type(self) -> str:
        """The legacy storage type's name, ``torch.FloatStorage`` for float32."""
        return self.dtype.legacy_name.replace("Tensor", "Storage")

    def tolist(self) -> list:
        """The elements, as Python numbers."""
        return self._untyped._bytes().view(self.dtype.numpy_type).tolist()

    def __getitem__(self, index: int) -> Any:
        if not -self.size() <= index < self.size():
            raise IndexError(f"index {index} out of range for storage of size {self.size()}")
        return self.tolist()[index]

    def __repr__(self) -> str:
        values = "\n".join(f" {value}" for value in self.tolist()) or " "
        return (f"{values}\n[torch.storage.TypedStorage(dtype={self.dtype}, "
                f"device={self.device}) of size {self.size()}]")

    __str__ = __repr__


# One storage object per block of memory while it is alive: ``x.untyped_storage() is
# x[1:].untyped_storage()``. Keyed by the owner's id, which cannot be reused while the
# storage (holding the owner) lives.
_STORAGES: weakref.WeakValueDictionary[int, UntypedStorage] = weakref.WeakValueDictionary()


def storage_of(data: np.ndarray) -> UntypedStorage:
    """The storage of the memory ``data`` views (what ``Tensor.untyped_storage`` returns)."""
    owner = data
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    storage = _STORAGES.get(id(owner))
    if storage is None or storage._owner is not owner:
        storage = _STORAGES[id(owner)] = UntypedStorage(owner)
    return storage
