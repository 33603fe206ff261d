"""``torch.nn.parallel.scatter_gather``: how ``DataParallel`` splits its inputs across
GPUs (``scatter``, ``scatter_kwargs``) and puts the outputs back together (``gather``),
as PyTorch runs them on a machine without a GPU.

``scatter`` walks the inputs: every tensor is cut into one chunk per device, a tuple,
list or dict gives one of its own kind per device, and anything else is repeated, the
same object, once per device. ``gather`` walks the outputs the other way. Only the walk
is Python; the tensors are cut and joined by CUDA kernels (``torch._C._scatter`` and
``_gather``) that a CPU build of PyTorch does not have. So without a GPU what does not
touch a tensor works (``scatter((1, "a"), [0, 1])`` is ``[(1, "a"), (1, "a")]``), and a
tensor fails as PyTorch's CPU build fails: scattering one checks the devices, then finds
no kernel (an AttributeError); gathering refuses tensors on the CPU (an AssertionError).
Attribution libraries (Captum) import ``scatter`` as they load and call it only when
given GPUs.
See <https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/parallel/scatter_gather.py>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import _C
from ..._device import device
from ..._tensor import Tensor

__all__ = ["scatter", "scatter_kwargs", "gather"]


def _is_namedtuple(obj: Any) -> bool:
    """A tuple made by ``collections.namedtuple`` or ``typing.NamedTuple``: rebuilt
    field by field, where a plain tuple becomes a list of tuples."""
    return isinstance(obj, tuple) and hasattr(obj, "_asdict") and hasattr(obj, "_fields")


def _device_index(target: Any) -> int | None:
    """A target's GPU number, as ``torch._utils._get_device_index`` reads it: an int as it
    is, a device (or its name) by its index; the CPU is refused. Without a GPU there is no
    current device to fill in a missing index, so that gives None."""
    if isinstance(target, str):
        target = device(target)
    if isinstance(target, device):
        if target.type == "cpu":
            raise ValueError(f"Expected a non cpu device, but got: {target}")
        return target.index
    return target if isinstance(target, int) else None


def _scatter_tensor(tensor: Tensor, target_gpus: Sequence[Any]) -> tuple[Tensor, ...]:
    """What PyTorch's ``Scatter`` function does on a CPU build: read each target's index
    (optionally, then strictly, as its ``comm.scatter`` does), then call a kernel that is
    not there."""
    for index in [_device_index(target) for target in target_gpus]:
        if index is None:
            raise ValueError("Expected a torch.device with a specified index or an integer, "
                             "but got:None")
    raise AttributeError(f"module {_C.__name__!r} has no attribute '_scatter'")


def scatter(inputs: Any, target_gpus: Sequence[Any], dim: int = 0) -> Any:
    """Slice tensors into one chunk per device in ``target_gpus``, and repeat every other
    object once per device: a list with an entry per device (a tuple for a tensor)."""

    def scatter_map(obj: Any) -> Any:
        if isinstance(obj, Tensor):
            return _scatter_tensor(obj, target_gpus)
        if _is_namedtuple(obj):
            return [type(obj)(*args) for args in zip(*map(scatter_map, obj))]
        if isinstance(obj, tuple) and len(obj) > 0:
            return list(zip(*map(scatter_map, obj)))
        if isinstance(obj, list) and len(obj) > 0:
            return [list(i) for i in zip(*map(scatter_map, obj))]
        if isinstance(obj, dict) and len(obj) > 0:
            return [type(obj)(i) for i in zip(*map(scatter_map, obj.items()))]
        return [obj for _ in target_gpus]

    return scatter_map(inputs)


def scatter_kwargs(inputs: tuple[Any, ...], kwargs: dict[str, Any] | None,
                   target_gpus: Sequence[Any], dim: int = 0
                   ) -> tuple[tuple[Any, ...], tuple[dict[str, Any], ...]]:
    """``scatter`` of the positional and the keyword arguments, the shorter list padded
    with empty ones, so that each device gets an ``(args, kwargs)`` pair."""
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    elif len(scattered_kwargs) < len(inputs):
        # PyTorch compares with the number of inputs here, not of scattered inputs
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs: Any, target_device: Any, dim: int = 0) -> Any:
    """Join one output per device into one on ``target_device``: tensors along ``dim``,
    dicts key by key, tuples and lists entry by entry; ``None`` stays ``None``."""

    def gather_map(outputs: Any) -> Any:
        out = outputs[0]
        if isinstance(out, Tensor):
            # PyTorch's ``Gather`` function asks this first: every tensor is on the CPU here.
            raise AssertionError("Gather function not implemented for CPU tensors")
        if out is None:
            return None
        if isinstance(out, dict):
            if not all(len(out) == len(d) for d in outputs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((k, gather_map([d[k] for d in outputs])) for k in out)
        if _is_namedtuple(out):
            return type(out)._make(map(gather_map, zip(*outputs, strict=True)))
        return type(out)(map(gather_map, zip(*outputs, strict=True)))

    return gather_map(outputs)
