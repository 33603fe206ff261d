"""The hook machinery shared by tensors, graph nodes, modules and optimisers.

Every hook in PyTorch is one pattern (the ``Package`` of exercise 1): a component runs its own
steps and, at a fixed point, calls whatever the user registered there, in registration
order. This file writes that pattern once, as pluggy writes its hook specifications:

* :data:`HOOK_POINTS`, the table of fixed points. Each row is the authority on its kind of
  hook: what a hook receives, which ``register_*`` methods put one there, where its
  hooks are kept, and the rule for what a hook returns (:class:`Result`);
* :func:`add_hook`, the one way a hook is registered, returning a :class:`RemovableHandle`
  so that it can be taken out again;
* :func:`call_hooks`, the one way hooks are called: it applies the point's rule for results
  itself, so a call site only says how to call one hook and what a wrong result is.

A call site hands :func:`call_hooks` one :class:`Hook` record per registered hook: its handle
id, the function, whether it is a global hook, and its flags (``with_kwargs``,
``always_call``). The dictionaries that hold the hooks stay shaped as PyTorch's.
Because every hook passes through :func:`call_hooks`, ``minitorch_hooks.hook_trace`` can watch
them there (:func:`watch_hooks`).
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#backward-hooks-execution>
"""

from __future__ import annotations

import enum
import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")


# -- the table of hook points ---------------------------------------------------------------

class Result(enum.Enum):
    """What happens to what a hook returns: each hook point declares one of these, and
    :func:`call_hooks` applies it."""

    REPLACES = "a result other than None replaces the value: the next hook, and the caller, get it"
    IGNORED = "the result is ignored"
    MUST_BE_NONE = "a result other than None is an error (the point's ``error``)"
    # PyTorch runs post-accumulate-grad hooks with its tensor-hook loop: a returned tensor
    # is handed to the next hook, and only after the last one does the error come.
    NONE_AFTER_ALL = ("a result other than None is handed to the next hook, then, after the "
                      "last one, is an error (the point's ``error``)")
    IS_THE_VALUE = ("the result is the value (a single hook, a pack or unpack hook, whose "
                    "value starts as None)")


@dataclass(frozen=True)
class HookPoint:
    """A fixed point where hooks are called: one row of :data:`HOOK_POINTS`.

    * ``name``, ``phase`` and ``owner`` (what its hooks belong to: "module", "tensor",
      "node", "optimizer" or "context", a ``with`` block);
    * ``signatures``: the parameter names after the module or optimiser, one tuple per way
      PyTorch calls this kind (a forward hook registered ``with_kwargs=True`` also receives
      ``kwargs``);
    * ``result``: the rule for what a hook returns, and ``error``, PyTorch's message when a
      hook breaks a "must be None" rule;
    * ``register``: the owner's methods that register a hook here, and ``register_global``
      the function that registers one for every owner (empty if there is none);
    * ``attributes``: the owner's dictionaries for these hooks, the hooks first, then the
      flags kept beside them by handle id, as PyTorch keeps them.
    """

    name: str
    phase: str  # "forward", "backward", "state_dict", "registration" or "step"
    owner: str  # "module", "tensor", "node", "optimizer" or "context" (a ``with`` block)
    signatures: tuple[tuple[str, ...], ...]
    result: Result
    error: tuple[type[Exception], str] | None = None
    register: tuple[str, ...] = ()
    register_global: str = ""
    attributes: tuple[str, ...] = ()

    def parameter_names(self, count: int) -> tuple[str, ...]:
        for names in self.signatures:
            if len(names) == count:
                return names
        return tuple(f"arg{i}" for i in range(count))


_GRADS = (("grad_input", "grad_output"),)
_LOAD_PRE = ("state_dict", "prefix", "local_metadata", "strict", "missing_keys",
             "unexpected_keys", "error_msgs")
_REPLACES, _IGNORED, _MUST_BE_NONE = Result.REPLACES, Result.IGNORED, Result.MUST_BE_NONE
_NONE_AFTER_ALL = Result.NONE_AFTER_ALL

