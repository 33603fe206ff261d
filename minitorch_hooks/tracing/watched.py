"""``WatchedHook``: a stand-in that records each call of a hook and otherwise is the hook.

A trace sees a hook fire by calling it through this stand-in. It must not change what the
hook does or how it looks: the result and any exception pass through untouched, attribute
reads (``__name__``, which error messages quote; a pruning method's ``_tensor_name``) go to
the hook, and ``isinstance`` sees the hook's class, because PyTorch finds some of its own
hooks that way (``torch.nn.utils.prune.remove`` looks for a ``BasePruningMethod``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# record(hook, args) is called as the hook is entered; it returns finish(result, error).
Finish = Callable[[Any, "BaseException | None"], None]
Record = Callable[[Callable[..., Any], tuple], Finish]
# How a trace is told of a call: begin(kind, owner, hook, args), returning finish.
Begin = Callable[[str, Any, Callable[..., Any], tuple], Finish]


class WatchedHook:
    """``hook``, reporting each call to ``record``.

    ``record`` is a plain function (a closure), never a bound method: ``copy.deepcopy``
    of a module copies its hooks, and copies functions by reference, so a copied model
    keeps reporting to the same trace instead of to a copy of it.
    """

    def __init__(self, hook: Callable[..., Any], record: Record) -> None:
        self.__dict__["_hook"] = hook
        self.__dict__["_record"] = record

    def __call__(self, *args: Any) -> Any:
        finish = self._record(self._hook, args)
        try:
            result = self._hook(*args)
        except BaseException as error:
            finish(None, error)
            raise
        finish(result, None)
        return result

    def __getattr__(self, name: str) -> Any:
        # Read through __dict__: during copying, this runs before _hook exists.
        if "_hook" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.__dict__["_hook"], name)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # what isinstance() asks once type() did not match
        return type(self.__dict__.get("_hook", self))

    def __repr__(self) -> str:
        return repr(self._hook)
