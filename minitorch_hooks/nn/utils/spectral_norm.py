"""Spectral normalisation, the legacy way: a forward pre-hook and two state-dict hooks.

``spectral_norm(module)`` divides the weight by its largest singular value ``sigma``, kept
up to date by one step of power iteration per training forward (GANs use it to bound a
discriminator's Lipschitz constant). The weight is viewed as a matrix ``W`` (``dim`` first,
the rest flattened), and two unit vectors are kept as buffers: ``weight_u`` (size of
``W``'s rows) and ``weight_v`` (of its columns), drawn from a normal distribution and
normalised when the hook is added. Then:

* the parameter ``weight`` moves to ``weight_orig``; ``weight`` becomes a plain attribute;
* a forward pre-hook (the ``SpectralNorm`` object) recomputes it before every forward:
  in training mode, under ``no_grad``, ``v = normalize(W.T @ u)`` and ``u = normalize(W @
  v)`` written *in place* into the buffers (so their versions go up), then ``sigma = u .
  (W @ v)`` with copies of ``u`` and ``v``, and ``weight = weight_orig / sigma``, recorded;
  in evaluation mode without the iteration;
* a state-dict hook writes the method's version, 1, into the module's metadata
  (``state_dict._metadata[prefix]["spectral_norm"]["weight.version"]``), and a
  load-state-dict pre-hook reads it back: a checkpoint of version 0 (before PyTorch 1.1)
  saved ``weight`` but no ``weight_v``, which it recomputes from the others.

PyTorch 2.13 keeps this beside ``torch.nn.utils.parametrizations.spectral_norm``.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.spectral_norm.html>
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np

from ..._ops.linalg import matmul
from ..._tensor import Tensor, wrap
from ...autograd.grad_mode import no_grad
from ..modules.conv import _ConvTransposeNd
from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["SpectralNorm", "SpectralNormLoadStateDictPreHook", "SpectralNormStateDictHook",
           "remove_spectral_norm", "spectral_norm"]


def _normalize(input: Tensor, eps: float, out: Tensor | None = None) -> Tensor:
    """``F.normalize(input, dim=0, eps=eps, out=out)`` for a vector under ``no_grad``:
    ``input / max(||input||, eps)``, written into ``out`` when given."""
    denominator = input.norm(2, 0, keepdim=True).clamp(min=eps).expand_as(input)
    if out is None:
        return input / denominator
    return out.copy_(input / denominator)


class SpectralNorm:
    """The forward pre-hook: ``module.<name> = <name>_orig / sigma``."""

    _version: int = 1
    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        """``dim`` first, the other dimensions flattened into the columns."""
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(
                self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim])
        return weight_mat.reshape(weight_mat.size(0), -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> Tensor:
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    # In place, so that the buffers (and a DataParallel replica's) see it.
                    v = _normalize(matmul(weight_mat.t(), u), self.eps, out=v)
                    u = _normalize(matmul(weight_mat, v), self.eps, out=u)
                # Copies: the buffers change in place at the next forward, and this
                # forward's graph must keep the values it used.
                u, v = u.clone(), v.clone()
        sigma = matmul(u, matmul(weight_mat, v))  # torch.dot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name,
                self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat: Tensor, u: Tensor,
                             target_sigma: Tensor) -> Tensor:
        """The ``v`` with ``u = normalize(W v)`` and ``u . (W v) = target_sigma``: PyTorch
        solves ``v = pinv(W^T W) W^T u`` (with ``pinverse`` and ``multi_dot``), then
        rescales. Only for loading a checkpoint of version 0; computed here in NumPy."""
        w, u_data = weight_mat._data, u._data
        v = np.linalg.pinv(w.T @ w) @ w.T @ u_data
        v = wrap(v.astype(w.dtype))
        return v.mul_(target_sigma / matmul(u, matmul(weight_mat, v)))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int,
              eps: float) -> SpectralNorm:
        """Re-parametrise ``module.<name>``, as described at the top of this file."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError("Cannot register two spectral_norm hooks on the same "
                                   f"parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, UninitializedParameter):
            raise ValueError(
                "The module passed to `SpectralNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying spectral normalization")
        with no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = _normalize(weight.new_empty(h).normal_(0, 1), fn.eps)
            v = _normalize(weight.new_empty(w).normal_(0, 1), fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # A plain attribute until the first forward: only ``weight_orig`` is a parameter.
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Bring a checkpoint of version 0 (``weight`` saved, ``weight_v`` missing) up to date."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, state_dict: dict, prefix: str, local_metadata: dict, strict: bool,
                 missing_keys: list, unexpected_keys: list, error_msgs: list) -> None:
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is not None and version >= 1:
            return
        weight_key = prefix + fn.name
        if (version is None and all(weight_key + s in state_dict for s in ("_orig", "_u", "_v"))
                and weight_key not in state_dict):
            # Saved without metadata, but already of the current layout.
            return
        has_missing_keys = False
        for suffix in ("_orig", "", "_u"):
            key = weight_key + suffix
            if key not in state_dict:
                has_missing_keys = True
                if strict:
                    missing_keys.append(key)
        if has_missing_keys:
            return
        with no_grad():
            weight_orig = state_dict[weight_key + "_orig"]
            weight = state_dict.pop(weight_key)
            sigma = (weight_orig / weight).mean()
            weight_mat = fn.reshape_weight_to_matrix(weight_orig)
            u = state_dict[weight_key + "_u"]
            state_dict[weight_key + "_v"] = fn._solve_v_and_rescale(weight_mat, u, sigma)


class SpectralNormStateDictHook:
    """Record the method's version in the state dict's metadata, for the load hook."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, module: Module, state_dict: dict, prefix: str,
                 local_metadata: dict) -> None:
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


ModuleType = TypeVar("ModuleType", bound=Module)


def spectral_norm(module: ModuleType, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> ModuleType:
    """Divide ``module.<name>`` by its spectral norm before every forward; ``dim`` is 1 for
    transposed convolutions (their output channels), else 0.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.spectral_norm.html>
    """
    if dim is None:  # a transposed convolution's output channels are its weight's dim 1
        dim = 1 if isinstance(module, _ConvTransposeNd) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: ModuleType, name: str = "weight") -> ModuleType:
    """Make ``module.<name>`` a parameter again, and remove the three hooks.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.remove_spectral_norm.html>
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for key, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[key]
            break
    for key, hook in module._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del module._load_state_dict_pre_hooks[key]
            break
    return module
