"""How a trace names what a hook belongs to: ``encoder.0 (Linear)``, ``0.weight``, ``x``.

A module is named as ``named_modules()`` names it, relative to the outermost module the
trace knows of. It knows the roots given to ``hook_trace(model)``, and every module that
registered a sub-module, parameter or buffer while the trace was active (a global
registration hook tells it), so a model built inside the traced block is named too.
Names are looked up when a hook fires, from the model as it is then: a registration hook
that swaps a layer for another does not leave the trace with a stale name.

A tensor is named by the ``names`` given to the trace, else as a parameter or buffer of a
known module (``0.weight``), else by what it is: ``leaf tensor [2, 3]``, or
``output of MulBackward0`` for a tensor an operation made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .kinds import describe, is_module


def _tensor_key(tensor: Any) -> tuple:
    """A non-leaf is known by the node and output that made it: during backward our
    engine knows only those, not the tensor itself."""
    if isinstance(tensor, tuple):  # (node, output_nr), as our engine reports a non-leaf
        node, output_nr = tensor
        return ("output", id(node), output_nr)
    if tensor.grad_fn is not None:
        return ("output", id(tensor.grad_fn), tensor.output_nr)
    return ("leaf", id(tensor))


class Names:
    """The names a trace gives to modules, tensors and graph nodes."""

    def __init__(self, roots: Iterable[Any], names: Mapping[str, Any]) -> None:
        self.roots = list(roots)
        self.parents: dict[int, Any] = {}  # modules that registered something, by id
        # Each entry keeps the object itself (and a tensor's grad_fn) alive, so that the
        # id it is keyed by cannot be reused by another object while the trace runs.
        self.given: dict[tuple, tuple[Any, str]] = {}
        for name, obj in names.items():
            key = ("module", id(obj)) if is_module(obj) else _tensor_key(obj)
            self.given[key] = ((obj, getattr(obj, "grad_fn", None)), name)
        self._known: dict[tuple, tuple[Any, str]] | None = None

    def registered(self, parent: Any) -> None:
        """A module registered something: remember it, and look names up afresh."""
        self.parents[id(parent)] = parent
        self._known = None

    def forget(self) -> None:
        self.parents.clear()
        self._known = None

    def _known_names(self) -> dict[tuple, tuple[Any, str]]:
        """Every module, parameter and buffer under a known module, by its longest
        qualified name (the one seen from the outermost module)."""
        if self._known is None:
            known: dict[tuple, tuple[Any, str]] = {}

            def keep(key: tuple, obj: Any, name: str) -> None:
                if key not in known or len(name) > len(known[key][1]):
                    known[key] = (obj, name)

            for top in [*self.roots, *self.parents.values()]:
                for name, module in top.named_modules():
                    keep(("module", id(module)), module, name)
                for name, tensor in [*top.named_parameters(), *top.named_buffers()]:
                    keep(("leaf", id(tensor)), tensor, name)
            self._known = known
        return self._known

    def module(self, module: Any) -> str:
        key = ("module", id(module))
        if key in self.given:
            return self.given[key][1]
        name = self._known_names().get(key, (None, ""))[1]
        return f"{name} ({type(module).__name__})" if name else type(module).__name__

    def module_order(self) -> list[str]:
        """The names of the known modules, in the order ``named_modules()`` gives them."""
        return [self.module(obj) for key, (obj, _) in self._known_names().items()
                if key[0] == "module"]

    def tensor(self, tensor: Any) -> str:
        """``tensor`` is a tensor, or ``(node, output_nr)`` for a non-leaf (our engine)."""
        key = _tensor_key(tensor)
        if key in self.given:
            return self.given[key][1]
        if key[0] == "leaf":
            if key in self._known_names():
                return self._known_names()[key][1]
            what = "parameter" if type(tensor).__name__ == "Parameter" else "leaf tensor"
            return f"{what} {describe(tensor)}"
        node, output_nr = tensor if isinstance(tensor, tuple) else (tensor.grad_fn,
                                                                    tensor.output_nr)
        output = f"output {output_nr}" if output_nr else "output"
        return f"{output} of {node.name()}"

    @staticmethod
    def node(node: Any) -> str:
        return node.name()
