"""``import torch`` that gives minitorch_hooks, in a script that is not ours to edit.

``import minitorch_hooks as torch`` renames one module; a script that goes on with
``import torch.nn as nn`` or ``from torch.nn import functional as F`` still reaches for
real PyTorch. :func:`install_as_torch` answers every ``import torch`` and ``import
torch.<anything>`` from then on, until it is removed: it is how ``minitorch-hooks run``
runs a script, and a script or notebook can call it itself, before anything imports torch.

Where minitorch_hooks has the module (``torch.nn.functional`` is ``minitorch_hooks.nn.
functional``, ``torch.utils.hooks`` is ``minitorch_hooks.utils.hooks``...), the script gets
a :class:`TorchAlias` of it: a module named as PyTorch names it whose attributes are ours.
Where we have nothing but PyTorch has it, the script gets an error that names the missing
feature, at the line that uses it, instead of an AttributeError from deep inside: ``torch.fft
is not implemented by minitorch_hooks`` (``_missing.py``). A name PyTorch does not have
either gets PyTorch's own error: ``module 'torch' has no attribute 'foo'``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

from .._missing import MODULES, missing_attribute, not_implemented, pytorch_names

_OURS = "minitorch_hooks"
# Names of ours that are not PyTorch's.
_NOT_TORCH = frozenset({"hook_trace", "tracing", "tour", "tutorials", "cli", "__main__",
                        "install_as_torch"})


def _is_torch(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")


def _ours(torch_name: str) -> str:
    return _OURS + torch_name[len("torch"):]


class TorchAlias(ModuleType):
    """One of our modules under PyTorch's name: reads and writes go to our module."""

    def __init__(self, name: str, target: ModuleType) -> None:
        super().__init__(name, target.__doc__)
        self.__dict__["_target"] = target

    def __getattr__(self, attr: str) -> Any:
        target = self.__dict__["_target"]
        if attr.startswith("__") and attr.endswith("__"):  # __version__, and tools probing
            return getattr(target, attr)
        if attr in _NOT_TORCH or not hasattr(target, attr):
            raise missing_attribute(self.__name__, self.__name__, attr)
        value = getattr(target, attr)
        if isinstance(value, ModuleType) and value.__name__.startswith(_OURS + "."):
            return importlib.import_module("torch" + value.__name__[len(_OURS):])
        return value

    def __setattr__(self, attr: str, value: Any) -> None:
        # The import system's own attributes, and the aliases of submodules it sets on
        # their parent, stay here; anything a script sets goes to our module.
        if isinstance(value, TorchAlias) or (attr.startswith("__") and attr.endswith("__")):
            self.__dict__[attr] = value
        else:
            setattr(self.__dict__["_target"], attr, value)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self.__dict__["_target"])) - _NOT_TORCH)


class _TorchFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The import hook: ``torch...`` resolves to an alias of ours, or to a clear error."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if not _is_torch(fullname):
            return None
        try:
            found = importlib.util.find_spec(_ours(fullname))
        except ModuleNotFoundError:  # a parent of ours is a module, not a package
            found = None
        if found is None or _NOT_TORCH.intersection(fullname.split(".")):
            message = (not_implemented(fullname) if fullname in pytorch_names()[MODULES]
                       else f"No module named {fullname!r}")
            raise ModuleNotFoundError(message, name=fullname)
        # Every alias is a package, so that ``import torch.x.missing`` reaches this finder
        # and is named in the error.
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return TorchAlias(spec.name, importlib.import_module(_ours(spec.name)))

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the alias only points at a module that is already loaded."""


def _real_torch_modules() -> dict[str, ModuleType]:
    return {name: module for name, module in sys.modules.items()
            if _is_torch(name) and not isinstance(module, TorchAlias)}


class TorchInstallation:
    """What :func:`install_as_torch` returns: ``remove()`` undoes it, as a hook's handle
    does, and so does leaving a ``with`` block."""

    def __init__(self, set_aside: dict[str, ModuleType]) -> None:
        self._finder: _TorchFinder | None = _TorchFinder()
        self._set_aside = set_aside
        for name in set_aside:
            del sys.modules[name]
        sys.meta_path.insert(0, self._finder)
        importlib.import_module("torch")  # ``sys.modules["torch"]`` is there at once

    def remove(self) -> None:
        """``import torch`` finds real PyTorch again (or nothing); what real torch modules
        were set aside come back. Removing twice does nothing."""
        if self._finder is None:
            return
        sys.meta_path.remove(self._finder)
        self._finder = None
        for name in [name for name in sys.modules if _is_torch(name)]:
            del sys.modules[name]
        sys.modules.update(self._set_aside)

    def __enter__(self) -> TorchInstallation:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


def install_as_torch(*, set_aside_real_torch: bool = False) -> TorchInstallation:
    """From now on, ``import torch`` and ``import torch.nn as nn`` (any submodule) give
    minitorch_hooks, until ``remove()`` on the result (or the end of its ``with`` block).

    Real PyTorch already imported is refused, with a RuntimeError: its tensors and ours do
    not mix, and the modules that imported it keep it. ``set_aside_real_torch=True``
    instead takes it out of ``sys.modules`` while installed and puts it back at the end,
    for a tool, like ``minitorch-hooks run``'s tests, that runs a script inside a program
    that imported torch for itself. Installing twice is refused too.
    """
    if any(isinstance(finder, _TorchFinder) for finder in sys.meta_path):
        raise RuntimeError("minitorch_hooks is already installed as torch: remove() that "
                           "installation first")
    real = _real_torch_modules()
    if real and not set_aside_real_torch:
        raise RuntimeError(
            "real PyTorch is already imported, so minitorch_hooks cannot stand in for it: "
            "call minitorch_hooks.install_as_torch() before anything imports torch (or run "
            "the script with 'minitorch-hooks run')")
    return TorchInstallation(real)
