"""How a module converts its parameters and buffers (``to``, ``float()``, ...) and switches
modes (``train``, ``eval``): the part of ``Module`` that walks the tree changing tensors.

``Module`` inherits these methods from :class:`ConversionMixin`; PyTorch writes them in
``torch/nn/modules/module.py`` itself.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.to>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ... import __future__, _dtype
from ..._ops.conversion import parse_to
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ...utils import swap_tensors
from ..parameter import Parameter

if TYPE_CHECKING:
    from .module import Module


class ConversionMixin:
    """``_apply`` and what is built on it: ``to``, ``cpu``, ``type``, ``float``, ``double``,
    ``half``; and the modes: ``train``, ``eval``, ``requires_grad_``, ``zero_grad``.

    It needs a module's ``training`` flag and its parameter and buffer registries (set up
    by ``Module.__init__``), and walks the tree with ``TreeMixin``'s ``children`` and
    ``parameters``.
    """

    training: bool
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]

    def _apply(self, fn: Callable[[Tensor], Tensor]) -> Module:
        """Replace every parameter's and buffer's values by ``fn`` of them, children first.

        By default a parameter stays the *same* ``Parameter`` object: only its ``.data``
        (and its gradient's) is replaced. That is why an optimiser built before
        ``model.double()`` still holds the model's parameters, and why hooks registered on
        them keep firing. ``torch.__future__`` has two other ways: a new ``Parameter``
        (overwrite), or the same object with its whole content swapped (swap), which
        leaves its old hooks behind. A buffer, which no optimiser holds, is simply
        replaced by the converted tensor. The module's own hooks are not touched.
        See <https://docs.pytorch.org/docs/2.13/future_mod.html>
        """
        for module in self.children():
            module._apply(fn)
        swap = __future__.get_swap_module_params_on_conversion()
        overwrite = __future__.get_overwrite_module_params_on_conversion()
        for key, param in self._parameters.items():
            if param is None:
                continue
            with no_grad():  # the conversion is not part of any graph
                applied = fn(param)
            grad = param._grad
            if swap:
                self._swap_in(key, param, Parameter(applied, param.requires_grad), grad)
                out = param
            elif overwrite:
                out = self._parameters[key] = Parameter(applied, param.requires_grad)
            else:
                param.data = applied
                out = param
            if grad is None:
                continue
            with no_grad():
                grad_applied = fn(grad)
            if swap:
                grad_applied.requires_grad_(grad.requires_grad)
                try:
                    swap_tensors(grad, grad_applied)
                except Exception as error:
                    raise RuntimeError(f"_apply(): Couldn't swap {self._get_name()}.{key}.grad"
                                       ) from error
                out.grad = grad
            elif overwrite:
                out.grad = grad_applied.requires_grad_(grad.requires_grad)
            else:
                out.grad.data = grad_applied
        for name, buffer in self._buffers.items():
            if buffer is not None:
                self._buffers[name] = fn(buffer)
        return self

    def _swap_in(self, key: str, param: Parameter, applied: Parameter, grad: Tensor | None
                 ) -> None:
        """Swap ``applied`` into ``param``; the gradient is set aside during the swap, and
        put back if it fails, so a failed conversion leaves the parameter as it was."""
        try:
            param.grad = None
            swap_tensors(param, applied)
        except Exception as error:
            param.grad = grad
            raise RuntimeError(f"_apply(): Couldn't swap {self._get_name()}.{key}") from error

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Move and/or cast the parameters and buffers, in place; returns the module.

        ``to(device)``, ``to(dtype)``, ``to(device, dtype)`` or ``to(tensor)``, as
        ``Tensor.to``. Only floating-point parameters and buffers change dtype: an integer
        buffer (a step counter) keeps its type, which is also why an integer ``dtype`` is
        refused. The only device is the CPU; any other is an error.
        See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html#torch.nn.Module.to>
        """
        dtype = parse_to(*args, **kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but "
                            f"got desired dtype={dtype}")
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def cpu(self) -> Module:
        """Move to the CPU: everything is there already, so the tensors stay as they are."""
        return self._apply(lambda t: t.cpu())

    def cuda(self, device: Any = None) -> Module:
        """Move to a GPU: each tensor's ``cuda()``, which on a CPU-only build raises
        ``AssertionError: Torch not compiled with CUDA enabled`` at the first parameter or
        buffer (a module without any has nothing to move, and is returned)."""
        return self._apply(lambda t: t.cuda(device))

    def type(self, dst_type: Any) -> Module:
        """Cast *every* parameter and buffer, integer ones too, to ``dst_type`` (a dtype or
        a legacy name such as ``"torch.DoubleTensor"``)."""
        return self._apply(lambda t: t.type(dst_type))

    def float(self) -> Module:
        """Cast floating-point parameters and buffers to float32."""
        return self.to(_dtype.float32)

    def double(self) -> Module:
        """Cast floating-point parameters and buffers to float64 (for ``gradcheck``)."""
        return self.to(_dtype.float64)

    def half(self) -> Module:
        """Cast floating-point parameters and buffers to float16."""
        return self.to(_dtype.float16)

    # -- modes and gradients --------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        for param in self.parameters():
            if param.grad is not None:
                if set_to_none:
                    param.grad = None
                else:
                    param.grad.detach_().zero_()
