"""Helpers shared across the package, as in ``torch.utils``."""
