"""A name of PyTorch 2.13's that minitorch_hooks lacks says so (``_missing.py``): the
error names it as PyTorch's and is both an AttributeError and a NotImplementedError, so
that feature probes still answer. (Names that exist in neither library are compared with
PyTorch in ``tests/conformance/test_missing_names.py``.) The names used here are ones the
course will not grow: a spectrogram, a CTC loss, L-BFGS."""

from __future__ import annotations

import importlib
import os
import pathlib
import re
import subprocess
import sys

import pytest

import minitorch_hooks as torch
from minitorch_hooks._missing import TorchFeatureNotImplementedError

MISSING = {
    "torch.stft": lambda: torch.stft,
    "torch.Tensor.stft": lambda: torch.ones(2).stft,
    "torch.nn.CTCLoss": lambda: torch.nn.CTCLoss,
    "torch.nn.functional.ctc_loss": lambda: torch.nn.functional.ctc_loss,
    "torch.optim.LBFGS": lambda: torch.optim.LBFGS,
    # the submodules of which the package has a part
    "torch.autograd.forward_ad": lambda: torch.autograd.forward_ad,
    "torch.autograd.functional": lambda: torch.autograd.functional,
    "torch.distributions.Bernoulli": lambda: torch.distributions.Bernoulli,
    "torch.distributions.constraints.unit_interval":
        lambda: torch.distributions.constraints.unit_interval,
    "torch.multiprocessing.spawn": lambda: torch.multiprocessing.spawn,
    "torch.nn.parallel.replicate": lambda: torch.nn.parallel.replicate,
}


@pytest.mark.parametrize(("name", "lookup"), MISSING.items(), ids=MISSING.keys())
def test_a_missing_name_of_pytorchs_names_it_and_is_both_errors(name, lookup):
    with pytest.raises(TorchFeatureNotImplementedError) as raised:
        lookup()
    assert isinstance(raised.value, AttributeError)
    assert isinstance(raised.value, NotImplementedError)
    assert str(raised.value) == (
        f"{name} is not implemented by minitorch_hooks (it is part of PyTorch 2.13: the "
        "course's pages 'What the library leaves out' and 'API coverage' say what is "
        "missing)")
    assert raised.value.name == name.rsplit(".", 1)[1]


def test_feature_probes_answer_false_and_the_default():
    x = torch.ones(2)
    assert not hasattr(torch, "stft") and getattr(torch, "stft", None) is None
    assert not hasattr(x, "stft") and getattr(x, "stft", "default") == "default"
    assert not hasattr(torch.Tensor, "stft")
    assert not hasattr(torch.nn, "CTCLoss") and not hasattr(torch.optim, "LBFGS")
    assert not hasattr(torch.autograd, "forward_ad")
    assert getattr(torch.autograd, "functional", "default") == "default"
    assert hasattr(torch.autograd, "grad") and hasattr(torch.distributions, "Categorical")


@pytest.mark.parametrize(("statement", "name"), [
    ("from minitorch_hooks import stft", "torch.stft"),
    ("from minitorch_hooks.nn import CTCLoss", "torch.nn.CTCLoss"),
    ("from minitorch_hooks.optim import SGD, LBFGS", "torch.optim.LBFGS"),
    ("from minitorch_hooks.autograd import grad, forward_ad", "torch.autograd.forward_ad"),
    ("from minitorch_hooks.distributions import Bernoulli", "torch.distributions.Bernoulli")])
def test_from_import_of_a_missing_name_is_an_import_error_that_names_it(statement, name):
    """Python turns an AttributeError met by ``from ... import`` into its own message
    without ours, so there the error is an ImportError (still a NotImplementedError)."""
    with pytest.raises(ImportError, match=f"^{re.escape(name)} is not implemented by "
                       "minitorch_hooks") as raised:
        exec(statement, {})
    assert isinstance(raised.value, NotImplementedError)
    with pytest.raises(ImportError, match="^cannot import name 'stftx' from 'minitorch_hooks'"):
        exec("from minitorch_hooks import stftx", {})


def test_from_import_of_a_missing_name_under_torch(tmp_path):
    """The same through ``install_as_torch``, whose modules stand in for PyTorch's."""
    script = tmp_path / "script.py"
    script.write_text(
        "import minitorch_hooks\nminitorch_hooks.install_as_torch()\n"
        "try:\n    from torch.nn import CTCLoss\n"
        "except ImportError as error:\n    print(type(error).__name__, error)\n"
        "import torch\nprint(hasattr(torch.nn, 'CTCLoss'))\n"
        "try:\n    import torch.autograd.forward_ad\n"
        "except ImportError as error:\n    print(type(error).__name__, error)\n"
        "print(hasattr(torch.autograd, 'functional'), hasattr(torch.distributions, 'Bernoulli'))\n")
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(torch.__file__).parent.parent))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=120, check=True)
    assert done.stdout.splitlines() == [
        "TorchFeatureImportError torch.nn.CTCLoss is not implemented by minitorch_hooks (it "
        "is part of PyTorch 2.13: the course's pages 'What the library leaves out' and 'API "
        "coverage' say what is missing)", "False",
        "ModuleNotFoundError torch.autograd.forward_ad is not implemented by minitorch_hooks "
        "(it is part of PyTorch 2.13: the course's pages 'What the library leaves out' and "
        "'API coverage' say what is missing)", "False False"]


def test_import_of_one_of_pytorchs_modules_that_is_missing():
    with pytest.raises(ModuleNotFoundError, match=re.escape(
            "torch.fft is not implemented by minitorch_hooks")) as raised:
        importlib.import_module("minitorch_hooks.fft")
    assert raised.value.name == "minitorch_hooks.fft"
    with pytest.raises(ModuleNotFoundError, match="^No module named 'minitorch_hooks.fftx'$"):
        importlib.import_module("minitorch_hooks.fftx")


@pytest.mark.parametrize("module", ["autograd.forward_ad", "autograd.functional",
                                    "distributions.bernoulli"])
def test_import_of_a_missing_submodule_of_a_module_we_have(module):
    with pytest.raises(ModuleNotFoundError, match=re.escape(
            f"torch.{module} is not implemented by minitorch_hooks")):
        importlib.import_module(f"minitorch_hooks.{module}")
    with pytest.raises(ModuleNotFoundError, match="^No module named "):
        importlib.import_module(f"minitorch_hooks.{module}x")


def test_an_attribute_set_on_a_tensor_hides_the_missing_one():
    """A tensor keeps the attributes a program sets on it, as PyTorch's does, even under
    a name PyTorch uses for a method."""
    x = torch.ones(2)
    x.stft = "mine"
    assert x.stft == "mine"


def test_the_tensor_class_has_no_getattr():
    """Reading an attribute of a tensor is the hottest path there is: a ``__getattr__`` on
    the class would take every lookup off CPython's fast paths. Missing names are
    descriptors instead."""
    assert not any("__getattr__" in vars(klass) for klass in type(torch.ones(1)).__mro__)
