"""Feeding a model: datasets, the order of their samples, and batches, as in
``torch.utils.data``.

A ``Dataset`` answers ``len`` and ``[i]``; a sampler decides the order of the indices
(shuffled through the global generator, so a seeded script sees PyTorch's batches); a
``DataLoader`` groups them into batches and stacks the samples with ``default_collate``.
See <https://docs.pytorch.org/docs/2.13/data.html>
"""

from .collate import default_collate
from .dataloader import DataLoader
from .dataset import Dataset, TensorDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["BatchSampler", "DataLoader", "Dataset", "RandomSampler", "Sampler",
           "SequentialSampler", "TensorDataset", "default_collate"]
