"""``torch.utils.data`` against real PyTorch: the batches a seeded ``DataLoader`` gives (in
PyTorch's shuffled order, epoch after epoch, and the random numbers drawn afterwards),
``drop_last`` and ``len``, samplers, ``default_collate`` of tensors, numbers, strings,
tuples and dicts, and the errors."""

from __future__ import annotations

import importlib
from collections import namedtuple
from typing import Any

import numpy as np
import pytest
from harness import assert_same_outcome


def data(torch: Any) -> Any:
    return torch.utils.data


def dataset(torch: Any, n: int = 10) -> Any:
    return data(torch).TensorDataset(torch.arange(n * 2).float().view(n, 2), torch.arange(n))


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize(("n", "batch_size", "drop_last"),
                         [(10, 3, False), (10, 3, True), (10, 10, False), (7, 8, False),
                          (7, 8, True), (100, 16, False)])
@pytest.mark.parametrize("shuffle", [True, False], ids=["shuffle", "in_order"])
def test_batches_come_in_pytorch_order(shuffle, n, batch_size, drop_last, seed):
    """Two epochs, then one more draw: the loader takes exactly PyTorch's random numbers."""
    def scenario(torch):
        torch.manual_seed(seed)
        loader = data(torch).DataLoader(dataset(torch, n), batch_size=batch_size,
                                        shuffle=shuffle, drop_last=drop_last)
        epochs = [list(loader) for _ in range(2)]
        return len(loader), epochs, torch.rand(2)

    assert_same_outcome(scenario)


def test_a_generator_of_its_own_leaves_the_global_one_alone():
    def scenario(torch):
        torch.manual_seed(1)
        generator = torch.Generator().manual_seed(5)
        loader = data(torch).DataLoader(dataset(torch), batch_size=4, shuffle=True,
                                        generator=generator)
        return list(loader), list(loader), torch.rand(2), generator.initial_seed()

    assert_same_outcome(scenario)


def test_samplers():
    def scenario(torch):
        d = data(torch)
        torch.manual_seed(2)
        return (list(d.SequentialSampler(range(4))),
                list(d.RandomSampler(range(5))),
                list(d.RandomSampler(range(5), num_samples=12)),
                list(d.RandomSampler(range(5), replacement=True, num_samples=40)),
                list(d.BatchSampler(range(7), 3, drop_last=False)),
                len(d.BatchSampler(range(7), 3, drop_last=True)),
                len(d.RandomSampler(range(5), num_samples=12)),
                torch.rand(1))

    assert_same_outcome(scenario)


Point = namedtuple("Point", ["x", "label"])


SAMPLES = {
    "tensors": lambda torch: [torch.ones(2), torch.zeros(2)],
    "ints": lambda torch: [1, 2, 3],
    "floats": lambda torch: [1.5, 2.0],
    "bools": lambda torch: [True, False],
    "strings": lambda torch: ["a", "b"],
    "arrays": lambda torch: [np.ones(2, dtype=np.float32), np.zeros(2, dtype=np.float32)],
    "tuples": lambda torch: [(torch.ones(2), 1, "a"), (torch.zeros(2), 2, "b")],
    "lists": lambda torch: [[1, 2.0], [3, 4.0]],
    "dicts": lambda torch: [{"x": torch.ones(1), "y": 1}, {"x": torch.zeros(1), "y": 0}],
    "namedtuples": lambda torch: [Point(torch.ones(1), 1), Point(torch.zeros(1), 0)],
    "lists of different lengths": lambda torch: [[1, 2], [3]],
    "tensors of different shapes": lambda torch: [torch.ones(2), torch.ones(3)],
    "objects": lambda torch: [object(), object()],
}


@pytest.mark.parametrize("samples", SAMPLES.values(), ids=SAMPLES.keys())
def test_default_collate(samples):
    def scenario(torch):
        batch = data(torch).default_collate(samples(torch))
        return (type(batch).__name__, batch) if not isinstance(batch, Point) else tuple(batch)

    assert_same_outcome(scenario)


class Squares:
    """A map-style dataset that is not a Tensor dataset: samples are tuples of numbers."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[int, float]:
        return i, i * i / 2


def test_a_dataset_of_numbers_and_a_custom_collate_fn():
    def scenario(torch):
        torch.manual_seed(0)
        d = data(torch)
        numbers = list(d.DataLoader(Squares(5), batch_size=2, shuffle=True))
        custom = list(d.DataLoader(Squares(5), batch_size=2, collate_fn=lambda b: b))
        by_batches = list(d.DataLoader(Squares(5), batch_sampler=[[4, 0], [2]]))
        return numbers, custom, by_batches

    assert_same_outcome(scenario)


ERRORS = {
    "TensorDataset size mismatch": lambda torch: data(torch).TensorDataset(
        torch.ones(3), torch.ones(4)),
    "Dataset without __getitem__": lambda torch: data(torch).Dataset()[0],
    "sampler and shuffle": lambda torch: data(torch).DataLoader(
        dataset(torch), sampler=range(10), shuffle=True),
    "batch_sampler and batch_size": lambda torch: data(torch).DataLoader(
        dataset(torch), batch_sampler=[[0]], batch_size=2),
    "batch_size 0": lambda torch: data(torch).DataLoader(dataset(torch), batch_size=0),
    "drop_last not a bool": lambda torch: data(torch).BatchSampler(range(3), 2, 1),
    "negative num_workers": lambda torch: data(torch).DataLoader(dataset(torch),
                                                                 num_workers=-1),
    "negative timeout": lambda torch: data(torch).DataLoader(dataset(torch), timeout=-1),
    "prefetch_factor without workers": lambda torch: data(torch).DataLoader(
        dataset(torch), prefetch_factor=2),
    "persistent_workers without workers": lambda torch: data(torch).DataLoader(
        dataset(torch), persistent_workers=True),
    "num_samples 0": lambda torch: data(torch).RandomSampler(range(3), num_samples=0),
    "replacement not a bool": lambda torch: data(torch).RandomSampler(range(3),
                                                                      replacement=1),
}


def test_pin_memory_warns_on_each_epoch_without_an_accelerator():
    def scenario(torch):
        loader = data(torch).DataLoader(dataset(torch, 3), batch_size=2, pin_memory=True,
                                        num_workers=0, timeout=0, worker_init_fn=None)
        return list(loader), list(loader)

    assert_same_outcome(scenario)


def test_the_import_forms():
    """``torch.utils.data`` needs no import of its own; ``from ... import`` works too."""
    def scenario(torch):
        module = importlib.import_module(torch.__name__ + ".utils.data")
        return module is torch.utils.data, module.DataLoader.__name__

    assert_same_outcome(scenario)


@pytest.mark.parametrize("scenario", ERRORS.values(), ids=ERRORS.keys())
def test_errors(scenario):
    assert_same_outcome(scenario)