TENSOR_HOOK = HookPoint("tensor hook", "backward", "tensor", (("grad",),), _REPLACES,
                        register=("register_hook",))
POST_ACCUMULATE_GRAD_HOOK = HookPoint(
    "post-accumulate-grad hook", "backward", "tensor", (("tensor",),), Result.NONE_AFTER_ALL,
    (RuntimeError, "Tensor post accumulate grad hooks should return None."),
    register=("register_post_accumulate_grad_hook",))
NODE_PRE_HOOK = HookPoint("node pre-hook", "backward", "node", (("grad_outputs",),),
                          _REPLACES, register=("register_prehook",))
NODE_HOOK = HookPoint("node hook", "backward", "node", (("grad_inputs", "grad_outputs"),),
                      _REPLACES, register=("register_hook",))
PACK_HOOK = HookPoint("pack hook", "forward", "context", (("tensor",),), Result.IS_THE_VALUE)
UNPACK_HOOK = HookPoint("unpack hook", "backward", "context", (("packed",),),
                        Result.IS_THE_VALUE)
FORWARD_PRE_HOOK = HookPoint(
    "forward pre-hook", "forward", "module", (("args",), ("args", "kwargs")), _REPLACES,
    register=("register_forward_pre_hook",),
    register_global="register_module_forward_pre_hook",
    attributes=("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs"))
FORWARD_HOOK = HookPoint(
    "forward hook", "forward", "module", (("args", "output"), ("args", "kwargs", "output")),
    _REPLACES, register=("register_forward_hook",),
    register_global="register_module_forward_hook",
    attributes=("_forward_hooks", "_forward_hooks_with_kwargs",
                "_forward_hooks_always_called"))
BACKWARD_PRE_HOOK = HookPoint(
    "backward pre-hook", "backward", "module", (("grad_output",),), _REPLACES,
    register=("register_full_backward_pre_hook",),
    register_global="register_module_full_backward_pre_hook",
    attributes=("_backward_pre_hooks",))
BACKWARD_HOOK = HookPoint(
    "backward hook", "backward", "module", _GRADS, _REPLACES,
    register=("register_full_backward_hook",),
    register_global="register_module_full_backward_hook", attributes=("_backward_hooks",))
# The deprecated kind: kept in the same dictionary as the full one (a module's backward
# hooks are all of one kind), called at a node of the module's last operation.
LEGACY_BACKWARD_HOOK = HookPoint(
    "backward hook (legacy)", "backward", "module", _GRADS, _REPLACES,
    register=("register_backward_hook",), register_global="register_module_backward_hook",
    attributes=("_backward_hooks",))
# The private ``_register_state_dict_hook`` puts a hook here that may replace the dict;
# one registered by the public method must return None (a check of ``state_dict``'s).
STATE_DICT_PRE_HOOK = HookPoint("state_dict pre-hook", "state_dict", "module",
                                (("prefix", "keep_vars"),), _IGNORED,
                                register=("register_state_dict_pre_hook",),
                                attributes=("_state_dict_pre_hooks",))
STATE_DICT_POST_HOOK = HookPoint("state_dict post-hook", "state_dict", "module",
                                 (("state_dict", "prefix", "local_metadata"),), _REPLACES,
                                 register=("register_state_dict_post_hook",),
                                 attributes=("_state_dict_hooks",))
LOAD_STATE_DICT_PRE_HOOK = HookPoint("load_state_dict pre-hook", "state_dict", "module",
                                     (_LOAD_PRE,), _IGNORED,
                                     register=("register_load_state_dict_pre_hook",),
                                     attributes=("_load_state_dict_pre_hooks",))
LOAD_STATE_DICT_POST_HOOK = HookPoint(
    "load_state_dict post-hook", "state_dict", "module", (("incompatible_keys",),),
    _MUST_BE_NONE, (AssertionError, "Hooks registered with "
                    "``register_load_state_dict_post_hook`` are not expected to return new "
                    "values, if incompatible_keys need to be modified, it should be done "
                    "inplace."),
    register=("register_load_state_dict_post_hook",),
    attributes=("_load_state_dict_post_hooks",))
