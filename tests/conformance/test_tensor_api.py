"""A tensor's memory layout (``stride``, ``storage_offset``, ``data_ptr``, ``element_size``,
``nbytes``, ``itemsize``), ``cpu``/``type``, the ``new_*`` constructors and
``view_as``/``reshape_as``/``expand_as``, against real PyTorch: values, dtypes, graphs,
gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import run, values

LAYOUTS = {
    "contiguous": lambda torch, x: x,
    "transposed": lambda torch, x: x.t(),
    "a row": lambda torch, x: x[1],
    "a column": lambda torch, x: x[:, 2],
    "sliced with a step": lambda torch, x: x[:, 1::2],
    "the last element": lambda torch, x: x[-1, -1],
    "unsqueezed": lambda torch, x: x.unsqueeze(1),
    "unsqueezed last": lambda torch, x: x.unsqueeze(-1),
    "expanded": lambda torch, x: x[0].expand(4, 3, 4),
    "a view of a slice": lambda torch, x: x[1:].view(8),
    "a slice, detached": lambda torch, x: x[1:].detach(),
    "a slice's data": lambda torch, x: x[2:].data,
    "a copy of a slice": lambda torch, x: x[1:].clone(),
    "permuted": lambda torch, x: x.unsqueeze(0).permute(2, 0, 1),
    "0-d": lambda torch, x: x.sum(),
    "empty": lambda torch, x: x[:, :0],
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "uint8"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_memory_layout(layout, dtype):
    def scenario(torch):
        x = torch.arange(12).reshape(3, 4).to(getattr(torch, dtype))
        t = LAYOUTS[layout](torch, x)
        return (t.stride(), t.storage_offset(), t.element_size(), t.itemsize, t.nbytes,
                [t.stride(d) for d in range(-t.dim(), t.dim())])

    assert_same_outcome(scenario)


@pytest.mark.parametrize("layout", [name for name in LAYOUTS
                                    if name not in ("empty", "a copy of a slice", "0-d")])
def test_data_ptr_is_where_the_first_element_sits(layout):
    # Addresses differ between runs; for a tensor sharing x's memory, the distance from
    # x's first element does not. (A new tensor's address is anywhere but x's.)
    def scenario(torch):
        x = torch.arange(12.0).reshape(3, 4)
        t = LAYOUTS[layout](torch, x)
        return ((t.data_ptr() - x.data_ptr()) // x.element_size(), t.storage_offset(),
                x.clone().data_ptr() != x.data_ptr())

    assert_same_outcome(scenario)


@pytest.mark.parametrize("dim", [2, -3, 5])
def test_stride_of_a_dimension_out_of_range(dim):
    assert_same_outcome(lambda torch: torch.ones(2, 3).stride(dim))


def test_stride_of_a_dimension_of_a_0d_tensor():
    assert_same_outcome(lambda torch: torch.tensor(1.0).stride(0))


def test_cpu_returns_the_tensor_itself():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        return x.cpu() is x, y.cpu() is y, y.cpu().grad_fn.name()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("target", [
    pytest.param(lambda torch: None, id="no argument"),
    pytest.param(lambda torch: torch.float64, id="float64"),
    pytest.param(lambda torch: torch.int32, id="int32"),
    pytest.param(lambda torch: torch.float32, id="its own dtype"),
    pytest.param(lambda torch: "torch.DoubleTensor", id="'torch.DoubleTensor'"),
    pytest.param(lambda torch: "torch.LongTensor", id="'torch.LongTensor'"),
    pytest.param(lambda torch: "torch.BoolTensor", id="'torch.BoolTensor'"),
    pytest.param(lambda torch: "torch.FloatTensor", id="'torch.FloatTensor'"),
    pytest.param(lambda torch: "float", id="an unknown name"),
])
def test_type(target):
    def scenario(torch):
        x = torch.tensor([1.5, -2.0], requires_grad=True)
        out = x.type(target(torch)) if target(torch) is not None else x.type()
        if isinstance(out, str):
            return out, torch.arange(2).type(), torch.ones(1, dtype=torch.bool).type()
        return out, out is x, out.grad_fn is None or out.grad_fn.name(), out.requires_grad

    assert_same_outcome(scenario)


NEW = {
    "new_zeros(2, 3)": lambda x: x.new_zeros(2, 3),
    "new_zeros((2, 3))": lambda x: x.new_zeros((2, 3)),
    "new_ones([4])": lambda x: x.new_ones([4]),
    "new_ones(size)": lambda x: x.new_ones(x.shape),
    "new_empty(0, 2) shape": lambda x: x.new_empty(0, 2).shape,
    "new_full((2,), 3)": lambda x: x.new_full((2,), 3),
    "new_full((2,), 2.7)": lambda x: x.new_full((2,), 2.7),
    "new_full([1, 2], True)": lambda x: x.new_full([1, 2], True),
    "new_tensor([1.5, 2.7])": lambda x: x.new_tensor([1.5, 2.7]),
    "new_tensor(3)": lambda x: x.new_tensor(3),
    "new_tensor([[1, 2]])": lambda x: x.new_tensor([[1, 2]]),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("make", list(NEW))
def test_new_tensors_take_the_dtype_of_self(make, dtype):
    def scenario(torch):
        x = torch.ones(3, dtype=getattr(torch, dtype))
        out = NEW[make](x)
        return out if not isinstance(out, tuple) else tuple(out)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make", [
    pytest.param(lambda torch, x: x.new_zeros(2, dtype=torch.int64), id="new_zeros dtype"),
    pytest.param(lambda torch, x: x.new_ones(2, requires_grad=True), id="new_ones grad"),
    pytest.param(lambda torch, x: x.new_full((2,), 1.5, dtype=torch.float64,
                                             requires_grad=True), id="new_full both"),
    pytest.param(lambda torch, x: x.new_tensor([1, 2], requires_grad=True),
                 id="new_tensor grad"),
    pytest.param(lambda torch, x: x.new_empty((2,), dtype=torch.bool).shape,
                 id="new_empty dtype"),
    pytest.param(lambda torch, x: x.long().new_ones(2, requires_grad=True),
                 id="an int tensor requiring grad"),
    pytest.param(lambda torch, x: x.new_zeros(-1), id="new_zeros negative"),
    pytest.param(lambda torch, x: x.new_full((2, -3), 1.0), id="new_full negative"),
    pytest.param(lambda torch, x: x.new_empty(-2), id="new_empty negative"),
])
def test_new_tensors_with_arguments(make):
    def scenario(torch):
        x = torch.ones(3, requires_grad=True)
        out = make(torch, x)
        if isinstance(out, tuple):
            return tuple(out)
        return out, out.requires_grad, out.is_leaf

    assert_same_outcome(scenario)


def test_new_tensor_copies_a_tensor_with_a_warning_and_no_graph():
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = torch.zeros(1, dtype=torch.float64).new_tensor(x * 2)
        return y, y.requires_grad, y.grad_fn

    assert_same_outcome(scenario)


AS = {
    "view_as": lambda torch, x: x.view_as(torch.ones(4, 3)),
    "view_as after t()": lambda torch, x: x.t().view_as(torch.ones(12)),
    "reshape_as": lambda torch, x: x.reshape_as(torch.ones(2, 6)),
    "reshape_as after t()": lambda torch, x: x.t().reshape_as(torch.ones(12)),
    "expand_as": lambda torch, x: x[:1].expand_as(torch.ones(2, 3, 4)),
    "expand_as, the same shape": lambda torch, x: x.expand_as(torch.ones(3, 4)),
    "expand_as, too small": lambda torch, x: x.expand_as(torch.ones(4)),
    "expand_as, mismatch": lambda torch, x: x.expand_as(torch.ones(2, 4)),
    "view_as, wrong size": lambda torch, x: x.view_as(torch.ones(5)),
}


@pytest.mark.parametrize("name", list(AS))
def test_shape_of_another_tensor(name):
    def scenario(torch):
        return run(torch, lambda torch, x: AS[name](torch, x), values((3, 4)))

    assert_same_outcome(scenario)


def test_view_as_shares_memory():
    def scenario(torch):
        x = torch.zeros(2, 2)
        y = x.view_as(torch.ones(4))
        y[0] = 5.0
        return x, y._base is x, x.expand_as(torch.ones(3, 2, 2))._base is x

    assert_same_outcome(scenario)


def test_nbytes_counts_repeated_elements():
    assert_same_outcome(lambda torch: (torch.ones(2).expand(3, 2).nbytes,
                                       torch.tensor(np.ones(3, np.float16)).nbytes))
