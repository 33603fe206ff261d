"""captum's perturbation attributions, as its tutorials call them, on a small CNN: the model
is run on masked copies of the input (no gradients); KernelShap and Lime fit a linear model
to what comes out, drawing their samples with torch's random numbers. A forward hook counts
the batches the library sends through the model."""
import torch
from captum.attr import (
    FeatureAblation,
    KernelShap,
    Lime,
    Occlusion,
    ShapleyValueSampling,
)
from models import small_cnn

torch.manual_seed(0)
model = small_cnn().double().eval()
x = torch.randn(2, 3, 8, 8, dtype=torch.float64)
# 16 features: 4x4 squares of 2x2 pixels, the same on every channel
feature_mask = (torch.arange(8).div(2, rounding_mode="floor").view(8, 1) * 4
                + torch.arange(8).div(2, rounding_mode="floor").view(1, 8)).repeat(1, 3, 1, 1)
batches = []
model.register_forward_hook(lambda module, args, out: batches.append(tuple(args[0].shape)))


def show(name, attribution):
    print(name, tuple(attribution.shape), round(float(attribution.sum()), 6),
          round(float(attribution.abs().sum()), 6),
          "model runs:", len(batches), "first batch:", batches[0] if batches else None)
    batches.clear()


show("FeatureAblation", FeatureAblation(model).attribute(x, target=1, feature_mask=feature_mask))
show("Occlusion", Occlusion(model).attribute(x, target=0, sliding_window_shapes=(3, 4, 4),
                                             strides=(3, 2, 2)))
torch.manual_seed(1)
show("ShapleyValueSampling", ShapleyValueSampling(model).attribute(
    x, target=2, feature_mask=feature_mask, n_samples=2))
torch.manual_seed(2)
show("KernelShap", KernelShap(model).attribute(x[:1], target=3, feature_mask=feature_mask,
                                               n_samples=40))
torch.manual_seed(3)
show("Lime", Lime(model).attribute(x[:1], target=3, feature_mask=feature_mask, n_samples=40))
