"""Activation checkpointing: trade compute for memory by keeping fewer activations for
backward and computing them again when backward needs them, mirroring
``torch/utils/checkpoint.py``.

``checkpoint(fn, *args)`` runs ``fn`` so that the tensors its operations would save for
backward are *not* kept; only ``fn``'s inputs are. When backward reaches ``fn``'s part of
the graph, ``fn`` runs a second time, from those inputs, to make the saved tensors again.
So everything inside ``fn`` (module forward hooks included) runs twice: once in forward,
once during backward. There are two ways to arrange that, chosen by ``use_reentrant``:

* ``use_reentrant=True`` (:class:`CheckpointFunction`): ``fn`` runs inside a custom
  ``autograd.Function`` under ``no_grad``, so no graph is recorded for it at all. The
  Function's backward reruns ``fn`` with gradients on and calls ``torch.autograd.backward``
  on that fresh graph: a backward inside the backward, hence "reentrant". The Function's
  output requires grad only if one of its tensor *inputs* does, so with an input that
  needs no gradient (the first layer of a network), nothing inside gets a gradient and
  the modules' backward hooks never fire.
* ``use_reentrant=False`` (:func:`_checkpoint_without_reentrant_generator`): ``fn`` runs
  normally, recording its graph, but under a pair of saved-tensor hooks
  (``torch.autograd.graph.saved_tensors_hooks``): the pack hook keeps an empty holder in
  place of each tensor, the unpack hook reruns ``fn`` the first time backward needs one of
  them and hands out the recomputed tensors. The graph and its hooks are the ordinary ones,
  so ``autograd.grad``, keyword arguments and inputs without gradients all work.

PyTorch 2.13 still defaults to the reentrant variant and warns when ``use_reentrant`` is
not given; it recommends ``use_reentrant=False``.

Left out here: ``debug=True`` (PyTorch logs every operator through a dispatch mode),
selective checkpointing (``create_selective_checkpoint_contexts``), autocast, and the
GPU generators' states (there are no GPUs; the CPU generator is preserved as in PyTorch).
See <https://docs.pytorch.org/docs/2.13/checkpoint.html>
"""

from __future__ import annotations

import contextlib
import uuid
import warnings
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any, NoReturn

from .. import random
from .._C._autograd import _make_saved_tensor
from .._tensor import Tensor
from ..autograd import Function, backward, enable_grad, is_grad_enabled, no_grad
from ..autograd.graph import _is_checkpoint_valid, current_graph_task_id
from ..autograd.saved_tensors import SavedTensor, saved_tensors_hooks
from ..nn.modules.container import Sequential

__all__ = ["CheckpointError", "CheckpointFunction", "check_backward_validity", "checkpoint",
           "checkpoint_sequential", "detach_variable", "noop_context_fn",
           "set_checkpoint_debug_enabled", "set_checkpoint_early_stop"]

_DEFAULT_DETERMINISM_MODE = "default"
_checkpoint_debug_enabled: bool | None = None


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None) -> Iterator[None]:
    """Within the block, every non-reentrant checkpoint takes ``debug=enabled`` whatever it
    was passed (``None``: each its own). Debug mode is not implemented here."""
    global _checkpoint_debug_enabled
    try:
        prev = _checkpoint_debug_enabled
        _checkpoint_debug_enabled = enabled
        yield
    finally:
        _checkpoint_debug_enabled = prev


