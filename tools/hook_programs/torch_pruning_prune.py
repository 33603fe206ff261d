"""Torch-Pruning's README: a dependency graph (traced by forward hooks), magnitude
importance and a pruner that removes 50% of the channels."""
import torch
import torch_pruning as tp
from models import small_cnn

torch.manual_seed(0)
model = small_cnn()
example = torch.randn(1, 3, 8, 8)
base_macs, base_params = tp.utils.count_ops_and_params(model, example)
importance = tp.importance.MagnitudeImportance(p=2)
pruner = tp.pruner.MagnitudePruner(model, example, importance=importance,
                                   pruning_ratio=0.5, ignored_layers=[model[-1]])
pruner.step()
macs, params = tp.utils.count_ops_and_params(model, example)
print(base_macs, base_params, macs, params)
print(model)
