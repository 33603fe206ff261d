"""``default_collate``: a list of samples in, one batch out.

Tensors (and NumPy arrays) are stacked along a new first dimension; Python floats become a
float64 tensor and ints an int64 one; strings stay a list; a dict, a tuple or a list is
collated field by field, so ``(input, target)`` samples give ``[inputs, targets]`` (a list:
PyTorch's choice for tuples, kept for backward compatibility).
See <https://docs.pytorch.org/docs/2.13/data.html#torch.utils.data.default_collate>
"""

from __future__ import annotations

import collections.abc
from typing import Any

import numpy as np

from ... import _dtype
from ..._creation import tensor
from ..._ops.shape import stack
from ..._tensor import Tensor


def default_collate(batch: list[Any]) -> Any:
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        return stack([tensor(sample) for sample in batch], 0)
    if isinstance(elem, float):
        return tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return {key: default_collate([sample[key] for sample in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple keeps its type
        return type(elem)(*(default_collate(field) for field in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(field) for field in zip(*batch)]
    raise TypeError("default_collate: batch must contain tensors, numpy arrays, numbers, "
                    f"dicts or lists; found {type(elem)}")
