"""torchinfo's README: summary() of a model, by forward hooks on every module."""
import torch
from models import Net, small_cnn
from torchinfo import summary

torch.manual_seed(0)
print(summary(Net(), input_size=(2, 1, 14, 14), verbose=0))
print(summary(small_cnn(), input_size=(1, 3, 8, 8), verbose=0,
              col_names=("input_size", "output_size", "num_params", "kernel_size",
                         "mult_adds", "trainable")))
