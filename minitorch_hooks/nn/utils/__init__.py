"""Utilities around modules, as in ``torch.nn.utils``: gradient clipping, pruning, weight
and spectral normalisation, parametrizations, packed sequences."""

from . import parametrizations, parametrize, prune, rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .spectral_norm import remove_spectral_norm, spectral_norm
from .weight_norm import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "parametrizations",
           "parametrize", "prune", "remove_spectral_norm", "remove_weight_norm", "rnn",
           "spectral_norm", "vector_to_parameters", "weight_norm"]
