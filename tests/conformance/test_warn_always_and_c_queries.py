"""``torch.set_warn_always`` with the warnings PyTorch gives once per process, and the
one-line ``torch._C`` queries PyTorch's hook tests call. Each scenario runs on
minitorch_hooks and on real PyTorch (see ``harness.py``); the once-per-process warnings
need a fresh process for each library, so those scenarios run as scripts."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from harness import assert_same_outcome, pytorch_answer

import minitorch_hooks

_ROOT = Path(minitorch_hooks.__file__).resolve().parent.parent

# Counts the warnings of two calls of each warn-once site, with and without warn_always.
_SCRIPT = textwrap.dedent("""
    import sys, warnings
    import numpy as np
    torch = __import__(sys.argv[1])

    def count(make):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(2):
                make()
        return [str(w.message)[:40] for w in caught]

    frozen = np.ones(2)
    frozen.setflags(write=False)
    sites = {"T of 3-D": lambda: torch.ones(2, 3, 4).T,
             "T of 0-D": lambda: torch.tensor(1.0).T,
             "read-only numpy": lambda: torch.from_numpy(frozen)}
    seen = [torch.is_warn_always_enabled()]
    seen.append(count(sites["T of 3-D"]))          # once per process
    torch.set_warn_always(True)
    seen.append(torch.is_warn_always_enabled())
    seen += [count(site) for site in sites.values()]   # every time
    torch.set_warn_always(False)
    seen += [count(site) for site in sites.values()]   # once more, then never
    seen += [count(site) for site in sites.values()]
    print(seen)
""")


def _run(library: str) -> str:
    result = subprocess.run([sys.executable, "-c", _SCRIPT, library], capture_output=True,
                            text=True, cwd=_ROOT, timeout=120, check=True)
    return result.stdout


def test_warn_always_repeats_the_once_per_process_warnings():
    assert _run("minitorch_hooks") == pytorch_answer(lambda torch: _run("torch"))


@pytest.mark.parametrize("value", [1, None, "yes"])
def test_set_warn_always_wants_a_bool(value):
    def scenario(torch):
        try:
            torch.set_warn_always(value)
        finally:
            torch.set_warn_always(False)

    assert_same_outcome(scenario)


def test_set_warn_always_takes_its_flag_positionally():
    assert_same_outcome(lambda torch: torch.set_warn_always(b=True))


def test_saved_tensors_hooks_switch_as_the_context_managers_see_it():
    def scenario(torch):
        autograd = torch._C._autograd
        pair = (lambda t: t, lambda t: t)
        seen = [autograd._saved_tensors_hooks_is_enabled(),
                autograd._saved_tensors_hooks_get_disabled_error_message(),
                autograd._top_saved_tensors_default_hooks(False)]
        with torch.autograd.graph.saved_tensors_hooks(*pair):
            seen.append(autograd._top_saved_tensors_default_hooks(False) == pair)
            try:
                autograd._saved_tensors_hooks_disable("not while hooks are on")
            except RuntimeError as error:
                seen.append(str(error))
        with torch.autograd.graph.disable_saved_tensors_hooks("off here"):
            seen += [autograd._saved_tensors_hooks_is_enabled(),
                     autograd._saved_tensors_hooks_get_disabled_error_message()]
        autograd._saved_tensors_hooks_disable("switched off")
        try:
            seen.append(autograd._saved_tensors_hooks_is_enabled())
            with torch.autograd.graph.saved_tensors_hooks(*pair):
                pass
        except RuntimeError as error:
            seen.append(str(error))
        finally:
            autograd._saved_tensors_hooks_enable()
        seen.append(autograd._saved_tensors_hooks_is_enabled())
        return seen

    assert_same_outcome(scenario)


def test_graph_task_queries_inside_and_outside_backward():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        unused = x * 3
        seen = [torch._C._current_graph_task_id()]

        def hook(grad):
            seen.append(torch._C._current_graph_task_id() >= 0)
            seen.append(torch._C._will_engine_execute_node(y.grad_fn))
            seen.append(torch._C._will_engine_execute_node(unused.grad_fn))
        y.register_hook(hook)
        y.sum().backward()
        try:
            torch._C._will_engine_execute_node(y.grad_fn)
        except RuntimeError as error:
            seen.append(str(error))
        return seen

    assert_same_outcome(scenario)


def test_set_grad_enabled_as_a_call():
    def scenario(torch):
        seen = [torch._C.is_grad_enabled()]
        torch._C._set_grad_enabled(False)
        try:
            seen += [torch.is_grad_enabled(), (torch.ones(1, requires_grad=True) * 2).grad_fn]
        finally:
            torch._C._set_grad_enabled(True)
        seen.append(torch.is_grad_enabled())
        try:
            torch._C._set_grad_enabled(1)
        except TypeError as error:
            seen.append(str(error))
        return seen

    assert_same_outcome(scenario)


def test_tensor_base_is_what_every_tensor_is_an_instance_of():
    def scenario(torch):
        parameter = torch.nn.Parameter(torch.ones(1))
        base = torch._C.TensorBase
        return (isinstance(torch.ones(1), base), isinstance(parameter, base),
                issubclass(torch.Tensor, base), isinstance(1.0, base), torch.Tensor is base,
                hasattr(torch, "TensorBase"))

    assert_same_outcome(scenario)
