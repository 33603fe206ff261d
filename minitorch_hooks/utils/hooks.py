"""The hook machinery shared by tensors, graph nodes, modules and optimisers.

Every hook in PyTorch is one pattern (the ``Package`` of exercise 1): a component runs its own
steps and, at a fixed point, calls whatever the user registered there, in registration
order; a hook that returns something other than ``None`` replaces the value. This file
writes that pattern once:

* :data:`HOOK_POINTS`, the table of fixed points: each kind of hook, what it receives and
  what its return value may replace;
* :func:`add_hook`, the one way a hook is registered, returning a :class:`RemovableHandle`
  so that it can be taken out again;
* :func:`call_hooks`, the one way hooks are called.

Because every hook passes through :func:`call_hooks`, ``minitorch_hooks.hook_trace`` can watch
them there (:func:`watch_hooks`).
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#backward-hooks-execution>
"""

from __future__ import annotations

import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import minitorch_hooks

T = TypeVar("T")


# -- the table of hook points ---------------------------------------------------------------

@dataclass(frozen=True)
class HookPoint:
    """A fixed point where hooks are called: its name, its phase, what owns its hooks,
    the names of what a hook receives, and what a hook's return value may replace.

    ``signatures`` lists the parameter names after the module (for module hooks), one
    tuple per way PyTorch calls this kind: a forward hook registered ``with_kwargs=True``
    also receives ``kwargs``.
    """

    name: str
    phase: str  # "forward", "backward", "state_dict", "registration" or "step"
    owner: str  # "module", "tensor", "node", "optimizer" or "context" (a ``with`` block)
    signatures: tuple[tuple[str, ...], ...]
    returns: str  # what a returned value does

    def parameter_names(self, count: int) -> tuple[str, ...]:
        for names in self.signatures:
            if len(names) == count:
                return names
        return tuple(f"arg{i}" for i in range(count))


_GRADS = (("grad_input", "grad_output"),)
_ONLY_NONE = "must return None"
_LOAD_PRE = ("state_dict", "prefix", "local_metadata", "strict", "missing_keys",
             "unexpected_keys", "error_msgs")

TENSOR_HOOK = HookPoint("tensor hook", "backward", "tensor", (("grad",),),
                        "replaces the gradient (same dtype and size)")
POST_ACCUMULATE_GRAD_HOOK = HookPoint("post-accumulate-grad hook", "backward", "tensor",
                                      (("tensor",),), _ONLY_NONE)
NODE_PRE_HOOK = HookPoint("node pre-hook", "backward", "node", (("grad_outputs",),),
                          "replaces grad_outputs (a tuple of the same length)")
NODE_HOOK = HookPoint("node hook", "backward", "node", (("grad_inputs", "grad_outputs"),),
                      "replaces grad_inputs (a tuple of the same length)")
PACK_HOOK = HookPoint("pack hook", "forward", "context", (("tensor",),),
                      "is what is saved instead of the tensor")
UNPACK_HOOK = HookPoint("unpack hook", "backward", "context", (("packed",),),
                        "is the tensor backward uses")
FORWARD_PRE_HOOK = HookPoint("forward pre-hook", "forward", "module",
                             (("args",), ("args", "kwargs")),
                             "replaces args (or with_kwargs, (args, kwargs))")
FORWARD_HOOK = HookPoint("forward hook", "forward", "module",
                         (("args", "output"), ("args", "kwargs", "output")),
                         "replaces the output")
BACKWARD_PRE_HOOK = HookPoint("backward pre-hook", "backward", "module", (("grad_output",),),
                              "replaces grad_output")
BACKWARD_HOOK = HookPoint("backward hook", "backward", "module", _GRADS,
                          "replaces grad_input")
LEGACY_BACKWARD_HOOK = HookPoint("backward hook (legacy)", "backward", "module", _GRADS,
                                 "replaces the grad_input of the module's last operation")
STATE_DICT_PRE_HOOK = HookPoint("state_dict pre-hook", "state_dict", "module",
                                (("prefix", "keep_vars"),), "is ignored")
STATE_DICT_POST_HOOK = HookPoint("state_dict post-hook", "state_dict", "module",
                                 (("state_dict", "prefix", "local_metadata"),),
                                 "must be None (the private form may replace the dict)")
