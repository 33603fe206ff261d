"""Checks for exercise 8: pruning with a forward pre-hook.

Each check prunes a layer with the learner's functions and a twin layer with the
library's own ``torch.nn.utils.prune``, and compares the two.
"""

from __future__ import annotations

import copy
import importlib

from ..checking import Checks, expect, expect_close

CHECKS = Checks()


def twins(torch):
    """A layer and an identical copy of it: one for the learner, one for the library."""
    torch.manual_seed(0)
    layer = torch.nn.Linear(4, 3)
    return layer, copy.deepcopy(layer)


def library_prune(torch):
    """``torch.nn.utils.prune``, which real PyTorch does not import by itself."""
    return importlib.import_module(f"{torch.__name__}.nn.utils.prune")


def layout(module):
    return ([name for name, _ in module.named_parameters()],
            [name for name, _ in module.named_buffers()], list(module.state_dict()))


@CHECKS(step=1, title="magnitude_mask() zeroes the smallest weights",
        nudge="rank the weights by absolute value over the whole tensor, and zero the right count "
              "of the smallest",
        pointer="magnitude_mask; numpy.argsort; the course's how-to 'Prune'",
        solution="with np.argsort(np.abs(w).ravel()), set the first round(amount * numel) "
                 "entries of a mask of ones to 0, then reshape it to the weight's shape")
def mask_zeroes_the_smallest(ex, torch):
    weight = torch.tensor([[0.1, -0.5, 2.0], [0.3, -0.05, -1.0]])
    mask = ex.magnitude_mask(weight, 0.5)
    expect(tuple(mask.shape) == (2, 3) and mask.dtype == weight.dtype,
           f"the mask has shape {tuple(mask.shape)} and dtype {mask.dtype}, expected "
           f"(2, 3) and {weight.dtype}")
    expect_close(mask, [[0.0, 1.0, 1.0], [0.0, 0.0, 1.0]], "magnitude_mask(weight, 0.5)")


@CHECKS(step=1, title="the mask is the one torch.nn.utils.prune.l1_unstructured makes",
        nudge="how many entries does a fraction amount of the weight make? Check how it is rounded",
        pointer="magnitude_mask; torch.nn.utils.prune.l1_unstructured's docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.l1_unstructured.html)",
        solution="the number of entries to prune is round(amount * weight.numel())")
def mask_matches_the_library(ex, torch):
    layer, twin = twins(torch)
    library_prune(torch).l1_unstructured(twin, "weight", amount=0.4)
    expect_close(ex.magnitude_mask(layer.weight, 0.4), twin.weight_mask,
                 "magnitude_mask(weight, 0.4), compared with prune's weight_mask")


@CHECKS(step=2, title="the pre-hook sets the attribute to weight_orig * weight_mask",
        nudge="before every forward, the attribute named `name` is rebuilt from the two tensors "
              "kept beside it",
        pointer="recompute and apply_mask in your file; the course's how-to 'Prune'",
        solution="setattr(module, name, getattr(module, name + '_orig') * "
                 "getattr(module, name + '_mask'))")
def pre_hook_recomputes_the_weight(ex, torch):
    module = torch.nn.Module()
    module.weight_orig = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    module.register_buffer("weight_mask", torch.tensor([1.0, 0.0, 1.0]))
    result = ex.recompute("weight")(module, ())
    expect(result is None, f"the pre-hook returned {result!r}: it would replace the args")
    expect_close(module.weight, [1.0, 0.0, 3.0], "module.weight after the pre-hook")
    expect(module.weight.grad_fn is not None,
           "module.weight should be computed from weight_orig, so gradients reach it")


@CHECKS(step=3, title="prune() lays the module out as prune.l1_unstructured does",
        nudge="the parameter moves to a new name, the mask becomes a buffer, the attribute is a "
              "plain tensor, and a pre-hook keeps it fresh",
        pointer="prune in your file; prune.l1_unstructured's docs, and the module's _parameters "
                "and _buffers after it",
        solution="delattr(module, name); register_parameter(name + '_orig', ...); "
                 "register_buffer(name + '_mask', ...); set the attribute; add the pre-hook")
def prune_matches_the_library_layout(ex, torch):
    layer, twin = twins(torch)
    handle = ex.prune(layer, "weight", 0.5)
    library_prune(torch).l1_unstructured(twin, "weight", amount=0.5)
    expect(layout(layer) == layout(twin), f"parameters, buffers and state_dict keys are "
           f"{layout(layer)}; torch.nn.utils.prune gives {layout(twin)}")
    expect(len(layer._forward_pre_hooks) == 1 and handle is not None,
           "prune() should register one forward pre-hook and return its handle")
    expect_close(layer.weight, twin.weight, "the pruned weight")


@CHECKS(step=3, title="pruned weights get no gradient, and each forward re-masks",
        nudge="if the weight is not rebuilt before each forward, training brings pruned weights "
              "back; is the step-2 hook registered?",
        pointer="prune; Module.register_forward_pre_hook",
        solution="the pre-hook from step 2 must be registered, so that weight is rebuilt "
                 "from weight_orig before every forward")
def pruned_weights_stay_pruned(ex, torch):
    layer, twin = twins(torch)
    ex.prune(layer, "weight", 0.5)
    library_prune(torch).l1_unstructured(twin, "weight", amount=0.5)
    x = torch.tensor([[1.0, -1.0, 2.0, 0.5]])
    for module in (layer, twin):
        module(x).sum().backward()
        with torch.no_grad():
            module.weight_orig.add_(1.0)  # the next forward must mask the new values too
    expect_close(layer.weight_orig.grad, twin.weight_orig.grad, "weight_orig's gradient")
    expect_close(layer(x), twin(x), "the output after changing weight_orig")


@CHECKS(step=4, title="make_permanent() leaves what prune.remove leaves",
        nudge="undo the layout of step 3: the hook, the extra names and the mask go, and the "
              "masked values become the parameter again",
        pointer="make_permanent; torch.nn.utils.prune.remove's docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.utils.prune.remove.html)",
        solution="remove the handle, compute the masked values, delete the attribute, "
                 "name_orig and name_mask, then register_parameter(name, Parameter(values))")
def permanent_matches_the_library(ex, torch):
    layer, twin = twins(torch)
    handle = ex.prune(layer, "weight", 0.5)
    library_prune(torch).l1_unstructured(twin, "weight", amount=0.5)
    ex.make_permanent(layer, "weight", handle)
    library_prune(torch).remove(twin, "weight")
    expect(layout(layer) == layout(twin), f"parameters, buffers and state_dict keys are "
           f"{layout(layer)}; torch.nn.utils.prune.remove gives {layout(twin)}")
    expect(not layer._forward_pre_hooks, "the pre-hook is still registered")
    expect(isinstance(layer.weight, torch.nn.Parameter), "weight is not a Parameter again")
    expect_close(layer.weight, twin.weight, "the permanent weight")
