"""``nn.ConvTranspose3d`` and ``F.conv_transpose3d`` against real PyTorch: the node's saved
arguments and the checks' errors (the 3-d kernel reports ``output_padding`` in three
dimensions). Its seeded weights, outputs and gradients are cases of
``test_nn_conv_more.py``'s layer table. FLOP counters such as thop list the class when
they load.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome


def test_the_node_saves_transposed_and_output_padding():
    def scenario(torch):
        torch.manual_seed(1)
        layer = torch.nn.ConvTranspose3d(2, 2, 2, stride=2, output_padding=1, dilation=2)
        x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 2, 2, 2, 2)
        node = layer(torch.tensor(x, requires_grad=True)).grad_fn
        return (node._saved_transposed, node._saved_output_padding, node._saved_stride,
                node._saved_dilation, node._saved_groups)

    assert_same_outcome(scenario)


ERRORS = {
    "rank": lambda torch, functional: functional.conv_transpose3d(torch.ones(2, 3, 3),
                                                                  torch.ones(2, 3, 1, 1, 1)),
    "channels": lambda torch, functional: functional.conv_transpose3d(torch.ones(1, 5, 2, 2, 2),
                                                    torch.ones(4, 3, 2, 2, 2)),
    "bias": lambda torch, functional: functional.conv_transpose3d(torch.ones(1, 4, 2, 2, 2),
                                                torch.ones(4, 3, 2, 2, 2), torch.ones(2)),
    "output_padding": lambda torch, functional: functional.conv_transpose3d(
        torch.ones(1, 4, 2, 2, 2), torch.ones(4, 3, 2, 2, 2), stride=(2, 1, 2),
        output_padding=(1, 1, 0)),
    "padding_mode": lambda torch, functional: torch.nn.ConvTranspose3d(
        2, 3, 3, padding_mode="reflect"),
    "output_size_range": lambda torch, functional: torch.nn.ConvTranspose3d(2, 2, 3, stride=2)(
        torch.ones(1, 2, 2, 2, 2), output_size=[12, 12, 12]),
}


@pytest.mark.parametrize("call", ERRORS.values(), ids=ERRORS.keys())
def test_errors(call):
    assert_same_outcome(lambda torch: call(torch, torch.nn.functional))
