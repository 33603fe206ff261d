"""Samplers: the order in which a ``DataLoader`` visits a dataset's indices.

``RandomSampler`` shuffles as PyTorch does: it draws one 64-bit seed from the global
generator (or uses the generator it was given), seeds a fresh generator with it and takes a
``randperm`` from that one. The global generator therefore moves by exactly one draw per
epoch, and the batches after ``torch.manual_seed(s)`` are PyTorch's.
See <https://docs.pytorch.org/docs/2.13/data.html#data-loading-order-and-sampler>
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sized
from typing import Any, Generic, TypeVar

from ..._creation import randint, randperm
from ..._generator import Generator
from ...random import default_generator


def random_int64(generator: Generator | None) -> int:
    """``torch.empty((), dtype=torch.int64).random_(generator=...).item()``: a 64-bit draw
    reduced to the non-negative int64 range."""
    return int((generator or default_generator)._random64(1)[0]) % 2**63


_T_co = TypeVar("_T_co", covariant=True)


class Sampler(Generic[_T_co]):
    """The base class: an iterable of indices. Generic, as in PyTorch, so that code can
    annotate what it yields: ``class MySampler(Sampler[list[int]])``."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices (``num_samples`` of them, by default all), or
    with ``replacement`` independent draws, 32 at a time as PyTorch draws them."""

    def __init__(self, data_source: Sized, replacement: bool = False,
                 num_samples: int | None = None, generator: Generator | None = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError("replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = Generator().manual_seed(random_int64(None))
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from randint(n, (32,), generator=generator).tolist()
            yield from randint(n, (self.num_samples % 32,), generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from randperm(n, generator=generator).tolist()
            yield from randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler``; the last, shorter one is dropped
    with ``drop_last``."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return -(-len(self.sampler) // self.batch_size)
