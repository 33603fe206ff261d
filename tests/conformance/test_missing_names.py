"""Names that do not exist, against real PyTorch: the same error, type and message (with
the package's name where PyTorch says ``torch``), and the same answers to the probes that
libraries use to detect features. What a name PyTorch has but minitorch_hooks lacks does
is this library's own (``_missing.py``); ``tests/test_missing_name_errors.py`` checks it."""

from __future__ import annotations

import importlib

import pytest
from harness import assert_same_outcome

LOOKUPS = {
    "torch.no_such_name": lambda torch: torch.no_such_name,
    "torch.nn.no_such_name": lambda torch: torch.nn.no_such_name,
    "F.no_such_name": lambda torch: torch.nn.functional.no_such_name,
    "torch.optim.no_such_name": lambda torch: torch.optim.no_such_name,
    "x.no_such_name": lambda torch: torch.ones(1).no_such_name,
    "Tensor.no_such_name": lambda torch: torch.Tensor.no_such_name,
    "import torch.no_such_module": lambda torch: importlib.import_module(
        torch.__name__ + ".no_such_module"),
    "import torch.nn.no_such_module": lambda torch: importlib.import_module(
        torch.__name__ + ".nn.no_such_module"),
    "from torch import no_such_name": lambda torch: exec(
        f"from {torch.__name__} import no_such_name", {}),
    "torch.autograd.no_such_name": lambda torch: torch.autograd.no_such_name,
    "import torch.autograd.no_such_module": lambda torch: importlib.import_module(
        torch.__name__ + ".autograd.no_such_module"),
    "torch.distributions.no_such_name": lambda torch: importlib.import_module(
        torch.__name__ + ".distributions").no_such_name,
    "import torch.distributions.no_such_module": lambda torch: importlib.import_module(
        torch.__name__ + ".distributions.no_such_module"),
    "torch.multiprocessing.no_such_name": lambda torch: importlib.import_module(
        torch.__name__ + ".multiprocessing").no_such_name,
    "torch.nn.parallel.no_such_name": lambda torch: torch.nn.parallel.no_such_name,
}


@pytest.mark.parametrize("lookup", LOOKUPS.values(), ids=LOOKUPS.keys())
def test_a_name_that_does_not_exist_is_pytorchs_error(lookup):
    def scenario(torch):
        try:
            lookup(torch)
        except (AttributeError, ImportError) as error:
            def as_torch(text):
                return None if text is None else text.replace(torch.__name__, "torch")

            return (type(error).__name__, as_torch(str(error)).split(" (/")[0],
                    isinstance(error, NotImplementedError), as_torch(error.name))
        return "no error"

    assert_same_outcome(scenario)


def test_feature_probes_of_names_that_do_not_exist():
    def scenario(torch):
        x = torch.ones(2)
        return (hasattr(torch, "no_such_name"), getattr(torch, "no_such_name", "default"),
                hasattr(x, "no_such_name"), getattr(x, "no_such_name", 7),
                hasattr(torch.nn, "no_such_name"), hasattr(torch.Tensor, "no_such_name"),
                hasattr(torch, "nn"), hasattr(x, "register_hook"),
                hasattr(torch.autograd, "no_such_name"),
                getattr(torch.autograd, "no_such_name", "default"),
                hasattr(torch.autograd, "grad"), hasattr(torch, "distributions"),
                hasattr(torch, "multiprocessing"))

    assert_same_outcome(scenario)