def detach_variable(inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """Each tensor of ``inputs`` detached, keeping its ``requires_grad``: new leaves, so the
    recomputed graph ends at them and its backward leaves their gradients in ``.grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs: Iterable[Any]) -> None:
    """Warn when no tensor input requires grad: the reentrant checkpoint's output then does
    not either, and nothing inside the checkpoint will get a gradient."""
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)


# -- use_reentrant=True: a custom Function that runs a backward inside its backward -------------

class CheckpointFunction(Function):
    """``fn`` run without a graph in forward, and again with one in backward."""

    @staticmethod
    def forward(ctx: Any, run_function: Callable, preserve_rng_state: bool, *args: Any) -> Any:
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = random.get_rng_state()
        # Non-tensor inputs are kept on ctx; tensors are saved for backward, with a None in
        # their place until then.
        ctx.inputs = []
        ctx.tensor_indices = []
        tensor_inputs = []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with no_grad():  # (a Function's forward runs under no_grad anyway)
            outputs = run_function(*args)
        return outputs

    @staticmethod
    def backward(ctx: Any, *args: Any) -> tuple[Any, ...]:
        if not _is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = list(ctx.inputs)
        for i, idx in enumerate(ctx.tensor_indices):
            inputs[idx] = ctx.saved_tensors[i]
        # Recompute with the random numbers forward drew (dropout masks must be the same),
        # then put the generator back where backward found it.
        with random.fork_rng(devices=[], enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                random.set_rng_state(ctx.fwd_cpu_state)
            detached_inputs = detach_variable(tuple(inputs))
            with enable_grad():
                outputs = ctx.run_function(*detached_inputs)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        # The backward inside the backward, from the outputs that require grad.
        outputs_with_grad = []
        args_with_grad = []
        for i in range(len(outputs)):
            if isinstance(outputs[i], Tensor) and outputs[i].requires_grad:
                outputs_with_grad.append(outputs[i])
                args_with_grad.append(args[i])
        if len(outputs_with_grad) == 0:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        backward(outputs_with_grad, args_with_grad)
        grads = tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached_inputs)
        return (None, None) + grads


def noop_context_fn() -> tuple[AbstractContextManager, AbstractContextManager]:
    """The default ``context_fn``: nothing around the forward or the recomputation."""
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function: Callable, *args: Any, use_reentrant: bool | None = None,
               context_fn: Callable[[], tuple[Any, Any]] = noop_context_fn,
               determinism_check: str = _DEFAULT_DETERMINISM_MODE, debug: bool = False,
               early_stop: bool = True, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``, keeping only its inputs for backward and running it
    again when backward needs what it saved. ``preserve_rng_state=True`` (the default)
    makes the second run draw the same random numbers as the first.

    ``use_reentrant`` should be given: without it PyTorch 2.13 warns and takes ``True``.
    Keyword arguments for ``function``, ``context_fn`` (two context managers: one around
    the forward, one around the recomputation), ``determinism_check`` and ``early_stop``
    are for ``use_reentrant=False`` only.
    See <https://docs.pytorch.org/docs/2.13/checkpoint.html#torch.utils.checkpoint.checkpoint>
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    gen = _checkpoint_without_reentrant_generator(
        function, preserve, context_fn, determinism_check, debug, early_stop, *args, **kwargs)
    next(gen)  # before the forward: the saved-tensor hooks go in force
    try:
        ret = function(*args, **kwargs)
    except BaseException as e:
        try:
            gen.throw(e)
        except StopIteration as stop:
            raise RuntimeError(
                "torch.utils.checkpoint: the forward context provided by context_fn "
                "suppressed an exception raised during the checkpointed forward. This is not "
                "supported because checkpoint cannot return a value for a failed forward."
            ) from stop
        raise
    try:
        next(gen)  # after the forward: the hooks come off
    except StopIteration:
        return ret
    raise AssertionError("torch.utils.checkpoint: expected context_fn generator to yield "
                         "exactly twice, but it yielded more than twice.")


def checkpoint_sequential(functions: Any, segments: int, input: Any,
                          use_reentrant: bool | None = None, **kwargs: Any) -> Any:
    """Run ``functions`` (a ``Sequential`` or a list of modules or functions) one after
    the other on ``input``, in ``segments`` chunks, each checkpointed but the last (whose
    output backward needs at once).
    See <https://docs.pytorch.org/docs/2.13/checkpoint.html#torch.utils.checkpoint.checkpoint_sequential>
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve "
            "the current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start: int, end: int, functions: list) -> Callable:
        def forward(input: Any) -> Any:
            for j in range(start, end + 1):
                input = functions[j](input)
            return input

        return forward

    if isinstance(functions, Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input,
                           use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)


# -- use_reentrant=False: saved-tensor hooks that recompute on unpack --------------------------
#
# PyTorch's rules (its note "Nestable Checkpoint"), which the code below follows:
# 1. A saved tensor is managed by the innermost checkpoint only.
# 2. The inputs of a checkpoint are saved tensors of its parent checkpoint, so unpacking
#    them may recompute the parent first.
# 3. Recomputation starts as if no checkpoint were active.
# 4. A recomputed tensor is dropped as soon as it is unpacked, even with retain_graph=True.
# 5. Recomputation stops as soon as every tensor backward needs has been made again
#    (``early_stop``), by raising _StopRecomputationError from the pack hook.

_enable_checkpoint_early_stop: bool | None = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool) -> Iterator[None]:
    """Whether checkpoints whose forward runs in this block stop recomputing as soon as
    they have what backward needs (the default) or run the whole function again."""
    global _enable_checkpoint_early_stop
    try:
        prev = _enable_checkpoint_early_stop
        _enable_checkpoint_early_stop = enable
        yield
    finally:
        _enable_checkpoint_early_stop = prev


class _Handle:
    """The key of one recomputed tensor, for one backward."""


class _Holder:
    """What the pack hook keeps instead of a tensor: nothing yet, then, per backward (graph
    task id), the handle under which its recomputed tensor waits."""

    def __init__(self) -> None:
        self.handles: dict[int, _Handle | None] = {}


class CheckpointError(RuntimeError):
    """The recomputation saved other tensors than the forward did."""


