"""Grad-CAM on the bundled digits against real PyTorch: the recipe of
``docs/how-to/grad-cam.md`` end to end. Same seed, so the same initial weights, the same
shuffled batches and, step after step, the same losses and trained weights; then the
activations a forward hook stores, the gradients a full backward hook receives on the last
convolution, and the heatmaps built from them. Float32 rounding differs between the two
libraries (their matrix products add in another order), so values are compared with a
float32 tolerance after training."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from harness import assert_same_outcome

import minitorch_hooks.datasets


def digits(torch: Any) -> tuple[Any, Any]:
    images, labels = minitorch_hooks.datasets.load_digits()
    return torch.tensor(images, dtype=torch.float32).unsqueeze(1) / 16, torch.tensor(labels)


def small_cnn(torch: Any) -> Any:
    nn = torch.nn
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(64, 10))


def train(torch: Any, x: Any, y: Any, epochs: int) -> tuple[Any, list[float]]:
    """The recipe's model after ``epochs`` epochs of SGD with momentum, and every loss."""
    torch.manual_seed(0)
    model = small_cnn(torch)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y),
                                         batch_size=64, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(epochs):
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(inputs), targets)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return model, losses


def grad_cam(torch: Any, model: Any, images: Any) -> dict[str, Any]:
    """Grad-CAM for the predicted classes through hooks on the last convolution."""
    captured = {}
    conv = model[3]
    handles = [
        conv.register_forward_hook(
            lambda module, args, output: captured.__setitem__("activations", output.detach())),
        conv.register_full_backward_hook(
            lambda module, grad_input, grad_output:
                captured.__setitem__("gradients", grad_output[0].detach()))]
    logits = model(images)
    predicted = logits.argmax(1)
    model.zero_grad()
    logits[torch.arange(len(images)), predicted].sum().backward()
    for handle in handles:
        handle.remove()
    weights = captured["gradients"].mean(dim=(2, 3), keepdim=True)
    cam = torch.relu((weights * captured["activations"]).sum(1, keepdim=True))
    cam = torch.nn.functional.interpolate(cam, size=(8, 8), mode="bilinear",
                                          align_corners=False).squeeze(1)
    return {"predicted": predicted, "activations": captured["activations"],
            "gradients": captured["gradients"], "cam": cam,
            "peak": cam.flatten(1).max(1).values}


@pytest.mark.parametrize("epochs", [0, 1, 5], ids=["untrained", "one_epoch", "as_in_recipe"])
def test_training_and_grad_cam_match_pytorch(epochs):
    def scenario(torch):
        x, y = digits(torch)
        model, losses = train(torch, x[:1500], y[:1500], epochs)
        with torch.no_grad():
            right = (model(x[1500:]).argmax(1) == y[1500:]).sum().item()
        return {"losses": losses, "state": dict(model.state_dict()), "test right": right,
                **grad_cam(torch, model, x[1500:1564])}

    theirs = assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)
    assert len(theirs["losses"]) == 24 * epochs  # ceil(1500 / 64) batches an epoch
    if epochs == 5:
        assert theirs["test right"] > 250  # it learned: well above a tenth of 297


def test_heatmap_weights_are_the_mean_gradient_of_the_score():
    """The backward hook's ``grad_output`` is the gradient of the class score with respect
    to the feature maps, as ``torch.autograd.grad`` gives it, in both libraries."""
    def scenario(torch):
        x, _ = digits(torch)
        torch.manual_seed(1)
        model = small_cnn(torch)
        result = grad_cam(torch, model, x[:16])
        features = {}
        handle = model[3].register_forward_hook(
            lambda module, args, output: features.__setitem__("A", output))
        logits = model(x[:16])
        handle.remove()
        score = logits[torch.arange(16), result["predicted"]].sum()
        (direct,) = torch.autograd.grad(score, features["A"])
        return {"hook": result["gradients"], "autograd.grad": direct,
                "same": bool(np.allclose(direct.numpy(), result["gradients"].numpy()))}

    assert assert_same_outcome(scenario)["same"]