# Registration hooks exist only for every module at once.
MODULE_REGISTRATION_HOOK = HookPoint(
    "module registration hook", "registration", "module", (("name", "module"),), _REPLACES,
    register_global="register_module_module_registration_hook")
PARAMETER_REGISTRATION_HOOK = HookPoint(
    "parameter registration hook", "registration", "module", (("name", "param"),), _REPLACES,
    register_global="register_module_parameter_registration_hook")
BUFFER_REGISTRATION_HOOK = HookPoint(
    "buffer registration hook", "registration", "module", (("name", "buffer"),), _REPLACES,
    register_global="register_module_buffer_registration_hook")
# An optimiser's hooks; ``args`` of a step hook starts with the optimiser itself.
STEP_PRE_HOOK = HookPoint("step pre-hook", "step", "optimizer", (("args", "kwargs"),),
                          _REPLACES, register=("register_step_pre_hook",),
                          register_global="register_optimizer_step_pre_hook",
                          attributes=("_optimizer_step_pre_hooks",))
STEP_POST_HOOK = HookPoint("step post-hook", "step", "optimizer", (("args", "kwargs"),),
                           _IGNORED, register=("register_step_post_hook",),
                           register_global="register_optimizer_step_post_hook",
                           attributes=("_optimizer_step_post_hooks",))
OPTIMIZER_STATE_DICT_PRE_HOOK = HookPoint(
    "optimizer state_dict pre-hook", "state_dict", "optimizer", ((),), _IGNORED,
    register=("register_state_dict_pre_hook",),
    attributes=("_optimizer_state_dict_pre_hooks",))
OPTIMIZER_STATE_DICT_POST_HOOK = HookPoint(
    "optimizer state_dict post-hook", "state_dict", "optimizer", (("state_dict",),),
    _REPLACES, register=("register_state_dict_post_hook",),
    attributes=("_optimizer_state_dict_post_hooks",))
OPTIMIZER_LOAD_STATE_DICT_PRE_HOOK = HookPoint(
    "optimizer load_state_dict pre-hook", "state_dict", "optimizer", (("state_dict",),),
    _REPLACES, register=("register_load_state_dict_pre_hook",),
    attributes=("_optimizer_load_state_dict_pre_hooks",))
OPTIMIZER_LOAD_STATE_DICT_POST_HOOK = HookPoint(
    "optimizer load_state_dict post-hook", "state_dict", "optimizer", ((),), _IGNORED,
    register=("register_load_state_dict_post_hook",),
    attributes=("_optimizer_load_state_dict_post_hooks",))

HOOK_POINTS: dict[str, HookPoint] = {point.name: point for point in (
    TENSOR_HOOK, POST_ACCUMULATE_GRAD_HOOK, NODE_PRE_HOOK, NODE_HOOK, PACK_HOOK, UNPACK_HOOK,
    FORWARD_PRE_HOOK, FORWARD_HOOK, BACKWARD_PRE_HOOK, BACKWARD_HOOK, LEGACY_BACKWARD_HOOK,
    STATE_DICT_PRE_HOOK, STATE_DICT_POST_HOOK, LOAD_STATE_DICT_PRE_HOOK,
    LOAD_STATE_DICT_POST_HOOK, MODULE_REGISTRATION_HOOK, PARAMETER_REGISTRATION_HOOK,
    BUFFER_REGISTRATION_HOOK, STEP_PRE_HOOK, STEP_POST_HOOK, OPTIMIZER_STATE_DICT_PRE_HOOK,
    OPTIMIZER_STATE_DICT_POST_HOOK, OPTIMIZER_LOAD_STATE_DICT_PRE_HOOK,
    OPTIMIZER_LOAD_STATE_DICT_POST_HOOK)}


def hook_dicts(owner: str) -> dict[str, OrderedDict]:
    """Fresh, empty hook dictionaries for a new module or optimiser (``owner``), one per
    name in the table's ``attributes``: a kind added to the table gets its dictionary."""
    return {name: OrderedDict() for point in HOOK_POINTS.values() if point.owner == owner
            for name in point.attributes}


