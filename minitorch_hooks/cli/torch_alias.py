"""``import torch`` that gives minitorch_hooks: how ``minitorch-hooks run`` runs a script.

Inside :func:`torch_aliased`, an import hook answers every ``import torch`` and
``import torch.<anything>``. Where minitorch_hooks has the module (``torch.nn.functional``
is ``minitorch_hooks.nn.functional``, ``torch.utils.hooks`` is ``minitorch_hooks.utils.
hooks``...), the script gets a :class:`TorchAlias` of it: a module named as PyTorch names
it whose attributes are ours. Where we have nothing, the script gets an error that names
the missing feature, at the line that uses it, instead of an AttributeError from deep
inside: ``torch.fft is not implemented by minitorch_hooks``.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

_OURS = "minitorch_hooks"
# Names of ours that are not PyTorch's.
_NOT_TORCH = frozenset({"hook_trace", "tracing", "tour", "tutorials", "cli", "__main__"})


class TorchFeatureNotImplementedError(NotImplementedError, AttributeError):
    """A torch feature minitorch_hooks does not have. It is an AttributeError too, so that
    ``hasattr(torch, "compile")`` and ``getattr(torch, "cuda", None)`` still answer."""


def _not_implemented(name: str) -> str:
    return f"{name} is not implemented by minitorch_hooks"


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
            raise TorchFeatureNotImplementedError(_not_implemented(f"{self.__name__}.{attr}"))
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
            raise ModuleNotFoundError(_not_implemented(fullname), name=fullname)
        # Every alias is a package, so that ``import torch.x.missing`` reaches this finder
        # and is named in the error.
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return TorchAlias(spec.name, importlib.import_module(_ours(spec.name)))

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the alias only points at a module that is already loaded."""


@contextlib.contextmanager
def torch_aliased() -> Iterator[None]:
    """While active, ``import torch`` and its submodules give minitorch_hooks. Any real
    torch already imported is set aside and put back afterwards."""
    saved = {name: module for name, module in sys.modules.items() if _is_torch(name)}
    for name in saved:
        del sys.modules[name]
    finder = _TorchFinder()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [name for name in sys.modules if _is_torch(name)]:
            del sys.modules[name]
        sys.modules.update(saved)
