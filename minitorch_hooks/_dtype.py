"""Data types: thin, named wrappers around NumPy dtypes.

PyTorch prints its dtypes as ``torch.float32``; ours print the same way so that
output can be compared with PyTorch's as plain text.
See <https://docs.pytorch.org/docs/2.13/tensor_attributes.html#torch-dtype>
"""

from __future__ import annotations

import numpy as np


class dtype:  # noqa: N801 - the public name mirrors ``torch.dtype``
    """A tensor element type: its torch name and the NumPy type that stores it."""

    __module__ = "minitorch_hooks"  # its public home, as ``torch.dtype`` is PyTorch's

    __slots__ = ("name", "numpy_type", "is_floating_point", "scalar_name", "legacy_name")

    def __init__(self, name: str, numpy_type: type, scalar_name: str) -> None:
        self.name = name
        self.numpy_type = np.dtype(numpy_type)
        self.is_floating_point = self.numpy_type.kind == "f"
        # PyTorch's error messages name types the C++ way: "Float", "torch.FloatTensor".
        self.scalar_name = scalar_name
        self.legacy_name = f"torch.{scalar_name}Tensor"

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        # Pickle as the module-level singleton, so ``pickle`` keeps ``a.dtype is float32``.
        return self.name


float16 = dtype("float16", np.float16, "Half")
float32 = dtype("float32", np.float32, "Float")
float64 = dtype("float64", np.float64, "Double")
int8 = dtype("int8", np.int8, "Char")
int16 = dtype("int16", np.int16, "Short")
int32 = dtype("int32", np.int32, "Int")
int64 = dtype("int64", np.int64, "Long")
uint8 = dtype("uint8", np.uint8, "Byte")
bool = dtype("bool", np.bool_, "Bool")  # noqa: A001 - torch.bool shadows the builtin too

# PyTorch's aliases name the same objects.
half, float, double, short, int, long = float16, float32, float64, int16, int32, int64  # noqa: A001

_BY_NUMPY = {d.numpy_type: d for d in (float16, float32, float64, int8, int16, int32, int64,
                                       uint8, bool)}


def from_numpy_dtype(numpy_dtype: np.dtype) -> dtype:
    """The torch-style dtype that stores ``numpy_dtype``; a clear TypeError for others."""
    try:
        return _BY_NUMPY[np.dtype(numpy_dtype)]
    except KeyError:
        raise TypeError(f"minitorch_hooks does not support the NumPy dtype {numpy_dtype}") from None
