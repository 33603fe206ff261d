"""``tools/pytorch_hook_tests/run.py``, the runner of PyTorch's own hook tests, on a small
checkout made here: it reports each test's outcome as unittest sees it, names the import
behind a test that uses something minitorch_hooks lacks, and its ``assertEqual`` stand-in
fails where PyTorch's does (dtypes differ) and passes within PyTorch's tolerances."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import minitorch_hooks

ROOT = pathlib.Path(minitorch_hooks.__file__).resolve().parent.parent
RUNNER = ROOT / "tools" / "pytorch_hook_tests" / "run.py"

FAKE_TESTS = textwrap.dedent("""
    from torch.testing._internal.common_utils import (
        TestCase, instantiate_parametrized_tests, parametrize, run_tests)
    import torch
    import torch.autograd.forward_ad as fwAD
    import torch.nn as nn


    class TestFake(TestCase):
        def test_hook_fires(self):
            calls = []
            module = nn.Linear(2, 2)
            module.register_forward_hook(lambda *args: calls.append(len(args)))
            module(torch.ones(1, 2))
            self.assertEqual(calls, [3])

        def test_within_tolerance(self):
            self.assertEqual(torch.tensor([1.0]), torch.tensor([1.0 + 1e-7]))

        def test_dtypes_differ(self):
            self.assertEqual(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))

        def test_uses_forward_ad(self):
            fwAD.dual_level()

        @parametrize("x", [1, 2])
        def test_parametrized(self, x):
            self.assertEqual(x, 1)


    instantiate_parametrized_tests(TestFake)

    if __name__ == "__main__":
        run_tests()
""")


def test_the_runner_reports_each_outcome_and_why(tmp_path):
    (tmp_path / "test" / "nn").mkdir(parents=True)
    (tmp_path / "test" / "nn" / "test_module_hooks.py").write_text(FAKE_TESTS)
    result = subprocess.run([sys.executable, str(RUNNER), str(tmp_path)], capture_output=True,
                            text=True, timeout=120, check=False,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    lines = result.stdout.splitlines()

    def line(prefix: str) -> str:
        (found,) = [text for text in lines if text.startswith(prefix)]
        return found

    assert result.returncode == 1, result.stderr
    assert line("PASS  TestFake.test_hook_fires ")
    assert line("PASS  TestFake.test_within_tolerance ")
    assert "dtypes torch.float32 != torch.float64" in line("FAIL  TestFake.test_dtypes_differ ")
    assert ("'import torch.autograd.forward_ad as fwAD' failed: ModuleNotFoundError"
            in line("ERROR TestFake.test_uses_forward_ad "))
    assert line("PASS  TestFake.test_parametrized_x_1 ")
    assert "2 != 1" in line("FAIL  TestFake.test_parametrized_x_2 ")
    assert ("   test/nn/test_module_hooks.py: 3 passed, 2 failed, 1 errored, 0 skipped"
            in lines)
    assert lines[-1] == "3 passed, 2 failed, 1 errored, 0 skipped"
    assert "== test/test_autograd.py" in lines and "   (not in this checkout)" in lines
