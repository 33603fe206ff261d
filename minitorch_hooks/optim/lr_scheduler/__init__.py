"""Learning-rate schedulers, as in ``torch.optim.lr_scheduler``: they change ``group["lr"]``.

A scheduler owns no parameters and no hooks: it rewrites the ``lr`` (and, for the cyclic
ones, the momentum) of its optimiser's parameter groups each time its own ``step()`` is
called, once per epoch or per batch. Most schedules are *chainable*: ``get_lr`` computes
the next rate from the group's current ``lr`` (multiply by ``gamma``...), so two
schedulers on one optimiser compose. Each also has a *closed form* from ``base_lrs`` (the
rates when the first scheduler was made, kept as ``group["initial_lr"]``), used only by the
deprecated ``step(epoch)``.

Making a scheduler takes a first step at once (``last_epoch`` goes from -1 to 0, and the
rate becomes the schedule's first value), and wraps the optimiser's ``step`` once more, as
an attribute of the instance, to notice whether it was called: ``scheduler.step()`` before
any ``optimizer.step()`` warns, since the first value of the schedule would then be
skipped. This wrapper sits outside the step hooks, which still fire inside it.

``state_dict()`` is the scheduler's ``__dict__`` without the optimiser (lambdas are saved
only as callable objects' ``__dict__``), and ``load_state_dict`` updates ``__dict__``.
See <https://docs.pytorch.org/docs/2.13/optim.html#how-to-adjust-learning-rate>
"""

from ._base import LRScheduler, _LRScheduler
from ._chainable import (
    ConstantLR,
    CosineAnnealingLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from ._composite import ChainedScheduler, SequentialLR
from ._cyclic import CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR
from ._plateau import ReduceLROnPlateau

__all__ = ["LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
           "ExponentialLR", "SequentialLR", "CosineAnnealingLR", "ChainedScheduler",
           "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts", "OneCycleLR",
           "PolynomialLR", "LRScheduler"]