# -- registering and calling ----------------------------------------------------------------

def add_hook(hooks: OrderedDict, hook: Callable, *, prepend: bool = False,
             flag_dicts: Sequence[OrderedDict] = (), flags: Sequence[bool] = (),
             memory: RecordMemory | None = None) -> RemovableHandle:
    """Register ``hook`` in ``hooks`` under a new handle id (at the front with ``prepend``).

    Flags kept beside a hook (``with_kwargs``, ``always_call``) live, as in PyTorch, in
    side dictionaries keyed by the same id: ``flags[i]`` set marks the hook in
    ``flag_dicts[i]``, and removing the hook removes the marks too. The owner's
    :class:`RecordMemory`, if it has one, is kept beside the hooks the same way: removing
    the hook forgets the records that hold it.
    """
    check_callable(hook)
    beside = [*flag_dicts] if memory is None else [*flag_dicts, memory]
    handle = RemovableHandle(hooks, extra_dict=beside)
    hooks[handle.id] = hook
    for flag_dict, enabled in zip(flag_dicts, flags):
        if enabled:
            flag_dict[handle.id] = True
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


class Hook(NamedTuple):
    """One registered hook as the call site sees it: its handle ``id``, the function
    ``fn``, whether it is a global hook (``register_module_forward_hook``...), and the
    dictionaries of its flags, by flag name (None when no hook of its dictionary has a
    flag)."""

    id: int | None
    fn: Callable[..., Any]
    is_global: bool = False
    flag_dicts: Mapping[str, Mapping[int, bool]] | None = None

    def has(self, flag: str) -> bool:
        """Whether the hook carries ``flag`` now. Read as the hook is called, as PyTorch
        reads ``hook_id in self._forward_hooks_with_kwargs``: a hook that an earlier hook
        removed is still called (the loop runs over a copy), but without its flags."""
        flags = self.flag_dicts
        return flags is not None and flag in flags and self.id in flags[flag]


def hooks_in(hooks: Mapping[int, Callable[..., Any]] | None, is_global: bool = False,
             **flag_dicts: Mapping[int, bool]) -> tuple[Hook, ...]:
    """The records of the hooks in one of PyTorch's hook dictionaries, in order; each
    keyword names a flag and gives the dictionary it is kept in. (An empty one is left
    out: no hook of this call can carry that flag.)"""
    if not hooks:
        return ()
    flags = {name: marked for name, marked in flag_dicts.items() if marked} or None
    # ``tuple.__new__`` is what a NamedTuple's own ``_make`` calls: one record per hook,
    # without a Python-level constructor call for each.
    return tuple([tuple.__new__(Hook, (hook_id, fn, is_global, flags))
                  for hook_id, fn in hooks.items()])


