"""The global random number generator, mirroring ``torch/random.py``.

Every random function that is not given a ``generator=`` draws from ``default_generator``.
Like PyTorch's, it is seeded nondeterministically when the module is imported, so only code
that calls ``manual_seed`` first is reproducible, and then reproduces PyTorch's numbers.
See <https://docs.pytorch.org/docs/2.13/random.html> and
<https://docs.pytorch.org/docs/2.13/notes/randomness.html>.
"""

from __future__ import annotations

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
