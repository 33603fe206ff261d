"""Shared test set-up: the conformance harness is importable from every test module, and
the header says whether the cross-checks ask a live PyTorch or its recordings."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent / "conformance"))

import recording  # noqa: E402 - found through the path set above

_passed: set[str] = set()


def pytest_report_header(config):
    return recording.header()


def pytest_itemcollected(item):
    recording.collected.add(item.nodeid)


def pytest_runtest_logreport(report):
    if report.when == "call" and report.passed:
        _passed.add(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if recording.RECORDING:
        import record

        lines = record.save(recording.collected, _passed)
        print("\n\nrecordings of PyTorch's answers:", *(lines or ["unchanged"]), sep="\n")
