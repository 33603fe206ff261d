"""Grad-CAM on the bundled digits against real PyTorch: the recipe of
``docs/how-to/grad-cam.md`` (here in float32, as models are usually trained).

Training is not compared number for number over a whole run. Both libraries round each
matrix product in float32, and the order of its additions depends on the BLAS kernel (the
CPU, the thread count): one last-bit difference is carried from step to step, and after
five epochs two correct runs differ by several test digits (see
``docs/explanation/last-digits.md``). So:

- **one step, in lockstep**: PyTorch's parameters and momentum buffers at a step are
  loaded into minitorch_hooks, which takes that one step on the same batch; its loss and
  new momentum buffers must match PyTorch's within float32 rounding (the tolerance is
  derived at :data:`ONE_STEP_RTOL`);
- **the whole run, by invariants** a last bit cannot flip: the loss falls, the test
  accuracy lies in a band, and Grad-CAM's heat maps peak in the same cells;
- the hooks' part is exact as everywhere: what the forward and full backward hooks
  receive on the same weights.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import recording
from harness import assert_same_outcome, normalise, real_torch, within_rounding

import minitorch_hooks
import minitorch_hooks.datasets

# One SGD step from the same state: the differences come from float32 rounding only. The
# longest sum in a step is the first convolution's weight gradient: 64 images x 64
# positions = 4096 products per element. Any order of adding n terms is within about
# sqrt(n) * u of the exact sum relative to the sum of their magnitudes (u = 2**-24, the
# float32 unit roundoff; n * u is the worst case, Higham, "Accuracy and Stability of
# Numerical Algorithms", 2002, sect. 4.2): 64 * 6e-8 = 4e-6. The forward pass through four
# layers adds errors of the same size, which backward carries, so the step's error is a
# few times 4e-6 of a tensor's scale; 1e-4, some 25 times that, leaves room and still
# fails on any real mistake (a wrong formula is off by more than 1e-2). The comparison is
# normwise, relative to the tensor's largest magnitude, because an element that is a sum
# of cancelling terms is small compared with the error its terms allow. (Measured: under
# 1e-6 at the three steps, with NumPy's AVX-512 kernel and with MTH_PERTURB_PRODUCTS=1.)
ONE_STEP_RTOL = 1e-4
STEPS_COMPARED = (0, 23, 119)  # the first step, the last of epoch 1, the last of epoch 5


def pytorch_run(question: Any) -> Any:
    """``question(torch)`` answered by PyTorch: live when it is installed, else from the
    recording. Unlike other answers, a live one is not compared with its recording value
    by value: PyTorch's own training takes another path on another CPU, so the recording
    is one correct run, and the live run is another."""
    def same_structure(live: Any, recorded: Any) -> None:
        assert type(live) is type(recorded), "the recording is not of this question"

    return recording.answer(lambda: normalise(question(real_torch())), same_structure)


def digits(torch: Any) -> tuple[Any, Any]:
    images, labels = minitorch_hooks.datasets.load_digits()
    return torch.tensor(images, dtype=torch.float32).unsqueeze(1) / 16, torch.tensor(labels)


def small_cnn(torch: Any) -> Any:
    nn = torch.nn
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(64, 10))


def snapshots(torch: Any, x: Any, y: Any) -> list[dict[str, Any]]:
    """PyTorch's side of the lockstep: five epochs of the recipe's SGD with momentum, and at
    each step of :data:`STEPS_COMPARED` the state before it, the batch and what it gave."""
    torch.manual_seed(0)
    model = small_cnn(torch)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    taken, step = [], 0
    for _ in range(5):
        order = torch.randperm(1500)
        for start in range(0, 1500, 64):
            batch = order[start:start + 64]
            before = {"params": [p.detach().clone() for p in model.parameters()],
                      "momentum": [optimizer.state[p]["momentum_buffer"].clone()
                                   for p in model.parameters()] if step else None}
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x[batch]), y[batch])
            loss.backward()
            optimizer.step()
            if step in STEPS_COMPARED:
                taken.append({"step": step, "batch": batch, "before": before,
                              "loss": loss.item(), "momentum": [
                                  optimizer.state[p]["momentum_buffer"].clone()
                                  for p in model.parameters()]})
            step += 1
    return taken


def one_step(torch: Any, state: dict[str, Any], x: Any, y: Any) -> tuple[float, list]:
    """minitorch_hooks' step from PyTorch's state ``state["before"]``, on its batch."""
    model = small_cnn(torch)
    with torch.no_grad():
        for parameter, value in zip(model.parameters(), state["before"]["params"]):
            parameter.copy_(torch.tensor(value.array))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    if state["before"]["momentum"] is not None:
        optimizer.load_state_dict({
            "state": {i: {"momentum_buffer": torch.tensor(value.array)}
                      for i, value in enumerate(state["before"]["momentum"])},
            "param_groups": optimizer.state_dict()["param_groups"]})
    batch = torch.tensor(state["batch"].array)
    optimizer.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x[batch]), y[batch])
    loss.backward()
    optimizer.step()
    return loss.item(), [optimizer.state[p]["momentum_buffer"].numpy() for p in
                         model.parameters()]


def test_one_training_step_matches_pytorch_from_the_same_state():
    taken = pytorch_run(lambda torch: snapshots(torch, *digits(torch)))
    assert [state["step"] for state in taken] == list(STEPS_COMPARED)
    x, y = digits(minitorch_hooks)
    names = [name for name, _ in small_cnn(minitorch_hooks).named_parameters()]
    for state in taken:
        loss, momentum = one_step(minitorch_hooks, state, x, y)
        step = f"step {state['step']}"
        within_rounding(loss, state["loss"], ONE_STEP_RTOL, f"{step}: the loss",
                        "one float32 step from PyTorch's state (see ONE_STEP_RTOL)")
        for name, mine, theirs in zip(names, momentum, state["momentum"]):
            within_rounding(mine, theirs.array, ONE_STEP_RTOL,
                            f"{step}: the momentum buffer of {name}",
                            "one float32 step from PyTorch's state (see ONE_STEP_RTOL)")


def train(torch: Any, x: Any, y: Any, epochs: int) -> tuple[Any, list[float]]:
    """The recipe's model after ``epochs`` epochs of SGD with momentum, and each epoch's
    mean loss."""
    torch.manual_seed(0)
    model = small_cnn(torch)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y),
                                         batch_size=64, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    means = []
    for _ in range(epochs):
        losses = []
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(inputs), targets)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        means.append(sum(losses) / len(losses))
    return model, means


def trajectory(torch: Any) -> dict[str, Any]:
    """What a whole run must show on any CPU: its epoch losses and its test accuracy."""
    x, y = digits(torch)
    model, means = train(torch, x[:1500], y[:1500], 5)
    with torch.no_grad():
        right = (model(x[1500:]).argmax(1) == y[1500:]).sum().item()
    return {"epoch losses": means, "test right": right}


def test_a_whole_run_learns_on_both_libraries():
    """Bands a last bit cannot leave: two correct float32 runs differ by a few test digits
    (269 and 259 of 297 were seen), never by whether the model learned. Each library runs
    on its own; PyTorch's recorded run is checked the same way."""
    for library, run in (("PyTorch", pytorch_run(trajectory)),
                         ("minitorch_hooks", trajectory(minitorch_hooks))):
        means = run["epoch losses"]
        assert means[0] > 0.5 and means[-1] < 0.25, (
            f"{library}: the epoch losses {[round(m, 3) for m in means]} do not fall from "
            "above 0.5 to below 0.25")
        assert 240 <= run["test right"] <= 297, (
            f"{library}: {run['test right']} of 297 test digits right, outside the band "
            "240..297 of a trained model")


