"""``minitorch_hooks.install_as_torch()``: ``import torch.nn as nn`` in a script, unchanged.

Each script runs in a fresh interpreter, as a learner's would: whether real torch was
imported before is the point of several tests. A script that goes through ``torch.nn``,
``torch.nn.functional``, ``torch.autograd``, ``torch.utils.hooks`` and ``torch.optim`` runs
once on minitorch_hooks, installed as torch, and once on real PyTorch; both must print the
same. The script shown on ``docs/start/install.md`` runs and prints what the page shows.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import textwrap

from harness import real_torch

import minitorch_hooks

SOURCE_ROOT = str(pathlib.Path(minitorch_hooks.__file__).resolve().parent.parent)
PAGE = pathlib.Path(SOURCE_ROOT) / "docs" / "start" / "install.md"
INSTALL = "import minitorch_hooks\nminitorch_hooks.install_as_torch()\n"


def python(tmp_path: pathlib.Path, source: str) -> subprocess.CompletedProcess:
    path = tmp_path / "script.py"
    path.write_text(source)
    env = dict(os.environ, PYTHONPATH=SOURCE_ROOT)
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          env=env, timeout=120, check=False, cwd=tmp_path)


SCRIPT = textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.autograd
    import torch.utils.hooks
    from torch.nn import functional as F
    from torch.optim import SGD
    from torch.utils.hooks import RemovableHandle

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
    calls = []
    handle = model[0].register_forward_hook(lambda m, args, out: calls.append(out.shape))
    x = torch.ones(4, 3, requires_grad=True)
    loss = F.mse_loss(model(x), torch.zeros(4, 1))
    (grad_x,) = torch.autograd.grad(loss, x, retain_graph=True)
    loss.backward()
    SGD(model.parameters(), lr=0.1).step()
    print(calls, isinstance(handle, RemovableHandle), torch.utils.hooks.RemovableHandle is
          RemovableHandle)
    print(grad_x.sum().item() == x.grad.sum().item(), round(loss.item(), 4))
    print([tuple(p.shape) for p in model.parameters()], nn.functional is F)
""")


def test_a_script_importing_torch_submodules_runs_as_on_pytorch(tmp_path):
    real_torch()
    ours, theirs = python(tmp_path, INSTALL + SCRIPT), python(tmp_path, SCRIPT)
    assert (ours.returncode, ours.stderr) == (0, "")
    assert theirs.returncode == 0, theirs.stderr
    assert ours.stdout == theirs.stdout


def test_the_script_on_the_install_page_prints_what_the_page_shows(tmp_path):
    page = PAGE.read_text()
    source = re.search(r'```text title="train.py"\n(.*?)```', page, re.DOTALL).group(1)
    shown = re.search(r'```text title="output"\n(.*?)```', page, re.DOTALL).group(1)
    result = python(tmp_path, source)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == shown


def test_real_torch_imported_first_is_refused_with_a_clear_error(tmp_path):
    real_torch()
    result = python(tmp_path, "import torch.nn\n" + INSTALL)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "RuntimeError: real PyTorch is already imported, so minitorch_hooks cannot stand in "
        "for it: call minitorch_hooks.install_as_torch() before anything imports torch (or "
        "run the script with 'minitorch-hooks run')")


def test_remove_undoes_it_and_installing_twice_is_refused(tmp_path):
    real_torch()
    result = python(tmp_path, textwrap.dedent("""
        import sys
        import minitorch_hooks

        with minitorch_hooks.install_as_torch() as installation:
            import torch.nn
            print(torch.nn.Linear.__module__, "torch" in sys.modules)
            try:
                minitorch_hooks.install_as_torch()
            except RuntimeError as error:
                print(error)
        installation.remove()  # a second removal does nothing
        print(any(name.split(".")[0] == "torch" for name in sys.modules))
        import torch.nn
        print(torch.nn.Linear.__module__)
    """))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "minitorch_hooks.nn.modules.linear True",
        "minitorch_hooks is already installed as torch: remove() that installation first",
        "False",
        "torch.nn.modules.linear",
    ]


def test_the_alias_does_not_offer_the_installer_as_a_torch_function(tmp_path):
    result = python(tmp_path, INSTALL + "import torch\nprint(hasattr(torch, 'install_as_torch'))\n")
    assert result.stdout == "False\n"
