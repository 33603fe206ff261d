"""Shared test set-up: the conformance harness is importable from every test module."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent / "conformance"))
