"""torchviz's README: make_dot draws the backward graph by walking grad_fn.next_functions,
with the saved tensors of each node (show_saved) and its attributes (show_attrs). Node
names are object ids, which change from run to run: they are renumbered in order."""
import re

import torch
from models import mlp
from torchviz import make_dot

torch.manual_seed(0)
model = mlp()
x = torch.randn(2, 5, requires_grad=True)
y = model(x).pow(2).sum()


def renumbered(source):
    ids = {}
    return re.sub(r"\b\d{6,}\b", lambda m: ids.setdefault(m.group(0), f"n{len(ids)}"), source)


for kwargs in ({}, {"show_attrs": True, "show_saved": True}):
    print(renumbered(make_dot(y, params={**dict(model.named_parameters()), "x": x},
                              **kwargs).source))
