"""``torch.cuda`` as a CPU-only build of PyTorch answers it.

Model code asks ``torch.cuda`` questions before it knows where it will run:
``device = "cuda" if torch.cuda.is_available() else "cpu"``, ``torch.cuda.manual_seed_all
(seed)`` in a seeding helper, ``torch.cuda.empty_cache()`` after an epoch. On a machine
without a GPU PyTorch answers them all without a GPU: no device, nothing allocated, and
seeding is put off until CUDA would start, which it never does. Only what needs a device
(its index, its name, waiting for it) fails, with ``AssertionError: Torch not compiled with
CUDA enabled``. minitorch_hooks answers the same, so such code runs on the CPU unchanged.
See <https://docs.pytorch.org/docs/2.13/cuda.html>
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, NoReturn

from .._device import NOT_COMPILED_WITH_CUDA
from . import amp  # noqa: F401 - ``torch.cuda.amp`` without its own import, as in PyTorch


def _lazy_init() -> NoReturn:
    """PyTorch starts CUDA the first time something needs a device; a build without CUDA
    refuses there, so every function below that needs one fails with the same error."""
    raise AssertionError(NOT_COMPILED_WITH_CUDA)


def is_available() -> bool:
    """Whether a GPU can be used: never, here."""
    return False


def device_count() -> int:
    """How many GPUs there are: none."""
    return 0


def is_initialized() -> bool:
    """Whether CUDA has been started: it cannot be."""
    return False


def init() -> None:
    """Start CUDA now rather than at its first use: refused."""
    _lazy_init()


def current_device() -> int:
    """The index of the selected GPU: there is none to select."""
    _lazy_init()


def synchronize(device: Any = None) -> None:
    """Wait for the GPU's queued work: refused, as in PyTorch, since there is no GPU."""
    _lazy_init()


def get_device_name(device: Any = None) -> str:
    _lazy_init()


def get_device_properties(device: Any = None) -> Any:
    _lazy_init()


def get_device_capability(device: Any = None) -> tuple[int, int]:
    _lazy_init()


def get_arch_list() -> list[str]:
    """The GPU architectures this build was compiled for: none."""
    return []


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


# -- memory: nothing is ever allocated on a GPU --------------------------------------------

def empty_cache() -> None:
    """Release the cached GPU memory: there is none, and PyTorch does nothing either."""


def memory_stats(device: Any = None) -> OrderedDict[str, Any]:
    """The allocator's statistics: empty, as CUDA never started."""
    return OrderedDict()


def memory_allocated(device: Any = None) -> int:
    return memory_stats(device).get("allocated_bytes.all.current", 0)


def max_memory_allocated(device: Any = None) -> int:
    return memory_stats(device).get("allocated_bytes.all.peak", 0)


def memory_reserved(device: Any = None) -> int:
    return memory_stats(device).get("reserved_bytes.all.current", 0)


def max_memory_reserved(device: Any = None) -> int:
    return memory_stats(device).get("reserved_bytes.all.peak", 0)


# -- random numbers: seeding waits for a start that never comes ------------------------------

def manual_seed(seed: Any) -> None:
    """Seed the current GPU's generator. PyTorch converts the seed at once (so ``"a"`` is
    a ValueError) and queues the seeding for when CUDA starts; here it never starts, so
    this does nothing, as on a CPU-only PyTorch. It does not seed the CPU generator: call
    ``torch.manual_seed`` for that."""
    int(seed)


def manual_seed_all(seed: Any) -> None:
    """Seed every GPU's generator: as :func:`manual_seed`, nothing to seed."""
    int(seed)


def seed() -> None:
    """Seed the current GPU's generator at random: nothing to seed."""


def seed_all() -> None:
    """Seed every GPU's generator at random: nothing to seed."""


def initial_seed() -> int:
    _lazy_init()


def get_rng_state(device: Any = "cuda") -> Any:
    _lazy_init()


def get_rng_state_all() -> list[Any]:
    """One state per GPU: an empty list."""
    return []
