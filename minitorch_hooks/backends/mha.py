"""``torch.backends.mha``: whether ``TransformerEncoderLayer`` (and ``MultiheadAttention``) may
take PyTorch's fused inference path.

On that path a layer in ``eval()`` mode, with no gradient to track, computes everything in one
kernel and calls none of its submodules, so global module hooks do not see them. Turning the
fast path off makes every submodule run through ``__call__`` again.
See <https://docs.pytorch.org/docs/2.13/backends.html#module-torch.backends.mha>
"""

_fastpath_enabled = True


def get_fastpath_enabled() -> bool:
    """Whether the fused inference path may be taken (``True`` by default)."""
    return _fastpath_enabled


def set_fastpath_enabled(value: bool) -> None:
    """Allow or forbid the fused inference path."""
    global _fastpath_enabled
    _fastpath_enabled = value
