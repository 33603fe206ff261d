"""``minitorch-hooks run SCRIPT.py`` and ``minitorch-hooks compare SCRIPT.py``.

``run`` is tested in-process through ``main``, as the other command-line tests are. So is
``compare``, whose two runs are subprocesses of their own (it needs real PyTorch, and is
skipped visibly without it); the test of ``compare`` without PyTorch hides torch from a
fresh interpreter with a ``sitecustomize`` that marks it as not importable.
"""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator

import pytest
from harness import real_torch

import minitorch_hooks
from minitorch_hooks.__main__ import main
from minitorch_hooks.cli.pytorch import INSTALL_PYTORCH


def script(tmp_path: pathlib.Path, source: str, name: str = "script.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


GOOD = """
    import sys

    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.nn.modules.module import register_module_forward_hook
    from torch.utils.hooks import RemovableHandle

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
    handle = model[0].register_forward_hook(lambda module, args, output: None)
    x = torch.ones(2, 3, requires_grad=True)
    x.register_hook(lambda grad: grad * 2)
    F.relu(model(x)).sum().backward()
    print(torch.__name__, type(handle) is RemovableHandle, x.grad.shape)
    print("args:", sys.argv[1:], "main:", __name__)
"""


def test_run_runs_a_pytorch_script_on_minitorch_hooks(capsys, tmp_path):
    code, out, err = run(capsys, "run", script(tmp_path, GOOD), "--flag", "value")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["torch True torch.Size([2, 3])",
                                "args: ['--flag', 'value'] main: __main__"]


def test_run_leaves_no_alias_behind(capsys, tmp_path):
    before = {name: module for name, module in sys.modules.items()
              if name == "torch" or name.startswith("torch.")}
    run(capsys, "run", script(tmp_path, GOOD))
    after = {name: module for name, module in sys.modules.items()
             if name == "torch" or name.startswith("torch.")}
    assert after == before


def test_run_trace_prints_the_timeline_after_the_output(capsys, tmp_path):
    code, out, _ = run(capsys, "run", "--trace", script(tmp_path, GOOD))
    assert code == 0
    output, _, timeline = out.partition("\nHook timeline (minitorch_hooks.hook_trace):\n")
    assert output.startswith("torch True")
    rows = timeline.splitlines()
    assert rows[1].split()[:6] == ["1", "forward", "forward", "hook", "0", "(Linear)"]
    assert rows[2].endswith("tensor hook   leaf tensor [2, 3]  <lambda>(grad=[2, 3]) -> replaced")


def test_run_svg_and_mermaid_write_the_timeline_to_files(capsys, tmp_path):
    svg, mermaid = tmp_path / "timeline.svg", tmp_path / "timeline.mmd"
    code, out, _ = run(capsys, "run", "--svg", str(svg), "--mermaid", str(mermaid),
                       script(tmp_path, GOOD))
    assert code == 0 and "Hook timeline" not in out  # only --trace prints it
    root = ElementTree.fromstring(svg.read_text())
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 2
    assert mermaid.read_text().startswith("sequenceDiagram\n")


@pytest.mark.parametrize(("source", "line", "message"), [
    ("x = torch.ones(4)\ny = torch.fft.fft(x)\n", "y = torch.fft.fft(x)",
     "TorchFeatureNotImplementedError: torch.fft is not implemented by minitorch_hooks"),
    ("import torch.distributions.bernoulli\n", "import torch.distributions.bernoulli",
     "ModuleNotFoundError: torch.distributions.bernoulli is not implemented by minitorch_hooks"),
    ("from torch.utils.tensorboard import SummaryWriter\n",
     "from torch.utils.tensorboard import SummaryWriter",
     "ModuleNotFoundError: torch.utils.tensorboard is not implemented by minitorch_hooks"),
    ("torch.nn.functional.selu(torch.ones(1))\n", "torch.nn.functional.selu(torch.ones(1))",
     "torch.nn.functional.selu is not implemented by minitorch_hooks"),
    ("torch.kron(torch.ones(2), torch.ones(2))\n", "torch.kron(torch.ones(2), torch.ones(2))",
     "torch.kron is not implemented by minitorch_hooks"),
    ("torch.hook_trace()\n", "torch.hook_trace()",  # ours, not PyTorch's: not under torch.
     "AttributeError: module 'torch' has no attribute 'hook_trace'"),
])
def test_an_unsupported_feature_fails_with_a_message_naming_it(capsys, tmp_path, source, line,
                                                               message):
    code, out, err = run(capsys, "run", script(tmp_path, "import torch\nprint('before')\n"
                                               + source))
    assert (code, out) == (1, "before\n")
    assert err.startswith("Traceback (most recent call last):\n")
    assert line in err and message in err.rstrip().splitlines()[-1]
    assert "torch_alias.py" not in err and "runpy" not in err  # only the script's frames
    assert "_missing.py" not in err


def test_feature_detection_still_works_on_the_aliases(capsys, tmp_path):
    code, out, _ = run(capsys, "run", script(tmp_path, """
        import torch
        print(hasattr(torch, "compile"), getattr(torch, "fft", None), hasattr(torch, "nn"))
        try:
            import torch.fft
        except ImportError as error:
            print(type(error).__name__, error.name)
    """))
    assert (code, out) == (0, "False None True\nModuleNotFoundError torch.fft\n")


def test_a_script_that_raises_shows_its_traceback_and_exits_1(capsys, tmp_path):
    code, out, err = run(capsys, "run", "--trace", script(tmp_path, """
        import torch

        def check(x):
            raise ValueError("the script failed")

        x = torch.ones(2, requires_grad=True)
        x.register_hook(lambda grad: None)
        x.sum().backward()
        print("printed before the error")
        check(x)
    """))
    assert code == 1
    assert out.startswith("printed before the error\n")
    assert "tensor hook" in out  # the timeline up to the error is still printed
    assert err.splitlines() == [
        "Traceback (most recent call last):",
        f'  File "{tmp_path / "script.py"}", line 11, in <module>',
        "    check(x)",
        f'  File "{tmp_path / "script.py"}", line 5, in check',
        '    raise ValueError("the script failed")',
        "ValueError: the script failed",
    ]


@pytest.mark.parametrize(("source", "expected_code", "expected_err"), [
    ("import sys\nsys.exit(3)\n", 3, ""),
    ("import sys\nsys.exit()\n", 0, ""),
    ("import sys\nsys.exit('giving up')\n", 1, "giving up\n"),
])
def test_the_exit_code_is_the_script_s(capsys, tmp_path, source, expected_code, expected_err):
    code, _, err = run(capsys, "run", script(tmp_path, source))
    assert (code, err) == (expected_code, expected_err)


def test_a_syntax_error_is_reported_without_our_frames(capsys, tmp_path):
    code, _, err = run(capsys, "run", script(tmp_path, "print('unclosed'\n"))
    assert code == 1
    assert err.rstrip().splitlines()[-1].startswith("SyntaxError:")
    assert "runpy" not in err


def test_run_without_a_script_file_is_a_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "run", str(tmp_path / "missing.py"))
    assert code == 2 and "no such script" in err


