"""``torch.backends``: switches for how PyTorch runs some layers. Only ``mha`` is here."""

from . import mha

__all__ = ["mha"]
