"""The patterns of PyTorch's own hook pages, small: the modules note's forward pre-hook,
forward hook and full backward hook; the autograd note's tensor hook; the saved-tensors
hooks tutorial (saving to disk, deduplicating by storage); and PyTorch's MNIST example's
network under a global forward hook."""
import os
import tempfile
import uuid

import torch
import torch.nn as nn
from models import Net

torch.manual_seed(0)


def forward_pre_hook(m, inputs):
    # Allows for examination and modification of the input before the forward pass.
    input = inputs[0]
    return input + 1.0


def forward_hook(m, inputs, output):
    # Allows for examination of inputs / outputs and modification of the outputs.
    return output + inputs[0]


def backward_hook(m, grad_inputs, grad_outputs):
    # Allows for examination of grad_inputs / grad_outputs and their modification.
    return [gi / 2 for gi in grad_inputs]


m = nn.Linear(4, 4)
x = torch.randn(2, 4, requires_grad=True)
handles = [m.register_forward_pre_hook(forward_pre_hook), m.register_forward_hook(forward_hook),
           m.register_full_backward_hook(backward_hook)]
m(x).sum().backward()
print(x.grad)
for handle in handles:
    handle.remove()

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.register_hook(lambda grad: grad * 10)
b.retain_grad()
b.sum().backward()
print(a.grad, b.grad)

# Saving the tensors that backward needs to disk, as the saved-tensors hooks tutorial does.
folder = tempfile.mkdtemp()


def pack_to_disk(tensor):
    name = os.path.join(folder, str(uuid.uuid4()))
    torch.save(tensor, name)
    return name


def unpack_from_disk(name):
    return torch.load(name, weights_only=True)


w = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_disk, unpack_from_disk):
    y = (w * w).sin().sum()
y.backward()
print(torch.allclose(w.grad, 2 * w * (w * w).cos()), len(os.listdir(folder)))

# Deduplicating saved tensors by the memory they view.
seen = {}


def pack_once(tensor):
    key = (tensor.untyped_storage().data_ptr(), tensor.storage_offset(), tuple(tensor.shape))
    seen.setdefault(key, tensor)
    return key


with torch.autograd.graph.saved_tensors_hooks(pack_once, lambda key: seen[key]):
    z = (w * w * w).sum()
z.backward()
print(len(seen), w.grad)

calls = []
handle = nn.modules.module.register_module_forward_hook(
    lambda module, args, output: calls.append((type(module).__name__, tuple(output.shape))))
out = Net()(torch.randn(3, 1, 14, 14))
handle.remove()
print(calls, out.shape)