def test_run_real_torch_traces_pytorch(capsys, tmp_path):
    real_torch()
    code, out, _ = run(capsys, "run", "--real-torch", "--trace", script(tmp_path, """
        import torch
        x = torch.ones(2, requires_grad=True)
        x.register_hook(lambda grad: None)
        x.sum().backward()
        print(torch.__version__)
    """))
    assert code == 0
    assert out.startswith("2.13.0")
    assert "tensor hook  leaf tensor [2]  <lambda>(grad=[2])" in out
    assert "\nHook timeline (PyTorch, by minitorch_hooks.hook_trace):\n" in out
    assert "graph-node hooks, grad_fn.register_hook and register_prehook, cannot be" in out


def test_run_mermaid_to_a_markdown_file_is_fenced(capsys, tmp_path):
    page, bare = tmp_path / "timeline.md", tmp_path / "timeline.mmd"
    code, _, _ = run(capsys, "run", "--mermaid", str(page), script(tmp_path, """
        import torch
        x = torch.ones(2, requires_grad=True)
        x.register_hook(lambda grad: None)
        x.sum().backward()
    """))
    assert code == 0
    text = page.read_text()
    assert text.startswith("```mermaid\nsequenceDiagram\n") and text.endswith("\n```\n")
    run(capsys, "run", "--mermaid", str(bare), str(tmp_path / "script.py"))
    assert bare.read_text() == text.removeprefix("```mermaid\n").removesuffix("```\n")


# -- compare --------------------------------------------------------------------------------
SAME_ON_BOTH = """
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    model[0].register_full_backward_hook(lambda m, grad_input, grad_output: None)
    x = torch.tensor([[1.0, -2.0]], requires_grad=True)
    x.register_hook(lambda grad: grad * 2)
    model(x).sum().backward()
    print(x.grad.shape)
    y = x * 3
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)  # not seen on PyTorch
    y.sum().backward()
"""

