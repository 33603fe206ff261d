"""Checks for exercise 16: Grad-CAM from two hooks on the last convolution.

The reference needs no hooks of the learner's: a hook of the check's own keeps the last
convolution's output *in* the graph, and ``torch.autograd.grad`` gives the gradient of the
scores with respect to it. Every check also runs on real PyTorch when it is installed.
"""

from __future__ import annotations

import minitorch_hooks.datasets

from ..checking import Checks, expect, expect_close, expect_equal, expect_raises

CHECKS = Checks(compare_with_pytorch=True)


def cnn(torch, seed=0):
    """An untrained digits CNN: Grad-CAM works the same on any weights."""
    torch.manual_seed(seed)
    nn = torch.nn
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(4, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(24, 10))


def digits(torch, count=6):
    images, _ = minitorch_hooks.datasets.load_digits()
    return torch.tensor(images[:count], dtype=torch.float32).unsqueeze(1) / 16


def reference(torch, model, images, classes=None):
    """The last convolution's output, the gradient of the scores with respect to it, the
    Grad-CAM maps and the classes, by ``autograd.grad``."""
    kept = {}
    handle = model[3].register_forward_hook(
        lambda module, args, output: kept.__setitem__("A", output))
    logits = model(images)
    handle.remove()
    if classes is None:
        classes = logits.argmax(1)
    (gradient,) = torch.autograd.grad(logits[torch.arange(len(images)), classes].sum(),
                                      kept["A"])
    activations = kept["A"].detach()
    weights = gradient.mean(dim=(2, 3), keepdim=True)
    return activations, gradient, torch.relu((weights * activations).sum(1)), classes


def hooks_on(model):
    return sum(len(m._forward_hooks) + len(m._backward_hooks) for m in model.modules())


@CHECKS(step=1, title="capture_last_conv stores the last convolution's output and gradient",
        nudge="Grad-CAM needs the last Conv2d's output and the gradient of the score with respect "
              "to that output: which of the two tuples a full backward hook receives holds it?",
        pointer="capture_last_conv; Module.register_full_backward_hook's docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html); the course's how-to "
                "'Grad-CAM'",
        solution="last = [m for m in model.modules() if isinstance(m, torch.nn.Conv2d)][-1]; "
                 "a forward hook stores output.detach(), a full backward hook "
                 "grad_output[0].detach()")
def captures_the_last_convolution(ex, torch):
    model, images = cnn(torch), digits(torch)
    activations, gradient, _, classes = reference(torch, model, images)
    captured, handles = ex.capture_last_conv(model)
    expect(len(handles) == 2, f"{len(handles)} handles returned; expected 2 (forward and "
           "full backward hook)")
    logits = model(images)
    logits[torch.arange(len(images)), classes].sum().backward()
    expect(set(captured) == {"activations", "gradients"},
           f"captured has keys {sorted(captured)}; expected 'activations' and 'gradients'")
    expect(list(captured["activations"].shape) == [6, 6, 4, 4],
           f"activations of shape {list(captured['activations'].shape)}: is that the "
           "last Conv2d's output (6 maps of 4x4)?")
    expect_close(captured["activations"], activations, "the stored activations")
    channels = captured["gradients"].shape[1] if captured["gradients"].dim() == 4 else None
    expect(channels == 6, f"the stored gradient has {channels} channels where the last "
           "convolution has 6")
    expect_close(captured["gradients"], gradient, "the stored gradients")
    expect(not captured["activations"].requires_grad and not captured["gradients"].requires_grad,
           "store detached tensors: they are for looking at, not for training through")
    for handle in handles:
        handle.remove()
    expect(hooks_on(model) == 0, "a hook is left after removing the returned handles")


@CHECKS(step=1, title="the last Conv2d is found inside nested modules",
        nudge="the last convolution can sit inside a submodule: search every module, not only the "
              "top-level children",
        pointer="capture_last_conv; Module.modules versus Module.children",
        solution="model.modules() walks every submodule, nested ones too, in order")
