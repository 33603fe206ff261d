"""Write ``minitorch_hooks/pytorch_names.txt``: PyTorch 2.13's public names, read once
from real PyTorch, for the error a missing name raises and for the API coverage page.

    python -m docs_tools.pytorch_names           # write the file (PyTorch 2.13.0 installed)
    python -m docs_tools.pytorch_names --check   # fail if the file is not what PyTorch says

A public name is one ``dir()`` shows without a leading underscore, minus what a namespace
only imported for itself: another library's modules (``torch.os``), typing helpers
(``torch.nn.functional.Optional``). The namespaces are those a PyTorch program reaches
through attributes (``torch``, ``torch.Tensor``, ``torch.nn``, ``torch.nn.functional``,
``torch.optim``, and the submodules of which minitorch_hooks has a part: ``torch.autograd``,
``torch.distributions`` and its ``constraints``, ``torch.multiprocessing``,
``torch.nn.parallel``); the modules are every public module of the ``torch`` package, three dots
deep at most, which ``import torch.X`` may name. The file is plain text, one name a line
under a ``[namespace]`` heading, so that a diff shows what a new release changed.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "minitorch_hooks" / "pytorch_names.txt"
NAMESPACES = ["torch", "torch.Tensor", "torch.nn", "torch.nn.functional", "torch.optim",
              "torch.autograd", "torch.distributions", "torch.distributions.constraints",
              "torch.multiprocessing", "torch.nn.parallel"]
MODULES = "modules"  # the heading of the list of submodules
HEADER = ("# PyTorch 2.13.0's public names by namespace, and its public modules; written by "
          "`python -m docs_tools.pytorch_names`.\n")


def _is_its_own(value: Any, namespace: str) -> bool:
    """Whether a namespace's attribute is PyTorch's, not a library it imported (nor the
    package above it, such as the ``torch`` that ``torch.autograd`` imported)."""
    if inspect.ismodule(value):
        name = value.__name__
        return name.split(".")[0] == "torch" and not (namespace + ".").startswith(name + ".")
    module = getattr(value, "__module__", None)
    return not isinstance(module, str) or module.split(".")[0] in ("torch", "builtins")


def public_names(namespace: str) -> list[str]:
    """The public names of one of PyTorch's namespaces (a module or ``torch.Tensor``)."""
    import torch

    owner = torch.Tensor if namespace == "torch.Tensor" else importlib.import_module(namespace)
    names = []
    for name in dir(owner):
        if name.startswith("_"):
            continue
        try:
            value = inspect.getattr_static(owner, name)
        except AttributeError:
            continue
        if namespace == "torch.Tensor" or _is_its_own(value, namespace):
            names.append(name)
    return sorted(names)


def public_modules() -> list[str]:
    """Every public module of the ``torch`` package, ``torch.a.b.c`` deep at most."""
    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = {info.name for info in pkgutil.walk_packages(torch.__path__, "torch.",
                                                              onerror=lambda name: None)}
    return sorted(name for name in found if name.count(".") <= 3
                  and not any(part.startswith("_") for part in name.split(".")))


def text() -> str:
    """The file's content, from the installed PyTorch."""
    import torch

    if torch.__version__.split("+")[0] != "2.13.0":
        raise SystemExit(f"needs PyTorch 2.13.0, found {torch.__version__}")
    sections = [(namespace, public_names(namespace)) for namespace in NAMESPACES]
    sections.append((MODULES, public_modules()))
    return HEADER + "".join(f"\n[{title}]\n" + "".join(f"{n}\n" for n in names)
                            for title, names in sections)


def read(path: Path = DATA) -> dict[str, list[str]]:
    """The file as ``{namespace: names}`` (and ``"modules"``: the module names)."""
    sections: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
        elif line and not line.startswith("#"):
            current.append(line)
    return sections


def main(argv: list[str]) -> int:
    new = text()
    if "--check" in argv:
        if DATA.read_text() != new:
            print(f"{DATA.relative_to(ROOT)} is not what PyTorch says: run "
                  "python -m docs_tools.pytorch_names", file=sys.stderr)
            return 1
        return 0
    DATA.write_text(new)
    print(f"wrote {DATA.relative_to(ROOT)}: " + ", ".join(
        f"{title} {len(names)}" for title, names in read().items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
