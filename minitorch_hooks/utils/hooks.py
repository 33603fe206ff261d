"""The hook machinery shared by tensors, graph nodes and modules.

Every hook in PyTorch is one pattern (the ``Package`` of exercise 1): a component runs its own
steps and, at a fixed point, calls whatever the user registered there, in registration
order; a hook that returns something other than ``None`` replaces the value.
:func:`call_hooks` is that pattern, written once. :class:`RemovableHandle` is what every
``register_*`` method returns so the hook can be taken out again.

Because every hook passes through here, this is also where ``minitorch_hooks.hook_trace`` watches
them: each call site names its hook point (``site="forward hook"``) and the object that owns
the hooks, and while a trace is active each hook is called through a stand-in that records
the call. With no trace active that costs one ``is None`` test per hook, and nothing at all
where no hook is registered.
See <https://docs.pytorch.org/docs/2.13/notes/autograd.html#backward-hooks-execution>
"""

from __future__ import annotations

import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import minitorch_hooks

T = TypeVar("T")

# The trace that records hook calls (``minitorch_hooks.hook_trace``), or None when none is active.
_active_tracer: Any = None


def call_hooks(
    hooks: Iterable[tuple[int, Callable[..., Any]]],
    value: T,
    call: Callable[[int, Callable[..., Any], T], Any],
    *,
    site: str | None = None,
    owner: Any = None,
) -> T:
    """Call each registered hook in order; a non-``None`` result replaces the value.

    ``hooks`` holds ``(handle id, hook)`` pairs. ``call(hook_id, hook, value)`` invokes
    one hook with the arguments its kind expects and checks what it returned. The pairs
    are copied first, as PyTorch does, so a hook that registers or removes hooks does not
    disturb the call in progress. ``site`` (the kind of hook point) and ``owner`` (the
    module, tensor or node whose hooks these are) are only for a trace to report.
    """
    for hook_id, hook in tuple(hooks):
        if _active_tracer is not None and site is not None:
            hook = _active_tracer.watch(site, owner, hook_id, hook)
        result = call(hook_id, hook, value)
        if result is not None:
            value = result
    return value


def traced(hook: Callable[..., Any], site: str, owner: Any, hook_id: int | None = None
           ) -> Callable[..., Any]:
    """``hook`` itself, or while a trace is active a stand-in that records its call: for
    the few hook loops that do not go through :func:`call_hooks`."""
    if _active_tracer is None:
        return hook
    return _active_tracer.watch(site, owner, hook_id, hook)


def library_hook(hook: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a hook that minitorch_hooks registers for its own use, such as the node hooks
    of :class:`BackwardHook`: a trace shows what the user registered, not our plumbing."""
    hook.__minitorch_library_hook__ = True  # type: ignore[attr-defined]
    return hook


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
        # One plain loop, as in PyTorch: this runs twice at every call of a hooked module.
        indices, tensors, requires_grad = [], [], False
        for index, arg in enumerate(args):
            # Through the package, as PyTorch does with ``torch.``: this module is imported
            # before Tensor exists, and an import statement here would run at every call.
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
        @library_hook
        def hook(grad_input: tuple, _grad_output: tuple) -> tuple | None:
            if self.grad_outputs is None:
                return None  # the gradient did not come through the module's outputs
            packed = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            packed = call_hooks(self.user_hooks, packed, self._call_backward_hook,
                                site="backward hook", owner=self.module)
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, packed)

        args, self.input_tensors_index = self._apply_on_tensors(
            lambda node: node.register_hook(hook), args)
        self.n_inputs = len(args)
        return args

    def _call_backward_hook(self, hook_id: int, hook: Callable, grad_input: tuple) -> Any:
        result = hook(self.module, grad_input, self.grad_outputs)
        if result is not None and len(result) != len(grad_input):
            raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                               f"got {len(result)}, but expected {len(grad_input)}")
        return result

    def setup_output_hook(self, result: Any) -> Any:
        """Wrap the outputs; the node there records ``grad_output`` and runs the
        backward pre-hooks (and the backward hooks, when no input needs a gradient)."""
        @library_hook
        def hook(_grad_input: tuple, grad_output: tuple) -> tuple | None:
            self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output,
                                                     self.n_outputs)
            self.grad_outputs = call_hooks(self.user_pre_hooks, self.grad_outputs,
                                           self._call_backward_pre_hook,
                                           site="backward pre-hook", owner=self.module)
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

    def _call_backward_pre_hook(self, hook_id: int, hook: Callable, grad_output: tuple) -> Any:
        result = hook(self.module, grad_output)
        if result is not None and len(result) != len(grad_output):
            raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                               f"got {len(result)}, but expected {len(grad_output)}")
        return result

    def _run_hooks_without_input_grads(self) -> None:
        warnings.warn(
            "Full backward hook is firing when gradients are computed with respect to module "
            "outputs since no inputs require gradients. See "
            "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn."
            "Module.register_full_backward_hook for more details.", UserWarning, stacklevel=2)
        grad_inputs = (None,) * self.n_inputs
        for hook_id, hook in tuple(self.user_hooks):
            hook = traced(hook, "backward hook", self.module, hook_id)
            result = hook(self.module, grad_inputs, self.grad_outputs)
            if result is not None and not (isinstance(result, tuple)
                                           and all(r is None for r in result)):
                raise RuntimeError("Backward hook for Modules where no input requires "
                                   "gradient should always return None or None for all "
                                   "gradients.")
        self.grad_outputs = None