DIFFERENT = """
    import torch

    print(torch.__version__)
    x = torch.ones(2, requires_grad=True)
    if torch.__version__.startswith("2."):  # only on real PyTorch
        x.register_hook(lambda grad: None)
    x.sum().backward()
    raise RuntimeError(f"failed on {torch.__version__}")
"""


def test_compare_on_a_script_that_behaves_the_same_exits_0(capsys, tmp_path):
    real_torch()
    code, out, err = run(capsys, "compare", script(tmp_path, SAME_ON_BOTH))
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == [
        "printed output: the same (1 line(s))",
        "hook timeline: the same (3 hook call(s))",
        "outcome: the same (exit code 0)",
        "left out: 1 graph-node hook call(s) of minitorch_hooks, which cannot be watched "
        "on PyTorch",
    ]


def test_compare_on_a_script_that_behaves_differently_shows_the_diffs_and_exits_1(
        capsys, tmp_path):
    real_torch()
    code, out, _ = run(capsys, "compare", script(tmp_path, DIFFERENT))
    assert code == 1
    assert (f"printed output: different\n--- PyTorch\n+++ minitorch_hooks\n@@ -1 +1 @@\n"
            f"-2.13.0+cpu\n+{minitorch_hooks.__version__}\n") in out
    assert "hook timeline: different\n" in out
    assert "-backward: tensor hook on leaf tensor [2]: <lambda>(grad=[2])\n" in out
    assert ("-RuntimeError: failed on 2.13.0+cpu\n"
            f"+RuntimeError: failed on {minitorch_hooks.__version__}\n") in out


def test_compare_without_pytorch_says_how_to_install_it_and_exits_2(tmp_path):
    hidden = tmp_path / "hide_torch"
    hidden.mkdir()
    (hidden / "sitecustomize.py").write_text('import sys\nsys.modules["torch"] = None\n')
    source_root = str(pathlib.Path(minitorch_hooks.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hidden), source_root]))
    result = subprocess.run(
        [sys.executable, "-m", "minitorch_hooks", "compare", script(tmp_path, SAME_ON_BOTH)],
        capture_output=True, text=True, env=env, timeout=60, check=False)
    assert (result.returncode, result.stdout) == (2, "")
    assert "real PyTorch is not installed" in result.stderr
    assert INSTALL_PYTORCH in result.stderr


# -- stopping a script that never ends: --timeout, Ctrl-C, SIGTERM -------------------------

