"""The functions a checkpoint calls to rebuild its tensors, under PyTorch's names.

A file written by ``torch.save`` does not pickle a tensor's class: it records a call,
``torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
backward_hooks)``, and the loader runs it. So these are the only code a checkpoint may run,
and the weights-only loader allows them by name (``_weights_only_unpickler.py``). The same
call rebuilds a tensor here, from a storage that is a one-dimensional NumPy array: each
tensor is a strided view into it, so tensors that shared memory when saved share it again.
See <https://docs.pytorch.org/docs/2.13/notes/serialization.html>
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from ._tensor import Tensor, wrap
from .nn.parameter import Parameter


def _rebuild_tensor_v2(storage: np.ndarray, storage_offset: int, size: tuple[int, ...],
                       stride: tuple[int, ...], requires_grad: bool,
                       backward_hooks: OrderedDict | None, metadata: Any = None) -> Tensor:
    """A tensor viewing ``storage`` from ``storage_offset`` with ``size`` and ``stride``.

    The view is checked to stay inside the storage, as PyTorch checks it (PyTorch words the
    refusal as a failed resize): a file is data from outside, and a view past the end would
    read memory that is not the file's.
    """
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride) or storage_offset < 0 or any(s < 0 for s in size + stride):
        raise RuntimeError(f"cannot rebuild a tensor of size {list(size)}, stride "
                           f"{list(stride)} and storage offset {storage_offset}")
    if 0 in size:  # nothing to view: an empty array, wherever the offset points
        return _with_grad(wrap(np.empty(size, storage.dtype)), requires_grad,
                          backward_hooks)
    if storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride)) > storage.size:
        raise RuntimeError("Trying to resize storage that is not resizable")
    itemsize = storage.itemsize
    data = np.ndarray(size, storage.dtype, buffer=storage, offset=storage_offset * itemsize,
                      strides=tuple(s * itemsize for s in stride))
    return _with_grad(wrap(data), requires_grad, backward_hooks)


def _with_grad(tensor: Tensor, requires_grad: bool, backward_hooks: OrderedDict | None
               ) -> Tensor:
    if requires_grad:
        tensor.requires_grad_(True)
    if backward_hooks:  # PyTorch saves an empty dict; a file from very old code may not
        tensor._backward_hooks = backward_hooks
    return tensor


def _rebuild_parameter(data: Tensor, requires_grad: bool,
                       backward_hooks: OrderedDict | None) -> Parameter:
    """A ``Parameter`` around a rebuilt tensor, sharing its memory."""
    parameter = Parameter(data, requires_grad)
    if backward_hooks:
        parameter._backward_hooks = backward_hooks
    return parameter


def _rebuild_parameter_with_state(data: Tensor, requires_grad: bool,
                                  backward_hooks: OrderedDict | None, state: Any) -> Parameter:
    """A ``Parameter`` that had attributes set on it (PyTorch saves them as ``state``)."""
    parameter = _rebuild_parameter(data, requires_grad, backward_hooks)
    if isinstance(state, tuple):  # (__dict__, slots)
        state = {**(state[0] or {}), **(state[1] or {})}
    for name, value in (state or {}).items():
        setattr(parameter, name, value)
    return parameter
