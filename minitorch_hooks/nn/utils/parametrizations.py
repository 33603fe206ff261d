"""Parametrizations PyTorch ships: ``weight_norm``, ``spectral_norm`` and ``orthogonal``.

Each is a small module registered with ``parametrize.register_parametrization``, so the
weight becomes a property computed from ``parametrizations.weight.original*`` (see
``parametrize.py``), instead of the legacy forward pre-hooks of ``utils/weight_norm.py``
and ``utils/spectral_norm.py``:

* ``weight_norm``: ``_WeightNorm.right_inverse`` splits the weight into the magnitude
  ``original0`` (``norm_except_dim(weight, 2, dim)``) and the direction ``original1`` (the
  weight itself); its forward is ``torch._weight_norm(original1, original0, dim)``. It also
  registers a load-state-dict pre-hook that renames a legacy checkpoint's ``weight_g`` and
  ``weight_v`` to ``parametrizations.weight.original0`` and ``original1``, so the old
  state dicts load into the new layout;
* ``spectral_norm``: ``_SpectralNorm`` keeps the power-iteration vectors as its buffers
  ``_u`` and ``_v`` (drawn and normalised when made, then 15 iterations), runs one more
  iteration at each read of the weight in training mode, and divides by
  ``sigma = vdot(u, W v)``; a 1-d weight is simply normalised.

``orthogonal`` (which needs QR factorisations and the matrix exponential) is not in
minitorch_hooks.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrizations.weight_norm.html>
and <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrizations.spectral_norm.html>
"""

from __future__ import annotations

from enum import Enum, auto

import numpy as np

from ... import _creation
from ..._ops import matrix_functions
from ..._ops.closeness import allclose
from ..._ops.linalg import matmul
from ..._ops.pointwise import add
from ..._ops.shape import cat
from ..._ops.vdot import vdot
from ..._ops.weight_norm import _weight_norm, norm_except_dim
from ..._tensor import Tensor, wrap
from ...autograd.grad_mode import no_grad
from ..modules.conv import _ConvTransposeNd
from ..modules.module import Module
from . import parametrize
from .spectral_norm import _normalize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _is_orthogonal(q: Tensor) -> bool:
    """``Q^T Q = I``, within ten times ``n`` roundings of ``Q``'s dtype."""
    n, k = q.size(-2), q.size(-1)
    eps = 10.0 * n * float(np.finfo(q._data.dtype).eps)
    return allclose(q.mT @ q, _creation.eye(k, dtype=q.dtype), atol=eps)