FOREVER = """
    import os
    import subprocess
    import sys
    import time

    # A helper process of the script's own, then a loop that never ends. Each run writes
    # its own pid and its helper's, so that the test can check that none is left behind.
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pids = os.path.join(sys.argv[1], f"{os.getpid()}.pids")
    with open(pids + ".tmp", "w") as file:
        file.write(f"{os.getpid()} {helper.pid}")
    os.rename(pids + ".tmp", pids)
    try:
        while True:
            time.sleep(0.05)
    finally:
        print("the script's finally block ran", flush=True)
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie waiting for its parent is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _pids_written(folder: pathlib.Path, runs: int, within: float = 120) -> list[int]:
    deadline = time.monotonic() + within
    while len(files := sorted(folder.glob("*.pids"))) < runs:
        assert time.monotonic() < deadline, "the runs did not start"
        time.sleep(0.1)
    return [int(pid) for file in files for pid in file.read_text().split()]


def _none_left(pids: list[int], within: float = 10) -> bool:
    deadline = time.monotonic() + within
    while any(_alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _start(tmp_path: pathlib.Path, *argv: str, command: tuple[str, ...] = ("-m", "minitorch_hooks")
           ) -> tuple[subprocess.Popen, pathlib.Path]:
    """``minitorch-hooks ARGV... FOREVER-script FOLDER`` in a fresh interpreter (or
    ``python COMMAND ARGV...``)."""
    folder = tmp_path / "pids"
    folder.mkdir()
    source_root = str(pathlib.Path(minitorch_hooks.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=source_root)
    process = subprocess.Popen(
        [sys.executable, *command, *argv, script(tmp_path, FOREVER), str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return process, folder


def test_run_timeout_stops_the_script_where_it_is_and_exits_124(capsys, tmp_path):
    (tmp_path / "pids").mkdir()
    code, out, err = run(capsys, "run", "--timeout", "0.5", script(tmp_path, FOREVER),
                         str(tmp_path / "pids"))
    assert code == 124
    assert out == "the script's finally block ran\n"
    lines = err.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert "time.sleep(0.05)" in err and "stopping.py" not in err
    assert lines[-1] == f"minitorch-hooks run: {tmp_path / 'script.py'} stopped after 0.5 " \
                        "seconds (--timeout)"
    helper = _pids_written(tmp_path / "pids", 1)[1]
    os.kill(helper, signal.SIGKILL)  # the script's helper: run leaves it to the script


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf"])
def test_the_timeout_must_be_a_positive_number(capsys, tmp_path, value):
    code, _, err = run(capsys, "run", "--timeout", value, script(tmp_path, "pass\n"))
    assert code == 2 and f"SECONDS must be a positive number, not '{value}'" in err


STOP_SIGNALS = pytest.mark.parametrize(("signum", "code", "reason"), [
    (signal.SIGINT, 130, "interrupted (Ctrl-C)"),
    (signal.SIGTERM, 143, "terminated (SIGTERM)"),
])


def _stop_with(signum: int, tmp_path: pathlib.Path, *argv: str
               ) -> tuple[int, str, str, list[int]]:
    """Start ``minitorch-hooks ARGV...`` on the endless script, send ``signum`` once every
    run has started, and return the exit code, stdout, stderr and the pids written."""
    process, folder = _start(tmp_path, *argv)
    try:
        pids = _pids_written(folder, 2 if argv[0] == "compare" else 1)
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    return process.returncode, out, err, pids


@STOP_SIGNALS
def test_run_stopped_by_a_signal_says_so(tmp_path, signum, code, reason):
    returncode, out, err, pids = _stop_with(signum, tmp_path, "run")
    assert returncode == code
    assert out == "the script's finally block ran\n"
    assert err.rstrip().endswith(f"script.py {reason}")
    os.kill(pids[1], signal.SIGKILL)


# The default timeout, shortened to 10 s in the child process, which is otherwise the real
# command line, started as a real process.
SHORTENED_DEFAULT = ("-c", "import sys\nfrom minitorch_hooks.cli import stopping\n"
                     "stopping.COMPARE_TIMEOUT = 10.0\nfrom minitorch_hooks.__main__ import main\n"
                     "sys.exit(main())\n")


@pytest.fixture(scope="module")
def endless_compares(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """``compare`` on the endless script twice, started together: with ``--timeout 12``,
    and with the default timeout. Each waits out its own timeout, so together they take
    12 s, not 22 (long enough for both runs of each to start on a loaded machine, about
    2 s, up to 8 s measured in CI on a machine with other work)."""
    real_torch()
    given, default = tmp_path_factory.mktemp("given"), tmp_path_factory.mktemp("default")
    started = {"given": (given, *_start(given, "compare", "--timeout", "12")),
               "default": (default, *_start(default, "compare", command=SHORTENED_DEFAULT))}
    yield started
    for _, process, _ in started.values():
        process.kill()


def _stopped_after(started: tuple, seconds: int) -> None:
    """The compare in ``started`` exits 124 after ``seconds``, having stopped both of its
    runs and what they started."""
    tmp_path, process, folder = started
    out, err = process.communicate(timeout=120)
    pids = _pids_written(folder, 2, within=0)
    assert (process.returncode, out) == (124, "")
    assert err == (f"minitorch-hooks compare: {tmp_path / 'script.py'} stopped after "
                   f"{seconds} seconds (--timeout); its runs on PyTorch and minitorch_hooks "
                   "were stopped\n")
    assert _none_left(pids)


def test_compare_timeout_stops_both_runs_and_what_they_started(endless_compares):
    _stopped_after(endless_compares["given"], 12)


def test_compare_stops_a_script_that_never_ends_by_default(endless_compares):
    """Without ``--timeout``, ``compare`` still stops both runs: after
    ``COMPARE_TIMEOUT`` seconds (600; 10 here, see ``SHORTENED_DEFAULT``)."""
    _stopped_after(endless_compares["default"], 10)


@STOP_SIGNALS
def test_compare_stopped_by_a_signal_stops_both_runs(tmp_path, signum, code, reason):
    real_torch()
    returncode, _, err, pids = _stop_with(signum, tmp_path, "compare")
    assert returncode == code
    assert err == (f"minitorch-hooks compare: {tmp_path / 'script.py'} {reason}; its runs on "
                   "PyTorch and minitorch_hooks were stopped\n")
    assert _none_left(pids)


def test_compare_help_gives_the_default_timeout(capsys):
    code, out, _ = run(capsys, "compare", "--help")
    out = " ".join(out.split())
    assert code == 0
    assert "--timeout SECONDS stop the script after SECONDS seconds; by default 600 seconds" \
        in out
