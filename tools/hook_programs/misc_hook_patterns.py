"""Hook patterns from published training code: a NaN detector (forward hooks and anomaly
mode), gradient reversal, gradient masking, optimiser step hooks, state-dict hooks, weight
norm, a dead-unit count and global backward hooks."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from models import mlp

torch.manual_seed(0)
model = mlp()


def nan_detector(name):
    def hook(module, args, output):
        if torch.isnan(output).any() or torch.isinf(output).any():
            raise RuntimeError(f"non-finite output in {name}")
    return hook


for name, module in model.named_modules():
    if name:
        module.register_forward_hook(nan_detector(name))
try:
    model(torch.tensor([[float("nan")] * 5]))
except RuntimeError as error:
    print(error)

with torch.autograd.detect_anomaly():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    try:
        (x.sqrt() * 0).sum().backward()
        print("no anomaly", x.grad)
    except RuntimeError as error:
        print(str(error).splitlines()[0])
print(torch.is_anomaly_enabled())


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.alpha, None


features = torch.randn(3, 5, requires_grad=True)
GradReverse.apply(features, 0.5).sum().backward()
print(features.grad[0])

mask = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0])
layer = model[0]
handle = layer.weight.register_hook(lambda grad: grad * mask)
model(torch.randn(4, 5)).sum().backward()
print(layer.weight.grad.abs().sum(0))
handle.remove()

optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
steps = []
optimizer.register_step_pre_hook(lambda opt, args, kwargs: steps.append("pre"))
optimizer.register_step_post_hook(lambda opt, args, kwargs: steps.append("post"))
optimizer.step()
optimizer.zero_grad()
print(steps, layer.weight.grad)

renamed = []
model.register_state_dict_post_hook(
    lambda module, state, prefix, local_metadata: renamed.append(sorted(state)))
model._register_load_state_dict_pre_hook(
    lambda state, prefix, *args: state.update({k.replace("old.", ""): state.pop(k)
                                               for k in list(state) if k.startswith("old.")}))
state = {f"old.{k}": v for k, v in model.state_dict().items()}
print(renamed, model.load_state_dict(state))

normed = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
print(sorted(normed.state_dict()), normed.parametrizations.weight.original0.shape)

dead = {}
relu = nn.ReLU()
relu.register_forward_hook(lambda m, args, out: dead.update(dead=int((out == 0).all(0).sum())))
net = nn.Sequential(nn.Linear(5, 16), relu, nn.Linear(16, 2))
F.mse_loss(net(torch.randn(8, 5)), torch.zeros(8, 2)).backward()
print(dead)

seen = []
handle = nn.modules.module.register_module_full_backward_hook(
    lambda module, grad_input, grad_output: seen.append(type(module).__name__))
net(torch.randn(2, 5, requires_grad=True)).sum().backward()
handle.remove()
print(seen)
