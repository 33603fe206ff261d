"""The floor in ``benchmarks/floor.py`` must compute what the libraries it is timed
against compute, or its timings say nothing: the same gradient through the chain, and the
same error for a saved tensor changed in place."""

from __future__ import annotations

import pathlib
import sys

import pytest
from harness import real_torch

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "benchmarks"))
import bench_core  # noqa: E402
import floor  # noqa: E402

import minitorch_hooks  # noqa: E402


def test_the_floor_computes_the_same_gradient_as_minitorch_hooks():
    bench_core.check_same_gradients({"minitorch_hooks": minitorch_hooks, "floor": floor})


def test_the_floor_computes_the_same_gradient_as_pytorch():
    bench_core.check_same_gradients({"torch": real_torch(), "floor": floor})


def test_a_wrong_floor_is_caught(monkeypatch):
    monkeypatch.setattr(floor.Tanh, "backward", lambda self, grad: (grad,))
    with pytest.raises(SystemExit, match="floor computes a different gradient"):
        bench_core.check_same_gradients({"minitorch_hooks": minitorch_hooks, "floor": floor})


def test_the_floor_checks_versions_of_saved_tensors():
    x = floor.tensor([1.0, 2.0], requires_grad=True)
    w = floor.tensor([3.0, 4.0])
    y = (x * w).sum()
    w.version[0] += 1  # what an in-place change of ``w`` would do
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