def _make_orthogonal(a: Tensor) -> Tensor:
    """The ``Q`` of the QR factorisation of a tall ``a`` whose ``R`` has a positive
    diagonal: the closest matrix with orthonormal columns, in a sense, and unique."""
    x, tau = matrix_functions.geqrf(a)
    q = matrix_functions.householder_product(x, tau)
    return q * x.diagonal(dim1=-2, dim2=-1).sign().unsqueeze(-2)


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """The orthogonal map of one weight, as registered by ``orthogonal``; with
    ``use_trivialization``, its buffer ``base`` is set by ``right_inverse``."""

    def __init__(self, weight: Tensor, orthogonal_map: _OrthMaps, *,
                 use_trivialization: bool = True) -> None:
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, x: Tensor) -> Tensor:
        n, k = x.size(-2), x.size(-1)
        transposed = n < k
        if transposed:  # a wide matrix: its transpose gets orthonormal columns
            x, n, k = x.mT, k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            x = x.tril()  # n * k - k * (k - 1) / 2 free values
            if n != k:  # embedded in a square matrix
                x = cat([x, x.new_zeros(n, n - k).expand(*x.shape[:-2], -1, -1)], dim=-1)
            a = x - x.mT  # skew-symmetric
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                q = matrix_functions.matrix_exp(a)
            else:  # the Cayley retraction (I + a/2)(I - a/2)^-1
                eye = _creation.eye(n, dtype=a.dtype)
                q = matrix_functions.solve(add(eye, a, alpha=-0.5),
                                           add(eye, a, alpha=0.5))
            if n != k:
                q = q[..., :k]
        else:
            a = x.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (a * a).sum(dim=-2))
            q = matrix_functions.householder_product(a, tau)
            # x's diagonal holds 1s and -1s: the signs of R's diagonal, never trained
            q = q * x.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            q = self.base @ q
        return q.mT if transposed else q

    @no_grad()
    def right_inverse(self, q: Tensor) -> Tensor:
        if q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {q.shape}.")
        q_init = q
        n, k = q.size(-2), q.size(-1)
        transpose = n < k
        if transpose:
            q, n, k = q.mT, k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential or the Cayley "
                    "parametrizations when use_trivialization=False.")
            # The reflectors of q's QR factorisation, with R's signs on the diagonal (the
            # QR of an orthogonal q has R = diag(+-1)); a tau of 0 means no reflection.
            a, tau = matrix_functions.geqrf(q)
            stored = a._data.copy()
            diagonal = np.arange(k)
            signs = np.sign(stored[..., diagonal, diagonal])
            stored[..., diagonal, diagonal] = np.where(tau._data == 0.0, -signs, signs)
            a = wrap(stored)
            return a.mT if transpose else a
        if n == k:
            q = q.clone() if _is_orthogonal(q) else _make_orthogonal(q)
        else:  # completed with random columns into a square orthogonal matrix
            extra = _creation.randn(*(q.size()[:-2] + (n, n - k)), dtype=q.dtype)
            q = _make_orthogonal(cat([q, extra], dim=-1))
        self.base = q
        # -I: every map sends it to the identity (the householder map reads the -1s on its
        # diagonal as R's signs), so the weight starts as ``base``
        neg_id = np.zeros(q_init.shape, dtype=q_init._data.dtype)
        diagonal = np.arange(min(n, k))
        neg_id[..., diagonal, diagonal] = -1.0
        return wrap(neg_id)


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Make ``module.<name>`` a matrix (or batch of matrices) with orthonormal columns, or
    rows if it is wide, parametrized. ``orthogonal_map`` is ``"matrix_exp"`` (the default
    for a square matrix), ``"cayley"`` or ``"householder"`` (the default otherwise).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrizations.orthogonal.html>
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1)
                          else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Write ``module.<name>`` as a magnitude times a direction, parametrized.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrizations.weight_norm.html>
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def _weight_norm_compat_hook(state_dict: dict, prefix: str, local_metadata: dict,
                                 strict: bool, missing_keys: list, unexpected_keys: list,
                                 error_msgs: list) -> None:
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            original0 = state_dict.pop(g_key)
            original1 = state_dict.pop(v_key)
            state_dict[f"{prefix}parametrizations.{name}.original0"] = original0
            state_dict[f"{prefix}parametrizations.{name}.original1"] = original1

    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, "
                             f"{ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", _normalize(u, self.eps))
            self.register_buffer("_v", _normalize(v, self.eps))
            self._power_method(weight_mat, 15)  # start from a good estimate

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if weight.ndim <= 1:
            raise AssertionError("Expected weight to have more than 1 dimension, got "
                                 f"{weight.ndim}")
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        """Improve ``_u`` and ``_v``, in place: ``u = normalize(W v)``, ``v =
        normalize(W^T u)``."""
        with no_grad():
            for _ in range(n_power_iterations):
                self._u = _normalize(matmul(weight_mat, self._v), self.eps, out=self._u)
                self._v = _normalize(matmul(weight_mat.t(), self._u), self.eps, out=self._v)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return _normalize(weight, self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()  # the graph keeps these values
        sigma = vdot(u, matmul(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Divide ``module.<name>`` by its spectral norm at each read, parametrized.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.utils.parametrizations.spectral_norm.html>
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:  # a transposed convolution's output channels are its weight's dim 1
        dim = 1 if isinstance(module, _ConvTransposeNd) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