class RecordMemory:
    """The records an owner made of each of its own hook dictionaries, kept by the owner
    (a module has one) until the dictionary changes.

    A module is called far more often than its hooks change, so its records are made
    once per state of a dictionary, not at every call. Each call still reads the
    dictionary's items, the copy PyTorch takes of its dictionaries at every call, and
    makes the records anew when they differ from what the remembered ones were made
    from, or when another flag dictionary is in use. So a hook registered, removed, or
    written into a dictionary by hand (``clear()``, ``del``, a new function under an id,
    a flag, a plain ``dict`` put in place) is seen at the next call, as in PyTorch.

    The memory belongs to its owner and to nothing else: it holds the hook functions, as
    the dictionaries beside it do, so a hook that refers to its own module makes a cycle
    the collector frees with the module. A global hook is held by no module's memory
    (the global dictionaries' records are made at each call): a memory outside the
    owners would keep alive whatever a hook refers to, a deleted module included. For
    the same reason a hook's handle treats the memory as one more dictionary kept beside
    the hooks (``extra_dict``, like the flags): ``hook_id in memory`` says whether some
    remembered records hold the hook, and ``remove()`` deletes them, so a removed hook
    is let go at once. (A hook deleted from a dictionary by hand, which leaves its flags
    behind in PyTorch too, is let go at the module's next call.) A copy of the owner
    (``copy.deepcopy``, pickling) starts with an empty memory.
    """

    __slots__ = ("_made", "__weakref__")

    def __init__(self) -> None:
        # dictionary's attribute name -> (what the records were made from, the records)
        self._made: dict[str, tuple[tuple, tuple[Hook, ...]]] = {}

    def __reduce__(self) -> tuple[type[RecordMemory], tuple[()]]:
        return RecordMemory, ()

    def __contains__(self, hook_id: object) -> bool:
        """Whether some remembered records hold the hook registered under ``hook_id``."""
        return bool(self._holding(hook_id))

    def __delitem__(self, hook_id: int) -> None:
        """Forget the records that hold the hook ``hook_id`` (its handle's ``remove()``)."""
        for name in self._holding(hook_id):
            del self._made[name]

    def _holding(self, hook_id: object) -> list[str]:
        return [name for name, (_, records) in self._made.items()
                if any(record.id == hook_id for record in records)]

    def hooks_in(self, name: str, hooks: Mapping[int, Callable[..., Any]],
                 **flag_dicts: Mapping[int, bool]) -> tuple[Hook, ...]:
        """:func:`hooks_in` for the owner's dictionary ``name``: the remembered records
        while the dictionary holds what they were made from, and the same flag
        dictionaries are in use (compared by identity: a flag dictionary put in place by
        hand is read from then on)."""
        if not hooks:
            return ()
        # The items, and the identities of the flag dictionaries that have entries.
        made_from = (tuple(hooks.items()), [id(marked) for marked in flag_dicts.values()
                                            if marked])
        made = self._made.get(name)
        if made is None or made[0] != made_from:
            made = self._made[name] = (made_from, hooks_in(hooks, **flag_dicts))
        return made[1]


def library_hook(hook: Callable[..., T]) -> Callable[..., T]:
    """Mark a hook that minitorch_hooks registers for its own use (the node hooks of a full
    backward hook, ``save_on_cpu``'s, a trace's own): :func:`call_hooks` calls it like any
    other but shows it to no watcher, as a PyTorch trace never sees PyTorch's own hooks."""
    hook.__minitorch_library_hook__ = True  # type: ignore[attr-defined]
    return hook


# Who watches the hooks as they are called (``minitorch_hooks.hook_trace``), or None.
_active_tracer: Any = None


def call_hooks(point: HookPoint, owner: Any, hooks: Iterable[Hook], value: T,
               call: Callable[[Hook, T], Any]) -> T:
    """Call each hook at ``point`` in order, and apply the point's rule to its result.

    ``hooks`` holds one :class:`Hook` record per hook, and ``owner`` is the module, tensor,
    node or optimiser they belong to. ``call(hook, value)`` invokes ``hook.fn`` with the
    arguments its kind expects, checks that a result is one PyTorch accepts (raising
    PyTorch's error if not), and returns it. Then ``point.result`` decides, here and
    nowhere else, what the result does (:class:`Result`). The records are copied first, as
    PyTorch copies its dictionaries, so a hook that registers or removes hooks does not
    disturb the call in progress.
    """
    __tracebackhide__ = True  # noqa: F841 - pytest leaves this frame out of a hook's error
    rule, returned = point.result, False
    for hook in tuple(hooks):
        if _active_tracer is not None and not getattr(hook.fn, "__minitorch_library_hook__",
                                                      False):
            hook = Hook(hook.id, _active_tracer.watch(point, owner, hook), hook.is_global,
                        hook.flag_dicts)
        result = call(hook, value)
        if result is None or rule is _IGNORED:
            continue
        if rule is _MUST_BE_NONE:
            raise _error(point)
        value, returned = result, True  # REPLACES, IS_THE_VALUE, and NONE_AFTER_ALL until
    if returned and rule is _NONE_AFTER_ALL:  # the end
        raise _error(point)
    return value


def _error(point: HookPoint) -> Exception:
    kind, message = point.error or (RuntimeError, f"a {point.name} must return None")
    return kind(message)


