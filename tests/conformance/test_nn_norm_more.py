"""``BatchNorm3d``, ``InstanceNorm1d/2d/3d`` and ``SyncBatchNorm`` (as PyTorch runs it
without a process group: batch norm) against real PyTorch, with ``convert_sync_batchnorm``.

Tolerances: a mean and a variance over at most 24 float32 values and an affine map:
``rtol=1e-5``, ``atol=1e-5``.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome


def _volume(torch, shape=(2, 3, 2, 2, 3)):
    data = np.linspace(-2, 2, int(np.prod(shape)), dtype=np.float32).reshape(shape)
    return torch.tensor(data, requires_grad=True)


@pytest.mark.parametrize("make", [
    lambda nn: nn.BatchNorm3d(3, momentum=None),
    lambda nn: nn.BatchNorm3d(3, affine=False, track_running_stats=False),
    lambda nn: nn.SyncBatchNorm(3),
    lambda nn: nn.SyncBatchNorm(3, momentum=None, bias=False),
], ids=["batchnorm3d_average", "batchnorm3d_plain", "sync", "sync_no_bias"])
def test_training_then_evaluation(make):
    def scenario(torch):
        layer = make(torch.nn)
        x = _volume(torch)
        trained = layer(x)
        (trained * trained * x).sum().backward()
        layer.eval()
        return (repr(layer), trained, x.grad, layer.running_mean, layer.num_batches_tracked,
                layer(x), trained.grad_fn.name(), list(layer.state_dict()))

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


def test_sync_batch_norm_on_other_ranks_and_errors():
    def scenario(torch):
        layer = torch.nn.SyncBatchNorm(3)
        results = [layer(torch.ones(4, 3)).shape, layer(_volume(torch, (2, 3, 4))).shape]
        for bad in (torch.ones(3), torch.ones(2, 0, 4)):
            try:
                torch.nn.SyncBatchNorm(bad.shape[1] if bad.dim() > 1 else 3)(bad)
            except ValueError as error:
                results.append(str(error))
        try:
            torch.nn.BatchNorm3d(3)(torch.ones(2, 3, 4))
        except ValueError as error:
            results.append(str(error))
        return results

    assert_same_outcome(scenario)


def test_convert_sync_batchnorm_shares_parameters_and_buffers():
    def scenario(torch):
        nn = torch.nn
        model = nn.Sequential(nn.Conv2d(2, 3, 1), nn.BatchNorm2d(3),
                              nn.Sequential(nn.ReLU(), nn.BatchNorm1d(3, affine=False)))
        model.eval()
        weight, mean = model[1].weight, model[1].running_mean
        converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
        alone = nn.SyncBatchNorm.convert_sync_batchnorm(nn.BatchNorm2d(4))
        return (repr(converted), converted is model, converted[1].weight is weight,
                converted[1].running_mean is mean, converted[1].training, repr(alone),
                converted[2][1].process_group)

    assert_same_outcome(scenario)


INSTANCE_NORMS = {
    "2d_affine_tracked": (lambda nn: nn.InstanceNorm2d(3, affine=True,
                                                       track_running_stats=True), (2, 3, 4, 4)),
    "1d_unbatched": (lambda nn: nn.InstanceNorm1d(3), (3, 5)),
    "3d_average_tracked": (lambda nn: nn.InstanceNorm3d(2, momentum=None,
                                                        track_running_stats=True),
                           (2, 2, 2, 2, 3)),
    "2d_wrong_channels_warns": (lambda nn: nn.InstanceNorm2d(4), (2, 3, 4, 4)),
}


def _graph(node, out, depth=0):
    if node is not None:
        out.append((depth, node.name()))
        for child, _ in node.next_functions:
            _graph(child, out, depth + 1)
    return out


@pytest.mark.parametrize("case", INSTANCE_NORMS.values(), ids=INSTANCE_NORMS.keys())
def test_instance_norm(case):
    """Values, gradients, the graph PyTorch builds (a batch norm of ``N * C`` channels over
    repeated weights), the running statistics averaged over the samples, evaluation."""
    make, shape = case

    def scenario(torch):
        layer = make(torch.nn)
        x = torch.tensor(np.linspace(-2, 2, int(np.prod(shape)), dtype=np.float32)
                         .reshape(shape) ** 2, requires_grad=True)
        y = layer(x)
        (y * x).sum().backward()
        result = [repr(layer), y, x.grad, _graph(y.grad_fn, []), list(layer.state_dict())]
        if layer.running_mean is not None:
            result += [layer.running_mean, layer.running_var, layer.num_batches_tracked,
                       layer.running_mean._version]
            layer.eval()
            result.append(layer(x))
        if layer.weight is not None:
            result.append(layer.weight.grad)
        return result

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


INSTANCE_NORM_ERRORS = {
    "rank": lambda torch: torch.nn.InstanceNorm2d(3)(torch.ones(2, 3, 4, 4, 4)),
    "affine_channels": lambda torch: torch.nn.InstanceNorm1d(4, affine=True)(
        torch.ones(2, 3, 5)),
    "one_spatial_element": lambda torch: torch.nn.functional.instance_norm(
        torch.ones(2, 3, 1)),
    "no_running_stats": lambda torch: torch.nn.functional.instance_norm(
        torch.ones(2, 3, 4), use_input_stats=False),
}


@pytest.mark.parametrize("call", INSTANCE_NORM_ERRORS.values(), ids=INSTANCE_NORM_ERRORS.keys())
def test_instance_norm_errors(call):
    def scenario(torch):
        return call(torch)

    assert_same_outcome(scenario)


def test_a_pre_0_4_checkpoint_with_running_stats_is_reported():
    def scenario(torch):
        layer = torch.nn.InstanceNorm2d(3)
        state = {"running_mean": torch.zeros(3), "running_var": torch.ones(3)}
        try:
            layer.load_state_dict(state)
        except RuntimeError as error:
            return str(error)

    assert_same_outcome(scenario)
