"""``F.unfold`` (im2col) and ``F.fold`` (col2im) against real PyTorch: the column layout,
overlapping blocks added up by ``fold``, unbatched inputs, the nodes and what they save,
gradients and second derivatives (each is the other's gradient), and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import leaf, run, saved, values

GEOMETRY = {
    "2x2 stride 2": dict(kernel_size=2, stride=2),
    "3x3": dict(kernel_size=3),
    "(2, 3) dilation (1, 2) padding 1 stride (2, 1)": dict(kernel_size=(2, 3), dilation=(1, 2),
                                                           padding=1, stride=(2, 1)),
    "1x1": dict(kernel_size=1),
    "2x2 padding (0, 2)": dict(kernel_size=2, padding=(0, 2)),
}


@pytest.mark.parametrize("shape", [(2, 3, 5, 6), (3, 4, 4)])
@pytest.mark.parametrize("geometry", list(GEOMETRY))
def test_unfold(geometry, shape):
    def scenario(torch):
        kwargs = GEOMETRY[geometry]
        op = lambda torch, x: torch.nn.functional.unfold(x, **kwargs)  # noqa: E731
        result = run(torch, op, values(shape, seed=1))
        out = op(torch, leaf(torch, values(shape)))
        return result, saved(out.grad_fn), out.is_contiguous()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("geometry", list(GEOMETRY))
def test_fold_adds_up_overlapping_blocks(geometry, batched):
    def scenario(torch):
        kwargs = GEOMETRY[geometry]
        image = torch.tensor(values((2, 3, 5, 6), seed=2))
        columns = torch.nn.functional.unfold(image, **kwargs)
        columns = columns if batched else columns[0]
        op = lambda torch, c: torch.nn.functional.fold(c, (5, 6), **kwargs)  # noqa: E731
        result = run(torch, op, columns.numpy())
        out = op(torch, leaf(torch, columns.numpy()))
        ones = op(torch, torch.ones(columns.shape))  # how many blocks cover each pixel
        return result, saved(out.grad_fn), ones

    assert_same_outcome(scenario)


def test_a_convolution_as_unfold_then_matmul():
    """The identity behind im2col: ``conv2d`` is the weights times the unfolded input."""
    def scenario(torch):
        x = leaf(torch, values((1, 2, 5, 5), seed=3))
        w = leaf(torch, values((4, 2, 3, 3), seed=4))
        columns = torch.nn.functional.unfold(x, 3, padding=1)
        out = (w.view(4, -1) @ columns).view(1, 4, 5, 5)
        direct = torch.nn.functional.conv2d(x.detach(), w.detach(), padding=1)
        out.sum().backward()
        return out, direct, x.grad, w.grad

    assert_same_outcome(scenario, atol=1e-5)


def test_second_derivatives():
    def scenario(torch):
        x = leaf(torch, values((1, 2, 4, 4), seed=5).astype(np.float64))
        columns = torch.nn.functional.unfold(x * x, 2, stride=1)
        image = torch.nn.functional.fold(columns * columns, (4, 4), 2, stride=1)
        (grad,) = torch.autograd.grad(image.sum(), x, create_graph=True)
        return grad, torch.autograd.grad((grad * grad).sum(), x)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda fn, torch: fn.unfold(torch.ones(1, 2, 4, 4), 5), id="too big a kernel"),
    pytest.param(lambda fn, torch: fn.unfold(torch.ones(1, 2, 4, 4), 0), id="kernel 0"),
    pytest.param(lambda fn, torch: fn.unfold(torch.ones(2, 3, 4), 2, dilation=0), id="dilation"),
    pytest.param(lambda fn, torch: fn.unfold(torch.ones(1, 2, 4, 4), 2, padding=-1), id="padding"),
    pytest.param(lambda fn, torch: fn.unfold(torch.ones(1, 2, 4, 4), 2, stride=0), id="stride"),
    pytest.param(lambda fn, torch: fn.unfold(torch.ones(2, 3), 2), id="2-d input"),
    pytest.param(lambda fn, torch: fn.unfold(torch.ones(1, 2, 0, 4), 2), id="empty input"),
    pytest.param(lambda fn, torch: fn.unfold(torch.ones(1, 2, 4, 4).long(), 2), id="integers"),
    pytest.param(lambda fn, torch: fn.fold(torch.ones(1, 8, 6), (4, 4), 2), id="block count"),
    pytest.param(lambda fn, torch: fn.fold(torch.ones(1, 7, 9), (4, 4), 2), id="rows"),
    pytest.param(lambda fn, torch: fn.fold(torch.ones(8), (4, 4), 2), id="1-d columns"),
])
def test_errors(call):
    assert_same_outcome(lambda torch: call(torch.nn.functional, torch))
