"""Anomaly mode: backward says which forward line made the node that failed, and refuses
a NaN gradient where it first appears.

A NaN in a gradient is found late: it spreads through every node after the one that made
it, and ``.grad`` shows only the end. In anomaly mode the engine checks each node's
gradients as soon as the node has run (after its post-hooks) and raises ``Function
'SqrtBackward0' returned nan values in its 0th output.``; and every node made while the
mode is on keeps the Python stack of the forward line that made it (in
``node.metadata["traceback_"]``), which the engine prints as a warning when that node's
backward fails, for whatever reason. It is what NaN-hunting hook code reaches for beside
its own forward hooks. It slows everything down, so it is off by default and warns when
turned on.

See <https://docs.pytorch.org/docs/2.13/autograd.html#anomaly-detection>
"""

from __future__ import annotations

import traceback
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["detect_anomaly", "set_detect_anomaly"]


class _AnomalyState:
    enabled = False
    check_nan = True


state = _AnomalyState()


def is_anomaly_enabled() -> bool:
    """Whether anomaly mode is on (``torch.is_anomaly_enabled``)."""
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly mode checks gradients for NaN (``torch.is_anomaly_check_nan_enabled``)."""
    return state.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly mode on or off (``torch.set_anomaly_enabled``)."""
    state.enabled, state.check_nan = bool(enabled), bool(check_nan)


class detect_anomaly:  # noqa: N801 - torch's name
    """A ``with`` block in anomaly mode; it warns, once made, that the mode is slow."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = state.enabled, state.check_nan
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the "
                      "runtime and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:  # noqa: N801 - torch's name
    """Anomaly mode on or off at once, as a call, or for a ``with`` block."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = state.enabled, state.check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


def store_stack(node: Any) -> None:
    """Keep the forward stack that is making ``node`` (the engine calls this for every node
    made in anomaly mode), without this package's own frames."""
    frames = [frame for frame in traceback.extract_stack()
              if f"{__package__.split('.')[0]}/" not in frame.filename.replace("\\", "/")]
    node.metadata["traceback_"] = traceback.format_list(frames)


def run_checked(run: Callable[..., Sequence[Any] | None], node: Any,
                *args: Any) -> Sequence[Any] | None:
    """``run(node, *args)`` (the engine's turn for one node) in anomaly mode: a NaN among
    the gradients it sends on is an error, and an error names the forward stack."""
    try:
        grad_inputs = run(node, *args)
        if state.check_nan and grad_inputs is not None:
            for position, grad in enumerate(grad_inputs):
                array = getattr(grad, "_data", grad)  # an array, or a Tensor (create_graph)
                if array is not None and np.isnan(array).any():
                    raise RuntimeError(f"Function '{node.name()}' returned nan values in its "
                                       f"{position}th output.")
        return grad_inputs
    except Exception:
        stack = node.metadata.get("traceback_") if hasattr(node, "metadata") else None
        if stack is not None:
            warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that "
                          f"caused the error:\n{''.join(stack)}", stacklevel=2)
        raise
