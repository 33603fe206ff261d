"""``torch.linalg``: the norms (``vector_norm``, ``matrix_norm``, ``norm``), which gradient
clipping, weight normalisation and activation statistics compute, and the singular value
decomposition (``svd``, ``svdvals``) that the matrix 2-norm and nuclear norm need. The
operations are in ``_ops/norms.py`` and ``_ops/svd.py``; the rest of PyTorch's linear
algebra (other decompositions, solvers) is left out.
See <https://docs.pytorch.org/docs/2.13/linalg.html>
"""

from .. import _missing
from .._ops.norms import matrix_norm, norm, vector_norm
from .._ops.svd import _LinAlgError as LinAlgError
from .._ops.svd import linalg_svd as svd
from .._ops.svd import svdvals

__all__ = ["LinAlgError", "matrix_norm", "norm", "svd", "svdvals", "vector_norm"]

__getattr__ = _missing.module_getattr(__name__, "torch.linalg")  # PyTorch's missing names say so
