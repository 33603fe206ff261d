# %% [markdown]
# # Exercise 3: a feature extractor that collects named activations
#
# A forward hook runs just after a module's `forward`, as `hook(module, args, output)`.
# Returning `None` keeps the output, so a hook that only stores it changes nothing: a
# way to read what any layer of a model computed, without editing the model.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 3`.

# %%
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import minitorch_hooks as torch

# %% [markdown]
# ## Step 1: `FeatureExtractor._save(name)`
#
# Return a forward hook that stores `output.detach()` in `self.features[name]` and
# returns `None`. Detached, the stored tensor keeps no graph alive.
#
# ## Step 2: `FeatureExtractor.__init__`
#
# For each name in `layers`, find the sub-module with that dotted name (`"0"`,
# `"encoder.1"`: the names of `model.named_modules()`), register `self._save(name)` on it
# as a forward hook, and keep the handle in `self.handles`. For a name the model does
# not have, raise `KeyError` with a message that lists the names it does have.
#
# ## Step 3: `FeatureExtractor.__call__(x)`
#
# Run the model on `x` without recording gradients (`torch.no_grad()`), and return a new
# dict of the features, in the order of `layers` (not the order the hooks ran in).
#
# ## Step 4: `FeatureExtractor.remove()`
#
# Remove every hook, so that the model is as it was.

# %%
class FeatureExtractor:
    """Collects the outputs of some of a model's layers each time the model runs."""

    def __init__(self, model: torch.nn.Module, layers: Sequence[str]) -> None:
        self.model = model
        self.layers = list(layers)
        self.features: dict[str, torch.Tensor] = {}
        self.handles: list = []
        # --- step 2: register self._save(name) on each named layer ---
        modules = dict(model.named_modules())
        for name in self.layers:
            if name not in modules:
                raise KeyError(f"the model has no layer {name!r}; its layers are "
                               f"{[n for n in modules if n]}")
            self.handles.append(modules[name].register_forward_hook(self._save(name)))
        # --- end of step 2 ---

    def _save(self, name: str) -> Callable[..., None]:
        def save(module: torch.nn.Module, args: tuple, output: Any) -> None:
            # --- step 1: store the detached output under name ---
            self.features[name] = output.detach()
            # --- end of step 1 ---

        return save

    def __call__(self, x: torch.Tensor) -> dict[str, torch.Tensor]:
        # --- step 3: run the model, return the features in the order of layers ---
        self.features = {}
        with torch.no_grad():
            self.model(x)
        return {name: self.features[name] for name in self.layers}
        # --- end of step 3 ---

    def remove(self) -> None:
        # --- step 4: remove every hook ---
        for handle in self.handles:
            handle.remove()
        self.handles = []
        # --- end of step 4 ---

    def __enter__(self) -> FeatureExtractor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


# %% [markdown]
# ## Try it
#
# A small model with a nested block; the extractor reads the block's hidden layer and
# the model's last layer, and the `with` statement removes its hooks afterwards.

# %%
if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(4, 8),
        torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU()),
        torch.nn.Linear(8, 3),
    )
    with FeatureExtractor(model, ["2", "1.1"]) as extractor:
        features = extractor(torch.randn(5, 4))
        for name, feature in features.items():
            print(f"layer {name}: shape {tuple(feature.shape)}, "
                  f"mean {feature.mean().item():.4f}")
    print("forward hooks left on the model:",
          sum(len(module._forward_hooks) for module in model.modules()))
