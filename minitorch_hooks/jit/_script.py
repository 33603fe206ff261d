"""``torch.jit.script`` and the classes of what it makes, mirroring ``torch/jit/_script.py``.

No compiler here, so nothing is ever a ``ScriptModule``: the classes exist so that
``isinstance(model, torch.jit.ScriptModule)`` answers False, as it does in PyTorch for a
module that was not scripted. They are what PyTorch itself defines when TorchScript is
switched off (``PYTORCH_JIT=0``): plain ``nn.Module`` subclasses.
"""

from __future__ import annotations

import warnings
from typing import Any

from ..nn.modules.module import Module


class ScriptModule(Module):
    """A compiled module's class. Only a class to test against: nothing here makes one."""

    def __init__(self, arg: Any = None) -> None:
        super().__init__()


class RecursiveScriptModule(ScriptModule):
    """What ``torch.jit.script(module)`` returns in PyTorch."""


class ScriptFunction:
    """What ``torch.jit.script(function)`` returns in PyTorch: only a class to test
    against, like :class:`ScriptModule`."""


def annotate(the_type: Any, the_value: Any) -> Any:
    """Tell the compiler the type of ``the_value``; in Python, ``the_value`` itself."""
    return the_value


def script(obj: Any, *args: Any, **kwargs: Any) -> Any:
    """Compile to TorchScript: not implemented. It warns first, as PyTorch 2.13 does."""
    warnings.warn("`torch.jit.script` is deprecated. Please switch to `torch.compile` or "
                  "`torch.export`.", DeprecationWarning, stacklevel=2)
    raise NotImplementedError("torch.jit.script is not implemented by minitorch_hooks: "
                              "there is no TorchScript compiler; call the module itself")
