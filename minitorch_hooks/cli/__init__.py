"""Subcommands of ``minitorch-hooks``, one module each, registered in ``__main__.py``."""
