"""``Dataset``, the interface, and ``TensorDataset``, the samples of tensors' rows.
See <https://docs.pytorch.org/docs/2.13/data.html#torch.utils.data.Dataset>
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from ..._tensor import Tensor

_T_co = TypeVar("_T_co", covariant=True)


class Dataset(Generic[_T_co]):
    """A map-style dataset: subclasses define ``__getitem__`` (and ``__len__``, which a
    ``DataLoader`` needs to sample and to count batches). Generic, as in PyTorch:
    ``class MyData(Dataset[tuple[Tensor, int]])``."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Sample ``i`` is ``(t[i] for t in tensors)``: inputs and targets side by side, so every
    tensor must have as many rows as the first."""

    def __init__(self, *tensors: Tensor) -> None:
        if not all(tensors[0].size(0) == tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple[Tensor, ...]:
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)
