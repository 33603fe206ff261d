"""Custom operations: subclass :class:`Function`, write ``forward`` and ``backward``.

``MyOp.apply(x)`` runs ``forward`` without recording, then records one node,
``MyOpBackward``, whose backward calls your ``backward``. Full backward hooks on modules
are built from exactly such a function (``BackwardHookFunction``, an identity), which is
why their grads appear at that node.
See https://pytorch.org/docs/stable/notes/extending.html#extending-torch-autograd
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from .grad_mode import _State, no_grad
from .graph import Node, SavedTensor


class FunctionCtx:
    """The ``ctx`` passed to ``forward`` and ``backward``: what forward leaves for backward."""

    def __init__(self, needs_input_grad: tuple[bool, ...]) -> None:
        self.needs_input_grad = needs_input_grad
        self.materialize_grads = True
        self._to_save: tuple = ()
        self._non_differentiable: set[int] = set()
        self._node: BackwardCFunction | None = None

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep tensors for backward, with their versions checked when they are used."""
        self._to_save = tensors

    @property
    def saved_tensors(self) -> tuple:
        node = self._node
        if node is None:  # still inside forward
            return self._to_save
        arrays = node.saved_arrays()
        return tuple(Tensor._wrap(a) if isinstance(s, SavedTensor) else a
                     for a, s in zip(arrays, node._saved))

    def mark_non_differentiable(self, *tensors: Any) -> None:
        """These outputs get no grad_fn and do not require grad."""
        self._non_differentiable.update([id(t) for t in tensors])

    def set_materialize_grads(self, value: bool) -> None:
        """With ``True`` (the default) a missing output gradient reaches backward as zeros."""
        self.materialize_grads = value


class BackwardCFunction(Node):
    """The node of a custom Function; subclassed per Function as ``<Name>Backward``."""

    __slots__ = ("ctx", "function", "num_outputs", "_output_meta", "_tensor_positions")
    # A custom backward's results are passed on as returned, also for inputs that need no
    # gradient; built-in nodes do not compute those at all. A custom backward also runs when
    # no gradient arrived (on zeros, unless ``set_materialize_grads(False)``).
    drops_unneeded_grads = False

    def __repr__(self) -> str:
        # PyTorch defines this node class in Python, so its repr is Python's default one,
        # with the module: ``<torch.autograd.function.MyOpBackward object at ...>``.
        return object.__repr__(self)

    def backward(self, *grad_outputs: Any) -> tuple:
        if self.ctx.materialize_grads:
            grad_outputs = [np.zeros(shape, dtype) if g is None else g
                            for g, (shape, dtype) in zip(grad_outputs, self._output_meta)]
        wrapped = [None if g is None else Tensor._wrap(g) for g in grad_outputs]
        with no_grad():
            results = self.function.backward(self.ctx, *wrapped)
        if not isinstance(results, tuple):
            results = (results,)
        expected = len(self.ctx.needs_input_grad)
        if len(results) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {expected}, got {len(results)})")
        return tuple([None if results[i] is None else results[i]._data
                      for i in self._tensor_positions])


class Function:
    """Base class for operations with a hand-written backward."""

    _backward_node_types: dict[type, type[BackwardCFunction]] = {}

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx: FunctionCtx, *grad_outputs: Any) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    @classmethod
    def _node_type(cls) -> type[BackwardCFunction]:
        node_type = Function._backward_node_types.get(cls)
        if node_type is None:
            node_type = type(f"{cls.__name__}Backward", (BackwardCFunction,), {"__slots__": ()})
            node_type.__module__ = "torch.autograd.function"
            Function._backward_node_types[cls] = node_type
        return node_type

    @classmethod
    def apply(cls, *args: Any) -> Any:
        # ``tuple([...])`` rather than ``tuple(... for ...)``: every module call with full
        # backward hooks comes here twice, and before Python 3.12 generators are slower.
        positions = tuple([i for i, a in enumerate(args) if isinstance(a, Tensor)])
        needs_input_grad = tuple([isinstance(a, Tensor) and a._requires_grad for a in args])
        ctx = FunctionCtx(needs_input_grad)
        with no_grad():
            outputs = cls.forward(ctx, *args)
        is_tuple = isinstance(outputs, tuple)
        outputs = outputs if is_tuple else (outputs,)
        recording = _State.enabled and any(needs_input_grad)
        inputs_by_id = {id(args[i]): args[i] for i in positions}
        results = tuple([_output(o, inputs_by_id) for o in outputs])
        if recording:
            node = cls._node_type()([args[i] for i in positions],
                                    tuple([SavedTensor(t) if isinstance(t, Tensor) else t
                                           for t in ctx._to_save]))
            node.ctx, node.function, node.num_outputs = ctx, cls, len(results)
            node._tensor_positions = positions
            node._output_meta = tuple([(o._data.shape, o._data.dtype) if isinstance(o, Tensor)
                                       else ((), np.float32) for o in results])
            ctx._node = node
            for output_nr, (original, out) in enumerate(zip(outputs, results)):
                if isinstance(out, Tensor) and id(original) not in ctx._non_differentiable:
                    out.grad_fn, out._output_nr, out._requires_grad = node, output_nr, True
        return results if is_tuple else results[0]


def _output(value: Any, inputs_by_id: dict[int, Any]) -> Any:
    """An input returned as it is comes back as a view of it, as in PyTorch: a new tensor
    that can carry the Function's node without changing the input's own grad_fn."""
    original = inputs_by_id.get(id(value))
    if original is None:
        return value
    view = Tensor._wrap(original._data)
    view._version_counter = original._version_counter
    view._base = original if original._base is None else original._base
    return view


def custom_function_view_error(tensor: Any) -> str | None:
    """PyTorch refuses in-place changes to an input a Function returned as it is: the
    change would bypass the Function's backward. The message it gives, or None."""
    node = tensor.grad_fn
    if isinstance(node, BackwardCFunction) and tensor._base is not None:
        name = node.function.__name__
        return (f"Output {tensor._output_nr} of {name} is a view and is being modified "
                "inplace. This view was created inside a custom Function (or because an input "
                "was returned as-is) and the autograd logic to handle view+inplace would "
                "override the custom backward associated with the custom Function, leading to "
                "incorrect gradients. This behavior is forbidden. You can fix this by cloning "
                "the output of the custom Function.")
    return None