_debug_tip_msg = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


def _internal_assert(cond: bool) -> None:
    if not cond:
        raise AssertionError("Something went unexpectedly wrong in activation checkpoint. "
                             "Please report this bug by filing an issue to PyTorch.")


def _default_meta_extractor(x: Tensor) -> dict[str, Any]:
    """What the default determinism check compares: cheap to get, easy to read."""
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_allowed_determinism_checks_to_fns: dict[str, Callable[[Tensor], Any]] = {
    _DEFAULT_DETERMINISM_MODE: _default_meta_extractor,
    "none": lambda _: None,
}


class _CheckpointFrame:
    """One checkpointed call: its saved inputs, a weak reference to the holder of every
    tensor its forward saved, and the tensors each backward recomputed."""

    def __init__(self, recompute_fn: Callable, early_stop: bool,
                 metadata_fn: Callable[[Tensor], Any]) -> None:
        self.recompute_fn = recompute_fn
        self.saved_args: list[Any] = []
        self.weak_holders: list[weakref.ReferenceType] = []
        # Weak keys, so that what a partial backward frees goes with its holder.
        self.recomputed: defaultdict[int, weakref.WeakKeyDictionary[_Handle, Tensor]] = \
            defaultdict(weakref.WeakKeyDictionary)
        self.recomp_counter: defaultdict[int, int] = defaultdict(int)
        self.is_recomputed: defaultdict[int, bool] = defaultdict(bool)
        self.early_stop = early_stop
        self.metadata_fn = metadata_fn
        self.x_metadatas: list[Any] = []
        self.forward_completed = False
        self.ignore_saved_mismatch = False

    def save_inputs(self, *args: Any) -> None:
        # Saved as an operation saves a tensor: through an outer checkpoint's hooks (rule 2).
        self.saved_args = [_make_saved_tensor(arg, is_output=False)
                           if isinstance(arg, Tensor) else arg for arg in args]

    def get_inputs(self) -> list[Any]:
        return [arg.unpack() if isinstance(arg, SavedTensor) else arg
                for arg in self.saved_args]

    def check_recomputed_tensors_match(self, gid: int) -> None:
        """The recomputation must save as many tensors as the forward, alike in shape,
        dtype and device: else the function is not deterministic enough to checkpoint."""
        if self.ignore_saved_mismatch:
            return
        if not len(self.weak_holders) == self.recomp_counter[gid]:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.weak_holders)}\n"
                f"Number of tensors saved during recomputation: {self.recomp_counter[gid]}.\n"
                f"{_debug_tip_msg}")
        nb_meta_different = []
        for idx, weak_holder in enumerate(self.weak_holders):
            holder = weak_holder()
            if holder is None:
                continue
            _internal_assert(gid in holder.handles)
            _internal_assert(holder.handles[gid] is not None)
            _internal_assert(holder.handles[gid] in self.recomputed[gid])
            x_meta = self.x_metadatas[idx]
            recomputed_x = self.recomputed[gid][holder.handles[gid]]
            if x_meta != self.metadata_fn(recomputed_x):
                nb_meta_different.append((idx, x_meta, self.metadata_fn(recomputed_x)))
        if len(nb_meta_different) > 0:
            mismatched_tensors = ""
            for idx, x_meta, recomputed_meta in nb_meta_different:
                mismatched_tensors += (f"tensor at position {idx}:\n"
                                       f"saved metadata: {x_meta}\n"
                                       f"recomputed metadata: {recomputed_meta}\n")
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                "different metadata than during the forward pass.\n"
                f"{mismatched_tensors}.\n{_debug_tip_msg}")


class _StopRecomputationError(Exception):
    """Raised by the recomputation's pack hook once everything needed is made (rule 5)."""


class _recomputation_hook(saved_tensors_hooks):  # noqa: N801 - torch's name
    """In force while the function runs again: each tensor it saves is put where the
    holder of the same tensor from the forward can find it."""

    def __init__(self, target_frame_ref: weakref.ReferenceType, gid: int) -> None:
        def pack_hook(x: Tensor) -> Tensor:
            x = x.detach() if x.requires_grad else x
            target_frame = target_frame_ref()
            if target_frame is None:
                raise AssertionError("Internal error: target_frame reference is None")
            recomp_idx = target_frame.recomp_counter[gid]
            target_frame.recomp_counter[gid] += 1
            if recomp_idx >= len(target_frame.weak_holders):
                if target_frame.early_stop:
                    raise AssertionError("Unexpected state: target_frame.early_stop is set")
                if not target_frame.forward_completed:
                    # A backward inside the checkpointed forward, without early stop.
                    target_frame.ignore_saved_mismatch = True
                    return x
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during "
                    f"recomputation than during the original forward pass.\n{_debug_tip_msg}")
            holder = target_frame.weak_holders[recomp_idx]()
            # Gone if a backward inside the forward already used it: nothing to keep.
            if holder is not None:
                _internal_assert(holder.handles.get(gid, None) is None)
                holder.handles[gid] = _Handle()
                target_frame.recomputed[gid][holder.handles[gid]] = x
            if target_frame.early_stop and \
                    target_frame.recomp_counter[gid] == len(target_frame.weak_holders):
                raise _StopRecomputationError
            return x

        def unpack_hook(x: Tensor) -> Tensor:
            return x

        super().__init__(pack_hook, unpack_hook)


