"""``torch.inf`` and ``torch.nan``, against real PyTorch: plain Python floats (PyTorch's test
files import them with ``from torch import inf, nan``)."""

from __future__ import annotations

import math

from harness import assert_same_outcome


def test_inf_and_nan_are_the_python_floats():
    def scenario(torch):
        return (type(torch.inf).__name__, torch.inf == math.inf, -torch.inf < 0,
                type(torch.nan).__name__, math.isnan(torch.nan),
                torch.tensor([1.0, torch.inf, -torch.inf]).isinf(),
                torch.tensor([torch.nan, 0.0]).isnan())

    assert_same_outcome(scenario)
