"""Generate the API map, ``docs/reference/index.md``: each PyTorch API implemented here,
the file that implements it, and PyTorch's documentation page for it.

    python -m docs_tools.api_map           # write the page
    python -m docs_tools.api_map --check   # fail if the page is not current

A name is listed when minitorch_hooks defines it (in its own files) *and* real PyTorch
has it at the same path, so generating the page needs ``torch``; names that exist only
here (our helpers) are not PyTorch APIs and are left out. ``tests/docs/test_api_map.py``
runs the check, so the page follows the code.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import sys
from pathlib import Path
from typing import Any

from minitorch_hooks._missing import is_missing

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "minitorch_hooks"
PAGE = ROOT / "docs" / "reference" / "index.md"
DOCS = "https://docs.pytorch.org/docs/2.13/"
SOURCE = "https://github.com/pytorch/pytorch/blob/v2.13.0/"

# (heading, PyTorch's path, our path, what to list: its functions and classes, only its
# plain functions, or the members of a class)
SECTIONS = [
    ("Top level: `torch`", "torch", "minitorch_hooks", "functions"),
    ("Tensors: `torch.Tensor`", "torch.Tensor", "minitorch_hooks.Tensor", "members"),
    ("Autograd: `torch.autograd`", "torch.autograd", "minitorch_hooks.autograd", "functions"),
    ("Graph nodes: `torch.autograd.graph.Node`", "torch.autograd.graph.Node",
     "minitorch_hooks.autograd.graph.Node", "members"),
    ("Multi-grad and saved-tensor hooks: `torch.autograd.graph`", "torch.autograd.graph",
     "minitorch_hooks.autograd.graph", "plain functions"),
    ("", "torch.autograd.graph", "minitorch_hooks.autograd.saved_tensors", "functions"),
    ("Layers: `torch.nn`", "torch.nn", "minitorch_hooks.nn", "functions"),
    ("Modules: `torch.nn.Module`", "torch.nn.Module", "minitorch_hooks.nn.Module", "members"),
    ("Global module hooks: `torch.nn.modules.module`", "torch.nn.modules.module",
     "minitorch_hooks.nn.modules.module", "plain functions"),
    ("`torch.nn.functional`", "torch.nn.functional", "minitorch_hooks.nn.functional",
     "functions"),
    ("`torch.nn.init`", "torch.nn.init", "minitorch_hooks.nn.init", "functions"),
    ("`torch.nn.utils` and `torch.nn.utils.prune`", "torch.nn.utils",
     "minitorch_hooks.nn.utils", "functions"),
    ("", "torch.nn.utils.prune", "minitorch_hooks.nn.utils.prune", "functions"),
    ("Optimisers: `torch.optim`", "torch.optim", "minitorch_hooks.optim", "functions"),
    ("Hook helpers: `torch.utils.hooks`", "torch.utils.hooks", "minitorch_hooks.utils.hooks",
     "functions"),
]


def resolve(path: str) -> Any:
    """``a.b.C`` as an object: import the longest module prefix, then get attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


def _source_file(candidate: Any) -> str | None:
    """Where ``candidate`` is written. A class that names its public module
    (``Tensor.__module__`` is ``minitorch_hooks``) is found by its own methods' code."""
    if inspect.isclass(candidate):
        for member in vars(candidate).values():
            if inspect.isfunction(member):
                return member.__code__.co_filename
    return inspect.getsourcefile(inspect.unwrap(candidate))


def defining_file(obj: Any) -> str | None:
    """The file of minitorch_hooks that defines ``obj``, relative to the repository."""
    for candidate in (obj, getattr(obj, "fget", None), getattr(obj, "__func__", None),
                      type(obj)):
        if candidate is None:
            continue
        try:
            file = _source_file(candidate)
        except (TypeError, ValueError):
            continue
        if file and Path(file).resolve().is_relative_to(PACKAGE):
            return Path(file).resolve().relative_to(ROOT).as_posix()
    return None


