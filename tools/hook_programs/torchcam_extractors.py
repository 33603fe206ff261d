"""TorchCAM's class activation map extractors, as its README calls them, on a small CNN.

Each extractor hooks its target layer with forward hooks (the activations; the gradient
methods keep the output and ask `torch.autograd.grad` for its gradient), or runs the
model again with masked inputs (Score-CAM and kin). Without a target layer, TorchCAM
finds one by hooking every module and running a zero input."""
import logging

import torch
from models import small_cnn
from torchcam.methods import (
    CAM,
    ISCAM,
    SSCAM,
    GradCAM,
    GradCAMpp,
    LayerCAM,
    ScoreCAM,
    SmoothGradCAMpp,
    XGradCAM,
)
from torchcam.methods._utils import locate_candidate_layer

logging.disable(logging.WARNING)  # "no value was provided for `target_layer`..."
torch.manual_seed(0)
model = small_cnn().double().eval()
x = torch.randn(2, 3, 8, 8, dtype=torch.float64)


def show(name, cams, extractor):
    print(name, extractor.target_names,
          [tuple(a.shape) for a in extractor.hook_a],
          [None if g is None else tuple(g.shape) for g in extractor.hook_g])
    for cam in cams:
        print("  map", tuple(cam.shape), cam.dtype, round(float(cam.sum()), 6),
              round(float(cam.max()), 6))


# The layer TorchCAM picks when given none: hooks on every module, one zero input (float32)
print("candidate layer:", locate_candidate_layer(small_cnn().eval(), (3, 8, 8)))

with CAM(model, target_layer="4", fc_layer=model[8]) as extractor:
    with torch.no_grad():
        out = model(x)
    show("CAM", extractor(class_idx=[1, 3]), extractor)

for method in (GradCAM, GradCAMpp, XGradCAM, LayerCAM, SmoothGradCAMpp):
    torch.manual_seed(1)
    with method(model, target_layer=model[4]) as extractor:
        out = model(x)
        show(method.__name__, extractor(out.argmax(dim=1).tolist(), out), extractor)

for method in (ScoreCAM, SSCAM, ISCAM):
    torch.manual_seed(2)
    kwargs = {"batch_size": 4} if method is ScoreCAM else {"batch_size": 4, "num_samples": 3}
    with method(model, target_layer="4", **kwargs) as extractor:
        with torch.no_grad():
            out = model(x)
        show(method.__name__, extractor(class_idx=2), extractor)

# Two target layers at once, fused into one map
with LayerCAM(model, target_layer=[model[0], model[4]]) as extractor:
    out = model(x)
    cams = extractor(class_idx=[0, 1], scores=out)
    show("LayerCAM x2", cams, extractor)
    fused = LayerCAM.fuse_cams(cams)
    print("  fused", tuple(fused.shape), round(float(fused.sum()), 6))
print("hooks left on the model:", sum(len(m._forward_hooks) for m in model.modules()))
