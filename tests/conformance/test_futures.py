"""``torch.futures`` against real PyTorch: a future completed once, its callbacks run in
the order they were added (or at once when it is complete), ``then`` chaining what they
return, errors passed on, ``collect_all`` and ``wait_all``. Hook libraries import the
module as they load (Captum does), and DDP's communication hooks return such futures.
"""

from __future__ import annotations

import importlib

import pytest
from harness import assert_same_outcome


def test_results_callbacks_and_then():
    def scenario(torch):
        # (Not ``from torch.futures import``: that would import the real PyTorch on both
        # sides, whatever library ``torch`` is here.)
        futures = importlib.import_module(f"{torch.__name__}.futures")

        future, calls = futures.Future(), []
        before = future.done()
        future.add_done_callback(lambda f: calls.append(("first", f.value())))
        chained = future.then(lambda f: f.wait() * 10)
        future.add_done_callback(lambda f: calls.append(("second", f.wait())))
        future.set_result(4)
        future.add_done_callback(lambda f: calls.append(("late", f.value())))
        return (before, future.done(), future.wait(), future.value(), chained.done(),
                chained.wait(), chained.then(lambda f: f.value() + 1).wait(), calls,
                isinstance(chained, futures.Future))

    assert_same_outcome(scenario)


def test_collect_all_and_wait_all():
    def scenario(torch):
        first, second = torch.futures.Future(), torch.futures.Future()
        collected = torch.futures.collect_all([first, second])
        first.set_result(torch.ones(2))
        after_one = collected.done()
        second.set_result("two")
        return (after_one, collected.done(), [f.wait() for f in collected.wait()],
                torch.futures.wait_all([first, second]),
                torch.futures.collect_all([]).wait())

    assert_same_outcome(scenario)


def _set_twice(torch):
    future = torch.futures.Future()
    future.set_result(1)
    future.set_result(2)


def _exception(torch):
    future = torch.futures.Future()
    future.set_exception(ValueError("bad value"))
    return future.done(), future.wait()


def _callback_error(torch):
    """PyTorch adds the Python stack to the message ("At: ..."): its first line is
    compared."""
    future = torch.futures.Future()
    chained = future.then(lambda f: 1 / 0)
    future.set_result(0)
    try:
        chained.wait()
    except RuntimeError as error:
        return chained.done(), str(error).split("\n")[0]
    return "no error"


def _not_an_exception(torch):
    torch.futures.Future().set_exception(3)


@pytest.mark.parametrize("call", [_set_twice, _exception, _callback_error, _not_an_exception])
def test_errors(call):
    assert_same_outcome(call)
