"""Making tensors and asking what they are, against real PyTorch: creation functions and
their default dtypes, the legacy ``Tensor(...)`` constructor, ``torch.tensor(a_tensor)``,
``Size``, ``item``, ``tolist``, ``size(dim)``, ``dim``, ``numel`` and their errors."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome
from ops_support import graph

import minitorch_hooks

CREATION = [
    pytest.param(lambda torch: torch.zeros(2, 3), id="zeros(2, 3)"),
    pytest.param(lambda torch: torch.zeros((2, 3)), id="zeros((2, 3))"),
    pytest.param(lambda torch: torch.zeros([2, 3]), id="zeros([2, 3])"),
    pytest.param(lambda torch: torch.zeros(torch.Size([2, 3])), id="zeros(Size)"),
    pytest.param(lambda torch: torch.zeros(()), id="zeros(())"),
    pytest.param(lambda torch: torch.zeros(0, 3), id="zeros(0, 3)"),
    pytest.param(lambda torch: torch.zeros(2, dtype=torch.int64), id="zeros(int64)"),
    pytest.param(lambda torch: torch.ones(3), id="ones(3)"),
    pytest.param(lambda torch: torch.ones(2, 2, dtype=torch.bool), id="ones(bool)"),
    pytest.param(lambda torch: torch.ones((1, 2), dtype=torch.float64), id="ones(float64)"),
    pytest.param(lambda torch: torch.empty(2, 3).shape, id="empty(2, 3).shape"),
    pytest.param(lambda torch: torch.full((2, 2), 7), id="full(int)"),
    pytest.param(lambda torch: torch.full((2, 2), 7.5), id="full(float)"),
    pytest.param(lambda torch: torch.full((2,), True), id="full(bool)"),
    pytest.param(lambda torch: torch.full((2,), 3, dtype=torch.float64), id="full(dtype)"),
    pytest.param(lambda torch: torch.full([3], -1.0), id="full(list size)"),
    pytest.param(lambda torch: torch.arange(5), id="arange(5)"),
    pytest.param(lambda torch: torch.arange(2, 7), id="arange(2, 7)"),
    pytest.param(lambda torch: torch.arange(1, 10, 3), id="arange(1, 10, 3)"),
    pytest.param(lambda torch: torch.arange(5.0), id="arange(5.0)"),
    pytest.param(lambda torch: torch.arange(0, 1, 0.25), id="arange(0, 1, 0.25)"),
    pytest.param(lambda torch: torch.arange(5, 0, -2), id="arange(5, 0, -2)"),
    pytest.param(lambda torch: torch.arange(0, 1, 0.1), id="arange(0, 1, 0.1)"),
    pytest.param(lambda torch: torch.arange(4, dtype=torch.float64), id="arange(dtype)"),
    pytest.param(lambda torch: torch.arange(3, 3), id="arange(3, 3) (empty)"),
    pytest.param(lambda torch: torch.eye(3), id="eye(3)"),
    pytest.param(lambda torch: torch.eye(2, 4), id="eye(2, 4)"),
    pytest.param(lambda torch: torch.eye(3, dtype=torch.int64), id="eye(int64)"),
    pytest.param(lambda torch: torch.tensor(3), id="tensor(int)"),
    pytest.param(lambda torch: torch.tensor(3.5), id="tensor(float)"),
    pytest.param(lambda torch: torch.tensor(True), id="tensor(bool)"),
    pytest.param(lambda torch: torch.tensor([1, 2.5]), id="tensor(mixed list)"),
    pytest.param(lambda torch: torch.tensor([[1, 2], [3, 4]]), id="tensor(nested ints)"),
    pytest.param(lambda torch: torch.tensor([True, 1]), id="tensor([True, 1])"),
    pytest.param(lambda torch: torch.tensor([]), id="tensor([])"),
    pytest.param(lambda torch: torch.tensor([[], []]), id="tensor([[], []])"),
    pytest.param(lambda torch: torch.tensor([1, 2], dtype=torch.float64), id="tensor(dtype)"),
    pytest.param(lambda torch: torch.tensor(np.arange(3)), id="tensor(int64 array)"),
    pytest.param(lambda torch: torch.tensor(np.ones(2)), id="tensor(float64 array)"),
    pytest.param(lambda torch: torch.tensor(np.ones(2, np.float32)), id="tensor(float32 array)"),
    pytest.param(lambda torch: torch.tensor(np.float64(2.5)), id="tensor(np.float64)"),
    pytest.param(lambda torch: torch.tensor([np.float32(1.5), 2]), id="tensor([np.float32])"),
    pytest.param(lambda torch: torch.tensor([[1, 2], [3]]), id="ragged list"),
    pytest.param(lambda torch: torch.tensor("a"), id="a string"),
    pytest.param(lambda torch: torch.as_tensor([1, 2]), id="as_tensor(list)"),
    pytest.param(lambda torch: torch.from_numpy(np.arange(3.0)), id="from_numpy"),
    pytest.param(lambda torch: torch.tensor([1.0, 2.0], requires_grad=True), id="requires_grad"),
    pytest.param(lambda torch: torch.zeros(2, requires_grad=True).requires_grad, id="zeros(rg)"),
    pytest.param(lambda torch: torch.arange(3.0, requires_grad=True).requires_grad,
                 id="arange(rg)"),
    pytest.param(lambda torch: torch.zeros(-1), id="negative size"),
]


@pytest.mark.parametrize("make", CREATION)
def test_creation(make):
    assert_same_outcome(make)


LIKE = [
    pytest.param(lambda torch, x: torch.zeros_like(x), id="zeros_like"),
    pytest.param(lambda torch, x: torch.ones_like(x), id="ones_like"),
    pytest.param(lambda torch, x: torch.empty_like(x).shape, id="empty_like"),
    pytest.param(lambda torch, x: torch.full_like(x, 4), id="full_like"),
    pytest.param(lambda torch, x: torch.full_like(x, 2.5), id="full_like(float)"),
    pytest.param(lambda torch, x: torch.zeros_like(x, dtype=torch.float64), id="zeros_like(dtype)"),
    pytest.param(lambda torch, x: torch.ones_like(x, requires_grad=True).requires_grad,
                 id="ones_like(requires_grad)"),
    pytest.param(lambda torch, x: torch.rand_like(x).shape, id="rand_like"),
    pytest.param(lambda torch, x: torch.randn_like(x).dtype, id="randn_like"),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("make", LIKE)
def test_like_functions_copy_shape_and_dtype(make, dtype):
    def scenario(torch):
        x = torch.ones(2, 3, dtype=getattr(torch, dtype))
        return make(torch, x)

    assert_same_outcome(scenario)


def test_like_functions_give_new_leaves():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True) * 2
        z = torch.zeros_like(x)
        return z.requires_grad, z.is_leaf, z.grad_fn

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make", [
    pytest.param(lambda torch: torch.Tensor([5.0]), id="Tensor([5.])"),
    pytest.param(lambda torch: torch.Tensor([1, 2]), id="Tensor([1, 2]) is float32"),
    pytest.param(lambda torch: torch.Tensor([[True, False]]), id="Tensor(bools)"),
    pytest.param(lambda torch: torch.Tensor(2, 3).shape, id="Tensor(2, 3)"),
    pytest.param(lambda torch: torch.Tensor(np.arange(3)), id="Tensor(array)"),
    pytest.param(lambda torch: torch.Tensor(np.float64(2.5)).shape, id="Tensor(np.float64)"),
    pytest.param(lambda torch: torch.Tensor().shape, id="Tensor()"),
    pytest.param(lambda torch: torch.Tensor([5.0]).requires_grad, id="no grad"),
])
def test_legacy_tensor_constructor(make):
    assert_same_outcome(make)


def test_tensor_of_a_tensor_warns_and_copies():
    def scenario(torch):
        source = torch.tensor([1.0, 2.0], requires_grad=True)
        copy = torch.tensor(source)
        with torch.no_grad():
            source.add_(1)
        return copy, copy.requires_grad, copy.is_leaf, source

    assert_same_outcome(scenario)


def test_tensor_of_a_list_of_tensors():
    assert_same_outcome(lambda torch: torch.tensor([torch.tensor(1.5), torch.tensor(2.0)]))


def test_from_numpy_and_numpy_share_memory():
    def scenario(torch):
        array = np.zeros(3, dtype=np.float32)
        x = torch.from_numpy(array)
        array[0] = 5
        x.numpy()[1] = 7
        return x, array.tolist()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make_array", [
    pytest.param(lambda: np.arange(10.0)[3:], id="a slice"),
    pytest.param(lambda: np.arange(12, dtype=np.float32).reshape(3, 4)[1:, ::2], id="strided"),
    pytest.param(lambda: np.arange(6).reshape(2, 3).T, id="transposed"),
    pytest.param(lambda: np.zeros((0, 3), dtype=np.float32), id="empty"),
])
def test_from_numpy_storage_starts_at_the_arrays_first_element(make_array):
    def scenario(torch):
        x = torch.from_numpy(make_array())
        return x, x.stride(), x.storage_offset(), x[1:].storage_offset(), x.is_contiguous()

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make_array", [
    pytest.param(lambda: np.arange(4.0)[::-1], id="negative stride"),
    pytest.param(lambda: np.zeros((2, 2))[::-1][:0], id="empty, negative stride"),
    pytest.param(lambda: [1.0, 2.0], id="a list"),
    pytest.param(lambda: np.float32(1.5), id="a NumPy scalar"),
    pytest.param(lambda: None, id="None"),
])
def test_from_numpy_refuses_what_is_not_a_forward_strided_array(make_array):
    assert_same_outcome(lambda torch: torch.from_numpy(make_array()))


@pytest.mark.parametrize("dtype", [None, "float64", "float32"])
def test_as_tensor_shares_an_arrays_memory_unless_it_must_cast(dtype):
    def scenario(torch):
        array = np.arange(4.0)
        x = torch.as_tensor(array[1:], dtype=dtype and getattr(torch, dtype))
        array[1] = 9
        return x, x.storage_offset(), x.is_leaf, x.requires_grad

    assert_same_outcome(scenario)


def test_as_tensor_of_a_tensor_casts_it_in_the_graph():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        same, cast = torch.as_tensor(x), torch.as_tensor(x, dtype=torch.float64)
        cast.sum().backward()
        return same is x, cast, graph(cast.grad_fn), x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("create", ["tensor", "as_tensor", "from_numpy"])
def test_an_array_with_a_negative_stride_is_refused(create):
    assert_same_outcome(lambda torch: getattr(torch, create)(np.arange(4.0)[::-1]))


def test_from_numpy_of_a_read_only_array_warns_once():
    # TORCH_WARN_ONCE: only the first read-only array in a process warns, so the scenario
    # runs it twice and both libraries must give one warning, or none if an earlier test
    # already used theirs up.
    def scenario(torch):
        array = np.arange(3.0)
        array.flags.writeable = False
        return torch.from_numpy(array), torch.from_numpy(array)

    assert_same_outcome(scenario)


# -- what a tensor is ----------------------------------------------------------------------

def test_size_repr_slicing_and_arithmetic():
    def scenario(torch):
        size = torch.ones(2, 3, 4).shape
        return (repr(size), str(size), size[1], size[-1], repr(size[1:]), type(size[1:]).__name__,
                repr(size[::2]), size == (2, 3, 4), size == torch.Size([2, 3, 4]),
                repr(size + (5,)), len(size), list(size), size.numel(), repr(torch.Size([])),
                torch.Size([]).numel(), isinstance(size, tuple), repr(torch.ones(()).shape),
                hash(size) == hash((2, 3, 4)))

    assert_same_outcome(scenario)


def test_shape_queries():
    def scenario(torch):
        x = torch.ones(2, 3, 4)
        return (x.size(), x.size(0), x.size(-1), x.dim(), x.ndim, x.numel(), x.nelement(),
                torch.numel(x), len(x), torch.ones(()).dim(), torch.ones(()).numel(),
                torch.ones(0, 3).numel(), x.is_floating_point(),
                torch.arange(2).is_floating_point())

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch: torch.ones(2, 3).size(2), id="size(2)"),
    pytest.param(lambda torch: torch.ones(2, 3).size(-3), id="size(-3)"),
    pytest.param(lambda torch: torch.ones(()).size(0), id="size(0) of 0-d"),
    pytest.param(lambda torch: len(torch.ones(())), id="len of 0-d"),
    pytest.param(lambda torch: list(iter(torch.tensor(1.0))), id="iter of 0-d"),
])
def test_shape_query_errors(call):
    assert_same_outcome(call)


@pytest.mark.parametrize("make", [
    pytest.param(lambda torch: torch.tensor(2.5), id="float"),
    pytest.param(lambda torch: torch.tensor([7]), id="int in a vector"),
    pytest.param(lambda torch: torch.tensor([[True]]), id="bool"),
    pytest.param(lambda torch: torch.tensor(2.5, dtype=torch.float64), id="float64"),
    pytest.param(lambda torch: torch.tensor(3, requires_grad=False, dtype=torch.int32), id="int32"),
    pytest.param(lambda torch: torch.tensor(0.1), id="float32 0.1 widened"),
    pytest.param(lambda torch: torch.tensor([1.0, 2.0]), id="two elements"),
    pytest.param(lambda torch: torch.ones(0), id="no elements"),
    pytest.param(lambda torch: torch.tensor(2.0, requires_grad=True) * 3, id="requires grad"),
])
def test_item(make):
    def scenario(torch):
        value = make(torch).item()
        return value, type(value).__name__

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make", [
    pytest.param(lambda torch: torch.tensor(2.5), id="0-d"),
    pytest.param(lambda torch: torch.arange(3), id="ints"),
    pytest.param(lambda torch: torch.ones(2, 2, dtype=torch.bool), id="bools"),
    pytest.param(lambda torch: torch.tensor([[0.1, 2.0]]), id="float32 widened"),
    pytest.param(lambda torch: torch.ones(2, 0), id="empty rows"),
    pytest.param(lambda torch: torch.ones(2, requires_grad=True), id="requires grad"),
])
def test_tolist(make):
    assert_same_outcome(lambda torch: make(torch).tolist())


@pytest.mark.parametrize("convert", [
    pytest.param(lambda torch, x: float(x), id="float()"),
    pytest.param(lambda torch, x: int(x), id="int()"),
    pytest.param(lambda torch, x: bool(x), id="bool()"),
    pytest.param(lambda torch, x: [1, 2, 3][torch.tensor(1)], id="as an index"),
    pytest.param(lambda torch, x: f"{x:.2f}", id="format"),
])
def test_python_conversions_of_one_element(convert):
    assert_same_outcome(lambda torch: convert(torch, torch.tensor(2.5)))


@pytest.mark.parametrize("convert", [
    pytest.param(lambda torch, x: float(x), id="float()"),
    pytest.param(lambda torch, x: bool(x), id="bool()"),
    pytest.param(lambda torch, x: [1, 2, 3][x], id="a float tensor as an index"),
])
def test_python_conversions_of_many_elements_are_errors(convert):
    assert_same_outcome(lambda torch: convert(torch, torch.tensor([2.5, 1.0])))


def test_numpy_of_a_tensor_requiring_grad_is_an_error():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        try:
            x.numpy()
        except RuntimeError as error:
            return str(error), x.detach().numpy().tolist(), (x * 2).detach().numpy().tolist()

    assert_same_outcome(scenario)


def test_device_and_dtype_attributes():
    def scenario(torch):
        x = torch.ones(2)
        return (str(x.device), repr(x.device), x.device.type, x.is_cuda, repr(x.dtype),
                x.dtype == torch.float32, torch.float is torch.float32, torch.long is torch.int64,
                torch.double is torch.float64, torch.get_default_dtype(), torch.is_tensor(x),
                torch.is_tensor([1]))

    assert_same_outcome(scenario)


DEVICE_TAKERS = {
    "tensor": lambda torch, device: torch.tensor([1.0, 2.0], device=device),
    "zeros": lambda torch, device: torch.zeros(2, device=device),
    "ones": lambda torch, device: torch.ones(2, 3, device=device),
    "empty": lambda torch, device: torch.empty(0, device=device),
    "full": lambda torch, device: torch.full((2,), 7, device=device),
    "zeros_like": lambda torch, device: torch.zeros_like(torch.ones(2), device=device),
    "arange": lambda torch, device: torch.arange(3, device=device),
    "eye": lambda torch, device: torch.eye(2, device=device),
    "rand": lambda torch, device: torch.rand(2, device=device),
    "randn": lambda torch, device: torch.randn(2, device=device),
    "as_tensor(list)": lambda torch, device: torch.as_tensor([1.0], device=device),
    "as_tensor(array)": lambda torch, device: torch.as_tensor(np.ones(2), device=device),
    "as_tensor(tensor)": lambda torch, device: torch.as_tensor(torch.ones(2), device=device),
    "new_zeros": lambda torch, device: torch.ones(2).new_zeros(3, device=device),
    "new_tensor": lambda torch, device: torch.ones(2).new_tensor([1], device=device),
    "Linear": lambda torch, device: torch.nn.Linear(2, 1, device=device).weight,
}


@pytest.mark.parametrize("make", DEVICE_TAKERS.values(), ids=DEVICE_TAKERS.keys())
def test_creation_on_the_cpu_device(make):
    def scenario(torch):
        torch.manual_seed(0)
        return [make(torch, device) for device in ("cpu", torch.device("cpu"))]

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make", DEVICE_TAKERS.values(), ids=DEVICE_TAKERS.keys())
def test_creation_on_a_cuda_device_fails_as_in_a_cpu_only_build(make):
    """A CPU-only PyTorch refuses a tensor on "cuda" with ``AssertionError: Torch not
    compiled with CUDA enabled``; nothing is put on the CPU instead, and no random numbers
    are drawn (the next ``rand`` is the first one after seeding)."""
    def scenario(torch):
        torch.manual_seed(0)
        results = []
        for device in ("cuda", "cuda:0", torch.device("cuda", 1)):
            try:
                make(torch, device)
            except AssertionError as error:
                results.append(str(error))
        return results, torch.rand(1)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("make", DEVICE_TAKERS.values(), ids=DEVICE_TAKERS.keys())
def test_creation_on_another_device_is_an_error_deviation(make):
    """DEVIATION: minitorch_hooks has only the CPU (and no meta tensors), so asking for a
    tensor on a device that is neither the CPU nor CUDA (here "mps") raises an error
    naming the device, where PyTorch says (in a RuntimeError or a NotImplementedError)
    that it was not built with MPS support. Nothing is
    silently put on the CPU instead, and no random numbers are drawn."""
    def scenario(torch):
        torch.manual_seed(0)
        try:
            make(torch, "mps")
        except (RuntimeError, NotImplementedError) as error:
            return type(error).__name__, str(error), torch.rand(1)
        return "no error"

    theirs, _ = pytorch_outcome(scenario)
    ours, _ = outcome(scenario, minitorch_hooks)
    assert theirs[0] in ("RuntimeError", "NotImplementedError"), theirs
    assert ours[:2] == ("RuntimeError", "minitorch_hooks runs on the CPU only, not on 'mps'")
    np.testing.assert_array_equal(ours[2].numpy(), theirs[2].array)