def call_single_hook(point: HookPoint, owner: Any, hook: Callable[..., Any], *args: Any) -> Any:
    """One hook that is not kept in a dictionary (a pack or unpack hook): its result,
    whatever it is, through :func:`call_hooks`."""
    __tracebackhide__ = True  # noqa: F841
    return call_hooks(point, owner, (Hook(None, hook),), None, lambda h, _: h.fn(*args))


def watch_hooks(watcher: Any) -> None:
    """Hand every hook about to be called to ``watcher.watch(point, owner, hook)``, which
    returns the function to call instead; None stops watching. The library's own hooks
    (:func:`library_hook`) are not handed over."""
    global _active_tracer
    _active_tracer = watcher


def check_callable(hook: object) -> None:
    """Refuse a hook that cannot be called when it is registered.

    PyTorch accepts it and fails with the same TypeError only when the hook fires, far
    from the mistake; failing at registration points at the line to fix.
    """
    if not callable(hook):
        raise TypeError(f"hook must be callable, but got '{type(hook).__name__}'")


# -- how PyTorch names a type in its errors ---------------------------------------------------
# PyTorch has two rules, and each error message uses the one of the code that raises it.

def type_name(value: object) -> str:
    """The name of ``value``'s type as PyTorch's C++ prints it (``tp_name``): a class
    written in Python is just its name (``tuple``, ``Tensor``); a type written in C
    outside the builtins carries its module, so a hook that returns a NumPy array is
    told it returned a ``'numpy.ndarray'``."""
    kind = type(value)
    if kind.__flags__ & _HEAP_TYPE or kind.__module__ == "builtins":
        return kind.__name__
    return f"{kind.__module__}.{kind.__qualname__}"


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: the type was created by a class statement


def typename(value: object) -> str:
    """The name PyTorch's Python code prints (``torch.typename``): a tensor by its legacy
    type (``torch.FloatTensor``), anything else as ``module.QualifiedName``, without the
    module for builtins."""
    legacy_name = getattr(getattr(value, "dtype", None), "legacy_name", None)
    if legacy_name is not None:  # a tensor (a NumPy array's dtype has no legacy name)
        return legacy_name
    kind = type(value)
    module = kind.__module__
    return kind.__qualname__ if module in ("builtins", "__builtin__", None) else \
        f"{module}.{kind.__qualname__}"


