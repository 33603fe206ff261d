"""``torch.__future__``: switches for behaviours PyTorch means to make the default later.

Both concern what ``module.to()``, ``float()``, ``double()``... (``Module._apply``) do to a
parameter. By default its ``.data`` is replaced: the same ``Parameter`` object, with its
hooks, gets new values. *Overwrite* makes a new ``Parameter`` instead. *Swap* keeps the
object but swaps its whole content with the converted tensor (``utils.swap_tensors``), and
``load_state_dict`` then swaps too instead of copying.
See <https://docs.pytorch.org/docs/2.13/future_mod.html>
"""

from __future__ import annotations

_overwrite_module_params_on_conversion: bool = False
_swap_module_params_on_conversion: bool = False


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    """Make ``Module._apply`` give each converted parameter a new ``Parameter`` object."""
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion() -> bool:
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value: bool) -> None:
    """Make ``Module._apply`` and ``load_state_dict`` swap parameters' content; this takes
    precedence over the overwrite switch."""
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion() -> bool:
    return _swap_module_params_on_conversion
