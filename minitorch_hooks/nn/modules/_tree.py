"""Walking the tree of modules: ``named_modules``, ``parameters``, ``get_submodule``,
``apply``..., and printing it (``repr``).

``Module`` inherits these methods from :class:`TreeMixin`; PyTorch writes them in
``torch/nn/modules/module.py`` itself. What asks "is this a module?" (``get_submodule``,
``set_submodule``) is in ``module.py``, beside ``Module``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.named_modules>
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..._tensor import Tensor
from ..parameter import Parameter

if TYPE_CHECKING:
    from .module import Module


def _addindent(text: str, spaces: int) -> str:
    """Indent every line but the first: how nested module reprs line up."""
    first, *rest = text.split("\n")
    if not rest:
        return text
    return "\n".join([first] + [" " * spaces + line if line.strip() else "" for line in rest])


class TreeMixin:
    """The sub-modules, parameters and buffers of a module and of everything inside it.

    It reads the three registries that ``Module.__init__`` sets up (``module.py:
    _fresh_state``) and ``Module.__setattr__`` fills, and follows dotted paths with
    ``Module.get_submodule``; it sets nothing itself.
    """

    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _modules: dict[str, Module | None]

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """This module and every module inside it, with dotted names (``encoder.0``)."""
        memo = set() if memo is None else memo
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name,
                                                remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry: str, prefix: str, recurse: bool,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in getattr(module, registry).items():
                if value is None or value in seen:
                    continue
                if remove_duplicate:
                    seen.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Every parameter once (a shared one under its first name)."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at a dotted path such as ``"encoder.0.weight"``.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.get_parameter>
        """
        _, name, param = self._get_member(target)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at a dotted path such as ``"norm.running_mean"``.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.get_buffer>
        """
        module, name, buffer = self._get_member(target)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return buffer

    def _get_member(self, target: str) -> tuple[Module, str, Any]:
        """For ``get_parameter`` and ``get_buffer``: the module that the path up to the last
        dot leads to (found as ``get_submodule`` finds it), the last name, and what that
        name holds there."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        return module, name, getattr(module, name)

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every sub-module, children first, then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- printing ---------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text inside this module's parentheses in ``repr``; layers override it."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        lines = self.extra_repr().split("\n") if self.extra_repr() else []
        lines += [f"({name}): {_addindent(repr(module), 2)}"
                  for name, module in self._modules.items()]
        main = self._get_name() + "("
        if lines:
            if len(lines) == 1 and not self._modules:
                main += lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __dir__(self) -> list[str]:
        keys = [*dir(type(self)), *self.__dict__, *self._parameters, *self._modules,
                *self._buffers]
        return sorted(key for key in keys if not key[0].isdigit())
