"""The UCI "Optical Recognition of Handwritten Digits" set: 1,797 grey 8x8 images of the
digits 0 to 9, each pixel a count from 0 to 16.

The images are the test set of E. Alpaydin and C. Kaynak's collection in the UCI Machine
Learning Repository (CC BY 4.0; ``digits-README.md`` beside this file gives the
attribution and ``digits-LICENSE.txt`` the licence), taken from the copy scikit-learn ships
and stored as ``digits.npz``. With PyTorch, images come from ``torchvision.datasets``
(which downloads them); this set is small enough to travel inside the package, so loading
it needs no network and no library beyond NumPy.
See <https://docs.pytorch.org/vision/stable/datasets.html>
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._creation import tensor
from .._dtype import float32, int64
from ..utils.data import TensorDataset

_FILE = Path(__file__).with_name("digits.npz")
MAX_PIXEL = 16  # each pixel counts the ink in a 4x4 block of a 32x32 bitmap: 0..16


def load_digits() -> tuple[np.ndarray, np.ndarray]:
    """The images, ``uint8`` of shape ``(1797, 8, 8)`` with values 0..16, and their
    labels, ``int64`` of shape ``(1797,)`` with values 0..9, as NumPy arrays: the same
    numbers as scikit-learn's ``load_digits().images`` and ``.target``.

    NumPy arrays, not tensors, so that the same line feeds real PyTorch too:
    ``torch.tensor(images)`` works in both libraries."""
    with np.load(_FILE) as data:
        return data["images"], data["labels"].astype(np.int64)


def digits_dataset() -> TensorDataset:
    """The digits as a :class:`~minitorch_hooks.utils.data.TensorDataset` of
    ``(image, label)``: each image a ``float32`` tensor of shape ``(1, 8, 8)`` (one
    channel, as ``Conv2d`` expects) scaled to [0, 1], each label an ``int64`` scalar,
    ready for a ``DataLoader``."""
    images, labels = load_digits()
    pixels = tensor(images, dtype=float32).unsqueeze(1) / MAX_PIXEL
    return TensorDataset(pixels, tensor(labels, dtype=int64))
