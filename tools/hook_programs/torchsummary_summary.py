"""torchsummary's README: summary(model, input_size) on the CPU."""
import torch
from models import Net, small_cnn
from torchsummary import summary

torch.manual_seed(0)
summary(Net(), (1, 14, 14), device="cpu")
summary(small_cnn(), (3, 8, 8), batch_size=2, device="cpu")
