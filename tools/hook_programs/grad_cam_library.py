"""pytorch-grad-cam's README: GradCAM (and kin) on a small CNN, with a target class.

The library imports torchvision for image helpers that these classes do not call
(transforms, resize); a stand-in with those names lets them load without torchvision."""
import os
import sys
import types

os.environ["TQDM_DISABLE"] = "1"  # AblationCAM's progress bar shows timings

import torch  # noqa: E402

for name in ("torchvision", "torchvision.transforms", "torchvision.transforms.functional"):
    sys.modules[name] = types.ModuleType(name)
    sys.modules[name].__path__ = []
sys.modules["torchvision.transforms"].Compose = object
sys.modules["torchvision.transforms"].Normalize = object
sys.modules["torchvision.transforms"].ToTensor = object
sys.modules["torchvision.transforms.functional"].resize = None

from models import small_cnn  # noqa: E402
from pytorch_grad_cam import (  # noqa: E402
    AblationCAM,
    EigenCAM,
    GradCAM,
    GradCAMPlusPlus,
    HiResCAM,
    LayerCAM,
    XGradCAM,
)
from pytorch_grad_cam.utils.model_targets import ClassifierOutputTarget  # noqa: E402

torch.manual_seed(0)
model = small_cnn().double().eval()
x = torch.randn(2, 3, 8, 8, dtype=torch.float64)
targets = [ClassifierOutputTarget(1), ClassifierOutputTarget(3)]
for method in (GradCAM, HiResCAM, GradCAMPlusPlus, XGradCAM, LayerCAM, EigenCAM, AblationCAM):
    with method(model=model, target_layers=[model[4]]) as cam:
        grayscale = cam(input_tensor=x, targets=targets)
        print(method.__name__, grayscale.shape, grayscale.dtype,
              [round(float(v), 4) for v in grayscale.reshape(2, -1).sum(1)])
