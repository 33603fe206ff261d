"""Activation steering and causal tracing on a small transformer, the way the
TransformerLens-style tutorials do it with plain forward hooks: cache activations, add a
steering vector to a block's output, patch one position from a clean run into a corrupted
one, and read the effect on the logits."""
import torch
import torch.nn as nn

torch.manual_seed(0)
vocab, width = 11, 16
embed = nn.Embedding(vocab, width)
encoder = nn.TransformerEncoder(
    nn.TransformerEncoderLayer(width, nhead=2, dim_feedforward=32, dropout=0.0,
                               batch_first=True), num_layers=2, enable_nested_tensor=False)
unembed = nn.Linear(width, vocab)
model = nn.Sequential(embed, encoder, unembed).eval()

clean = torch.tensor([[1, 2, 3, 4, 5]])
corrupt = torch.tensor([[1, 2, 9, 4, 5]])
cache = {}


def save(name):
    def hook(module, args, output):
        cache[name] = output.detach().clone()
    return hook


handles = [layer.register_forward_hook(save(f"block{i}"))
           for i, layer in enumerate(encoder.layers)]
with torch.no_grad():
    clean_logits = model(clean)
for handle in handles:
    handle.remove()

steer = torch.randn(width) * 0.5


def add_vector(module, args, output):
    return output + steer


def patch_position(position):
    def hook(module, args, output):
        output = output.clone()
        output[:, position] = cache["block0"][:, position]
        return output
    return hook


with torch.no_grad():
    corrupt_logits = model(corrupt)
    handle = encoder.layers[1].register_forward_hook(add_vector)
    steered = model(clean)
    handle.remove()
    effects = []
    for position in range(clean.shape[1]):
        handle = encoder.layers[0].register_forward_hook(patch_position(position))
        patched = model(corrupt)
        handle.remove()
        effects.append(round(float((patched - corrupt_logits)[0, -1].abs().sum()), 3))
print(clean_logits.argmax(-1).tolist(), corrupt_logits.argmax(-1).tolist())
print(steered.argmax(-1).tolist(), round(float((steered - clean_logits).abs().max()), 3))
print(effects)
