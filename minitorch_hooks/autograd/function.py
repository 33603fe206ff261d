"""Custom operations: subclass :class:`Function`, write ``forward`` and ``backward``.

``MyOp.apply(x)`` makes one node, ``MyOpBackward``, runs ``forward`` without recording,
and connects the node to the outputs. The node *is* the ``ctx`` that ``forward`` and
``backward`` receive: what forward stores on it, ``out.grad_fn`` shows. Full backward
hooks on modules are built from exactly such a function (``BackwardHookFunction``, an
identity), which is why their grads appear at that node.
See <https://docs.pytorch.org/docs/2.13/notes/extending.html#extending-torch-autograd>
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._tensor import Tensor, wrap
from ..utils.hooks import type_name
from .grad_mode import _State, no_grad
from .graph import _FREED, Node, SavedTensor


class FunctionCtx:
    """What ``forward`` (or ``setup_context``) calls on ``ctx`` to prepare ``backward``.

    A mixin of every Function's node, :class:`BackwardCFunction`, as in PyTorch.
    """

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for backward. They are packed after forward, with their versions,
        so that ``backward`` finds out if one was changed in place in between."""
        self.to_save = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """These outputs get no grad_fn and do not require grad (an index, a mask)."""
        self.non_differentiable = {id(t) for t in tensors}

    def set_materialize_grads(self, value: bool) -> None:
        """With ``True`` (the default) a missing output gradient reaches backward as zeros;
        with ``False`` as None, which saves the zeros when backward can skip that output."""
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx, written_in_cpp=False):
    """The node of a custom Function, and its ``ctx``; subclassed per Function as
    ``<Name>Backward``, whose ``_forward_cls`` is the Function.

    Unlike a built-in node it has a ``__dict__``: ``ctx.alpha = 0.5`` in forward is how a
    Function passes a number to its backward.
    """

    _forward_cls: type[Function]
    # A custom backward's results are passed on as returned, also for inputs that need no
    # gradient; built-in nodes do not compute those at all. A custom backward also runs when
    # no gradient arrived (on zeros, unless ``set_materialize_grads(False)``).
    drops_unneeded_grads = False

    def __init__(self, inputs: list[Tensor], needs_input_grad: tuple[bool, ...]) -> None:
        super().__init__(inputs)
        self.needs_input_grad = needs_input_grad
        self.materialize_grads = True
        self.to_save: tuple = ()
        self.non_differentiable: set[int] = set()
        self.num_outputs = 0
        self._output_meta: tuple = ()
        self._argument_is_tensor: tuple[bool, ...] = ()

    def __repr__(self) -> str:
        # PyTorch defines this node class in Python, so its repr is Python's default one,
        # with the module: ``<torch.autograd.function.MyOpBackward object at ...>``.
        return object.__repr__(self)

    @property
    def saved_tensors(self) -> tuple:
        """What ``save_for_backward`` kept: ``()`` until forward has returned, an error once
        backward has freed it, or when a saved tensor was changed in place since.

        As in PyTorch, a saved input comes back as the very tensor that was saved, and a
        saved output as a tensor produced by this node (it requires grad, like the output).
        """
        if self._saved is None:
            raise RuntimeError(_FREED)
        tensors = []
        for saved in self._saved:
            tensors.append(None if saved is None else saved.tensor(self))
        return tuple(tensors)

    def _save(self, outputs: tuple) -> None:
        """Pack ``to_save`` after forward. An output is saved as one, so that an error about
        it names this Function, its producer, whatever was done to it later."""
        saved = []
        for i, tensor in enumerate(self.to_save):
            if tensor is not None and not isinstance(tensor, Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{i} is of type {type_name(tensor)}")
            is_output = any(tensor is out for out in outputs)
            saved.append(None if tensor is None else SavedTensor(tensor, is_output))
        self._saved = tuple(saved)
        # Let go of the tensors themselves, as PyTorch does: an output kept here would hold
        # its grad_fn, this node, in a reference cycle that only the garbage collector frees.
        self.to_save = None

    def backward(self, *grad_outputs: Any) -> tuple:
        """Run the Function's backward on Tensors, with grad mode as the engine set it:
        off, or on under create_graph, so that what it computes is recorded and can be
        differentiated again (unless it is ``@once_differentiable``)."""
        if self.materialize_grads:
            grad_outputs = [np.zeros(shape, dtype) if g is None else g
                            for g, (shape, dtype) in zip(grad_outputs, self._output_meta)]
        wrapped = [g if g is None or type(g) is Tensor else wrap(g)
                   for g in grad_outputs]
        results = self._forward_cls.backward(self, *wrapped)
        return self._check(results if isinstance(results, tuple) else (results,))

    def _check(self, results: tuple) -> tuple:
        """What PyTorch checks of what a backward returned: one gradient per argument of
        forward (extra Nones dropped), None for each argument that is not a tensor, and
        tensors whose shape the input can be expanded to (the engine then sums and casts
        them to the input's shape and dtype). The arrays for the node's edges (the Tensors
        under create_graph), or None."""
        expected = len(self.needs_input_grad)
        if len(results) > expected and all(r is None for r in results[expected:]):
            results = results[:expected]
        if len(results) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {expected}, got {len(results)})")
        grads = []
        for position, (result, is_tensor) in enumerate(zip(results, self._argument_is_tensor)):
            if not is_tensor:
                if result is not None:
                    raise RuntimeError(
                        f"function {self.name()} returned a gradient different than None at "
                        f"position {position + 1}, but the corresponding forward input was "
                        "not a Variable")
                continue
            if result is not None and not isinstance(result, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type_name(result)})")
            grads.append(result if result is None or _State.enabled else result._data)
        for index, (grad, meta) in enumerate(zip(grads, self._input_meta)):
            if grad is not None and meta is not None and not _expands_to(meta[0], grad.shape):
                raise RuntimeError(
                    f"Function {self.name()} returned an invalid gradient at index {index} - "
                    f"got {list(grad.shape)} but expected shape compatible with "
                    f"{list(meta[0])}")
        return tuple(grads)


