"""``DataLoader``: the batches of a dataset, in the order of a sampler.

Each ``iter(loader)`` first draws a 64-bit base seed from the loader's generator (the global
one by default), as PyTorch does for its worker processes even when there are none; only
then does a shuffling sampler draw its own seed. Both draws matter for a seeded script:
the numbers drawn after an epoch (dropout masks, say) are PyTorch's only if we take them too.
See <https://docs.pytorch.org/docs/2.13/data.html#torch.utils.data.DataLoader>
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

from ..._generator import Generator
from .collate import default_collate
from .dataset import Dataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, random_int64

_T_co = TypeVar("_T_co", covariant=True)


class DataLoader(Generic[_T_co]):
    """Batches of ``batch_size`` samples, shuffled anew each epoch with ``shuffle=True``;
    ``drop_last`` drops a last, incomplete batch. Samples are loaded in this process
    (``num_workers=0``)."""

    def __init__(self, dataset: Dataset, batch_size: int | None = 1,
                 shuffle: bool | None = None, sampler: Sampler | None = None,
                 batch_sampler: Sampler | None = None, num_workers: int = 0,
                 collate_fn: Callable[[list[Any]], Any] | None = None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable[[int], None] | None = None,
                 multiprocessing_context: Any = None, generator: Generator | None = None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        # The worker options are checked as PyTorch checks them, though there are no workers.
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 "
                             "to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in "
                             "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None.")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if num_workers > 0:
            raise NotImplementedError("minitorch_hooks loads data in the main process only "
                                      "(num_workers=0)")
        if batch_size is None:
            raise NotImplementedError("minitorch_hooks does not implement batch_size=None "
                                      "(loading without batching)")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        if sampler is None:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        self.collate_fn = collate_fn or default_collate

    def __iter__(self) -> Iterator[Any]:
        if self.pin_memory:  # there is no accelerator to pin memory for
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=2)
        random_int64(self.generator)  # the base seed of (absent) workers
        return self._batches(iter(self.batch_sampler))

    def _batches(self, indices: Iterator[list[int]]) -> Iterator[Any]:
        for batch in indices:
            yield self.collate_fn([self.dataset[i] for i in batch])

    def __len__(self) -> int:
        return len(self.batch_sampler)
