# %% [markdown]
# # Exercise 16: Grad-CAM with a forward hook and a full backward hook
#
# Grad-CAM shows where a CNN looks: it weighs the feature maps of the last convolution by
# how much the class score rises with each of them (the gradient, averaged over the map),
# adds them up and keeps the positive part. Both ingredients are caught on the way: the
# maps by a forward hook on that convolution, the gradient by a full backward hook on it,
# whose `grad_output[0]` is the gradient of the score with respect to the maps.
#
# Fill the gaps marked `# --- step N: ... ---`, then run `minitorch-hooks check 16`.

# %%
from __future__ import annotations

import minitorch_hooks as torch
import minitorch_hooks.datasets

# %% [markdown]
# ## Step 1: `capture_last_conv(model)`
#
# Find the last `torch.nn.Conv2d` among `model.modules()`. Register on it a forward hook
# that stores `output.detach()` under `captured["activations"]`, and a full backward hook
# (`register_full_backward_hook`) that stores `grad_output[0].detach()` under
# `captured["gradients"]`. Return `captured` (a dictionary, filled as the model runs) and
# the two handles.
#
# ## Step 2: `grad_cam(model, images, classes=None)`
#
# Capture the last convolution, run the model, and take each image's score: its logit for
# `classes[i]`, or, when `classes` is None, for the class the model predicts. Zero the
# model's gradients, then backward from the sum of the scores (the images do not
# interact, so each gets the gradient of its own score). With `A` the activations and
# `G` the gradients, both `(N, K, h, w)`: the weights are `G` averaged over `h` and `w`,
# the map is `relu(sum over k of weight_k * A_k)`, of shape `(N, h, w)`. Remove both hooks
# before returning, even if something failed. Return the maps and the classes used.
#
# ## Step 3: `upsample(cams, size)`
#
# Resize the `(N, h, w)` maps to `size` (the images' height and width) with
# `torch.nn.functional.interpolate`, mode `"bilinear"`, `align_corners=False`, and scale
# each map so that its maximum is 1 (a map that is all zero stays zero). Return `(N, *size)`.

# %%
def capture_last_conv(model: torch.nn.Module) -> tuple[dict, list]:
    # --- step 1: hook the last Conv2d: its output forward, its grad_output backward ---
    last = [module for module in model.modules() if isinstance(module, torch.nn.Conv2d)][-1]
    captured = {}

    def keep_activations(module, args, output):
        captured["activations"] = output.detach()

    def keep_gradients(module, grad_input, grad_output):
        captured["gradients"] = grad_output[0].detach()

    return captured, [last.register_forward_hook(keep_activations),
                      last.register_full_backward_hook(keep_gradients)]
    # --- end of step 1 ---


def grad_cam(model: torch.nn.Module, images: torch.Tensor,
             classes: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    # --- step 2: one forward and one backward, then weigh the maps by their gradient ---
    captured, handles = capture_last_conv(model)
    try:
        logits = model(images)
        if classes is None:
            classes = logits.argmax(1)
        model.zero_grad()
        logits[torch.arange(len(images)), classes].sum().backward()
    finally:
        for handle in handles:
            handle.remove()
    weights = captured["gradients"].mean(dim=(2, 3), keepdim=True)
    return torch.relu((weights * captured["activations"]).sum(1)), classes
    # --- end of step 2 ---


def upsample(cams: torch.Tensor, size: tuple[int, int]) -> torch.Tensor:
    # --- step 3: bilinear resize to the image, then each map scaled to a peak of 1 ---
    big = torch.nn.functional.interpolate(cams.unsqueeze(1), size=size, mode="bilinear",
                                          align_corners=False).squeeze(1)
    peak = big.flatten(1).max(1).values.clamp(min=1e-12)
    return big / peak[:, None, None]
    # --- end of step 3 ---


# %% [markdown]
# ## Try it
#
# A small CNN trained for four epochs on the handwritten digits that ship with the
# package, then each test digit beside its heatmap, drawn with characters from blank
# (0) to `@` (the map's peak). It trains in float64, so that it prints the same maps on
# every computer (in float32 the last bits of matrix products differ between CPUs, and
# training carries the difference along).

# %%
if __name__ == "__main__":
    images, labels = minitorch_hooks.datasets.load_digits()
    x = torch.tensor(images, dtype=torch.float64).unsqueeze(1) / 16
    y = torch.tensor(labels)
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(64, 10)).double()
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x[:1500], y[:1500]),
                                         batch_size=64, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(4):
        for inputs, targets in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(inputs), targets).backward()
            optimizer.step()
    cams, predicted = grad_cam(model, x[1500:1503])
    heatmaps = upsample(cams, (8, 8))
    shades = " .:-=+*#%@"
    for digit, heat, label, guess in zip(x[1500:1503], heatmaps, y[1500:1503], predicted):
        print(f"label {label.item()}, predicted {guess.item()}")
        for pixels, row in zip(digit[0].tolist(), heat.tolist()):
            print("|" + "".join(shades[int(v * 9)] for v in pixels) + "|   |"
                  + "".join(shades[int(v * 9)] for v in row) + "|")