LOAD_STATE_DICT_PRE_HOOK = HookPoint("load_state_dict pre-hook", "state_dict", "module",
                                     (_LOAD_PRE,), "is ignored")
LOAD_STATE_DICT_POST_HOOK = HookPoint("load_state_dict post-hook", "state_dict", "module",
                                      (("incompatible_keys",),), _ONLY_NONE)
MODULE_REGISTRATION_HOOK = HookPoint("module registration hook", "registration", "module",
                                     (("name", "module"),), "is registered instead")
PARAMETER_REGISTRATION_HOOK = HookPoint("parameter registration hook", "registration",
                                        "module", (("name", "param"),),
                                        "is registered instead")
BUFFER_REGISTRATION_HOOK = HookPoint("buffer registration hook", "registration", "module",
                                     (("name", "buffer"),), "is registered instead")
# An optimiser's hooks; ``args`` of a step hook starts with the optimiser itself.
STEP_PRE_HOOK = HookPoint("step pre-hook", "step", "optimizer", (("args", "kwargs"),),
                          "replaces (args, kwargs)")
STEP_POST_HOOK = HookPoint("step post-hook", "step", "optimizer", (("args", "kwargs"),),
                           "is ignored")
OPTIMIZER_STATE_DICT_PRE_HOOK = HookPoint("optimizer state_dict pre-hook", "state_dict",
                                          "optimizer", ((),), "is ignored")
OPTIMIZER_STATE_DICT_POST_HOOK = HookPoint("optimizer state_dict post-hook", "state_dict",
                                           "optimizer", (("state_dict",),),
                                           "replaces the state dict")
OPTIMIZER_LOAD_STATE_DICT_PRE_HOOK = HookPoint("optimizer load_state_dict pre-hook",
                                               "state_dict", "optimizer", (("state_dict",),),
                                               "is loaded instead")
OPTIMIZER_LOAD_STATE_DICT_POST_HOOK = HookPoint("optimizer load_state_dict post-hook",
                                                "state_dict", "optimizer", ((),), "is ignored")

HOOK_POINTS: dict[str, HookPoint] = {point.name: point for point in (
    TENSOR_HOOK, POST_ACCUMULATE_GRAD_HOOK, NODE_PRE_HOOK, NODE_HOOK, PACK_HOOK, UNPACK_HOOK,
    FORWARD_PRE_HOOK, FORWARD_HOOK, BACKWARD_PRE_HOOK, BACKWARD_HOOK, LEGACY_BACKWARD_HOOK,
    STATE_DICT_PRE_HOOK, STATE_DICT_POST_HOOK, LOAD_STATE_DICT_PRE_HOOK,
    LOAD_STATE_DICT_POST_HOOK, MODULE_REGISTRATION_HOOK, PARAMETER_REGISTRATION_HOOK,
    BUFFER_REGISTRATION_HOOK, STEP_PRE_HOOK, STEP_POST_HOOK, OPTIMIZER_STATE_DICT_PRE_HOOK,
    OPTIMIZER_STATE_DICT_POST_HOOK, OPTIMIZER_LOAD_STATE_DICT_PRE_HOOK,
    OPTIMIZER_LOAD_STATE_DICT_POST_HOOK)}


# -- registering and calling ----------------------------------------------------------------

def add_hook(hooks: OrderedDict, hook: Callable, *, prepend: bool = False,
             flag_dicts: Sequence[OrderedDict] = (), flags: Sequence[bool] = ()
             ) -> RemovableHandle:
    """Register ``hook`` in ``hooks`` under a new handle id (at the front with ``prepend``).

    Flags kept beside a hook (``with_kwargs``, ``always_call``) live, as in PyTorch, in
    side dictionaries keyed by the same id: ``flags[i]`` set marks the hook in
    ``flag_dicts[i]``, and removing the hook removes the marks too.
    """
    check_callable(hook)
    handle = RemovableHandle(hooks, extra_dict=list(flag_dicts))
    hooks[handle.id] = hook
    for flag_dict, enabled in zip(flag_dicts, flags):
        if enabled:
            flag_dict[handle.id] = True
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


# Who watches the hooks as they are called (``minitorch_hooks.hook_trace``), or None.
_active_tracer: Any = None


