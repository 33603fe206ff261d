"""``torch.distributions``: probability distributions with parameters that can require
grad, to sample from and to score samples with (``log_prob``), as policy-gradient
methods and attribution libraries (Captum's KernelSHAP draws how many features to keep
from a ``Categorical``) use them.

minitorch_hooks has the base class, ``Distribution``, with its argument validation, the
``Categorical`` and ``Normal`` distributions (TorchCAM's SmoothGradCAM++ draws its noise
from a ``Normal``) and the constraints they need; PyTorch's other distributions
(``Bernoulli``, ``Uniform``...), transforms and KL divergences say that they are missing.
See <https://docs.pytorch.org/docs/2.13/distributions.html>
"""

from .. import _missing
from . import constraints
from .categorical import Categorical
from .distribution import Distribution
from .normal import Normal

__all__ = ["Categorical", "Distribution", "Normal", "constraints"]

__getattr__ = _missing.module_getattr(__name__, "torch.distributions")  # Bernoulli... say so
