"""``torch.linalg``: the norms (``vector_norm``, ``matrix_norm``, ``norm``), which gradient
clipping, weight normalisation and activation statistics compute. The operations are in
``_ops/norms.py``; the rest of PyTorch's linear algebra (decompositions, solvers) is left
out.
See <https://docs.pytorch.org/docs/2.13/linalg.html>
"""

from .. import _missing
from .._ops.norms import matrix_norm, norm, vector_norm

__all__ = ["matrix_norm", "norm", "vector_norm"]

__getattr__ = _missing.module_getattr(__name__, "torch.linalg")  # PyTorch's missing names say so