def call_hooks(point: HookPoint, owner: Any, hooks: Iterable[tuple[Any, Callable[..., Any]]],
               value: T, call: Callable[[Callable[..., Any], T], Any]) -> T:
    """Call each hook at ``point`` in order; a non-``None`` result replaces the value.

    ``hooks`` holds ``(handle id, hook)`` pairs, and ``owner`` is the module, tensor or
    node they belong to. ``call(hook, value)`` invokes one hook with the arguments its kind
    expects and checks what it returned. The pairs are copied first, as PyTorch does, so a
    hook that registers or removes hooks does not disturb the call in progress.
    """
    __tracebackhide__ = True  # noqa: F841 - pytest leaves this frame out of a hook's error
    for hook_id, hook in tuple(hooks):
        if _active_tracer is not None:
            hook = _active_tracer.watch(point, owner, hook_id, hook)
        result = call(hook, value)
        if result is not None:
            value = result
    return value


def call_hook(point: HookPoint, owner: Any, hook: Callable[..., Any], *args: Any) -> Any:
    """One hook that is not kept in a dictionary (a pack or unpack hook): its result,
    whatever it is, through :func:`call_hooks`."""
    __tracebackhide__ = True  # noqa: F841
    return call_hooks(point, owner, ((None, hook),), None, lambda h, _: h(*args))


def watch_hooks(watcher: Any) -> None:
    """Hand every hook about to be called to ``watcher.watch(point, owner, hook_id, hook)``,
    which returns what to call instead; None stops watching."""
    global _active_tracer
    _active_tracer = watcher


def check_callable(hook: object) -> None:
    """Refuse a hook that cannot be called when it is registered.

    PyTorch accepts it and fails with the same TypeError only when the hook fires, far
    from the mistake; failing at registration points at the line to fix.
    """
    if not callable(hook):
        raise TypeError(f"hook must be callable, but got '{type(hook).__name__}'")


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

    def __init__(self, module: Any, user_hooks: list, user_pre_hooks: list) -> None:
        self.module = module
        self.user_hooks = user_hooks  # (id, hook) pairs: global hooks first
        self.user_pre_hooks = user_pre_hooks
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

    def _apply_on_tensors(self, on_node: Callable[[Any], None], args: tuple
                          ) -> tuple[tuple, list[int] | None]:
        """Route the tensors in ``args`` through the identity Function and hand its node
        to ``on_node``; nothing happens when no tensor needs a gradient."""
        indices, tensors, requires_grad = [], [], False
        for index, arg in enumerate(args):
            # Through the package, as PyTorch does with ``torch.``: this module is imported
            # before Tensor exists.
            if isinstance(arg, minitorch_hooks.Tensor):
                indices.append(index)
                tensors.append(arg)
                requires_grad = requires_grad or arg._requires_grad
        if not (requires_grad and minitorch_hooks.is_grad_enabled()):
            return args, None
        new_tensors = minitorch_hooks.nn.modules._functions.BackwardHookFunction.apply(*tensors)
        on_node([t.grad_fn for t in new_tensors if t.grad_fn is not None][0])
        replaced = list(args)
        for index, tensor in zip(indices, new_tensors):
            replaced[index] = tensor
        # A namedtuple output (``out.prod``) keeps its type, as in PyTorch.
        return (tuple(replaced) if type(args) is tuple else type(args)(*replaced)), indices

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

        args, self.input_tensors_index = self._apply_on_tensors(
            lambda node: node.register_hook(hook), args)
        self.n_inputs = len(args)
        return args

    def _call_backward_hook(self, hook: Callable, grad_input: tuple) -> Any:
        result = hook(self.module, grad_input, self.grad_outputs)
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
        outputs, self.output_tensors_index = self._apply_on_tensors(
            lambda node: node.register_hook(hook), outputs)
        self.n_outputs = len(outputs)
        return outputs if is_tuple else outputs[0]

    def _call_backward_pre_hook(self, hook: Callable, grad_output: tuple) -> Any:
        result = hook(self.module, grad_output)
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

    def _call_backward_hook_without_input_grads(self, hook: Callable, grad_input: tuple
                                                ) -> None:
        result = hook(self.module, grad_input, self.grad_outputs)
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
