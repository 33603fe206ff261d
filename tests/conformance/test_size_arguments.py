"""How a ``size`` argument is read, against real PyTorch: ``zeros(2, 3)``, ``zeros((2,
3))``, ``zeros(size=(2, 3))``, and the sizes PyTorch refuses before making anything.

PyTorch's argument parser matches a size by its *first* element (an integer, never a
bool, or a one-element integer tensor) and then unpacks every element with
``__index__``, which a bool passes and a float does not: so ``empty(2, True)`` is a
``2 x 1`` tensor, ``empty(True, 2)`` and ``empty(3, 4.0)`` are TypeErrors, each with its
own message. Layers read their sizes through the same parser when they make their
parameters (``nn.Linear(3.0, 4)``, ``nn.LSTM(3, 4, proj_size=2.0)``).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome

CALLS = {
    "empty(3, 4.0)": lambda torch: torch.empty(3, 4.0),
    "empty((True, 4))": lambda torch: torch.empty((True, 4)),
    "empty(True, 4)": lambda torch: torch.empty(True, 4),
    "empty(True)": lambda torch: torch.empty(True),
    "empty(3.0)": lambda torch: torch.empty(3.0),
    "empty([3.0])": lambda torch: torch.empty([3.0]),
    "empty(2, True)": lambda torch: torch.empty(2, True),
    "empty((2, True))": lambda torch: torch.empty((2, True)),
    "empty((4, 3.0))": lambda torch: torch.empty((4, 3.0)),
    "empty(2, None)": lambda torch: torch.empty(2, None),
    "empty(2, 'a')": lambda torch: torch.empty(2, "a"),
    "empty(2, [3])": lambda torch: torch.empty(2, [3]),
    "empty((2, 3), 4)": lambda torch: torch.empty((2, 3), 4),
    "empty(numpy int64)": lambda torch: torch.empty(np.int64(3), 2),
    "empty(numpy float64)": lambda torch: torch.empty(np.float64(3)),
    "empty(2, numpy float64)": lambda torch: torch.empty(2, np.float64(3)),
    "empty(numpy array)": lambda torch: torch.empty(np.array([2, 3])),
    "empty(int tensor, 2)": lambda torch: torch.empty(torch.tensor(3), 2),
    "empty(one-element int tensor, 2)": lambda torch: torch.empty(torch.tensor([3]), 2),
    "empty(float tensor, 2)": lambda torch: torch.empty(torch.tensor(3.0), 2),
    "empty(2, float tensor)": lambda torch: torch.empty(2, torch.tensor(3.0)),
    "empty((float tensor, 2))": lambda torch: torch.empty((torch.tensor(2.0), 2)),
    "empty(Size)": lambda torch: torch.empty(torch.Size([2, 3])),
    "empty(())": lambda torch: torch.empty(()),
    "empty(size=(2, 3))": lambda torch: torch.empty(size=(2, 3)),
    "empty(size=[2.0])": lambda torch: torch.empty(size=[2.0]),
    "empty(size=3)": lambda torch: torch.empty(size=3),
    "empty(size=(True,))": lambda torch: torch.empty(size=(True,)),
    "empty(size=(2, 3.0))": lambda torch: torch.empty(size=(2, 3.0)),
    "empty(3, size=(2,))": lambda torch: torch.empty(3, size=(2,)),
    "zeros(2, 3.5)": lambda torch: torch.zeros(2, 3.5),
    "zeros(size=(2, True))": lambda torch: torch.zeros(size=(2, True)),
    "ones((2, 3.0))": lambda torch: torch.ones((2, 3.0)),
    "ones(True)": lambda torch: torch.ones(True),
    "rand(2, 3.0)": lambda torch: torch.rand(2, 3.0),
    "rand((3.0, 2))": lambda torch: torch.rand((3.0, 2)),
    "rand(size=(2.0,))": lambda torch: torch.rand(size=(2.0,)),
    "randn(3.0)": lambda torch: torch.randn(3.0),
    "randn(size=(2, 3))": lambda torch: torch.randn(size=(2, 3)),
    "full((2.0,), 1.0)": lambda torch: torch.full((2.0,), 1.0),
    "full((2, 3.0), 1.0)": lambda torch: torch.full((2, 3.0), 1.0),
    "full(2, 1.0)": lambda torch: torch.full(2, 1.0),
    "randint(3, (2.0,))": lambda torch: torch.randint(3, (2.0,)),
    "randint(3, (2, 3.0))": lambda torch: torch.randint(3, (2, 3.0)),
    "randint(3, 2)": lambda torch: torch.randint(3, 2),
    "randint(3, size=(2,))": lambda torch: torch.randint(3, size=(2,)),
    "new_zeros(2.0)": lambda torch: torch.zeros(2).new_zeros(2.0),
    "new_zeros(2, 3.0)": lambda torch: torch.zeros(2).new_zeros(2, 3.0),
    "new_zeros(size=(2,))": lambda torch: torch.zeros(2).new_zeros(size=(2,)),
    "new_ones((True,))": lambda torch: torch.zeros(2).new_ones((True,)),
    "new_empty((2, 1.0))": lambda torch: torch.zeros(2).new_empty((2, 1.0)),
    "new_full((2.0,), 1)": lambda torch: torch.zeros(2).new_full((2.0,), 1),
    "new_full(2, 1)": lambda torch: torch.zeros(2).new_full(2, 1),
    "reshape(2.0)": lambda torch: torch.zeros(2).reshape(2.0),
    "reshape(2, 1.0)": lambda torch: torch.zeros(2).reshape(2, 1.0),
    "reshape((True, 2))": lambda torch: torch.zeros(2).reshape((True, 2)),
    "reshape(2, True)": lambda torch: torch.zeros(2).reshape(2, True),
    "view(2, 1.0)": lambda torch: torch.zeros(2).view(2, 1.0),
    "view(2.0)": lambda torch: torch.zeros(2).view(2.0),
    "view(True, 2)": lambda torch: torch.zeros(2).view(True, 2),
    "view(None)": lambda torch: torch.zeros(2).view(None),
    "expand(2.0)": lambda torch: torch.zeros(2).expand(2.0),
    "expand(1, 2.0)": lambda torch: torch.zeros(2).expand(1, 2.0),
    "expand(True, 2)": lambda torch: torch.zeros(2).expand(True, 2),
    "repeat(2.0)": lambda torch: torch.zeros(2).repeat(2.0),
    "repeat(2, 1.0)": lambda torch: torch.zeros(2).repeat(2, 1.0),
    "permute(0.0)": lambda torch: torch.zeros(2).permute(0.0),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_a_size_argument_is_read_as_pytorch_reads_it(call):
    assert_same_outcome(lambda torch: tuple(call(torch).shape))


LAYERS = {
    "Linear(3.0, 4)": lambda nn: nn.Linear(3.0, 4),
    "Linear(3, True)": lambda nn: nn.Linear(3, True),
    "Conv2d(1, 2.0, 3)": lambda nn: nn.Conv2d(1, 2.0, 3),
    "Embedding(3.0, 2)": lambda nn: nn.Embedding(3.0, 2),
    "LSTM(3, 4, proj_size=2.0)": lambda nn: nn.LSTM(3, 4, proj_size=2.0),
    "LSTM(3.0, 4)": lambda nn: nn.LSTM(3.0, 4),
    "GRU(3, 4.0)": lambda nn: nn.GRU(3, 4.0),
    "LSTMCell(3, 4.0)": lambda nn: nn.LSTMCell(3, 4.0),
}


@pytest.mark.parametrize("make", LAYERS.values(), ids=LAYERS.keys())
def test_a_layer_refuses_a_float_or_bool_size_as_pytorch_does(make):
    def scenario(torch):
        try:
            make(torch.nn)
        except TypeError as error:
            return "TypeError", str(error)
        return "made"
    assert_same_outcome(scenario)
