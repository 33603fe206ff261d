"""The differential fuzzers must be able to fail: on a minitorch_hooks broken on purpose, in
ways a learner would notice, they find a difference with PyTorch.

When recording, the example that found each breakage is kept; without PyTorch, its replay
must find the breakage again.

Each case breaks one thing with ``monkeypatch`` (undone after the test) and runs the state
machine of ``conformance/test_hook_fuzz.py``, or the random graphs of
``conformance/test_hook_order_fuzz.py``, without shrinking, until the first failure (within
2000 examples).
"""

from __future__ import annotations

import heapq
import itertools

import pytest
import recording
from hypothesis import Phase, given, settings
from recording import live
from test_hook_fuzz import PROFILES, HookLockstep, fuzz, replay_recorded
from test_hook_order_fuzz import last_run, programs, run_on_both
from test_hook_order_fuzz import replay_recorded as replay_recorded_graphs

import minitorch_hooks
from minitorch_hooks.autograd import engine
from minitorch_hooks.nn.modules import module
from minitorch_hooks.utils.hooks import call_hooks


def _reversed_call_hooks(point, owner, hooks, value, call):
    """``call_hooks`` firing the hooks last-registered first."""
    return call_hooks(point, owner, tuple(hooks)[::-1], value, call)


def _ignore_the_replacement(hook, grad):
    """A tensor hook caller that calls the hook but drops what it returned."""
    hook(grad)


BREAKAGES = {
    "module hooks fire in reverse order": (module, "call_hooks", _reversed_call_hooks),
    "a tensor hook's replacement is ignored": (engine, "_call_tensor_hook",
                                               _ignore_the_replacement),
}


UNTIL_THE_FIRST_FAILURE = settings(PROFILES["ci"], max_examples=2000, phases=[Phase.generate],
                                   report_multiple_bugs=False)


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_the_fuzzer_finds_a_library_broken_on_purpose(breakage, monkeypatch):
    """Live, the fuzzer draws until it finds the breakage; without PyTorch, the replay of
    its recorded sequences must find it."""
    where, name, broken = BREAKAGES[breakage]
    monkeypatch.setattr(where, name, broken)
    with pytest.raises(AssertionError, match=r"step\["):
        if live():
            try:
                fuzz(HookLockstep, UNTIL_THE_FIRST_FAILURE)
            finally:
                recording.add_to_corpus(HookLockstep.last_log)
        else:
            replay_recorded(minitorch_hooks, test=recording.current_test())


class _TiesInArrivalOrder:
    """``heapq`` for the engine, but with ties broken by arrival: the old FIFO order."""

    arrivals = itertools.count()

    @staticmethod
    def heappush(heap, entry):
        heapq.heappush(heap, (entry[0], next(_TiesInArrivalOrder.arrivals), entry[1]))

    @staticmethod
    def heappop(heap):
        rank, _, node = heapq.heappop(heap)
        return rank, node


def _skip_none(run_tensor_hooks):
    """The engine's tensor-hook runner, but skipping the hooks of a gradient that is None."""
    return lambda hooks, grad, tensor: None if grad is None else run_tensor_hooks(
        hooks, grad, tensor)


ENGINE_BREAKAGES = {
    "leaves that tie run in arrival order": ("heapq", _TiesInArrivalOrder),
    "no hook runs for a gradient that is None": ("_run_tensor_hooks",
                                                 _skip_none(engine._run_tensor_hooks)),
}


@pytest.mark.parametrize("breakage", sorted(ENGINE_BREAKAGES))
def test_the_engine_fuzzer_finds_an_engine_broken_on_purpose(breakage, monkeypatch):
    name, broken = ENGINE_BREAKAGES[breakage]
    monkeypatch.setattr(engine, name, broken)
    @given(program=programs())
    @UNTIL_THE_FIRST_FAILURE
    def random_graphs(program):
        run_on_both(program)

    with pytest.raises(AssertionError, match=r"program\["):
        if live():
            try:
                random_graphs()
            finally:
                recording.add_to_corpus(last_run[0])
        else:
            replay_recorded_graphs(test=recording.current_test())
