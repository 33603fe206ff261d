"""minitorch_hooks: PyTorch's autograd and hooks, rebuilt in readable NumPy.

The top level mirrors ``torch``: with ``import minitorch_hooks as torch`` in place of
``import torch``, a small PyTorch example runs as on PyTorch; a script that also imports
``torch.nn`` runs unchanged after :func:`install_as_torch` (which ``minitorch-hooks run``
calls). Where to read next:

* ``_tensor.py``: the Tensor and its hooks;
* ``autograd/engine.py``: the backward pass and the order in which hooks fire;
* ``utils/hooks.py``: the one hook pattern everything shares.
"""

from __future__ import annotations

import builtins
import importlib as _importlib
import math

from . import (
    _C,
    __future__,
    _missing,
    _silent_numpy,  # noqa: F401 - first: see its docstring
    autograd,
    backends,
    cuda,
    distributions,
    futures,
    jit,
    linalg,
    multiprocessing,
    nn,
    optim,
    return_types,
    serialization,
    utils,
)
from ._C import Future  # torch.Future: the C++ future (torch.futures.Future subclasses it)
from ._creation import (
    arange,
    as_tensor,
    bernoulli,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    randperm,
    tensor,
    zeros,
    zeros_like,
)
from ._dtype import (
    bool,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    short,
    uint8,
)
from ._generator import Generator
from ._ops import _arguments
from ._ops.blending import addcdiv, addcmul, lerp
from ._ops.broadcasting import broadcast_to, meshgrid
from ._ops.clamping import clamp_, clamp_max, clamp_max_, clamp_min, clamp_min_
from ._ops.closeness import allclose, isclose
from ._ops.conversion import clone
from ._ops.counting import bincount, unique
from ._ops.diagonals import diag, diagonal, tril, triu
from ._ops.distances import cdist
from ._ops.division import div, floor_divide, fmod, remainder
from ._ops.einsum import einsum
from ._ops.elementary import (
    acos,
    arccos,
    arcsin,
    arctan,
    asin,
    atan,
    cos,
    cosh,
    erf,
    expm1,
    log1p,
    log2,
    log10,
    rsqrt,
    sin,
    sinh,
    tan,
)
from ._ops.gather_scatter import (
    gather,
    index_select,
    masked_scatter,
    masked_select,
    scatter,
    scatter_add,
)
from ._ops.histogram import histc
from ._ops.index_add import index_add
from ._ops.inplace import relu_
from ._ops.linalg import addmm, baddbmm, bmm, dot, matmul, mm, mv, outer
from ._ops.logical import (
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    logical_and,
    logical_or,
    logical_xor,
)
from ._ops.losses_more import xlogy
from ._ops.matrix_functions import matrix_exp
from ._ops.nonzero import argwhere, count_nonzero, nonzero, where
from ._ops.normal import normal
from ._ops.norms import tensor_norm as norm
from ._ops.out_argument import mul
from ._ops.pixel_shuffle import pixel_shuffle, pixel_unshuffle
from ._ops.pointwise import (
    abs,
    add,
    clamp,
    eq,
    equal,
    exp,
    ge,
    gt,
    isfinite,
    isinf,
    isnan,
    le,
    log,
    logical_not,
    lt,
    maximum,
    minimum,
    nan_to_num,
    ne,
    neg,
    pow,
    reciprocal,
    relu,
    sigmoid,
    sign,
    sqrt,
    square,
    sub,
    tanh,
)
from ._ops.products import cumprod, cumsum, prod
from ._ops.quantiles import median, nanmedian, nanquantile, quantile
from ._ops.reduction import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    max,
    mean,
    min,
    nansum,
    std,
    std_mean,
    sum,
    trace,
    var,
    var_mean,
)
from ._ops.repeating import repeat_interleave, roll, tile
from ._ops.rounding import ceil, floor, frac, round, trunc
from ._ops.sampling import multinomial
from ._ops.setitem import masked_fill
from ._ops.shape import (
    cat,
    chunk,
    expand,
    flatten,
    flip,
    movedim,
    narrow,
    permute,
    split,
    squeeze,
    stack,
    t,
    transpose,
    unbind,
    unsqueeze,
)
from ._ops.shape import torch_reshape as reshape
from ._ops.shape import transpose as swapaxes
from ._ops.shape import transpose as swapdims
from ._ops.softmax import log_softmax, logsumexp, softmax
from ._ops.sorting import argsort, kthvalue, sort, topk
from ._ops.stacking import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    column_stack,
    dstack,
    hstack,
    row_stack,
    vstack,
)
from ._ops.svd import svd
from ._ops.tensor_split import tensor_split
from ._ops.unsafe_split import unsafe_chunk
from ._ops.vdot import vdot
from ._ops.weight_norm import _weight_norm, norm_except_dim
from ._size import Size
from ._tensor import Tensor, device
from ._tensor_new import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
)
from ._tensor_str import get_printoptions, printoptions, set_printoptions
from .autograd import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .autograd.anomaly_mode import (
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
from .cli.torch_alias import install_as_torch
from .nn.functional import (  # (after ``nn``: torch.X is the same function as F.X)
    cosine_similarity,
    pairwise_distance,
    prelu,
)
from .random import get_rng_state, initial_seed, manual_seed, seed, set_rng_state
from .serialization import load, save
from .storage import UntypedStorage
from .tracing import hook_trace

# ``torch.utils.data``, ``torch.utils.checkpoint`` and ``torch.utils._pytree`` work without
# their own import, as in PyTorch. It is loaded last:
# ``utils`` itself is needed early (its hooks module), before tensors exist.
_importlib.import_module(".utils.data", __name__)
_importlib.import_module(".utils.checkpoint", __name__)
_importlib.import_module(".utils._pytree", __name__)

__version__ = "0.1.0"

clip = clamp
clip_ = clamp_

# torch.inf and torch.nan are plain Python floats in PyTorch too (``torch.inf is math.inf``).
inf = math.inf
nan = math.nan


def is_tensor(obj: object) -> builtins.bool:
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> builtins.bool:
    """Whether ``input``'s dtype is a floating-point one (float16, float32, float64)."""
    return input.is_floating_point()


def numel(input: Tensor) -> builtins.int:
    return input.numel()


def get_default_dtype() -> dtype:
    """Always float32: minitorch_hooks does not change the default dtype."""
    return float32


def set_warn_always(b: builtins.bool, /) -> None:
    """Give every warning that PyTorch gives only once per process (``TORCH_WARN_ONCE``:
    ``x.T`` on a tensor that is not 2-D, ``from_numpy`` of a read-only array) every time,
    which helps while debugging.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.set_warn_always.html>
    """
    _C._set_warnAlways(b)


def is_warn_always_enabled() -> builtins.bool:
    """Whether ``set_warn_always(True)`` is in force."""
    return _C._get_warnAlways()


# Each function checks its tensor arguments first, as PyTorch's do (_ops/_arguments.py).
for _name in _arguments.TENSOR_PARAMETERS.keys() & globals().keys():
    globals()[_name] = _arguments.checked(globals()[_name], _name)

# A name of PyTorch's that is missing here says so (_missing.py).
__getattr__ = _missing.module_getattr(__name__, "torch")
_missing.mark_missing_tensor_attributes(Tensor)
