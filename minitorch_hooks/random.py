"""The global random number generator, mirroring ``torch/random.py``.

Every random function that is not given a ``generator=`` draws from ``default_generator``.
Like PyTorch's, it is seeded nondeterministically when the module is imported, so only code
that calls ``manual_seed`` first is reproducible, and then reproduces PyTorch's numbers.
See <https://docs.pytorch.org/docs/2.13/random.html> and
<https://docs.pytorch.org/docs/2.13/notes/randomness.html>.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ._generator import Generator

default_generator = Generator()
default_generator.seed()


def manual_seed(seed: Any) -> Generator:
    """Seed the default generator and return it, like ``torch.manual_seed``.

    ``int(seed)`` is taken first, so ``manual_seed(1.5)`` seeds with 1, as in PyTorch.
    """
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    """Reseed the default generator nondeterministically and return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed of the default generator (as an unsigned 64-bit integer)."""
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    """The default generator's state as a uint8 tensor in PyTorch's 5056-byte layout."""
    return default_generator.get_state()


def set_rng_state(new_state: Any) -> None:
    """Restore the default generator's state from ``get_rng_state`` (ours or PyTorch's)."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices: Any = None, enabled: bool = True, _caller: str = "fork_rng",
             _devices_kw: str = "devices", device_type: str | None = None) -> Iterator[None]:
    """Run the block, then put the default generator back in the state it had before it,
    so that random numbers drawn inside do not change those drawn after.

    PyTorch forks the generators of the GPUs in ``devices`` too; there are none here (as on
    a CPU-only PyTorch, where ``torch.cuda.device_count()`` is 0). ``enabled=False`` runs
    the block without forking. Activation checkpointing uses it to recompute a forward
    with the random numbers of the first run, leaving the generator where it was.
    See <https://docs.pytorch.org/docs/2.13/random.html#torch.random.fork_rng>
    """
    if not enabled:
        yield
        return
    cpu_rng_state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(cpu_rng_state)
