"""thop's README: profile() counts MACs and parameters with forward hooks."""
import torch
import torch.nn as nn
from models import Net, small_cnn
from thop import clever_format, profile


class YourModule(nn.Module):
    def forward(self, x):
        return x.y if False else x * 2


def count_your_model(model, x, y):
    model.total_ops += torch.DoubleTensor([int(x[0].numel())])


torch.manual_seed(0)
macs, params = profile(Net(), inputs=(torch.randn(1, 1, 14, 14),))
print(macs, params, clever_format([macs, params], "%.3f"))
model = nn.Sequential(small_cnn(), YourModule())
macs, params = profile(model, inputs=(torch.randn(1, 3, 8, 8),),
                       custom_ops={YourModule: count_your_model})
print(macs, params)
