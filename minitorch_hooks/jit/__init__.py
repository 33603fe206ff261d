"""``torch.jit``, the TorchScript compiler, as far as Python code meets it without
compiling: its decorators, its questions, and its module class for ``isinstance``.

minitorch_hooks has no compiler: ``torch.jit.script`` and ``torch.jit.trace`` say so. What
model code uses at import time works as in PyTorch: ``@torch.jit.ignore`` and friends
return the function unchanged, ``torch.jit.is_scripting()`` and ``is_tracing()`` are False
(this is Python, neither scripted nor traced), and ``isinstance(m, torch.jit.ScriptModule)``
is False for every module, since none is compiled.
See <https://docs.pytorch.org/docs/2.13/jit.html>
"""

from typing import Final

from .._jit_internal import export, ignore, is_scripting, unused
from ._script import RecursiveScriptModule, ScriptFunction, ScriptModule, annotate, script
from ._trace import is_tracing, trace

__all__ = ["Final", "RecursiveScriptModule", "ScriptFunction", "ScriptModule", "annotate",
           "export", "ignore", "is_scripting", "is_tracing", "script", "trace", "unused"]
