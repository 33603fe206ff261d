"""The hook machinery shared by tensors, graph nodes and modules.

Every hook in PyTorch is one pattern (seed 003's ``Package``): a component runs its own
steps and, at a fixed point, calls whatever the user registered there, in registration
order; a hook that returns something other than ``None`` replaces the value.
:func:`call_hooks` is that pattern, written once. :class:`RemovableHandle` is what every
``register_*`` method returns so the hook can be taken out again.
See https://pytorch.org/docs/stable/notes/autograd.html#backward-hooks-execution
"""

from __future__ import annotations

import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")


def call_hooks(
    hooks: Iterable[tuple[int, Callable[..., Any]]],
    value: T,
    call: Callable[[int, Callable[..., Any], T], Any],
) -> T:
    """Call each registered hook in order; a non-``None`` result replaces the value.

    ``hooks`` holds ``(handle id, hook)`` pairs. ``call(hook_id, hook, value)`` invokes
    one hook with the arguments its kind expects and checks what it returned. The pairs
    are copied first, as PyTorch does, so a hook that registers or removes hooks does not
    disturb the call in progress.
    """
    for hook_id, hook in tuple(hooks):
        result = call(hook_id, hook, value)
        if result is not None:
            value = result
    return value


class RemovableHandle:
    """A handle that removes one hook from the dictionaries it was registered in.

    It refers to those dictionaries weakly, so keeping a handle does not keep a module or a
    tensor alive; ``remove()`` is safe to call twice and after the owner is gone.
    See https://pytorch.org/docs/stable/generated/torch.utils.hooks.RemovableHandle.html
    """

    id: int
    next_id: int = 0

    def __init__(self, hooks_dict: Any, *, extra_dict: Any = None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        # Flags kept beside the hook (``with_kwargs``, ``always_call``) live in extra
        # dictionaries keyed by the same id; removing the hook removes them too.
        if extra_dict is None:
            extra_dict = []
        elif not isinstance(extra_dict, list):
            extra_dict = [extra_dict]
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self) -> None:
        """Take the hook out; doing it again, or after the owner is gone, does nothing."""
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            hooks_dict = ref()
            if hooks_dict is not None and self.id in hooks_dict:
                del hooks_dict[self.id]

    def __getstate__(self) -> tuple:
        hooks_dict = self.hooks_dict_ref()
        extras = tuple(ref() for ref in self.extra_dict_ref)
        return (hooks_dict, self.id, extras)

    def __setstate__(self, state: tuple) -> None:
        hooks_dict, self.id, extras = state
        # A handle unpickled without its dictionary points at an empty one, like PyTorch's.
        self.hooks_dict_ref = weakref.ref(OrderedDict() if hooks_dict is None else hooks_dict)
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extras if d is not None)
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


def warn_if_has_hooks(tensor: Any) -> None:
    """Hooks are functions, which pickling does not keep: warn instead of dropping silently."""
    for hook in (tensor._backward_hooks or {}).values():
        if not hasattr(hook, "__torch_unserializable__"):
            warnings.warn(f"backward hook {hook!r} on tensor will not be serialized.  If this "
                          "is expected, you can decorate the function with "
                          "@torch.utils.hooks.unserializable_hook to suppress this warning",
                          stacklevel=2)


def unserializable_hook(f: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a hook as deliberately not saved by pickling, silencing the warning above."""
    f.__torch_unserializable__ = True  # type: ignore[attr-defined]
    return f