class RemovableHandle:
    """A handle that removes one hook from the dictionaries it was registered in.

    It refers to those dictionaries weakly, so keeping a handle does not keep a module or a
    tensor alive; ``remove()`` is safe to call twice and after the owner is gone.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.utils.hooks.RemovableHandle.html>
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


class BackwardHook:
    """How a module's full backward hooks are built, with identity nodes.

    ``Module.__call__`` passes the module's tensor inputs through an identity autograd
    Function before ``forward``, and its outputs through another one after. In backward,
    the gradient reaches the output identity first: that is where ``grad_output`` is
    known and the backward *pre*-hooks run. It then flows through the module's own graph
    to the input identity, where ``grad_input`` is known and the backward hooks run.

    This explains what learners find odd: ``grad_input`` has one entry per positional
    argument (``None`` for non-tensors), and when no input requires grad the hooks fire
    at the outputs instead, with a warning. The two node hooks are named ``hook`` as in
    PyTorch, because the engine names a hook in its errors about a bad replacement grad.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook>
    """

    def __init__(self, module: Any, user_hooks: list[Hook], user_pre_hooks: list[Hook],
                 apply_identity: Callable[[tuple], tuple[tuple, list[int] | None, Any]]
                 ) -> None:
        self.module = module
        self.user_hooks = user_hooks  # global hooks first
        self.user_pre_hooks = user_pre_hooks
        # How the tensors in a tuple go through the identity Function: given by the module
        # (``nn/modules/_functions.py: apply_identity``), because this file sits below
        # autograd and nn, which are built on it.
        self.apply_identity = apply_identity
        self.grad_outputs: tuple | None = None
        self.n_inputs = self.n_outputs = -1
        self.input_tensors_index: list[int] | None = None
        self.output_tensors_index: list[int] | None = None

    @staticmethod
    def _pack_with_none(indices: list[int], values: Any, size: int) -> tuple:
        """Gradients for the tensor positions, ``None`` everywhere else."""
        packed = [None] * size
        for index, value in zip(indices, values):
            packed[index] = value
        return tuple(packed)

    @staticmethod
    def _unpack_none(indices: list[int], values: Any) -> tuple:
        return tuple([values[index] for index in indices])

    def _apply_on_tensors(self, hook: Callable, args: tuple) -> tuple[tuple, list[int] | None]:
        """Route the tensors in ``args`` through the identity and put ``hook`` on its node;
        nothing happens when no tensor needs a gradient."""
        args, indices, node = self.apply_identity(args)
        if node is not None:
            node.register_hook(library_hook(hook))
        return args, indices

    def setup_input_hook(self, args: tuple) -> tuple:
        """Wrap the inputs; the node there runs the user's backward hooks."""
        def hook(grad_input: tuple, _grad_output: tuple) -> tuple | None:
            if self.grad_outputs is None:
                # The gradient reached the inputs without passing through the module's
                return None  # outputs, e.g. when you're doing double backward.
            packed = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            packed = call_hooks(BACKWARD_HOOK, self.module, self.user_hooks, packed,
                                self._call_backward_hook)
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, packed)

        args, self.input_tensors_index = self._apply_on_tensors(hook, args)
        self.n_inputs = len(args)
        return args

    def _call_backward_hook(self, hook: Hook, grad_input: tuple) -> Any:
        result = hook.fn(self.module, grad_input, self.grad_outputs)
        return _same_length(result, grad_input, "Backward hook", "grad_input")

    def setup_output_hook(self, result: Any) -> Any:
        """Wrap the outputs; the node there records ``grad_output`` and runs the
        backward pre-hooks (and the backward hooks, when no input needs a gradient)."""
        def hook(_grad_input: tuple, grad_output: tuple) -> tuple | None:
            self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output,
                                                     self.n_outputs)
            self.grad_outputs = call_hooks(BACKWARD_PRE_HOOK, self.module, self.user_pre_hooks,
                                           self.grad_outputs, self._call_backward_pre_hook)
            grad_outputs = self.grad_outputs
            if self.input_tensors_index is None:
                self._run_hooks_without_input_grads()
            return self._unpack_none(self.output_tensors_index, grad_outputs)

        is_tuple = isinstance(result, tuple)
        outputs = result if is_tuple else (result,)
        outputs, self.output_tensors_index = self._apply_on_tensors(hook, outputs)
        self.n_outputs = len(outputs)
        return outputs if is_tuple else outputs[0]

    def _call_backward_pre_hook(self, hook: Hook, grad_output: tuple) -> Any:
        result = hook.fn(self.module, grad_output)
        return _same_length(result, grad_output, "Backward pre hook", "grad_output")

    def _run_hooks_without_input_grads(self) -> None:
        warnings.warn(
            "Full backward hook is firing when gradients are computed with respect to module "
            "outputs since no inputs require gradients. See "
            "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn."
            "Module.register_full_backward_hook for more details.", UserWarning, stacklevel=2)
        call_hooks(BACKWARD_HOOK, self.module, self.user_hooks, (None,) * self.n_inputs,
                   self._call_backward_hook_without_input_grads)
        self.grad_outputs = None

    def _call_backward_hook_without_input_grads(self, hook: Hook, grad_input: tuple
                                                ) -> None:
        result = hook.fn(self.module, grad_input, self.grad_outputs)
        if result is not None and not (isinstance(result, tuple)
                                       and all(r is None for r in result)):
            raise RuntimeError("Backward hook for Modules where no input requires "
                               "gradient should always return None or None for all "
                               "gradients.")


def _same_length(result: Any, grads: tuple, who: str, what: str) -> Any:
    """A module backward hook's result: None, or one entry per gradient it was given."""
    if result is not None and len(result) != len(grads):
        raise RuntimeError(f"{who} returned an invalid number of {what}, "
                           f"got {len(result)}, but expected {len(grads)}")
    return result
