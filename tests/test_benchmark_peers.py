"""``benchmarks/bench_peers.py``: its checked-in results are what the Performance page
shows, and its same-result check catches a library that computes something else."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest
from harness import real_torch

ROOT = pathlib.Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_peers  # noqa: E402

import minitorch_hooks  # noqa: E402

RESULTS = json.loads((ROOT / "benchmarks" / "results" / "peers.json").read_text())


def test_the_performance_page_shows_the_table_of_the_results_file():
    page = (ROOT / "docs" / "performance.md").read_text()
    assert bench_peers.table(RESULTS) in page


def test_the_results_cover_every_workload_and_name_pytorch():
    assert [row["name"] for row in RESULTS["workloads"]] == list(bench_peers.WORKLOADS)
    assert "torch" in RESULTS["libraries"] and "minitorch_hooks" in RESULTS["libraries"]
    for row in RESULTS["workloads"]:
        assert row["ratios"]["torch"] == pytest.approx(1.0)


def _adapters():
    return {"torch": bench_peers.TorchLike(real_torch()),
            "minitorch_hooks": bench_peers.TorchLike(minitorch_hooks)}


def test_minitorch_hooks_computes_what_pytorch_computes():
    bench_peers.check_same_results(_adapters())


def test_a_library_that_computes_something_else_is_caught(monkeypatch):
    adapters = _adapters()
    monkeypatch.setattr(adapters["minitorch_hooks"], "chain", lambda: (0.0, 0.0))
    with pytest.raises(SystemExit, match="minitorch_hooks computes a different chain"):
        bench_peers.check_same_results(adapters)
