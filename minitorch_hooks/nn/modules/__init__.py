"""The layers. ``module.py`` holds the base class and every module hook."""

from .module import Module

__all__ = ["Module"]
