"""``F.dropout1d``, ``F.dropout2d``, ``F.dropout3d``: dropping whole channels.

Neighbouring values in a feature map are strongly correlated, so zeroing single elements
(``F.dropout``) barely regularises a convolutional network; these zero whole channels
instead. PyTorch's ``feature_dropout`` draws one Bernoulli value per (sample, channel), on
a noise tensor of shape ``(N, C, 1, ...)``, divides it by ``1 - p``, and multiplies the
input by it (broadcast over the channel's positions): ``MulBackward0``, as for
``F.dropout``, and the same draws from the global generator as PyTorch.
See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.dropout2d.html>
"""

from __future__ import annotations

import warnings

from .._creation import empty, zeros
from .._ops.shape import squeeze, unsqueeze
from .._tensor import Tensor

__all__ = ["dropout1d", "dropout2d", "dropout3d", "feature_dropout"]


def _feature_noise(input_shape: tuple[int, ...], p: float, dtype: object) -> Tensor:
    """``bernoulli(1 - p) / (1 - p)`` of shape ``(N, C, 1, ...)`` for an ``(N, C, ...)``
    input: one draw per (sample, channel); a 0-d zero when everything is dropped."""
    if p == 1:
        return zeros((), dtype=dtype)
    noise = empty(input_shape[0], input_shape[1], *[1] * (len(input_shape) - 2), dtype=dtype)
    noise.bernoulli_(1 - p)
    return noise.div_(1 - p)


def feature_dropout(input: Tensor, p: float, train: bool, inplace: bool = False) -> Tensor:
    """``torch.feature_dropout``: one draw per channel of an input with at least two
    dimensions ``(N, C, ...)``."""
    if p == 0 or not train or input.numel() == 0:
        return input
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    noise = _feature_noise(tuple(input.shape), p, input.dtype)
    return input.mul_(noise) if inplace else input * noise


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _channel_dropout(input: Tensor, p: float, training: bool, inplace: bool,
                     batched_dim: int) -> Tensor:
    """An unbatched input is dropped as a batch of one."""
    if input.dim() == batched_dim:
        return feature_dropout(input, p, training, inplace)
    if not inplace:
        return squeeze(feature_dropout(unsqueeze(input, 0), p, training), 0)
    if p == 0 or not training or input.numel() == 0:
        return input
    # PyTorch changes the input's shape in place around it (unsqueeze_, squeeze_); the same
    # draws multiply the input here without the detour.
    noise = _feature_noise((1, *input.shape), p, input.dtype)
    return input.mul_(squeeze(noise, 0) if noise.dim() else noise)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of ``(N, C, L)`` (or ``(C, L)``) inputs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.dropout1d.html>
    """
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note "
            "that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    return _channel_dropout(input, p, training, inplace, 3)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of ``(N, C, H, W)`` inputs. A 3-d input is read, for now, as
    ``(N, C, L)`` (PyTorch warns that this will change).
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.dropout2d.html>
    """
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {inp_dim}-D input to dropout2d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout2d exists to provide "
            "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, "
            "and an optional batch dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if inp_dim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2)
    return feature_dropout(input, p, training, inplace)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of ``(N, C, D, H, W)`` (or ``(C, D, H, W)``) inputs.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.nn.functional.dropout3d.html>
    """
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {inp_dim}-D input to dropout3d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, "
            "and an optional batch dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    return _channel_dropout(input, p, training, inplace, 5)
