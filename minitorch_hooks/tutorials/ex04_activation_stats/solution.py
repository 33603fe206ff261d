# %% [markdown]
# # Exercise 4: activation statistics and dead units during training
#
# Forward hooks on every ReLU of a model record, while it trains, how active each layer
# is and which of its units never fire: a ReLU unit whose input is negative for every
# example outputs 0 and gets a gradient of 0, so nothing brings it back. It is dead.
# A learning rate that is too high kills many units; the plots at the end show it.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 4`.

# %%
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import minitorch_hooks as torch
from minitorch_hooks.tutorials.support import ProgressBar, plot_lines

# %% [markdown]
# ## Step 1: `ActivationMonitor.__init__`
#
# For every `torch.nn.ReLU` in `model.named_modules()`, start an empty list in
# `self.mean_activation[name]` and in `self.dead_fraction[name]`, set
# `self._fired[name] = None`, and register `self._record(name)` as a forward hook,
# keeping its handle in `self.handles`. Other layers get no hook.
#
# ## Step 2: `ActivationMonitor._record(name)`
#
# Return a forward hook that, only while the module is training (`module.training`):
# appends the mean of the whole output to `self.mean_activation[name]`, and ORs into
# `self._fired[name]` a boolean NumPy array with one entry per unit (the last dimension):
# did the unit output more than 0 for any example of this batch?
#
# ## Step 3: `ActivationMonitor.end_epoch()`
#
# For each layer that saw a batch since the last call, find the units that never fired,
# append their fraction to `self.dead_fraction[name]`, and reset `self._fired[name]` to
# `None`. Return `{name: [indices of the dead units]}`.
#
# ## Step 4: `ActivationMonitor.remove()`
#
# Remove the hooks. What was recorded stays.

# %%
class ActivationMonitor:
    """Watches every ReLU of a model while it trains."""

    def __init__(self, model: torch.nn.Module) -> None:
        self.mean_activation: dict[str, list[float]] = {}  # one entry per training batch
        self.dead_fraction: dict[str, list[float]] = {}  # one entry per epoch
        self._fired: dict[str, np.ndarray | None] = {}  # per unit: fired this epoch?
        self.handles: list = []
        # --- step 1: hook self._record(name) on every ReLU ---
        for name, module in model.named_modules():
            if isinstance(module, torch.nn.ReLU):
                self.mean_activation[name] = []
                self.dead_fraction[name] = []
                self._fired[name] = None
                self.handles.append(module.register_forward_hook(self._record(name)))
        # --- end of step 1 ---

    def _record(self, name: str) -> Callable[..., None]:
        def record(module: torch.nn.Module, args: tuple, output: Any) -> None:
            # --- step 2: record the batch's mean and which units fired ---
            if not module.training:
                return
            self.mean_activation[name].append(output.mean().item())
            values = output.detach().numpy()
            fired = (values > 0).reshape(-1, values.shape[-1]).any(axis=0)
            previous = self._fired[name]
            self._fired[name] = fired if previous is None else previous | fired
            # --- end of step 2 ---

        return record

    def end_epoch(self) -> dict[str, list[int]]:
        # --- step 3: report the units that never fired, and start afresh ---
        dead = {}
        for name, fired in self._fired.items():
            if fired is None:
                continue
            dead[name] = np.flatnonzero(~fired).tolist()
            self.dead_fraction[name].append(len(dead[name]) / fired.size)
            self._fired[name] = None
        return dead
        # --- end of step 3 ---

    def remove(self) -> None:
        # --- step 4: remove the hooks ---
        for handle in self.handles:
            handle.remove()
        self.handles = []
        # --- end of step 4 ---


# %% [markdown]
# ## The data and the training loop
#
# Points of the plane drawn from a standard normal, labelled 1 outside the circle of
# radius `sqrt(2 ln 2)` and 0 inside it: about half of each, made here in code. The loop
# is ordinary PyTorch; the monitor sees each training batch through its hooks, and the
# evaluation runs in `eval()` mode, which the hooks ignore.

# %%
def make_rings(n: int) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.randn(n, 2)
    y = (x.pow(2).sum(1) > 1.3863).long()
    return x, y


def build_model(width: int = 32) -> torch.nn.Sequential:
    return torch.nn.Sequential(
        torch.nn.Linear(2, width), torch.nn.ReLU(),
        torch.nn.Linear(width, width), torch.nn.ReLU(),
        torch.nn.Linear(width, 2),
    )


def train(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor, *, lr: float,
          epochs: int, batch_size: int = 32) -> tuple[ActivationMonitor, list[float]]:
    """Train with SGD while an ActivationMonitor watches; return it and the accuracies."""
    monitor = ActivationMonitor(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    loss_function = torch.nn.CrossEntropyLoss()
    accuracies = []
    bar = ProgressBar(range(epochs), f"lr {lr:<4}")
    for _ in bar:
        model.train()
        order = torch.randperm(len(x))
        for start in range(0, len(x), batch_size):
            batch = order[start:start + batch_size]
            loss = loss_function(model(x[batch]), y[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        dead = monitor.end_epoch()
        model.eval()
        with torch.no_grad():
            accuracies.append((model(x).argmax(1) == y).float().mean().item())
        bar.note = (f"loss {loss.item():.3f}  accuracy {accuracies[-1]:.0%}  dead units "
                    + ", ".join(f"{len(units)}" for units in dead.values()))
    monitor.remove()
    return monitor, accuracies


# %% [markdown]
# ## Try it
#
# The same model trained twice, with a sensible learning rate and with one far too high.

# %%
if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = make_rings(512)
    dead, activity, accuracy = {}, {}, {}
    for lr in (0.1, 4.0):
        torch.manual_seed(1)
        monitor, accuracy[f"lr {lr}"] = train(build_model(), x, y, lr=lr, epochs=15)
        for name in monitor.dead_fraction:
            dead[f"lr {lr}, ReLU {name}"] = monitor.dead_fraction[name]
            activity[f"lr {lr}, ReLU {name}"] = monitor.mean_activation[name]
    plot_lines(dead, title="dead ReLU units", xlabel="epoch",
               ylabel="fraction of the layer", filename="ex04_dead_units.png")
    plot_lines(activity, title="mean ReLU output", xlabel="training batch",
               ylabel="mean activation", filename="ex04_mean_activation.png")
    plot_lines(accuracy, title="accuracy", xlabel="epoch", ylabel="training accuracy",
               filename="ex04_accuracy.png")