def finds_a_nested_convolution(ex, torch):
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Sequential(nn.Conv2d(1, 2, 3), nn.Conv2d(2, 3, 3)), nn.Flatten())
    captured, handles = ex.capture_last_conv(model)
    model(torch.ones(1, 1, 6, 6))
    expect(list(captured["activations"].shape) == [1, 3, 2, 2],
           "hooked the wrong convolution: the last one is model[0][1]")
    for handle in handles:
        handle.remove()


@CHECKS(step=2, title="grad_cam gives the maps of the predicted classes",
        nudge="each channel's weight is its gradient averaged over the positions; the map is the "
              "weighted sum over channels, negatives cut",
        pointer="grad_cam; the course's how-to 'Grad-CAM'",
        solution="weights = captured['gradients'].mean(dim=(2, 3), keepdim=True); "
                 "torch.relu((weights * captured['activations']).sum(1))")
def maps_of_the_predicted_classes(ex, torch):
    model, images = cnn(torch), digits(torch)
    _, _, expected, classes = reference(torch, model, images)
    cams, used = ex.grad_cam(model, images)
    expect_equal(used.tolist(), classes.tolist(), "the classes", f"classes {used.tolist()}; "
                 f"the model predicts {classes.tolist()}")
    expect(list(cams.shape) == [6, 4, 4], f"maps of shape {list(cams.shape)}; expected "
           "(N, h, w) = [6, 4, 4]")
    expect_close(cams, expected, "the Grad-CAM maps")
    expect(hooks_on(model) == 0, "grad_cam left a hook on the model: remove both handles")


@CHECKS(step=2, title="grad_cam explains the classes it is given, on any batch",
        nudge="backward starts from each image's score for its own class, and gradients from an "
              "earlier call must not add to it",
        pointer="grad_cam; indexing with a tensor of indices; Module.zero_grad",
        solution="score each image by logits[torch.arange(len(images)), classes]; zero the "
                 "gradients first, so a second call does not add to the first")
def maps_of_given_classes(ex, torch):
    model, images = cnn(torch, seed=3), digits(torch, 4)
    classes = torch.tensor([2, 7, 0, 9])
    for _ in range(2):  # twice: stale gradients or hooks would show the second time
        _, _, expected, _ = reference(torch, model, images, classes)
        cams, used = ex.grad_cam(model, images, classes)
        expect_close(cams, expected, "the Grad-CAM maps for classes [2, 7, 0, 9]")
    expect(hooks_on(model) == 0, "grad_cam left a hook on the model: remove both handles")


@CHECKS(step=2, title="the hooks are removed even when the model fails",
        nudge="if the model raises, the hooks must still come off",
        pointer="grad_cam; try/finally in Python",
        solution="remove the handles in a finally: block around the forward and backward")
def hooks_removed_on_error(ex, torch):
    model = cnn(torch)
    expect_raises(RuntimeError, lambda: ex.grad_cam(model, torch.ones(2, 3, 8, 8)),
                  "a batch of 3-channel images went through the 1-channel model")
    expect(hooks_on(model) == 0, "after the error, a hook is still on the model")


@CHECKS(step=3, title="upsample resizes each map bilinearly and scales it to a peak of 1",
        nudge="resize with the bilinear mode and the corner rule PyTorch uses by default, then "
              "scale each map, not the batch, to a peak of 1",
        pointer="upsample; torch.nn.functional.interpolate "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.functional.interpolate.html)",
        solution="interpolate(cams.unsqueeze(1), size=size, mode='bilinear', "
                 "align_corners=False).squeeze(1), then divide each map by its maximum")
def upsample_resizes_and_scales(ex, torch):
    cams = torch.tensor([[[0.0, 2.0], [1.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]]])
    big = ex.upsample(cams, (4, 4))
    expect(list(big.shape) == [2, 4, 4], f"shape {list(big.shape)}; expected [2, 4, 4]")
    resized = torch.nn.functional.interpolate(cams.unsqueeze(1), size=(4, 4),
                                              mode="bilinear", align_corners=False)
    expect_close(big[0], resized[0, 0] / 4, "the first map, resized and divided by 4")
    expect_close(big[1], torch.zeros(4, 4), "an all-zero map (it must stay zero, not NaN)")
