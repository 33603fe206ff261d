"""pytorch-model-summary's README (summary with hierarchy) and torchextractor's README
(intermediate outputs by module name, with forward hooks)."""
import torch
import torchextractor as tx
from models import Net, small_cnn
from pytorch_model_summary import summary

torch.manual_seed(0)
print(summary(Net(), torch.zeros(1, 1, 14, 14), show_input=True))
print(summary(small_cnn(), torch.zeros(2, 3, 8, 8), show_hierarchical=True))

model = tx.Extractor(small_cnn(), ["0", "2", "4", "8"])
output, features = model(torch.randn(2, 3, 8, 8))
print(output.shape, {name: tuple(f.shape) for name, f in features.items()})
print(tx.list_module_names(small_cnn())[:5])