class _checkpoint_hook(saved_tensors_hooks):  # noqa: N801 - torch's name
    """In force during the checkpointed forward: a holder is kept instead of each tensor,
    and unpacking the first of them in a backward recomputes them all."""

    def __init__(self, frame: _CheckpointFrame) -> None:
        def pack_hook(x: Tensor) -> _Holder:
            holder = _Holder()  # rule 4: a container that unpacking empties
            frame.weak_holders.append(weakref.ref(holder))
            if frame.metadata_fn is not None:
                with no_grad():
                    frame.x_metadatas.append(frame.metadata_fn(x))
            return holder

        def unpack_hook(holder: _Holder) -> Tensor:
            gid = current_graph_task_id()
            if gid == -1:  # unpacked outside any backward
                gid = int(uuid.uuid4())
            if not frame.is_recomputed[gid]:
                args = frame.get_inputs()
                try:
                    with _recomputation_hook(weakref.ref(frame), gid), enable_grad():
                        frame.recompute_fn(*args)
                except _StopRecomputationError:
                    pass
                frame.is_recomputed[gid] = True
                frame.check_recomputed_tensors_match(gid)
            _internal_assert(gid in holder.handles)
            if holder.handles[gid] is None:
                raise CheckpointError(
                    "torch.utils.checkpoint: Unpack is being triggered for a tensor that was "
                    "already unpacked once. If you are calling ctx.saved_tensors in backward, "
                    "make sure to do so only once. Otherwise please open an issue with details "
                    "on your use case.")
            _internal_assert(holder.handles[gid] in frame.recomputed[gid])
            ret = frame.recomputed[gid][holder.handles[gid]]
            holder.handles[gid] = None
            return ret

        super().__init__(pack_hook, unpack_hook)


def _checkpoint_without_reentrant_generator(
        fn: Callable, preserve_rng_state: bool = True,
        context_fn: Callable[[], tuple[Any, Any]] = noop_context_fn,
        determinism_check: str = _DEFAULT_DETERMINISM_MODE, debug: bool = False,
        early_stop: bool = True, *args: Any, **kwargs: Any) -> Iterator[None]:
    """Checkpointing without reentrant autograd, as a generator that :func:`checkpoint`
    steps twice: once before the forward (the hooks go in force), once after."""
    if _checkpoint_debug_enabled if _checkpoint_debug_enabled is not None else debug:
        _debug_not_implemented()
    if determinism_check in _allowed_determinism_checks_to_fns:
        metadata_fn = _allowed_determinism_checks_to_fns[determinism_check]
    else:
        raise ValueError("determinism_check should be one of "
                         f"{list(_allowed_determinism_checks_to_fns.keys())}, but got "
                         f"{determinism_check}")
    forward_context, recompute_context = context_fn()
    if preserve_rng_state:
        fwd_cpu_state = random.get_rng_state()

    def recompute_fn(*args: Any) -> None:
        # Runs during backward, with the random state of the forward; the generator is
        # put back afterwards.
        with random.fork_rng(devices=[], enabled=preserve_rng_state):
            if preserve_rng_state:
                random.set_rng_state(fwd_cpu_state)
            with recompute_context:
                fn(*args, **kwargs)

    new_frame = _CheckpointFrame(
        recompute_fn,
        _enable_checkpoint_early_stop if _enable_checkpoint_early_stop is not None
        else early_stop,
        metadata_fn)
    if not is_grad_enabled():  # nothing will be saved: run the forward as it is
        yield
        return
    new_frame.save_inputs(*args)
    forward_context_suppressed_exc = False
    with _checkpoint_hook(new_frame), forward_context:
        try:
            yield
        except BaseException:
            forward_context_suppressed_exc = True
            raise
    if forward_context_suppressed_exc:
        raise RuntimeError(
            "torch.utils.checkpoint: the forward context provided by context_fn suppressed an "
            "exception raised during the checkpointed forward. This is not supported because "
            "checkpoint cannot return a value for a failed forward.")
    new_frame.forward_completed = True


def _debug_not_implemented() -> NoReturn:
    raise NotImplementedError("torch.utils.checkpoint's debug=True is not implemented by "
                              "minitorch_hooks: it logs every operator through a dispatch "
                              "mode, which minitorch_hooks does not have")
