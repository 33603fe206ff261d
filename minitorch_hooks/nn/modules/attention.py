"""``MultiheadAttention``: several attention heads side by side, each looking at a slice of
the projected queries, keys and values, then mixed back together by ``out_proj``.

It returns ``(output, weights)``, so a forward hook on it receives that tuple: the usual way to
capture attention maps.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.MultiheadAttention.html>
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from ... import _dtype
from ..._creation import empty, zeros
from ..._ops.linalg import _bmm
from ..._ops.shape import cat
from ..._tensor import Tensor
from ...autograd import is_grad_enabled
from ...backends import mha
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module


def _canonical_mask(mask: Tensor | None, name: str, other: Tensor | None, other_name: str,
                    dtype: _dtype.dtype) -> Tensor | None:
    """A boolean mask (``True`` = hidden) as the ``-inf`` it adds to the scores; a float mask
    as it is. PyTorch warns when the two masks of one call have different dtypes."""
    if mask is None:
        return None
    if mask.dtype != _dtype.bool and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {name} are supported")
    if other is not None and mask.dtype != other.dtype:
        warnings.warn(f"Support for mismatched {name} and {other_name} is deprecated. Use same "
                      "type for both instead.", UserWarning, stacklevel=3)
    if mask.dtype != _dtype.bool:
        return mask
    return zeros(tuple(mask.shape), dtype=dtype).masked_fill(mask, -math.inf)


def _check_shapes(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                  attn_mask: Tensor | None) -> None:
    """PyTorch asserts the number of dimensions before anything else, batched or not."""
    if query.dim() not in (2, 3):
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    kind = "batched (3-D)" if query.dim() == 3 else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be "
                             f"{query.dim()}-D but found {key.dim()}-D and {value.dim()}-D "
                             "tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        expected = "2-D" if query.dim() == 3 else "1-D"
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{expected} but found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None and attn_mask.dim() not in (2, 3):
        raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or "
                             f"3-D but found {attn_mask.dim()}-D tensor instead")


class MultiheadAttention(Module):
    """Attention with ``num_heads`` heads of width ``embed_dim // num_heads``.

    The query, key and value projections live in one ``(3 * embed_dim, embed_dim)``
    parameter, ``in_proj_weight``, as in PyTorch, so state dicts load across both. Inputs are
    ``(sequence, batch, embed_dim)`` unless ``batch_first=True``. Masks follow PyTorch's
    convention for this module: a boolean ``True`` *hides* a position (the opposite of
    ``F.scaled_dot_product_attention``), a float mask is added to the scores.
    ``add_bias_kv`` and ``add_zero_attn`` give every query one more key and value to attend
    to. ``out_proj`` is a submodule for its parameters only: it is never called.
    """

    # PyTorch defines it in ``torch/nn/modules/activation.py``, and pickles name it so.
    __module__ = "minitorch_hooks.nn.modules.activation"

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False,
                 kdim: int | None = None, vdim: int | None = None, batch_first: bool = False,
                 device: Any = None, dtype: _dtype.dtype | None = None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError("embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        factory = {"device": device, "dtype": dtype}
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(empty((3 * embed_dim, embed_dim), **factory))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            # Keys and values of other widths need projections of their own.
            self.q_proj_weight = Parameter(empty((embed_dim, embed_dim), **factory))
            self.k_proj_weight = Parameter(empty((embed_dim, self.kdim), **factory))
            self.v_proj_weight = Parameter(empty((embed_dim, self.vdim), **factory))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        # Built before ``_reset_parameters``, so its own init draws first, as in PyTorch.
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias, **factory)
        if add_bias_kv:
            # One learned extra key and value, appended to every sequence.
            self.bias_k = Parameter(empty((1, 1, embed_dim), **factory))
            self.bias_v = Parameter(empty((1, 1, embed_dim), **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _project(self, query: Tensor, key: Tensor, value: Tensor) -> list[Tensor]:
        """The projected queries, keys and values. Like PyTorch, a packed weight projects
        inputs that are the same tensor in one product (self-attention: one; keys and values
        from one ``memory``: two), which shows in the error for a wrong width."""
        bias = self.in_proj_bias
        if not self._qkv_same_embed_dim:
            biases = [None] * 3 if bias is None else bias.chunk(3)
            weights = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
            return [F.linear(*args) for args in zip((query, key, value), weights, biases)]
        if query is key is value:
            parts = [(query, 3)]
        elif key is value:
            parts = [(query, 1), (key, 2)]
        else:
            parts = [(query, 1), (key, 1), (value, 1)]
        rows, out = 0, []
        for x, count in parts:
            part = slice(rows, rows + count * self.embed_dim)
            projected = F.linear(x, self.in_proj_weight[part], None if bias is None else bias[part])
            out += projected.chunk(count, dim=-1)
            rows = part.stop
        return out

    def _reset_parameters(self) -> None:
        """Xavier for the projections; zero biases, so attention starts unbiased."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def _heads(self, x: Tensor) -> Tensor:
        """Split a projected ``(length, batch, embed_dim)`` into
        ``(batch * heads, length, head_dim)``: the stack of matrices ``bmm`` multiplies."""
        return x.reshape(x.shape[0], x.shape[1] * self.num_heads, self.head_dim).transpose(0, 1)

    def _check_sizes(self, query: Tensor, key: Tensor, value: Tensor,
                     attn_mask: Tensor | None) -> None:
        """Sizes PyTorch checks once the inputs are ``(length, batch, embed_dim)``."""
        if query.shape[-1] != self.embed_dim:
            raise AssertionError(f"was expecting embedding dimension of {self.embed_dim}, but "
                                 f"got {query.shape[-1]}")
        if not self._qkv_same_embed_dim and key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
        if self._qkv_same_embed_dim and key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape "
                                 f"{value.shape}")
        expected = (query.shape[0], key.shape[0])
        if attn_mask is not None and attn_mask.dim() == 3:
            expected = (query.shape[1] * self.num_heads, *expected)
        if attn_mask is not None and tuple(attn_mask.shape) != expected:
            raise RuntimeError(f"The shape of the {attn_mask.dim()}D attn_mask is "
                               f"{attn_mask.shape}, but should be {expected}.")

    def _extra_keys(self, k: Tensor, v: Tensor, masks: list[Tensor | None]
                    ) -> tuple[Tensor, Tensor, list[Tensor | None]]:
        """``add_bias_kv`` and ``add_zero_attn``: one more key and value each (a learned one,
        then zeros) that every query can attend to, so a row of hidden keys still has
        somewhere to look. The masks get a visible column for each."""
        extras = []
        if self.bias_k is not None:
            extras.append((self.bias_k, self.bias_v))
        if self.add_zero_attn:
            extras.append((zeros((1, 1, self.embed_dim), dtype=k.dtype),) * 2)
        for extra_k, extra_v in extras:
            batch = k.shape[1]
            k = cat([k, extra_k.expand(1, batch, self.embed_dim)])
            v = cat([v, extra_v.expand(1, batch, self.embed_dim)])
            masks = [None if m is None else F.pad(m, (0, 1)) for m in masks]
        return k, v, masks

    def _merge_masks(self, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
                     batch: int, keys: int) -> Tensor | None:
        """Both (float) masks as one tensor of ``(batch * heads or 1, L or 1, S)``."""
        if attn_mask is not None and attn_mask.dim() == 2:
            attn_mask = attn_mask.unsqueeze(0)
        if key_padding_mask is None:
            return attn_mask
        for dim, expected in enumerate((batch, keys)):
            if key_padding_mask.shape[dim] != expected:
                raise AssertionError(f"Expected key_padded_mask.shape[{dim}] to be {expected}, "
                                     f"but got {key_padding_mask.shape[dim]}")
        padding = key_padding_mask.reshape(batch, 1, 1, keys).expand(
            batch, self.num_heads, 1, keys).reshape(batch * self.num_heads, 1, keys)
        return padding if attn_mask is None else attn_mask + padding

    def _takes_fast_path(self, query: Tensor, key: Tensor, value: Tensor,
                         attn_mask: Tensor | None, key_padding_mask: Tensor | None) -> bool:
        """Whether PyTorch runs this call as its fused inference kernel: self-attention in
        ``eval()`` mode, batch first, nothing to differentiate, boolean masks. The values are
        the same, except that a query whose keys are all hidden gets NaN, and the
        ``is_causal`` hint is ignored."""
        if any(mask is not None and mask.is_floating_point()
               for mask in (attn_mask, key_padding_mask)):
            return False
        conditions = (
            mha.get_fastpath_enabled(), query.dim() == 3, query is key is value,
            self.in_proj_bias is not None and query.dtype == self.in_proj_bias.dtype,
            self.in_proj_weight is not None and query.dtype == self.in_proj_weight.dtype,
            not self.training, self.num_heads % 2 == 0, self.batch_first,
            self.bias_k is None, not self.add_zero_attn)
        if not all(conditions):
            return False
        tensors = (query, self.in_proj_weight, self.in_proj_bias, self.out_proj.weight,
                   self.out_proj.bias)
        return not (is_grad_enabled() and any(t.requires_grad for t in tensors))

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Tensor | None = None, need_weights: bool = True,
                attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
        """``is_causal`` is a hint that ``attn_mask`` is causal: PyTorch still needs the mask,
        uses it when it computes weights or has padding to merge in, and otherwise applies a
        causal mask in its place."""
        fast = self._takes_fast_path(query, key, value, attn_mask, key_padding_mask)
        key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", attn_mask,
                                           "attn_mask", query.dtype)
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype)
        _check_shapes(query, key, value, key_padding_mask, attn_mask)
        # The fused kernel merges the masks itself and ignores the hint.
        is_causal = is_causal and not fast
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                               "Transformer module method `generate_square_subsequent_mask` to "
                               "create this mask.")
        is_causal = is_causal and key_padding_mask is None and not need_weights
        if is_causal:
            attn_mask = None
        batched = query.dim() == 3
        if not batched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            # Transposed once each, so inputs that were one tensor still are.
            moved = {id(x): x.transpose(0, 1) for x in (query, key, value)}
            query, key, value = moved[id(query)], moved[id(key)], moved[id(value)]
        self._check_sizes(query, key, value, attn_mask)
        length, batch = query.shape[0], query.shape[1]
        q, k, v = self._project(query, key, value)
        k, v, (attn_mask, key_padding_mask) = self._extra_keys(k, v, [attn_mask,
                                                                      key_padding_mask])
        q, k, v = self._heads(q), self._heads(k), self._heads(v)
        mask = self._merge_masks(attn_mask, key_padding_mask, batch, k.shape[1])
        dropout = self.dropout if self.training else 0.0
        weights = None
        if need_weights or fast:
            scores = _bmm(q * (1 / math.sqrt(self.head_dim)), k.transpose(1, 2))
            if mask is not None:
                scores = scores + mask
            weights = F.softmax(scores, dim=-1)
            if dropout > 0.0:
                # PyTorch returns the weights after dropout, the ones that multiplied values.
                weights = F.dropout(weights, dropout)
            heads = _bmm(weights, v).transpose(0, 1)
            weights = weights.reshape(batch, self.num_heads, length, k.shape[1])
        else:
            # Without weights PyTorch calls the fused function, whose fully masked rows give
            # zeros where the explicit softmax (and the inference kernel) gives NaN.
            if mask is not None:
                mask = (mask.unsqueeze(0) if mask.shape[0] == 1 else
                        mask.reshape(batch, self.num_heads, *mask.shape[1:]))
            q, k, v = (x.reshape(batch, self.num_heads, *x.shape[1:]) for x in (q, k, v))
            heads = F.scaled_dot_product_attention(q, k, v, mask, dropout, is_causal)
            heads = heads.permute(2, 0, 1, 3)
        # PyTorch uses ``out_proj``'s parameters, not its ``__call__``: hooks on it never fire.
        output = F.linear(heads.reshape(length * batch, self.embed_dim), self.out_proj.weight,
                          self.out_proj.bias).reshape(length, batch, self.embed_dim)
        if not need_weights:
            weights = None
        if not batched:
            output = output.squeeze(1)
            weights = None if weights is None else weights.squeeze(0)
        elif self.batch_first:
            output = output.transpose(0, 1)
        if weights is not None and average_attn_weights:
            weights = weights.mean(dim=-3)
        return output, weights
