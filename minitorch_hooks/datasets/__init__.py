"""Small real data sets that ship inside the package, so that the recipes and exercises
train on real images with no network and nothing beyond NumPy.

PyTorch keeps data sets out of ``torch``: ``torchvision.datasets`` downloads them. Here
the one data set is small enough to bundle: the 8x8 handwritten digits
(:func:`load_digits`, :func:`digits_dataset`).
"""

from .digits import digits_dataset, load_digits

__all__ = ["digits_dataset", "load_digits"]
