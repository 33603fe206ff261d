"""The Transformer of "Attention Is All You Need": encoder and decoder layers, their stacks, and
the model that joins them.

Each layer is a few named submodules (``self_attn``, ``linear1``, ``norm1``, ``dropout1``...)
called in a fixed order, so forward hooks on them fire in that order. The layers call
``self_attn`` with ``need_weights=False``: a forward hook on it sees ``None`` as the weights
unless a pre-hook asks for them. In ``eval()`` mode without gradients a batch-first encoder
layer with no hooks of its own takes PyTorch's fused path and calls none of its submodules.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Transformer.html>
"""

from __future__ import annotations

import copy
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import _dtype
from ..._creation import full, tensor, zeros
from ..._tensor import Tensor
from ...autograd import is_grad_enabled
from ...backends import mha
from .. import functional as F
from .. import init
from .activation import GELU, ReLU
from .attention import MultiheadAttention, _canonical_mask
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

_Activation = str | Callable[[Tensor], Tensor]


def _generate_square_subsequent_mask(sz: int, device: Any = None,
                                     dtype: _dtype.dtype | None = None) -> Tensor:
    """``-inf`` above the diagonal, 0 elsewhere: position ``i`` sees positions ``<= i``."""
    visible = tensor(np.tril(np.ones((sz, sz), dtype=bool)))
    return full((sz, sz), -math.inf, dtype=dtype, device=device).masked_fill(visible, 0.0)


def _get_activation_fn(activation: str) -> Callable[[Tensor], Tensor]:
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _detect_is_causal_mask(mask: Tensor | None, is_causal: bool | None,
                           size: int | None) -> bool:
    """The hint given, or (when it is ``None``) whether ``mask`` is exactly the causal mask."""
    if is_causal is not None or mask is None:
        return is_causal is True
    sz = mask.shape[-2] if size is None else size
    causal = _generate_square_subsequent_mask(sz, dtype=mask.dtype)
    return tuple(mask.shape) == (sz, sz) and bool((mask == causal).all())


def _seq_len(src: Tensor, batch_first: bool) -> int:
    return src.shape[0] if src.dim() == 2 else src.shape[1 if batch_first else 0]


def _run(module: Any, fused: bool, *args: Any, **kwargs: Any) -> Any:
    """Call a submodule through ``__call__`` (its hooks fire) or, standing for PyTorch's fused
    kernel, through its bare ``forward``."""
    if fused and isinstance(module, Module):
        return module.forward(*args, **kwargs)
    return module(*args, **kwargs)


def _requires_grad(tensors: list[Tensor | None]) -> bool:
    return is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors)


