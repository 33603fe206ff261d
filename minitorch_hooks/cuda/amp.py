"""``torch.cuda.amp``: mixed precision on a GPU, as a PyTorch built without CUDA runs it.

Training scripts wrap their forward in ``with torch.cuda.amp.autocast():`` and their
backward and step in a ``GradScaler``, so that the same script trains in float16 on a GPU.
Without CUDA, PyTorch switches both off (saying so in a warning) and the script runs in
float32: ``autocast`` changes no dtype, and the scaler scales nothing and simply calls the
optimiser's ``step``. Both names are deprecated in 2.13 in favour of
``torch.amp.autocast("cuda")`` and ``torch.amp.GradScaler("cuda")``, and warn so first.
See <https://docs.pytorch.org/docs/2.13/amp.html>
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from .. import _dtype

__all__ = ["GradScaler", "autocast"]


class autocast:  # noqa: N801 - torch's name
    """Run a block (or, as a decorator, a function) in float16 where it is safe: switched
    off here, as there is no GPU."""

    def __init__(self, enabled: bool = True, dtype: _dtype.dtype = _dtype.float16,
                 cache_enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                      "`torch.amp.autocast('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        if enabled:
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling "
                          "autocast.", stacklevel=2)
        self._enabled = False
        self.device = "cuda"
        self.fast_dtype = dtype

    def __enter__(self) -> autocast:
        return self

    def __exit__(self, *exc_info: object) -> bool:
        return False

    def __call__(self, func: Callable) -> Callable:
        if not callable(func):
            raise TypeError(
                f"autocast()(func) requires a callable, but got {type(func).__name__}. Did you "
                "mean to use autocast as a context manager? For example:\n    with "
                "torch.autocast(device_type=...):\n        output = model(input)")

        @functools.wraps(func)
        def decorate_autocast(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return decorate_autocast


class GradScaler:
    """Scale the loss up before backward so that float16 gradients do not underflow, and
    the gradients down before the step. Switched off here: each method does what PyTorch's
    does when the scaler is not enabled."""

    def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                      "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        if enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", stacklevel=2)
        self._device = "cuda"
        self._enabled = False

    def scale(self, outputs: Any) -> Any:
        """The outputs, unscaled."""
        return outputs

    def unscale_(self, optimizer: Any) -> None:
        """Nothing was scaled, so nothing to undo."""

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """``optimizer.step(*args, **kwargs)``, and what it returns."""
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale: Any = None) -> None:
        """No scale to update."""

    def get_scale(self) -> float:
        return 1.0

    def is_enabled(self) -> bool:
        return self._enabled

    def state_dict(self) -> dict[str, Any]:
        """Empty: a scaler that is not enabled has no state."""
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Nothing to load into a scaler that is not enabled."""
