"""``BatchNorm3d`` and ``SyncBatchNorm`` (as PyTorch runs it without a process group: batch
norm) against real PyTorch, with ``convert_sync_batchnorm``.

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