def _build_sublayers(layer: Module, attentions: tuple[str, ...], blocks: int, d_model: int,
                     nhead: int, dim_feedforward: int, dropout: float, layer_norm_eps: float,
                     batch_first: bool, norm_first: bool, bias: bool,
                     factory: dict[str, Any]) -> None:
    """Register a layer's submodules in PyTorch's order, which is the order hooks,
    ``named_modules()`` and the state dict list them: the attention modules, the
    feed-forward network (``linear1``, ``dropout``, ``linear2``), then one norm and one
    dropout per residual block."""
    for name in attentions:
        setattr(layer, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                batch_first=batch_first, **factory))
    layer.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
    layer.dropout = Dropout(dropout)
    layer.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
    layer.norm_first = norm_first
    for i in range(1, blocks + 1):
        setattr(layer, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                             **factory))
    for i in range(1, blocks + 1):
        setattr(layer, f"dropout{i}", Dropout(dropout))


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward network, each wrapped in a residual connection and a
    ``LayerNorm`` (after it, or before it with ``norm_first=True``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.TransformerEncoderLayer.html>
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: _Activation = F.relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        super().__init__()
        _build_sublayers(self, ("self_attn",), 2, d_model, nhead, dim_feedforward, dropout,
                         layer_norm_eps, batch_first, norm_first, bias,
                         {"device": device, "dtype": dtype})
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        # The fused kernel knows only ReLU (1) and GELU (2).
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def __setstate__(self, state: dict) -> None:
        """Layers pickled before ``activation`` existed get ReLU, their only activation."""
        super().__setstate__(state)
        if not hasattr(self, "activation"):
            self.activation = F.relu

    def _why_not_fast_path(self, src: Tensor) -> str:
        """Why the fused inference kernel cannot run; empty when it can. Any forward hook or
        pre-hook on the layer or a submodule forbids it, so local hooks always fire."""
        attn = self.self_attn
        reasons = [
            (not mha.get_fastpath_enabled(), "fast path disabled"),
            (src.dim() != 3, "input not batched"), (self.training, "training is enabled"),
            (not attn.batch_first, "self_attn.batch_first was not True"),
            (attn.in_proj_bias is None, "self_attn was passed bias=False"),
            (not attn._qkv_same_embed_dim, "self_attn._qkv_same_embed_dim was not True"),
            (not self.activation_relu_or_gelu, "activation_relu_or_gelu was not True"),
            (self.norm1.eps != self.norm2.eps, "norm1.eps is not equal to norm2.eps"),
            (attn.num_heads % 2 == 1, "num_head is odd"),
            (any(m._forward_hooks or m._forward_pre_hooks for m in self.modules()),
             "forward pre-/hooks are attached to the module"),
        ]
        for failed, reason in reasons:
            if failed:
                return reason
        modules = (attn, attn.out_proj, self.norm1, self.norm2, self.linear1, self.linear2)
        params = [attn.in_proj_weight, attn.in_proj_bias]
        params += [getattr(m, name) for m in modules[1:] for name in ("weight", "bias")]
        if _requires_grad([src, *params]):
            return "grad is enabled and at least one argument requires_grad"
        return ""

    def forward(self, src: Tensor, src_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                               src_mask, "src_mask", src.dtype)
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", src.dtype)
        fused = not self._why_not_fast_path(src)
        # The fused kernel merges the masks and never sees the ``is_causal`` hint.
        is_causal = is_causal and not fused
        x = src
        if self.norm_first:
            x = x + self._sa_block(_run(self.norm1, fused, x), src_mask, src_key_padding_mask,
                                   is_causal, fused)
            return x + self._ff_block(_run(self.norm2, fused, x), fused)
        x = _run(self.norm1, fused,
                 x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal, fused))
        return _run(self.norm2, fused, x + self._ff_block(x, fused))

    def _sa_block(self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
                  is_causal: bool = False, fused: bool = False) -> Tensor:
        # The fused kernel computes attention explicitly, as with weights: a query whose
        # keys are all hidden gets NaN, not the zeros of the path without weights.
        x = _run(self.self_attn, fused, x, x, x, attn_mask=attn_mask,
                 key_padding_mask=key_padding_mask, need_weights=fused, is_causal=is_causal)[0]
        return _run(self.dropout1, fused, x)

    def _ff_block(self, x: Tensor, fused: bool = False) -> Tensor:
        activation = self.activation
        if fused:
            # The kernel applies the activation recorded at construction, even if
            # ``self.activation`` was replaced since.
            activation = F.gelu if self.activation_relu_or_gelu == 2 else F.relu
        hidden = _run(activation, fused, _run(self.linear1, fused, x))
        x = _run(self.linear2, fused, _run(self.dropout, fused, hidden))
        return _run(self.dropout2, fused, x)


