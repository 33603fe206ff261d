"""Checks for exercise 15: the optimiser step inside backward.

Each check trains two identical models (the same seed) on the same batches: one with the
learner's hooks and nothing else, one the usual way, with ``torch.optim.SGD``,
``zero_grad()`` and ``step()``. The weights must stay the same.
"""

from __future__ import annotations

from ..checking import Checks, expect, expect_close

CHECKS = Checks()


def twins(torch):
    """Two Linear(3, 2) layers with the same weights, and three batches to learn."""
    models = []
    for _ in range(2):
        torch.manual_seed(0)
        models.append(torch.nn.Linear(3, 2))
    batches = [torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]]) * (k + 1)
               for k in range(4)]
    return models, batches


def loss(model, x):
    return (model(x) ** 2).sum()


def expect_same_weights(hooked, reference, when):
    for (name, mine), theirs in zip(hooked.named_parameters(), reference.parameters()):
        expect_close(mine, theirs, f"{name} {when}")


def train_twins(torch, hooked, reference, passes, every=1, **sgd):
    """Backward passes on both twins; the reference steps with ``torch.optim.SGD(**sgd)``
    after every ``every`` passes. Yields each pass's number once the weights agree."""
    _, batches = twins(torch)
    optimizer = torch.optim.SGD(reference.parameters(), **sgd)
    for number, x in enumerate(batches[:passes], start=1):
        loss(hooked, x).backward()
        loss(reference, x).backward()
        if number % every == 0:
            optimizer.step()
            optimizer.zero_grad()
        expect_same_weights(hooked, reference, f"after backward pass {number}")
        yield number


@CHECKS(step=1, title="sgd_in_backward takes SGD's step during backward, and frees .grad",
        nudge="a hook that fires once a parameter's .grad is complete can take that parameter's "
              "step, then let go of .grad",
        pointer="sgd_in_backward; Tensor.register_post_accumulate_grad_hook "
                "(docs.pytorch.org/docs/2.13/generated/torch.Tensor.register_post_accumulate_grad_hook.html)",
        solution="def step(param): param.add_(param.grad, alpha=-lr); param.grad = None; "
                 "register it on each parameter with register_post_accumulate_grad_hook")
def sgd_steps_in_backward(ex, torch):
    (hooked, reference), _ = twins(torch)
    handles = ex.sgd_in_backward(hooked, lr=0.1)
    expect(len(handles) == 2, f"{len(handles)} handles returned; Linear has 2 parameters")
    for _ in train_twins(torch, hooked, reference, passes=2, lr=0.1):
        expect(all(p.grad is None for p in hooked.parameters()),
               "a gradient is still in .grad after backward: set param.grad = None "
               "once it is used")


@CHECKS(step=1, title="the update is not recorded, and removing the handles stops it",
        nudge="the update happens in place with grad mode off; the caller needs the handles back "
              "to stop it",
        pointer="sgd_in_backward; the course's how-to 'Optimizer step in backward'",
        solution="backward runs hooks with grad mode off, so param.add_ is a plain update; "
                 "return the handles of register_post_accumulate_grad_hook")
def the_update_is_plain_and_removable(ex, torch):
    (hooked, _), batches = twins(torch)
    handles = ex.sgd_in_backward(hooked, lr=0.1)
    loss(hooked, batches[0]).backward()
    expect(all(p.is_leaf and p.grad_fn is None and p.requires_grad
               for p in hooked.parameters()),
           "after the update a parameter is no longer a leaf that requires grad")
    for handle in handles:
        handle.remove()
    before = [p.detach().clone() for p in hooked.parameters()]
    loss(hooked, batches[1]).backward()
    for (name, param), old in zip(hooked.named_parameters(), before):
        expect_close(param, old, f"{name} after a backward with the hooks removed")
        expect(param.grad is not None, f"{name}.grad is None with the hooks removed")


@CHECKS(step=2, title="momentum_in_backward matches SGD with momentum over three steps",
        nudge="each parameter needs its own momentum buffer, started from the first gradient, as "
              "SGD does",
        pointer="momentum_in_backward; torch.optim.SGD's update rule "
                "(docs.pytorch.org/docs/2.13/generated/torch.optim.SGD.html)",
        solution="buffers = {}; in the hook: buffers[param] = param.grad.clone() the first "
                 "time, else buffers[param].mul_(momentum).add_(param.grad); then "
                 "param.add_(buffers[param], alpha=-lr); param.grad = None")
def momentum_matches_sgd(ex, torch):
    (hooked, reference), _ = twins(torch)
    ex.momentum_in_backward(hooked, lr=0.05, momentum=0.9)
    for _ in train_twins(torch, hooked, reference, passes=3, lr=0.05, momentum=0.9):
        pass  # train_twins compares the weights after each pass


@CHECKS(step=3, title="accumulate_in_backward steps with the sum of every 2 passes",
        nudge="count the passes per parameter; step only every `every` passes, with the sum .grad "
              "holds by then",
        pointer="accumulate_in_backward; the course's how-to 'Optimizer step in backward'",
        solution="count the calls per parameter in a dict; at every `every`-th one take the "
                 "SGD step with param.grad (the sum so far) and set param.grad = None")
def accumulation_matches_sgd(ex, torch):
    (hooked, reference), _ = twins(torch)
    ex.accumulate_in_backward(hooked, lr=0.01, every=2)
    for number in train_twins(torch, hooked, reference, passes=4, every=2, lr=0.01):
        accumulating = number % 2 == 1
        expect(all((p.grad is not None) is accumulating for p in hooked.parameters()),
               f"after backward pass {number}, .grad should "
               + ("hold the gradient, waiting for the next pass" if accumulating
                  else "be None: the summed gradient was used"))