def test_heat_maps_peak_in_the_same_cells_on_the_same_weights():
    """PyTorch's trained weights in both libraries: Grad-CAM's maps of 64 test digits
    explain the same classes and peak in the same cell (an exact tie between two cells may
    fall either way, so two digits of 64 may differ)."""
    def cam_peaks(torch: Any, model: Any) -> dict[str, Any]:
        result = grad_cam(torch, model, digits(torch)[0][1500:1564])
        cams = result["cam"].detach().numpy()
        return {"predicted": result["predicted"].tolist(),
                "peaks": cams.reshape(len(cams), -1).argmax(1).tolist()}

    def trained(torch: Any) -> dict[str, Any]:
        x, y = digits(torch)
        model, _ = train(torch, x[:1500], y[:1500], 5)
        return {"state": dict(model.state_dict()), **cam_peaks(torch, model)}

    theirs = pytorch_run(trained)
    model = small_cnn(minitorch_hooks)
    model.load_state_dict({name: minitorch_hooks.tensor(value.array)
                           for name, value in theirs["state"].items()})
    mine = cam_peaks(minitorch_hooks, model)
    assert mine["predicted"] == theirs["predicted"], "the classes differ on the same weights"
    same = sum(a == b for a, b in zip(mine["peaks"], theirs["peaks"]))
    assert same >= 62, f"the heat maps peak in the same cell for {same} of 64 digits only"


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
