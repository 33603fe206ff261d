# %% [markdown]
# # Exercise 15: the optimiser step inside backward, with post-accumulate-grad hooks
#
# `param.register_post_accumulate_grad_hook(hook)` makes backward call `hook(param)` right
# after the parameter's gradient has been added into `param.grad`. That is all an
# optimiser needs: it can update the parameter there and then, and free its gradient at
# once, instead of keeping every gradient of the model until `optimizer.step()`. Backward
# runs with grad mode off, so the in-place update in the hook is not recorded.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 15`.

# %%
from __future__ import annotations

import minitorch_hooks as torch

# %% [markdown]
# ## Step 1: `sgd_in_backward(model, lr)`
#
# On every parameter of `model`, register a post-accumulate-grad hook that takes one SGD
# step, `param.add_(param.grad, alpha=-lr)`, and then sets `param.grad = None`: the
# gradient is used up, and its memory can go. Return the handles.
#
# ## Step 2: `momentum_in_backward(model, lr, momentum)`
#
# The same with momentum, as `torch.optim.SGD(params, lr, momentum)` computes it: each
# parameter keeps a buffer, `grad` itself at its first step, then
# `buffer = momentum * buffer + grad`, and the step is `param.add_(buffer, alpha=-lr)`.
# Keep the buffers in a dictionary that the hook reaches, one per parameter.
#
# ## Step 3: `accumulate_in_backward(model, lr, every)`
#
# Gradient accumulation: let the gradients of `every` backward passes add up in
# `param.grad`, and take one SGD step with their sum at the last of them (then clear
# `.grad`); at the other passes the hook does nothing. Count the passes per parameter.

# %%
def sgd_in_backward(model: torch.nn.Module, lr: float) -> list:
    # --- step 1: one SGD step per parameter, as soon as its gradient is complete ---
    raise NotImplementedError(
        "Exercise 15, step 1: one SGD step per parameter, as soon as its gradient is complete")
    # --- end of step 1 ---


def momentum_in_backward(model: torch.nn.Module, lr: float, momentum: float) -> list:
    # --- step 2: keep a momentum buffer per parameter, then step with it ---
    raise NotImplementedError(
        "Exercise 15, step 2: keep a momentum buffer per parameter, then step with it")
    # --- end of step 2 ---


def accumulate_in_backward(model: torch.nn.Module, lr: float, every: int) -> list:
    # --- step 3: step with the summed gradient at every `every`-th backward ---
    raise NotImplementedError(
        "Exercise 15, step 3: step with the summed gradient at every `every`-th backward")
    # --- end of step 3 ---


# %% [markdown]
# ## Try it
#
# A small regression trained with no `optimizer.step()` and no `zero_grad()`: backward
# does both. After each backward every `.grad` is `None` again, which is the memory
# this saves: no parameter's gradient outlives its update.

# %%
if __name__ == "__main__":
    torch.manual_seed(0)
    inputs = torch.randn(32, 3)
    targets = inputs @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3
    model = torch.nn.Linear(3, 1)
    handles = momentum_in_backward(model, lr=0.05, momentum=0.9)
    for epoch in range(1, 61):
        loss = ((model(inputs) - targets) ** 2).mean()
        loss.backward()  # updates every parameter, and frees its gradient
        if epoch % 20 == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f}, weight.grad is "
                  f"{model.weight.grad}")
    print("learnt weight:", model.weight.detach().flatten(), "bias:", model.bias.detach())
    for handle in handles:
        handle.remove()