class TransformerDecoderLayer(Module):
    """Self-attention over the target, attention from the target to the encoder's output
    (``memory``), then a feed-forward network; each in a residual connection with a norm.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.TransformerDecoderLayer.html>
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: _Activation = F.relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        super().__init__()
        _build_sublayers(self, ("self_attn", "multihead_attn"), 3, d_model, nhead,
                         dim_feedforward, dropout, layer_norm_eps, batch_first, norm_first,
                         bias, {"device": device, "dtype": dtype})
        self.activation = (_get_activation_fn(activation) if isinstance(activation, str)
                           else activation)

    def __setstate__(self, state: dict) -> None:
        """Layers pickled before ``activation`` existed get ReLU. PyTorch looks for it among
        the plain attributes only, so an activation *module* (kept with the submodules) is
        missed too: a copied or loaded decoder layer built with ``nn.GELU()`` runs ReLU,
        while ``named_modules()`` still lists the GELU. We keep that behaviour."""
        if "activation" not in state:
            state["activation"] = F.relu
        super().__setstate__(state)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
                  is_causal: bool = False) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x: Tensor, mem: Tensor, attn_mask: Tensor | None,
                   key_padding_mask: Tensor | None, is_causal: bool = False) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


def _get_clones(module: Module, n: int) -> ModuleList:
    """``n`` deep copies: the layers start with identical parameters, as in PyTorch."""
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _why_not_nested(layer: Module) -> str:
    """Why an encoder of copies of ``layer`` cannot pack padded batches; empty when it can."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    reasons = [
        (layer.norm_first, f"{name}.norm_first was True"),
        (not attn.batch_first, f"{name}.self_attn.batch_first was not True(use batch_first "
                               "for better inference performance)"),
        (not attn._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not True"),
        (attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
        (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
        (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to "
                                             f"{name}.norm2.eps"),
        (attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"),
    ]
    return next((reason for failed, reason in reasons if failed), "")


class TransformerEncoder(Module):
    """``num_layers`` copies of one encoder layer, then an optional ``norm``.

    With ``enable_nested_tensor``, PyTorch packs a padded batch into a nested tensor in
    inference; its padded positions then come out as zeros (before ``norm``).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.TransformerEncoder.html>
    """

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int,
                 norm: Module | None = None, enable_nested_tensor: bool = True,
                 mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn("enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why_not}", UserWarning, stacklevel=2)
            self.use_nested_tensor = False

    def _packed_padding(self, src: Tensor, mask: Tensor | None,
                        padding: Tensor | None) -> Tensor | None:
        """The padding as PyTorch packs it into a nested tensor, or ``None`` when it does not:
        only in inference, without another mask. Packing keeps each sequence's first ``n``
        positions, ``n`` its count of real ones; ``mask_check`` refuses to pack a batch whose
        real positions are not all first."""
        first = self.layers[0]
        if not (mha.get_fastpath_enabled() and self.use_nested_tensor) or first.training:
            return None
        if src.dim() != 3 or padding is None or mask is not None:
            return None
        real = padding.detach().numpy() == 0
        packed = np.arange(real.shape[1]) >= real.sum(axis=1, keepdims=True)
        if self.mask_check and (packed != ~real).any():
            return None
        attn = first.self_attn
        params = [attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight,
                  attn.out_proj.bias]
        params += [getattr(getattr(first, m), p) for m in ("norm1", "norm2", "linear1",
                                                           "linear2") for p in ("weight", "bias")]
        return None if _requires_grad([src, *params]) else tensor(packed)

    def forward(self, src: Tensor, mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                               mask, "mask", src.dtype)
        mask = _canonical_mask(mask, "mask", None, "", src.dtype)
        packed = self._packed_padding(src, mask, src_key_padding_mask)
        if packed is not None:
            src_key_padding_mask = zeros(tuple(packed.shape), dtype=src.dtype).masked_fill(
                packed, -math.inf)
        batch_first = self.layers[0].self_attn.batch_first
        is_causal = _detect_is_causal_mask(mask, is_causal, _seq_len(src, batch_first))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal,
                           src_key_padding_mask=src_key_padding_mask)
        if packed is not None:
            output = output.masked_fill(packed.unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Module):
    """``num_layers`` copies of one decoder layer, then an optional ``norm``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.TransformerDecoder.html>
    """

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        seq_len = _seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder and a decoder; every weight matrix re-drawn with ``xavier_uniform_``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.Transformer.html>
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: _Activation = F.relu,
                 custom_encoder: Any | None = None, custom_decoder: Any | None = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: _dtype.dtype | None = None) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                      batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(*layer_args, **factory)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(*layer_args, **factory)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
                tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        batch_dim = 0 if self.batch_first else 1
        if src.dim() == 3 and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None,
                                        dtype: _dtype.dtype | None = None) -> Tensor:
        """The causal mask for a sequence of ``sz``: ``-inf`` above the diagonal, 0 below."""
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self) -> None:
        """Every matrix (not the biases or norms) re-drawn, in ``parameters()`` order."""
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
