"""Shared test set-up: the conformance harness is importable from every test module, and
the header says whether the cross-checks ask a live PyTorch or its recordings."""

import os
import pathlib
import sys
from collections.abc import Iterator

import pytest

# One thread for PyTorch's OpenMP and NumPy's OpenBLAS in each pytest-xdist worker (set
# before either is imported; the scripts the tests start inherit it): there is a worker per
# core already, and threads that wait by spinning for cores the other workers hold made a
# page's PyTorch run four times slower. An OMP_NUM_THREADS of your own is kept.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("OMP_NUM_THREADS", "1")

sys.path.insert(0, str(pathlib.Path(__file__).parent / "conformance"))

import recording  # noqa: E402 - found through the path set above

_passed: set[str] = set()
_ran: set[str] = set()

# The fast tier, `pytest -m hooks`: the cross-checks of hooks and of the backward engine,
# where everything is exact (which hooks fire, in which order, with what arguments, and
# the errors), and the hook tracer: the inner loop while changing hooks or the engine
# (CONTRIBUTING.md, "Running the tests"). The fuzzers' recorded sequences replay in it;
# their fresh draws (300 and 1000 examples, most of the time the tier would take) run with
# the whole suite.
HOOKS_TIER = [f"tests/conformance/test_{name}.py" for name in (
    "tensor_hooks", "module_forward_hooks", "module_backward_hooks", "module_hooks_on_layers",
    "module_private_hooks_and_swap", "multi_grad_hook", "saved_tensor_hooks", "optim_hooks",
    "engine_order", "grad_mode_in_backward", "create_graph", "custom_function",
    "hook_fuzz", "hook_order_fuzz")] + ["tests/test_trace.py"]
FRESH_FUZZING = {"test_random_hook_sequences_behave_as_in_pytorch",
                 "test_random_graphs_fire_every_hook_in_pytorchs_order"}


@pytest.fixture(autouse=True)
def _random_state_seeded_for_each_test(request: pytest.FixtureRequest) -> None:
    """Both libraries' default generators seeded (0) before each cross-check. A scenario
    that draws without seeding (a layer's initial weights) then draws the same on both and
    in its recording, whatever ran before it in the process: with pytest-xdist a module may
    follow any other on its worker. (Not before the blocks of a page: they run as one
    script, and a reseed between two of them would change what the page prints.)"""
    if not request.node.nodeid.startswith("tests/conformance/"):
        return
    import minitorch_hooks

    minitorch_hooks.manual_seed(0)
    if recording.live():
        import torch

        # The CPU generator only, which is all a CPU build draws from: torch.manual_seed
        # also queues a seed for each accelerator, recording the caller's stack each time
        # (9 ms a test, more than many a test takes).
        torch.random.default_generator.manual_seed(0)


@pytest.fixture
def warnings_every_time() -> Iterator[None]:
    """``set_warn_always(True)`` on both libraries for one test, for the scenarios that
    check a warning PyTorch gives once per process (``TORCH_WARN_ONCE``, such as ``x.T`` of
    a 3-d tensor). Without it, whether the scenario sees the warning depends on what ran
    earlier in the same process: with pytest-xdist, a page's code on PyTorch alone may
    have given it first. That warnings come once is checked in fresh processes
    (``test_warn_always_and_c_queries.py``)."""
    import minitorch_hooks

    libraries = [minitorch_hooks] + ([pytest.importorskip("torch")] if recording.live()
                                     else [])
    for library in libraries:
        library.set_warn_always(True)
    yield
    for library in libraries:
        library.set_warn_always(False)


def pytest_report_header(config):
    return recording.header()


def pytest_itemcollected(item):
    recording.collected.add(item.nodeid)
    recording.collect_key(item)


def pytest_collection_modifyitems(config, items):
    """Two markers: ``hooks``, the fast exact tier; ``trains``, the tests of numbers from
    training, which CI runs again with the matrix products perturbed."""
    for item in items:
        if item.nodeid.split("::", 1)[0] in HOOKS_TIER and item.originalname not in FRESH_FUZZING:
            item.add_marker(pytest.mark.hooks)
        if _trains(item):
            if not item.nodeid.startswith(TRAINING_FILES):
                raise pytest.UsageError(f"{item.nodeid} trains, but its file is not in "
                                        "TRAINING_FILES (tests/conftest.py)")
            item.add_marker("trains")


