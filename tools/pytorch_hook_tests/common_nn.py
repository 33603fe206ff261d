"""The least of PyTorch's ``torch.testing._internal.common_nn`` that its module hook tests
use: ``NNTestCase`` and the small network ``_create_basic_net``, as PyTorch 2.13 has them."""

from __future__ import annotations

import torch  # minitorch_hooks, installed as torch by the runner
from torch import nn
from torch.testing._internal.common_utils import TestCase


class NNTestCase(TestCase):
    """PyTorch's NNTestCase adds Jacobian helpers that the hook tests do not use."""


def _create_basic_net() -> tuple[nn.Module, nn.Module, nn.Module]:
    class Layer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layer_dummy_param = nn.Parameter(torch.empty(3, 5))
            self.layer_dummy_buf = nn.Buffer(torch.zeros(1, 3, 3, 7))

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.l1 = Layer()
            self.dummy_param = nn.Parameter(torch.empty(3, 5))
            self.dummy_buf = nn.Buffer(torch.zeros(7, 3, 3, 1))

    layer = Layer()
    net = Net()
    return layer, net, nn.Sequential(net, net)
