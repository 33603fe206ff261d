"""A name that PyTorch has and minitorch_hooks does not says so.

``torch.compile``, ``x.histc`` or ``import torch.fft`` in a PyTorch program should fail
with an error that names the feature as PyTorch's and sends the reader to the course's
list of what is left out, not with an AttributeError that looks like a typo. PyTorch
2.13's public names are shipped as data (``pytorch_names.txt``, written once from real
PyTorch by ``docs_tools/pytorch_names.py``), and three small hooks consult it only when a
lookup has already failed:

* a module-level ``__getattr__`` in ``torch`` and in its modules that PyTorch programs
  reach through attributes (``torch.nn``, ``torch.nn.functional``, ``torch.optim``,
  ``torch.autograd``, ``torch.distributions``...; Python calls it only for a name the
  module does not have);
* a descriptor on ``Tensor`` for each of PyTorch's tensor attributes that we lack. A
  ``__getattr__`` on the class would do the same, but it would slow *every* attribute
  access of every tensor (CPython's fast paths skip classes that define it); a
  descriptor in the class dictionary costs nothing until it is used;
* a finder at the end of ``sys.meta_path``, asked only after Python found no module:
  ``import minitorch_hooks.fft`` of one of PyTorch's modules.

The error is both an ``AttributeError`` and a ``NotImplementedError``: feature probes such
as ``hasattr(torch, "compile")`` and ``getattr(x, "is_nested", False)`` still get False
and the default, and ``except NotImplementedError`` catches it. ``from torch.nn import
CosineSimilarity`` is the exception: Python turns any AttributeError met there into its
own ``cannot import name ... (unknown location)``, which loses the message, so there the
error is an ``ImportError`` (what ``try: from ... import ... except ImportError`` expects)
and a ``NotImplementedError``. A name PyTorch does not
have either gets PyTorch's own error: ``module 'torch' has no attribute 'foo'`` (with
this package's name), ``No module named ...``.
"""

from __future__ import annotations

import dis
import functools
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

_DATA = os.path.join(os.path.dirname(__file__), "pytorch_names.txt")
MODULES = "modules"  # the section of the data that lists PyTorch's modules


class TorchFeatureNotImplementedError(NotImplementedError, AttributeError):
    """A name of PyTorch's that minitorch_hooks does not implement. It is an
    AttributeError too, so that ``hasattr(torch, "compile")`` and
    ``getattr(torch, "cuda", None)`` still answer."""


class TorchFeatureImportError(ImportError, NotImplementedError):
    """``from torch.nn import X`` of a name of PyTorch's that minitorch_hooks does not
    implement: an ImportError, which Python lets through ``from ... import`` unchanged."""


_IMPORT_FROM = dis.opmap["IMPORT_FROM"]


def _importing_from(frame: Any) -> bool:
    """Whether ``frame`` is running a ``from module import name``: the instruction it
    stopped at (``f_lasti``, a byte offset into its code) is ``IMPORT_FROM``."""
    return frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM


@functools.cache
def pytorch_names() -> dict[str, frozenset[str]]:
    """PyTorch 2.13's public names by namespace (``"torch"``, ``"torch.Tensor"``...),
    and its public modules under ``"modules"``: read once, when first needed."""
    sections: dict[str, set[str]] = {}
    current: set[str] = set()
    with open(_DATA, encoding="utf-8") as file:
        lines = file.read().splitlines()
    for line in lines:
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], set())
        elif line and not line.startswith("#"):
            current.add(line)
    return {title: frozenset(names) for title, names in sections.items()}


def not_implemented(torch_name: str) -> str:
    """The message for one of PyTorch's names, as PyTorch calls it."""
    return (f"{torch_name} is not implemented by minitorch_hooks (it is part of PyTorch "
            "2.13: the course's pages 'What the library leaves out' and 'API coverage' "
            "say what is missing)")


def missing_attribute(torch_namespace: str, module_name: str, name: str) -> Exception:
    """The error for ``namespace.name`` that does not exist here: ours if PyTorch has the
    name (as an attribute or as a module), else the one Python gives for a module. It is
    called by a module's ``__getattr__``, so the frame two up is the one looking."""
    pytorch = pytorch_names()
    if not name.startswith("__") and (name in pytorch.get(torch_namespace, ()) or
                                      f"{torch_namespace}.{name}" in pytorch[MODULES]):
        message = not_implemented(f"{torch_namespace}.{name}")
        if _importing_from(sys._getframe(2)):
            return TorchFeatureImportError(message, name=torch_namespace)
        error: AttributeError = TorchFeatureNotImplementedError(message)
    else:
        error = AttributeError(f"module {module_name!r} has no attribute {name!r}")
    error.name = name
    return error


def module_getattr(module_name: str, torch_namespace: str) -> Callable[[str], NoReturn]:
    """The ``__getattr__`` of one of our modules that stands for ``torch_namespace``."""
    def __getattr__(name: str) -> NoReturn:  # noqa: N807 - the module hook's own name
        raise missing_attribute(torch_namespace, module_name, name)

    return __getattr__


class _MissingTensorAttribute:
    """One of PyTorch's tensor attributes that we lack: reading it raises."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> NoReturn:
        error = TorchFeatureNotImplementedError(not_implemented(f"torch.Tensor.{self.name}"))
        error.name = self.name
        raise error


def mark_missing_tensor_attributes(tensor_class: type) -> None:
    """Put a raising descriptor on ``tensor_class`` for each of PyTorch's tensor
    attributes that it does not have (call it once every method is attached)."""
    for name in pytorch_names()["torch.Tensor"]:
        if not any(name in vars(klass) for klass in tensor_class.__mro__):
            setattr(tensor_class, name, _MissingTensorAttribute(name))


def is_missing(value: Any) -> bool:
    """Whether a class attribute (read with ``inspect.getattr_static``) stands for a
    missing tensor attribute."""
    return isinstance(value, _MissingTensorAttribute)


class _MissingModuleFinder:
    """Last on ``sys.meta_path``: ``import minitorch_hooks.X`` that found nothing, where
    ``torch.X`` is one of PyTorch's modules. (A meta-path finder needs only
    ``find_spec``; this one never finds anything, it only refuses with a clear error.)"""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if not fullname.startswith(__package__ + "."):
            return None
        torch_name = "torch" + fullname[len(__package__):]
        if torch_name in pytorch_names()[MODULES]:
            raise ModuleNotFoundError(not_implemented(torch_name), name=fullname)
        return None


if not any(isinstance(finder, _MissingModuleFinder) for finder in sys.meta_path):
    sys.meta_path.append(_MissingModuleFinder())
