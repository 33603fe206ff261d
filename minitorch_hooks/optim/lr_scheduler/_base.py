"""``LRScheduler``, the base of every scheduler, and the helpers they share."""

from __future__ import annotations

import warnings
from functools import wraps
from typing import Any
from weakref import ref

from ..._tensor import Tensor
from ..optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)

Rate = float | Tensor


def _format_param(name: str, optimizer: Optimizer, param: Any) -> list[Any]:
    """One value per parameter group: a list is checked for length, a scalar repeated."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(param)} values, param_groups has "
                f"{len(optimizer.param_groups)}.")
    else:
        param = [param] * len(optimizer.param_groups)
    return [value.clone() if isinstance(value, Tensor) else value for value in param]


def _param_groups_val_list(optimizer: Optimizer, key: str) -> list[Any]:
    """``group[key]`` of each group; a tensor is cloned, so the list never aliases it."""
    return [group[key].clone() if isinstance(group[key], Tensor) else group[key]
            for group in optimizer.param_groups]


def _update_param_group_val(param_group: dict[str, Any], key: str, value: Rate) -> None:
    """Set ``param_group[key]``; a tensor there is filled in place, never replaced."""
    if isinstance(param_group[key], Tensor):
        param_group[key].fill_(value.item() if isinstance(value, Tensor) else value)
    else:
        param_group[key] = value


class LRScheduler:
    """What every scheduler shares: ``base_lrs``, ``last_epoch``, ``step`` and its state.

    Subclasses define ``get_lr`` (the chainable rule), and may define
    ``_get_closed_form_lr``.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.optim.lr_scheduler.LRScheduler.html>
    """

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                initial_lr = group["lr"]
                if isinstance(initial_lr, Tensor):
                    initial_lr = initial_lr.clone()
                group.setdefault("initial_lr", initial_lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\n"
                        "This typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run (not "
                        "recommended)")
        self.base_lrs: list[Rate] = _param_groups_val_list(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _track_step_called(self.optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        """The step a new scheduler takes at once, to set the schedule's first rate."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimiser."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[Rate]:
        """The rates the last ``step`` set, one per group (copies, never the groups' own)."""
        return self._last_lr

    def get_lr(self) -> list[Rate]:
        """The next rates, computed inside ``step``; each scheduler defines it."""
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advance ``last_epoch`` by one and set each group's ``lr`` to the next rate.

        Call it after ``optimizer.step()``. A second call before the optimiser ever
        stepped warns, as does an optimiser ``step`` replaced after the scheduler was made
        (the wrapper that notices the calls is then gone).
        """
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(
                    "Seems like `optimizer.step()` has been overridden after learning rate "
                    "scheduler initialization. Please, make sure to call `optimizer.step()` "
                    "before `lr_scheduler.step()`. See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(
                    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
                    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
                    "will result in PyTorch skipping the first value of the learning rate "
                    "schedule. See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", self.get_lr)
                values = closed_form()
        finally:
            self._get_lr_called_within_step = False
        for param_group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _update_param_group_val(param_group, "lr", lr)
        self._last_lr: list[Rate] = _param_groups_val_list(self.optimizer, "lr")

    def _warn_if_called_outside_step(self) -> None:
        """``get_lr`` answers the *next* rate, and only ``step`` should ask it."""
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please "
                          "use `get_last_lr()`.", UserWarning, stacklevel=3)


class _LRScheduler(LRScheduler):
    """The old name, kept (as a subclass, so that its ``__name__`` stays) for old code."""


def _track_step_called(optimizer: Optimizer) -> None:
    """Wrap ``optimizer.step`` (on the instance, once) to set ``optimizer._opt_called``.

    The wrapper holds the optimiser weakly, as PyTorch's does, so that the optimiser and
    its bound ``step`` do not keep each other alive.
    """
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    optimizer_ref = ref(optimizer)
    func = optimizer.step.__func__

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        opt = optimizer_ref()
        opt._opt_called = True
        return func.__get__(opt, opt.__class__)(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper
