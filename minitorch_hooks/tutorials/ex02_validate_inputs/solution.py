# %% [markdown]
# # Exercise 2: a forward pre-hook that validates and normalises inputs
#
# A forward pre-hook runs just before a module's `forward`, as `hook(module, args)`, where
# `args` is the tuple of positional arguments. Returning `None` keeps them; returning a
# tuple replaces them (a single value is wrapped into a one-element tuple). Registered
# with `with_kwargs=True`, it is called as `hook(module, args, kwargs)` and must return
# `None` or a pair `(new_args, new_kwargs)`.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 2`.

# %%
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import minitorch_hooks as torch

PreHook = Callable[..., Any]


# %% [markdown]
# ## Step 1: refuse inputs of the wrong width
#
# `check_features(n)` returns a pre-hook that raises `ValueError` unless the first
# argument is a tensor whose last dimension has size `n`. The message names the module's
# class, the expected width and the shape it got, e.g. `Linear expected inputs with 4
# features in the last dimension, got shape (2, 3)`. A good input passes unchanged: the
# hook returns `None`.

# %%
def check_features(n_features: int) -> PreHook:
    def validate(module: torch.nn.Module, args: tuple) -> None:
        # --- step 1: raise ValueError for a wrong last dimension ---
        x = args[0]
        if not isinstance(x, torch.Tensor) or x.ndim == 0 or x.shape[-1] != n_features:
            shape = tuple(x.shape) if isinstance(x, torch.Tensor) else type(x).__name__
            raise ValueError(f"{type(module).__name__} expected inputs with {n_features} "
                             f"features in the last dimension, got shape {shape}")
        # --- end of step 1 ---

    return validate


# %% [markdown]
# ## Step 2: standardise the first argument
#
# `standardise(mean, std)` returns a pre-hook that replaces the first argument `x` with
# `(x - mean) / std` and keeps the other positional arguments as they are. Build a new
# tensor; do not change `x` in place (the caller still holds it).

# %%
def standardise(mean: torch.Tensor, std: torch.Tensor) -> PreHook:
    def normalise(module: torch.nn.Module, args: tuple) -> tuple:
        # --- step 2: return the arguments with the first one standardised ---
        return ((args[0] - mean) / std, *args[1:])
        # --- end of step 2 ---

    return normalise


# %% [markdown]
# ## Step 3: fill in keyword arguments
#
# `fill_defaults(**defaults)` returns a pre-hook meant for `with_kwargs=True`: it adds
# each default the caller did not pass, and keeps what the caller did pass. It must
# return the pair `(args, kwargs)`: returning the new kwargs alone is the mistake PyTorch
# answers with `RuntimeError: forward pre-hook must return None or a tuple of (new_args,
# new_kwargs)`.

# %%
def fill_defaults(**defaults: Any) -> PreHook:
    def fill(module: torch.nn.Module, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        # --- step 3: return (args, kwargs) with the missing defaults added ---
        return args, {**defaults, **kwargs}
        # --- end of step 3 ---

    return fill


# %% [markdown]
# ## Step 4: guard a module
#
# `guard(module, n_features, mean, std)` registers the validator and then the
# standardiser on `module`, and returns their two handles (validator first). Hooks run
# in registration order, so the validator sees the caller's raw input.

# %%
def guard(module: torch.nn.Module, n_features: int, mean: torch.Tensor,
          std: torch.Tensor) -> list:
    # --- step 4: register check_features, then standardise; return the handles ---
    return [module.register_forward_pre_hook(check_features(n_features)),
            module.register_forward_pre_hook(standardise(mean, std))]
    # --- end of step 4 ---


# %% [markdown]
# ## Try it

# %%
if __name__ == "__main__":
    torch.manual_seed(0)
    layer = torch.nn.Linear(3, 2)
    raw = torch.tensor([[1.0, 200.0, -3.0], [3.0, 400.0, -1.0]])
    handles = guard(layer, 3, mean=raw.mean(0), std=torch.tensor([1.0, 100.0, 1.0]))
    print("the layer sees the standardised input:", layer(raw))
    try:
        layer(torch.ones(2, 5))
    except ValueError as error:
        print("refused:", error)
    for handle in handles:
        handle.remove()
    print("without the hooks:", layer(raw))
