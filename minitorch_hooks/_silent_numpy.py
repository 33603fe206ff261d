"""Why no NumPy ``RuntimeWarning`` ever reaches the user, and how.

PyTorch computes IEEE results silently: ``x / 0`` is inf, ``log(0)`` is -inf, ``0 * inf``
is nan, ``exp(1000)`` overflows to inf, and the mean of an empty tensor is nan, all without
a word. NumPy computes the same values but warns ("divide by zero encountered in
divide"), so a script that turns warnings into errors, as tests often do, would fail here
and pass on PyTorch.

NumPy decides what to do with a floating-point error from one setting, its error state
(``np.seterr``). Scoping it to each operation (``with np.errstate(all="ignore")``) would
cost about 2 µs per operation, and even a bare context-variable switch 0.3 µs: a tenth of
the bookkeeping an operation pays (``benchmarks/bench_core.py``). So the package sets it
once, when it is imported, and nothing is paid per operation. The price is that NumPy code
in the same program no longer warns either; ``np.seterr`` or ``np.errstate`` in that code
still chooses for itself. (Backward, in ``autograd/engine.py``, also scopes the setting,
so that it is silent in any thread.) The one NumPy warning that is not a floating-point
error, "Mean of empty slice", is avoided in ``_ops/reduction.py``.
See https://numpy.org/doc/stable/reference/generated/numpy.seterr.html
"""

from __future__ import annotations

import numpy as np

np.seterr(all="ignore")
