"""``torch.device``: the name of a place where tensors can live, and the check that a
CPU-only build makes when a tensor is asked to go there.

A device is only a name (a type and an optional index), so PyTorch lets a program create
``torch.device("cuda:0")`` on any machine: model code does it at import time, before it
knows where it will run. What fails is *using* it, when a tensor would be made or moved
there. A CPU-only PyTorch then raises ``AssertionError: Torch not compiled with CUDA
enabled``, which is what :func:`check_available` raises here too. minitorch_hooks has
only the CPU; any other device type is refused with an error that says so.
See <https://docs.pytorch.org/docs/2.13/tensor_attributes.html#torch.device>
"""

from __future__ import annotations

from typing import Any

# The device types PyTorch 2.13 knows, in the order its error message lists them.
DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip",
                "ve", "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                "privateuseone")

NOT_COMPILED_WITH_CUDA = "Torch not compiled with CUDA enabled"
NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class device:  # noqa: N801 - torch's name
    """Where a tensor lives: ``device("cpu")``, ``device("cuda:0")``, ``device("cuda", 1)``.

    Immutable and hashable; two devices are equal when their type and index are (so
    ``device("cuda") != device("cuda:0")``, and a device never equals a string).
    """

    __module__ = "minitorch_hooks"  # its public home, as ``torch.device`` is PyTorch's
    __slots__ = ("_type", "_index")

    def __init__(self, type: Any, index: Any = None) -> None:  # noqa: A002 - torch's name
        if isinstance(type, device) and index is None:
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool) and index is None:
            # A bare index means "the accelerator", and a CPU machine has none.
            raise RuntimeError(NO_ACCELERATOR)
        elif not isinstance(type, str):
            raise TypeError(_invalid_arguments(type))
        if index is not None and (isinstance(index, bool) or not isinstance(index, int)):
            raise TypeError("device(): argument 'index' (position 2) must be int, not "
                            f"{_type_name(index)}")
        parsed_type, parsed_index = _parse(type)
        if index is not None:
            if parsed_index is not None:
                raise RuntimeError("type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            if index < 0:
                raise RuntimeError("Device index must not be negative")
            parsed_index = index
        object.__setattr__(self, "_type", parsed_type)
        object.__setattr__(self, "_index", parsed_index)

    @property
    def type(self) -> str:
        return self._type

    @property
    def index(self) -> int | None:
        return self._index

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, device):
            return False
        return (self._type, self._index) == (other._type, other._index)

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __reduce__(self) -> tuple:
        return device, (self._type, self._index)


def _type_name(value: Any) -> str:
    return type(value).__name__


def _invalid_arguments(value: Any) -> str:
    got = _type_name(value)
    shown = "list of []" if isinstance(value, list) and not value else got
    return (f"device() received an invalid combination of arguments - got ({got}), but "
            "expected one of:\n * (torch.device device)\n      didn't match because some of "
            f"the arguments have invalid types: (!{shown}!)\n * (str type, int index = -1)\n")


def _parse(text: str) -> tuple[str, int | None]:
    """``"cuda:1"`` -> ``("cuda", 1)``, with PyTorch's errors: the type must be one it
    knows, in lower case, and an index is a non-negative integer without a leading zero."""
    if not text:
        raise RuntimeError("Device string must not be empty")
    name, colon, index = text.partition(":")
    if name not in DEVICE_TYPES:
        if name.strip() in DEVICE_TYPES or not name.isalpha():
            raise RuntimeError(f"Invalid device string: '{text}'")
        raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start "
                           f"of device string: {text}")
    if not colon:
        return name, None
    if not index.isdigit() or (len(index) > 1 and index[0] == "0"):
        raise RuntimeError(f"Invalid device string: '{text}'")
    return name, int(index)


def check_available(requested: Any) -> device:
    """The device ``requested`` names, if tensors can be put there: only the CPU can.

    CUDA fails as on a CPU-only PyTorch (``AssertionError``: the build could have had it);
    any other type with minitorch_hooks' own error.
    """
    where = device(requested)
    if where.type == "cuda":
        raise AssertionError(NOT_COMPILED_WITH_CUDA)
    if where.type != "cpu":
        raise RuntimeError(f"minitorch_hooks runs on the CPU only, not on '{where}'")
    return where
