"""``torch.autograd._force_original_view_tracking(False)``, against real PyTorch: the mode
PyTorch's own autograd tests set after every test. With view replay off (PyTorch's
default, and the only way minitorch_hooks has) a view changed in place gets an
``AsStridedBackward0``; as a plain call, a ``with`` block and a decorator, the mode leaves
graph, values and gradients as they are without it. ``True`` (view replay) is refused by
minitorch_hooks, as a feature it does not implement."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, upstream, values

import minitorch_hooks
from minitorch_hooks._missing import TorchFeatureNotImplementedError


def _change_a_view_in_place(torch):
    x = leaf(torch, values((3, 4), seed=31))
    y = x * 2
    v = y[:, 1]
    v.mul_(3)
    result = (graph(y.grad_fn), graph(v.grad_fn), y, v)
    ((y * upstream(torch, y)).sum() + (v * upstream(torch, v)).sum()).backward()
    return result, x.grad


def _as_a_call(torch):
    torch.autograd._force_original_view_tracking(False)
    return _change_a_view_in_place(torch)


def _as_a_block(torch):
    with torch.autograd._force_original_view_tracking(False) as entered:
        return entered, _change_a_view_in_place(torch)


def _as_a_decorator(torch):
    return torch.autograd._force_original_view_tracking(False)(_change_a_view_in_place)(torch)


@pytest.mark.parametrize("use", [_as_a_call, _as_a_block, _as_a_decorator])
def test_view_replay_off_changes_nothing(use):
    assert_same_outcome(use)


def test_view_replay_on_is_refused_as_not_implemented():
    with pytest.raises(TorchFeatureNotImplementedError, match=r"^torch\.autograd\."
                       r"_force_original_view_tracking\(True\) is not implemented by "
                       r"minitorch_hooks"):
        minitorch_hooks.autograd._force_original_view_tracking(True)
