"""The differential fuzzer must be able to fail: on a minitorch_hooks broken on purpose, in
ways a learner would notice, it finds a difference with PyTorch.

Each case breaks one thing with ``monkeypatch`` (undone after the test) and runs the state
machine of ``conformance/test_hook_fuzz.py`` without shrinking, until the first failure.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings
from test_hook_fuzz import PROFILES, HookLockstep, fuzz

from minitorch_hooks.autograd import engine
from minitorch_hooks.nn.modules import module
from minitorch_hooks.utils.hooks import call_hooks


def _reversed_call_hooks(hooks, value, call, **where):
    """``call_hooks`` firing the hooks last-registered first."""
    return call_hooks(tuple(hooks)[::-1], value, call, **where)


def _ignore_the_replacement(hook_id, hook, grad):
    """A tensor hook caller that calls the hook but drops what it returned."""
    hook(grad)


BREAKAGES = {
    "module hooks fire in reverse order": (module, "call_hooks", _reversed_call_hooks),
    "a tensor hook's replacement is ignored": (engine, "_call_tensor_hook",
                                               _ignore_the_replacement),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_the_fuzzer_finds_a_library_broken_on_purpose(breakage, monkeypatch):
    where, name, broken = BREAKAGES[breakage]
    monkeypatch.setattr(where, name, broken)
    until_the_first_failure = settings(PROFILES["ci"], phases=[Phase.generate],
                                       report_multiple_bugs=False)
    with pytest.raises(AssertionError, match=r"step\["):
        fuzz(HookLockstep, until_the_first_failure)
