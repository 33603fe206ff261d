"""``torch.backends``: switches for how PyTorch runs some layers: ``mha``, and ``cudnn`` as
a build without CUDA has it."""

from . import cudnn, mha

__all__ = ["cudnn", "mha"]
