"""The bundled handwritten digits: what ``load_digits`` and ``digits_dataset`` return, and
that the numbers are scikit-learn's own (the copy they were taken from)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import minitorch_hooks as torch
import minitorch_hooks.datasets
from minitorch_hooks.datasets import digits_dataset, load_digits

HERE = Path(minitorch_hooks.datasets.__file__).parent

# The UCI test set: how many images show each digit, 0 to 9 (counted in its description).
PER_DIGIT = [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]


def test_images_and_labels_as_numpy():
    images, labels = load_digits()
    assert images.shape == (1797, 8, 8) and images.dtype == np.uint8
    assert labels.shape == (1797,) and labels.dtype == np.int64
    assert images.min() == 0 and images.max() == 16
    assert np.bincount(labels).tolist() == PER_DIGIT


def test_first_image_is_a_zero():
    """The first sample of the set, row by row as ``optdigits.tes`` lists it."""
    images, labels = load_digits()
    assert labels[0] == 0
    assert images[0, 0].tolist() == [0, 0, 5, 13, 9, 1, 0, 0]
    assert images[0, 3].tolist() == [0, 4, 12, 0, 0, 8, 8, 0]


def test_dataset_of_tensors():
    dataset = digits_dataset()
    assert len(dataset) == 1797
    image, label = dataset[5]
    assert image.shape == (1, 8, 8) and image.dtype == torch.float32
    assert label.dtype == torch.int64 and label.dim() == 0
    pixels = dataset.tensors[0]
    assert pixels.min().item() == 0.0 and pixels.max().item() == 1.0
    images, labels = load_digits()
    assert np.array_equal(pixels.numpy()[:, 0] * 16, images)
    assert np.array_equal(dataset.tensors[1].numpy(), labels)


def test_dataset_feeds_a_data_loader():
    torch.manual_seed(0)
    loader = torch.utils.data.DataLoader(digits_dataset(), batch_size=64, shuffle=True)
    batches = list(loader)
    assert len(batches) == 29  # 28 full batches and one of 1797 - 28 * 64 = 5
    assert batches[0][0].shape == (64, 1, 8, 8) and batches[-1][0].shape == (5, 1, 8, 8)


def test_attribution_and_licence_ship_beside_the_data():
    readme = (HERE / "digits-README.md").read_text(encoding="utf-8")
    assert "Alpaydin" in readme and "Kaynak" in readme and "CC BY 4.0" in readme
    licence = (HERE / "digits-LICENSE.txt").read_text(encoding="utf-8")
    assert licence.startswith("Attribution 4.0 International")


def test_same_as_scikit_learn():
    datasets = pytest.importorskip(
        "sklearn.datasets", reason="scikit-learn is not installed: the bundled digits are "
        "not compared with its copy (pip install scikit-learn to compare)")
    theirs = datasets.load_digits()
    images, labels = load_digits()
    assert np.array_equal(images, theirs.images)
    assert np.array_equal(labels, theirs.target)