def _expands_to(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Whether ``shape`` broadcasts to ``target``: a gradient of ``target``'s shape can then
    be summed back to ``shape``, as for a broadcast operation."""
    if len(shape) > len(target):
        return False
    return all(s in (t, 1) for s, t in zip(reversed(shape), reversed(target)))


class Function:
    """Base class for operations with a hand-written backward.

    Write ``forward(ctx, *args)``, or, the style PyTorch's documentation now recommends,
    ``forward(*args)`` with a separate ``setup_context(ctx, inputs, output)``: forward then
    only computes, and everything about ``ctx`` is in one place.
    """

    _backward_node_types: dict[type, type[BackwardCFunction]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd "
                      "functions are all static, so you should invoke them on the class "
                      "itself. Instantiating an autograd function will raise an error in a "
                      "future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # Before PyTorch 0.4 a Function was an object with methods, called as ``MyOp()(x)``.
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx: FunctionCtx, inputs: tuple, output: Any) -> None:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: FunctionCtx, *grad_outputs: Any) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    @classmethod
    def _node_type(cls) -> type[BackwardCFunction]:
        node_type = Function._backward_node_types.get(cls)
        if node_type is None:
            node_type = type(f"{cls.__name__}Backward", (BackwardCFunction,),
                             {"_forward_cls": cls, "__module__": "torch.autograd.function"},
                             written_in_cpp=False)
            Function._backward_node_types[cls] = node_type
        return node_type

    @classmethod
    def apply(cls, *args: Any) -> Any:
        needs_input_grad = tuple([isinstance(a, Tensor) and a._requires_grad for a in args])
        recording = _State.enabled and any(needs_input_grad)
        # Only a node that is recorded needs edges; the ctx of forward is a node either way.
        inputs = [a for a in args if isinstance(a, Tensor)] if recording else []
        ctx = cls._node_type()(inputs, needs_input_grad)
        with no_grad():
            if cls.setup_context is Function.setup_context:
                outputs = cls.forward(ctx, *args)
            else:
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
        is_tuple = isinstance(outputs, tuple)
        outputs = outputs if is_tuple else (outputs,)
        inputs_by_id = {id(a): a for a in args if isinstance(a, Tensor)}
        results = tuple([_output(o, inputs_by_id) for o in outputs])
        if recording:
            _record(ctx, args, outputs, results)
        return results if is_tuple else results[0]


def _record(node: BackwardCFunction, args: tuple, outputs: tuple, results: tuple) -> None:
    """Connect ``node`` to the outputs of forward that can carry a gradient: tensors of a
    floating-point dtype not marked non-differentiable."""
    node._argument_is_tensor = tuple([isinstance(a, Tensor) for a in args])
    node.num_outputs = len(results)
    node._output_meta = tuple([(o._data.shape, o._data.dtype) if isinstance(o, Tensor)
                               else ((), np.float32) for o in results])
    for output_nr, (original, out) in enumerate(zip(outputs, results)):
        if (isinstance(out, Tensor) and out._data.dtype.kind == "f"
                and id(original) not in node.non_differentiable):
            out.grad_fn, out._output_nr, out._requires_grad = node, output_nr, True
    node._save(outputs)  # after the outputs know their numbers


def _output(value: Any, inputs_by_id: dict[int, Any]) -> Any:
    """An input returned as it is comes back as a view of it, as in PyTorch: a new tensor
    that can carry the Function's node without changing the input's own grad_fn."""
    original = inputs_by_id.get(id(value))
    if original is None:
        return value
    view = wrap(original._data)
    view._version_counter = original._version_counter
    view._base = original if original._base is None else original._base
    view._view_version = original._version_counter[0]
    view._creation_meta = "custom_function"
    return view


def custom_function_view_error(tensor: Any) -> str | None:
    """PyTorch refuses in-place changes to an input a Function returned as it is: the
    change would bypass the Function's backward. The message it gives, or None."""
    node = tensor.grad_fn
    if isinstance(node, BackwardCFunction) and tensor._base is not None:
        name = node._forward_cls.__name__
        return (f"Output {tensor._output_nr} of {name} is a view and is being modified "
                f"inplace. {CUSTOM_FUNCTION_VIEW}")
    return None


CUSTOM_FUNCTION_VIEW = (
    "This view was created inside a custom Function (or because an input was returned "
    "as-is) and the autograd logic to handle view+inplace would override the custom "
    "backward associated with the custom Function, leading to incorrect gradients. This "
    "behavior is forbidden. You can fix this by cloning the output of the custom Function.")


class Error(Node):
    """The node that ``once_differentiable`` puts on its gradients under create_graph: it
    raises if a second backward reaches it (PyTorch's ``DelayedError``)."""

    __slots__ = ("num_outputs",)

    def name(self) -> str:
        return "torch::autograd::Error"

    def backward(self, *grads: Any) -> Any:
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


def once_differentiable(fn: Callable) -> Callable:
    """Mark a Function's backward as computing on values only, not differentiably.

    It runs with grad mode off. If the pass is building a graph (create_graph) and some
    incoming gradient requires grad, each gradient it returns is given an :class:`Error`
    node: differentiating through it again raises, rather than silently giving a wrong
    second derivative.
    See <https://docs.pytorch.org/docs/2.13/notes/extending.html#extending-torch-autograd>
    """
    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        with no_grad():
            outputs = fn(ctx, *args)
        if not _State.enabled or not any(isinstance(a, Tensor) and a.requires_grad
                                         for a in args):
            return outputs
        is_tuple = isinstance(outputs, tuple)
        leaves = [o.detach().requires_grad_() if isinstance(o, Tensor) else o
                  for o in (outputs if is_tuple else (outputs,))]
        node = Error([leaf for leaf in leaves if isinstance(leaf, Tensor)])
        node.num_outputs = len(leaves)
        results = []
        for output_nr, leaf in enumerate(leaves):
            if isinstance(leaf, Tensor):
                leaf = wrap(leaf._data)
                leaf.grad_fn, leaf._output_nr, leaf._requires_grad = node, output_nr, True
            results.append(leaf)
        return tuple(results) if is_tuple else results[0]

    return wrapper