def doc_url(qualname: str, obj: Any) -> str:
    """PyTorch's documentation page for ``qualname``, by the rules its docs follow."""
    owner, _, name = qualname.rpartition(".")
    if owner == "torch.nn.Module":
        return f"{DOCS}generated/torch.nn.Module.html#{qualname}"
    if owner == "torch.nn.init":
        return f"{DOCS}nn.init.html#{qualname}"
    if owner == "torch.autograd.graph":  # documented on the autograd page itself
        return f"{DOCS}autograd.html#{qualname}"
    if owner == "torch.utils.hooks":
        return f"{SOURCE}torch/utils/hooks.py"
    if type(obj).__name__ == "dtype":
        return f"{DOCS}tensor_attributes.html#torch.dtype"
    special = {"torch.Size": "size.html", "torch.device": "tensor_attributes.html#torch.device",
               "torch.dtype": "tensor_attributes.html#torch.dtype", "torch.Tensor": "tensors.html",
               "torch.nn.Parameter": "generated/torch.nn.parameter.Parameter.html",
               "torch.optim.Optimizer": "optim.html#torch.optim.Optimizer",
               "torch.autograd.Function": "autograd.html#torch.autograd.Function",
               "torch.autograd.FunctionCtx": "autograd.html#context-method-mixins"}
    if qualname in special:
        return DOCS + special[qualname]
    return f"{DOCS}generated/{qualname}.html"


def _defined_for(home: str, our_path: str) -> bool:
    """Whether a name whose ``__module__`` is ``home`` belongs to the module ``our_path``:
    defined there, or in a private module beside it (``nn/_functional_conv.py`` for
    ``nn/functional.py``)."""
    package, _, file = home.rpartition(".")
    return home == our_path or (package == our_path.rpartition(".")[0]
                                and file.startswith("_"))


def rows(torch_path: str, our_path: str, take: str) -> list[tuple[str, str, str]]:
    ours, theirs = resolve(our_path), resolve(torch_path)
    names = [name for name in dir(ours) if not name.startswith("_")]
    found = []
    for name in sorted(names, key=str.lower):
        obj = inspect.getattr_static(ours, name) if take == "members" else getattr(ours, name)
        if inspect.ismodule(obj) or is_missing(obj) or not hasattr(theirs, name):
            continue  # (a missing tensor attribute is a descriptor that says so: left out)
        # A module file lists what it defines; what it merely imports is listed where it
        # is defined. (Packages, like ``torch`` itself, list their re-exports, and a module
        # lists what a private file beside it defines for it: ``nn.functional`` the
        # convolutions of ``nn/_functional_conv.py``.)
        if take == "plain functions" and not inspect.isfunction(obj):
            continue
        if take != "members" and not hasattr(ours, "__path__") and \
                not _defined_for(getattr(obj, "__module__", our_path), our_path):
            continue
        file = defining_file(obj)
        if file is None:
            continue
        # (Its module is the one it names, or the file it is written in: a class may name
        # its public home, ``saved_tensors_hooks`` is ``torch.autograd.graph``'s.)
        homes = {getattr(obj, "__module__", our_path), file.removesuffix(".py").replace("/", ".")}
        if take != "members" and not hasattr(ours, "__path__") and our_path not in homes:
            continue
        qualname = f"{torch_path}.{name}"
        found.append((qualname, doc_url(qualname, obj), file))
    return found


def render() -> str:
    import torch

    lines = [
        "# API map",
        "",
        "<!-- Generated by `python -m docs_tools.api_map`; do not edit by hand. -->",
        "",
        "Every PyTorch API that minitorch_hooks implements, the file here that implements it,",
        "and PyTorch's own documentation of it. A name is listed when minitorch_hooks defines",
        f"it and PyTorch {torch.__version__.split('+')[0]} has it at the same path. Read the",
        "file here first, then PyTorch's page: the names, signatures and behaviour are",
        "meant to be the same (the [conformance page](../conformance.md) says where they",
        "are checked, and the few places where they differ on purpose).",
        "",
        "The pages [Tensor](tensor.md), [Module](module.md), [Autograd](autograd.md) and",
        "[Hook machinery](hooks.md) show the docstrings of the parts that matter most for",
        "hooks.",
    ]
    for heading, torch_path, our_path, take in SECTIONS:
        if heading:  # an empty heading continues the table above
            lines += ["", f"## {heading}", "", "| PyTorch API | implemented in |",
                      "| --- | --- |"]
        lines += [f"| [`{qualname}`]({url}) | `{file}` |"
                  for qualname, url, file in rows(torch_path, our_path, take)]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    if "--check" in argv:
        if current == text:
            return 0
        diff = "".join(difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                            "committed", "from the code now"))
        print(f"{PAGE.relative_to(ROOT)} is not current; run: python -m docs_tools.api_map"
              f"\n{diff}")
        return 1
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
