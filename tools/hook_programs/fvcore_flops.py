"""fvcore's FLOP counter (it traces with torch.jit) and its parameter counter."""
import torch
from fvcore.nn import FlopCountAnalysis, parameter_count, parameter_count_table
from models import small_cnn

torch.manual_seed(0)
model = small_cnn()
print(parameter_count(model)[""], parameter_count_table(model, max_depth=1))
flops = FlopCountAnalysis(model, torch.randn(1, 3, 8, 8))
print(flops.total(), dict(flops.by_module_and_operator()[""]))
