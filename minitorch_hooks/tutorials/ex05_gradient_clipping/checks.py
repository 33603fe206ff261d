"""Checks for exercise 5: gradient clipping and scaling with tensor hooks."""

from __future__ import annotations

from ..checking import Checks, as_array, expect, expect_close

CHECKS = Checks()


def leaf(torch, values):
    return torch.tensor(values, requires_grad=True)


@CHECKS(step=1, title="clip_value clamps every element of the gradient",
        nudge="each element must end between -max_abs and max_abs; the hook's returned tensor "
              "replaces the gradient, and changing it in place is not the way",
        pointer="clip_value in your file; Tensor.clamp and Tensor.register_hook in PyTorch's docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.Tensor.register_hook.html)",
        solution="return grad.clamp(-max_abs, max_abs)")
def clip_value_clamps(ex, torch):
    grad = torch.tensor([-4.0, 0.5, 2.0])
    clipped = ex.clip_value(1.5)(grad)
    expect_close(clipped, [-1.5, 0.5, 1.5], "clip_value(1.5) of [-4, 0.5, 2]")
    # PyTorch's register_hook: "The hook should not modify its argument"; other hooks and
    # the engine may still hold it.
    expect(as_array(grad).tolist() == [-4.0, 0.5, 2.0],
           f"the gradient given to the hook became {as_array(grad).tolist()}: a hook must not "
           "change its argument in place; return a new tensor instead")


@CHECKS(step=1, title="on a leaf, each backward pass is clipped before it accumulates",
        nudge="on a leaf the hook sees each pass's gradient before it is added into .grad; do not "
              "touch .grad yourself",
        pointer="clip_value; the course's how-to 'Clip and scale gradients'",
        solution="the hook only returns the clamped gradient; backward adds it into .grad")
def clipping_comes_before_accumulation(ex, torch):
    w = leaf(torch, [1.0, 1.0])
    w.register_hook(ex.clip_value(1.0))
    for _ in range(2):
        (w * torch.tensor([3.0, 0.25])).sum().backward()
    expect_close(w.grad, [2.0, 0.5], "w.grad after two passes (clip(3) + clip(3) = 2)")


@CHECKS(step=2, title="clip_norm scales a long gradient down to max_norm",
        nudge="a gradient longer than max_norm keeps its direction and gets length max_norm: scale"
              " it by a ratio of two norms",
        pointer="clip_norm in your file; Tensor.norm; torch.nn.utils.clip_grad_norm_'s docs for "
                "the same rule",
        solution="norm = grad.norm(); if norm > max_norm: return grad * (max_norm / norm)")
def clip_norm_scales_down(ex, torch):
    clipped = ex.clip_norm(2.0)(torch.tensor([3.0, 4.0]))
    expect_close(clipped, [1.2, 1.6], "clip_norm(2) of [3, 4], whose norm is 5")


@CHECKS(step=2, title="clip_norm leaves a short gradient alone",
        nudge="a gradient that is short enough is not rescaled at all, not even up to max_norm",
        pointer="the condition in clip_norm; the Tensor.register_hook docs: what returning None "
                "means",
        solution="when the norm is at most max_norm, return None (or the gradient itself)")
def clip_norm_keeps_short_gradients(ex, torch):
    v = leaf(torch, [0.3, 0.4])
    v.register_hook(ex.clip_norm(2.0))
    (v * 1.0).sum().backward()
    expect_close(v.grad, [1.0, 1.0], "the gradient [1, 1], of norm 1.41, after clip_norm(2)")


@CHECKS(step=3, title="reverse_gradient keeps the values and flips the gradient",
        nudge="forward must not change the values, so you need a new tensor in the graph to hang a"
              " hook on, whose hook negates and scales",
        pointer="reverse_gradient; Tensor.clone and Tensor.register_hook in PyTorch's docs",
        solution="y = x.clone(); y.register_hook(lambda grad: -factor * grad); return y")
def reversal_flips_the_gradient(ex, torch):
    x = leaf(torch, [1.0, 2.0])
    y = ex.reverse_gradient(x, 3.0)
    expect(y is not x and y.grad_fn is not None,
           "reverse_gradient must return a new tensor computed from x (x.clone())")
    expect_close(y, [1.0, 2.0], "the values of reverse_gradient(x)")
    (y * torch.tensor([1.0, -1.0])).sum().backward()
    expect_close(x.grad, [-3.0, 3.0], "x.grad through reverse_gradient(x, 3)")


@CHECKS(step=4, title="clip_parameters clips the gradient of every parameter",
        nudge="every parameter gets the step-1 hook, and the caller gets back something to remove "
              "them with",
        pointer="clip_parameters; Module.parameters; the course's how-to 'Clip and scale "
                "gradients'",
        solution="loop over model.parameters(), register_hook(clip_value(max_abs)) on each, "
                 "and return the list of handles")
def every_parameter_is_clipped(ex, torch):
    model = torch.nn.Linear(2, 1)
    handles = ex.clip_parameters(model, 0.5)
    expect(len(handles) == 2, f"{len(handles)} handles returned; Linear has 2 parameters")
    model(torch.tensor([[10.0, -10.0]])).sum().backward()
    expect_close(model.weight.grad, [[0.5, -0.5]], "the clipped weight gradient")
    expect_close(model.bias.grad, [0.5], "the clipped bias gradient (1 clipped to 0.5)")
    for handle in handles:
        handle.remove()
    model.zero_grad()
    model(torch.tensor([[10.0, -10.0]])).sum().backward()
    expect_close(model.weight.grad, [[10.0, -10.0]], "the weight gradient after removal")
