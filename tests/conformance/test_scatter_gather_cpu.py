"""``torch.nn.parallel.scatter_gather`` and ``torch.multiprocessing`` as a CPU-only
PyTorch has them, against real PyTorch. ``scatter`` repeats what is not a tensor once per
device and splits containers; a tensor needs GPU kernels, so it fails after the device
checks; ``gather`` refuses tensors on the CPU. ``torch.multiprocessing`` re-exports
Python's ``multiprocessing`` with PyTorch's sharing strategies."""

from __future__ import annotations

import collections
import importlib
import multiprocessing

import pytest
from harness import assert_same_outcome

Pair = collections.namedtuple("Pair", "a b")


def _scatter_gather(torch):
    return importlib.import_module(torch.__name__ + ".nn.parallel.scatter_gather")


def _as_torch(torch, text: str) -> str:
    return text.replace(torch.__name__ + ".", "torch.")


SCATTERED = {
    "a tuple": ((1, "a"), [0, 1]),
    "a list": ([1, [2, 3]], [0, 1, 2]),
    "a dict": ({"k": 2, "j": None}, [0, 1]),
    "a named tuple": (Pair(1, "b"), [0, 1]),
    "empty containers": (([], (), {}), [0]),
    "a number, no devices": (5, []),
    "None": (None, [0, 1]),
}


@pytest.mark.parametrize(("inputs", "targets"), SCATTERED.values(), ids=SCATTERED.keys())
def test_scatter_of_what_is_not_a_tensor(inputs, targets):
    def scenario(torch):
        result = _scatter_gather(torch).scatter(inputs, targets)
        return repr(result), type(result).__name__

    assert_same_outcome(scenario)


TENSOR_TARGETS = {
    "no devices": [],
    "a GPU number": [0],
    "a GPU by name": ["cuda:1"],
    "a GPU without index": ["cuda"],
    "the CPU by name": ["cpu"],
    "the CPU device": ["cpu device"],
    "not a device": [1.5],
}


@pytest.mark.parametrize("targets", TENSOR_TARGETS.values(), ids=TENSOR_TARGETS.keys())
@pytest.mark.parametrize("in_a_tuple", [False, True])
def test_scatter_of_a_tensor_needs_a_gpu(targets, in_a_tuple):
    def scenario(torch):
        targets_here = [torch.device("cpu") if t == "cpu device" else t for t in targets]
        x = torch.arange(6.0).reshape(3, 2)
        try:
            _scatter_gather(torch).scatter((x, 1) if in_a_tuple else x, targets_here)
        except (AttributeError, ValueError) as error:
            return type(error).__name__, _as_torch(torch, str(error))
        return "no error"

    assert_same_outcome(scenario)


@pytest.mark.parametrize(("inputs", "kwargs", "targets"), [
    ((1, 2), {"k": 3}, [0, 1]), ((), {}, [0]), ((1,), None, [0, 1, 2]), ((), {"k": 1}, [0, 1]),
    ((1, 2), None, [])])
def test_scatter_kwargs(inputs, kwargs, targets):
    def scenario(torch):
        return repr(_scatter_gather(torch).scatter_kwargs(inputs, kwargs, targets))

    assert_same_outcome(scenario)


GATHERED = {
    "tensors": lambda torch: [torch.ones(2), torch.ones(2)],
    "tensors in dicts": lambda torch: [{"a": torch.ones(1)}, {"a": torch.ones(1)}],
    "None": lambda torch: [None, None],
    "dicts of numbers": lambda torch: [{"a": 1}, {"a": 2}],
    "dicts of other sizes": lambda torch: [{"a": None}, {"a": None, "b": None}],
    "tuples of None": lambda torch: [(None, None), (None, None)],
    "named tuples of None": lambda torch: [Pair(None, None), Pair(None, None)],
    "numbers": lambda torch: [1, 2],
    "tuples of other lengths": lambda torch: [(None,), (None, None)],
}


@pytest.mark.parametrize("target", [0, "cpu"])
@pytest.mark.parametrize("outputs", GATHERED.values(), ids=GATHERED.keys())
def test_gather(outputs, target):
    def scenario(torch):
        try:
            return repr(_scatter_gather(torch).gather(outputs(torch), target))
        except (AssertionError, ValueError, TypeError) as error:
            return type(error).__name__, str(error)

    assert_same_outcome(scenario)


def test_the_names_of_nn_parallel():
    def scenario(torch):
        parallel = torch.nn.parallel
        return (parallel.scatter is _scatter_gather(torch).scatter,
                parallel.gather is _scatter_gather(torch).gather,
                sorted(_scatter_gather(torch).__all__))

    assert_same_outcome(scenario)


def test_multiprocessing_reexports_pythons_module():
    def scenario(torch):
        mp = importlib.import_module(torch.__name__ + ".multiprocessing")
        names = sorted(set(mp.__all__) - set(multiprocessing.__all__))
        same = all(getattr(mp, name) is getattr(multiprocessing, name)
                   for name in multiprocessing.__all__
                   if name not in ("Pool", "Queue", "Lock", "Manager", "Pipe", "Value",
                                   "Array", "Event", "Semaphore", "get_context"))
        results = [names, same, mp.get_sharing_strategy(),
                   sorted(mp.get_all_sharing_strategies()), mp.Process is multiprocessing.Process,
                   mp.get_start_method(allow_none=True) == multiprocessing.get_start_method(
                       allow_none=True), mp.cpu_count() == multiprocessing.cpu_count()]
        mp.set_sharing_strategy("file_system")
        results.append(mp.get_sharing_strategy())
        mp.set_sharing_strategy("file_descriptor")
        try:
            mp.set_sharing_strategy("shared")
        except AssertionError as error:  # the set's order varies: only its start is kept
            results.append(str(error).split(", expected")[0])
        results.append(mp.get_sharing_strategy())
        return results

    assert_same_outcome(scenario)
