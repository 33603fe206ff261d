"""Arguments that published hook libraries pass where a plain ``int`` is expected, against
real PyTorch: Captum's ``Occlusion`` pads with amounts computed by NumPy (``np.int64``),
its ``KernelShap`` gives ``kthvalue`` a ``k`` that is a one-element tensor drawn from a
``Categorical``. PyTorch's argument parser takes both as ints (through ``__index__``); a
float tensor or a bool is still refused. Then the type arguments that libraries' annotations
give ``Dataset``, ``Sampler`` and ``DataLoader``, which are ``Generic`` in PyTorch."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import caught, graph, leaf, values


@pytest.mark.parametrize("pad", [(1, 2), (0, 1, 2, 0), (-1, 1, 1, -1)])
def test_pad_amounts_given_as_numpy_integers(pad):
    def scenario(torch):
        x = leaf(torch, values((1, 2, 3, 4), seed=0))
        out = torch.nn.functional.pad(x, tuple(np.int64(p) for p in pad))
        out.sum().backward()
        return out, graph(out.grad_fn), out.grad_fn._saved_pad, x.grad

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", [
    pytest.param(lambda torch, x: torch.kthvalue(x, torch.tensor(2)), id="0-d int tensor k"),
    pytest.param(lambda torch, x: torch.kthvalue(x, torch.tensor([3]), dim=0),
                 id="1-element int tensor k"),
    pytest.param(lambda torch, x: x.kthvalue(np.int64(2), np.int32(1)), id="numpy k and dim"),
    pytest.param(lambda torch, x: torch.kthvalue(x, torch.tensor(2.0)), id="float tensor k"),
    pytest.param(lambda torch, x: torch.kthvalue(x, torch.tensor([2, 3])), id="2-element k"),
    pytest.param(lambda torch, x: torch.kthvalue(x, True), id="bool k"),
])
def test_kthvalue_k_as_a_tensor_or_numpy_integer(call):
    assert_same_outcome(lambda torch: caught(
        lambda: call(torch, torch.tensor(values((3, 4), seed=1)))))


def test_dataset_sampler_and_dataloader_take_type_arguments():
    """timm and Lightning annotate their classes ``Sampler[List[int]]``, ``Dataset[T]``:
    the three base classes are ``Generic`` in PyTorch, so subscripting them works and a
    subclass of the subscripted class is an ordinary one."""
    def scenario(torch):
        import typing

        data = torch.utils.data

        class Evens(data.Sampler[int]):
            def __iter__(self):
                return iter(range(0, 6, 2))

        class Squares(data.Dataset[int]):
            def __getitem__(self, index):
                return index * index

            def __len__(self):
                return 6

        loader = data.DataLoader(Squares(), batch_size=2, sampler=Evens())
        return ([str(a) for a in typing.get_args(data.DataLoader[list[int]])],
                typing.get_origin(data.Sampler[int]) is data.Sampler,
                [batch.tolist() for batch in loader], Evens.__mro__[1] is data.Sampler)

    assert_same_outcome(scenario)