def pytest_collection_finish(session):
    recording.resolve_keys()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A skip is reported at the test that skipped, not at the helper that raised it.

    pytest reports a skip where ``pytest.skip`` was called and its summary (``-rs``) folds
    the skips of one place and reason into one line: every cross-check that needs PyTorch
    skips in ``harness.real_torch``, so in the recorded mode they all showed as one line,
    ``[39] tests/conformance/harness.py:33``. At the test's own line, each test is listed
    (the cases of one parametrized test still share its line)."""
    report = yield
    if report.skipped and isinstance(report.longrepr, tuple):
        where, line = item.reportinfo()[:2]
        if os.fspath(where) != report.longrepr[0] and line is not None:
            report.longrepr = (os.fspath(where), line + 1, report.longrepr[2])
    return report


# The tests whose numbers come out of training, where a last-bit difference in a matrix
# product is carried from step to step: whole modules, and the blocks of the pages and the
# checks of the exercises whose code takes optimiser steps. CI runs them again with
# MTH_PERTURB_PRODUCTS=1 (``pytest -m trains``; see minitorch_hooks/_blas.py), and their
# verdicts must not change.
TRAINING_MODULES = ("tests/conformance/test_grad_cam.py", "tests/conformance/test_optim.py",
                    "tests/conformance/test_optim_hooks.py")
TRAINING_TESTS = ("test_block", "test_the_check_passes_on_the_solution",
                  "test_the_solution_passes_against_pytorch_s_recorded_answers",
                  "test_the_solution_runs_as_a_script",
                  "test_the_solution_runs_unchanged_on_pytorch")
# The files that hold them. ``pytest -m trains`` collects these only (collecting all the
# others was most of that run's time), and a test marked outside them is an error.
TRAINING_FILES = (*TRAINING_MODULES, "tests/docs/test_doc_blocks.py", "tests/test_exercises.py")


def pytest_ignore_collect(collection_path, config):
    if (config.getoption("markexpr") == "trains" and collection_path.name.startswith("test_")
            and collection_path.suffix == ".py"):
        return collection_path.relative_to(config.rootpath).as_posix() not in TRAINING_FILES
    return None


def _trains(item) -> bool:
    if item.nodeid.startswith(TRAINING_MODULES):
        return True
    if item.originalname not in TRAINING_TESTS or not hasattr(item, "callspec"):
        return False
    params = item.callspec.params
    code = params["path"] if "path" in params else getattr(params.get("exercise"),
                                                           "solution", None)
    return code is not None and ".step()" in code.read_text(encoding="utf-8")


def pytest_configure(config):
    config.addinivalue_line("markers", "trains: numbers from training (CI runs them again "
                            "with MTH_PERTURB_PRODUCTS=1)")
    # A pytest-xdist worker records when the session that started it does: MTH_RECORD left
    # the environment before the workers started (recording.py says why).
    if getattr(config, "workerinput", {}).get("mth_record"):
        recording.RECORDING = True


# -- recording with pytest-xdist: each worker writes the recordings of the modules it ran
# (a module runs on one worker, --dist loadfile), and the session that started them prints
# what changed.

@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    node.workerinput["mth_record"] = recording.RECORDING


_changed_by_workers: list[str] = []


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    _changed_by_workers.extend(getattr(node, "workeroutput", {}).get("mth_recorded", []))


def pytest_runtest_logreport(report):
    if report.when == "setup":
        _ran.add(report.nodeid)
    if report.when == "call" and report.passed:
        _passed.add(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if not recording.RECORDING:
        return
    if session.config.pluginmanager.has_plugin("dsession"):  # the workers have saved
        lines = sorted(_changed_by_workers)
    else:
        import record

        lines = record.save(recording.collected, _ran, _passed)
        if hasattr(session.config, "workeroutput"):
            session.config.workeroutput["mth_recorded"] = lines
            return
    print("\n\nrecordings of PyTorch's answers:", *(lines or ["unchanged"]), sep="\n")
