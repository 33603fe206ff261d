"""The one setting ``import minitorch_hooks`` changes outside itself: NumPy's error state.

``minitorch_hooks/_silent_numpy.py`` sets it to "ignore" so that no NumPy RuntimeWarning
reaches the user (compared with PyTorch in ``tests/conformance/test_silent_numpy.py``).
The setting stays NumPy's: code that asks NumPy for warnings still gets them.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch_hooks


def test_importing_the_package_silences_numpys_floating_point_warnings():
    assert minitorch_hooks.__name__ == "minitorch_hooks"
    assert np.geterr() == {"divide": "ignore", "over": "ignore", "under": "ignore",
                           "invalid": "ignore"}


def test_numpys_own_choice_still_counts():
    with np.errstate(divide="warn"), pytest.warns(RuntimeWarning, match="divide by zero"):
        np.array([1.0]) / 0
