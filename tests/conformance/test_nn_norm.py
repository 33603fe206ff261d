"""Normalisation layers against real PyTorch: BatchNorm1d/2d (training steps, running
statistics, ``momentum=None``, evaluation), LayerNorm and GroupNorm; their ``F.`` forms,
nodes, gradients, reprs, state dicts and old checkpoints, hooks on them, and their errors."""

from __future__ import annotations

from typing import Any

import pytest
from harness import assert_same_outcome
from ops_support import graph, leaf, upstream, values


def with_values(torch: Any, module: Any, seed: int = 20) -> Any:
    """``module`` with fixed non-trivial parameters, so that weight and bias matter."""
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.tensor(values(tuple(p.shape), seed=seed + i, low=0.5, high=1.5)))
    return module


def step(torch: Any, module: Any, shape: tuple[int, ...], seed: int) -> dict[str, Any]:
    """One forward and backward: the output, its graph, every gradient, and the buffers."""
    x = leaf(torch, values(shape, seed=seed) * (seed + 1))
    for p in module.parameters():
        p.grad = None
    out = module(x)
    (out * upstream(torch, out)).sum().backward()
    return {"out": out, "graph": graph(out.grad_fn), "input_grad": x.grad,
            "param_grads": {name: p.grad for name, p in module.named_parameters()},
            "state": dict(module.state_dict())}


BATCH_NORMS = {
    "1d": (lambda nn: nn.BatchNorm1d(3), (6, 3)),
    "1d on (N, C, L)": (lambda nn: nn.BatchNorm1d(3), (4, 3, 5)),
    "2d": (lambda nn: nn.BatchNorm2d(3), (2, 3, 4, 5)),
    "no affine": (lambda nn: nn.BatchNorm1d(3, affine=False), (6, 3)),
    "no bias": (lambda nn: nn.BatchNorm2d(3, bias=False), (2, 3, 2, 2)),
    "no running stats": (lambda nn: nn.BatchNorm2d(3, track_running_stats=False),
                         (2, 3, 2, 2)),
    "momentum None": (lambda nn: nn.BatchNorm1d(3, momentum=None), (5, 3)),
    "momentum 0.5, eps 0.1": (lambda nn: nn.BatchNorm1d(3, momentum=0.5, eps=0.1), (5, 3, 2)),
}


@pytest.mark.parametrize(("make", "shape"), BATCH_NORMS.values(), ids=BATCH_NORMS.keys())
def test_batch_norm_trains_then_evaluates(make, shape):
    """Three training steps move the running statistics; eval() then normalises with
    them, and train() again with the batch's."""
    def scenario(torch):
        module = with_values(torch, make(torch.nn))
        dtype = module.running_mean.dtype if module.running_mean is not None else None
        steps = [step(torch, module, shape, seed) for seed in range(3)]
        module.eval()
        steps.append(step(torch, module, shape, 3))
        module.train()
        steps.append(step(torch, module, shape, 4))
        return steps, repr(module), dtype

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


NORMS = {
    "LayerNorm(5)": (lambda nn: nn.LayerNorm(5), (2, 3, 5)),
    "LayerNorm((3, 5))": (lambda nn: nn.LayerNorm((3, 5)), (2, 3, 5)),
    "LayerNorm on one sample": (lambda nn: nn.LayerNorm(4), (4,)),
    "LayerNorm no affine": (lambda nn: nn.LayerNorm(5, elementwise_affine=False), (3, 5)),
    "LayerNorm no bias": (lambda nn: nn.LayerNorm(5, bias=False, eps=0.1), (3, 5)),
    "GroupNorm(2, 4)": (lambda nn: nn.GroupNorm(2, 4), (3, 4, 5)),
    "GroupNorm(2, 12) on (N, C)": (lambda nn: nn.GroupNorm(2, 12), (3, 12)),
    "GroupNorm(1, 4) on images": (lambda nn: nn.GroupNorm(1, 4), (2, 4, 2, 3)),
    "GroupNorm no affine": (lambda nn: nn.GroupNorm(3, 6, affine=False), (2, 6, 2)),
    "GroupNorm no bias": (lambda nn: nn.GroupNorm(3, 6, bias=False), (2, 6, 2)),
}


@pytest.mark.parametrize(("make", "shape"), NORMS.values(), ids=NORMS.keys())
def test_layer_and_group_norm_in_train_and_eval(make, shape):
    def scenario(torch):
        module = with_values(torch, make(torch.nn))
        first = step(torch, module, shape, 0)
        module.eval()
        return first, step(torch, module, shape, 1), repr(module)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_batch_norm_in_float64():
    def scenario(torch):
        module = with_values(torch, torch.nn.BatchNorm2d(2).double())
        x = leaf(torch, values((3, 2, 2, 2)).astype("float64"))
        out = module(x)
        (out * upstream(torch, out)).sum().backward()
        return out, x.grad, module.weight.grad, dict(module.state_dict())

    assert_same_outcome(scenario, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("make", [
    lambda nn: nn.BatchNorm1d(4), lambda nn: nn.BatchNorm2d(2, affine=False),
    lambda nn: nn.BatchNorm1d(4, track_running_stats=False), lambda nn: nn.LayerNorm([2, 3]),
    lambda nn: nn.GroupNorm(2, 4), lambda nn: nn.LayerNorm(3, elementwise_affine=False),
], ids=["bn1d", "bn2d no affine", "bn no stats", "ln", "gn", "ln no affine"])
def test_initial_state_buffers_and_repr(make):
    """Weight 1, bias 0, running mean 0 and variance 1, ``num_batches_tracked`` an int64
    zero; which are parameters and which buffers; the repr; and no random draw taken."""
    def scenario(torch):
        torch.manual_seed(0)
        module = make(torch.nn)
        return (repr(module), dict(module.state_dict()), torch.rand(2),
                [name for name, _ in module.named_parameters()],
                [name for name, _ in module.named_buffers()],
                [p.requires_grad for p in module.parameters()])

    assert_same_outcome(scenario)


def test_reset_running_stats_and_parameters():
    def scenario(torch):
        module = with_values(torch, torch.nn.BatchNorm1d(3, momentum=None))
        step(torch, module, (4, 3), 0)
        module.reset_running_stats()
        after_stats = dict(module.state_dict())
        module.reset_parameters()
        return (after_stats, dict(module.state_dict()), module.running_mean._version,
                module.num_batches_tracked._version)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("version", [None, 1, 2])
def test_a_checkpoint_without_num_batches_tracked(version):
    """Before version 2 BatchNorm had no ``num_batches_tracked``: such a checkpoint loads,
    keeping the layer's own counter; a version-2 one without it is missing a key."""
    def scenario(torch):
        trained = torch.nn.Sequential(torch.nn.BatchNorm1d(3))
        trained(torch.tensor(values((4, 3))))
        state = trained.state_dict()
        del state["0.num_batches_tracked"]
        if version is None:
            del state._metadata
        else:
            state._metadata["0"]["version"] = version
        fresh = torch.nn.Sequential(torch.nn.BatchNorm1d(3))
        fresh(torch.tensor(values((4, 3), seed=1)))
        result = fresh.load_state_dict(state)
        return tuple(result), dict(fresh.state_dict())

    assert_same_outcome(scenario)


def test_hooks_watch_the_running_statistics():
    """A forward pre-hook and a forward hook see the running mean before and after each
    training step; a full backward hook sees the layer's gradients; eval() stops the
    updates."""
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3),
                                    torch.nn.ReLU(), torch.nn.LayerNorm(3))
        seen = []
        bn = model[1]
        bn.register_forward_pre_hook(
            lambda m, args: seen.append(("pre", m.running_mean.clone(),
                                         m.num_batches_tracked.item())))
        bn.register_forward_hook(
            lambda m, args, out: seen.append(("post", m.running_mean.clone(), out)))
        for name, module in model.named_children():
            module.register_full_backward_hook(
                lambda m, gi, go, name=name: seen.append(("backward", name, gi, go)))
        for seed in range(2):
            # Weighted: a plain sum of LayerNorm's outputs is 0 whatever the input, so its
            # gradients would be rounding noise, different on every CPU's kernel.
            out = model(leaf(torch, values((5, 4), seed=seed)))
            (out * upstream(torch, out)).sum().backward()
        model.eval()
        model(torch.tensor(values((2, 4), seed=5)))
        return seen, dict(model.state_dict())

    # The gradients reach 15 through BatchNorm's normalisation; float32 rounding of terms
    # that large is ~2e-6 each, and where they cancel a small entry keeps an absolute error
    # up to ~2e-5 that depends on the CPU's kernel: atol 1e-4 covers it five times over.
    assert_same_outcome(scenario, rtol=1e-4, atol=1e-4)


def test_functional_batch_norm_with_and_without_buffers():
    def scenario(torch):
        fn = torch.nn.functional
        x = leaf(torch, values((5, 3, 2)))
        mean, var = torch.zeros(3), torch.ones(3) * 2
        w, b = leaf(torch, values((3,), seed=1)), leaf(torch, values((3,), seed=2))
        trained = fn.batch_norm(x, mean, var, w, b, training=True, momentum=0.3)
        evaluated = fn.batch_norm(x, mean, var, w, b, eps=0.01)
        plain = fn.batch_norm(x, None, None, training=True)
        (trained.sum() + (evaluated * upstream(torch, evaluated)).sum()
         + (plain * upstream(torch, plain)).sum()).backward()
        return (trained, evaluated, plain, mean, var, mean._version, x.grad, w.grad, b.grad,
                graph(evaluated.grad_fn))

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


def test_functional_layer_and_group_norm():
    def scenario(torch):
        fn = torch.nn.functional
        x = leaf(torch, values((2, 4, 3)))
        w, b = leaf(torch, values((4,), seed=1)), leaf(torch, values((4,), seed=2))
        layer = fn.layer_norm(x, (4, 3), eps=0.1)
        group = fn.group_norm(x, 2, w, b)
        (layer * upstream(torch, layer)).sum().backward()
        (group * upstream(torch, group)).sum().backward()
        bias_only = fn.layer_norm(x, (3,), None, w[:3] * 1)
        (bias_only * upstream(torch, bias_only)).sum().backward()
        return layer, group, bias_only, x.grad, w.grad, b.grad, graph(bias_only.grad_fn)

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("make", [lambda nn: nn.BatchNorm1d(3), lambda nn: nn.LayerNorm(3),
                                  lambda nn: nn.GroupNorm(1, 3)], ids=["bn", "ln", "gn"])
def test_a_transposed_input_gives_a_contiguous_output(make):
    def scenario(torch):
        x = leaf(torch, values((3, 4)))
        out = make(torch.nn)(x.t())
        (out * upstream(torch, out)).sum().backward()
        return out, out.stride(), out.is_contiguous(), x.grad

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


SAVERS = {
    "batch_norm": lambda torch, x, w, b: torch.nn.functional.batch_norm(
        x, torch.zeros(3), torch.ones(3), w, b, training=True),
    "batch_norm eval": lambda torch, x, w, b: torch.nn.functional.batch_norm(
        x, torch.zeros(3), torch.ones(3), w, b),
    "batch_norm no affine": lambda torch, x, w, b: torch.nn.functional.batch_norm(
        x, None, None, training=True),
    "layer_norm": lambda torch, x, w, b: torch.nn.functional.layer_norm(x, (3,), w, b),
    "layer_norm two dims": lambda torch, x, w, b: torch.nn.functional.layer_norm(x, (2, 3)),
    "group_norm": lambda torch, x, w, b: torch.nn.functional.group_norm(x, 3, w, b),
    "embedding": lambda torch, x, w, b: torch.nn.functional.embedding(
        torch.tensor([[0, 2]]), x[0], padding_idx=1),
}
ATTRIBUTES = ("_saved_eps", "_saved_training", "_saved_normalized_shape", "_saved_N",
              "_saved_C", "_saved_HxW", "_saved_group", "_saved_padding_idx",
              "_saved_scale_grad_by_freq", "_saved_sparse", "_saved_weight_sym_argsize_0")


@pytest.mark.parametrize("op", SAVERS.values(), ids=SAVERS.keys())
def test_what_the_nodes_save(op):
    """Saved-tensor hooks see PyTorch's tensors in PyTorch's order (the batch statistics
    among them), and the ``_saved_*`` attributes hold the same values."""
    def scenario(torch):
        x = leaf(torch, values((2, 3, 2)).transpose(0, 2).copy())
        w, b = leaf(torch, values((3,), seed=1)), leaf(torch, values((3,), seed=2))
        packed = []
        with torch.autograd.graph.saved_tensors_hooks(
                lambda t: packed.append(t.detach().clone()) or t, lambda t: t):
            out = op(torch, x, w, b)
        node = out.grad_fn
        return packed, {name: getattr(node, name) for name in ATTRIBUTES
                        if hasattr(node, name)}

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


EMPTY = {
    "BatchNorm1d, no samples": (lambda nn: nn.BatchNorm1d(3), (0, 3)),
    "BatchNorm1d, no positions": (lambda nn: nn.BatchNorm1d(3), (2, 3, 0)),
    "BatchNorm2d no affine, no samples": (lambda nn: nn.BatchNorm2d(3, affine=False),
                                          (0, 3, 2, 2)),
    "LayerNorm, no samples": (lambda nn: nn.LayerNorm(4), (0, 4)),
    "GroupNorm, no samples": (lambda nn: nn.GroupNorm(2, 4), (0, 4)),
}


@pytest.mark.parametrize(("make", "shape"), EMPTY.values(), ids=EMPTY.keys())
def test_an_empty_input(make, shape):
    """Batch norm skips the kernel (output ``input * weight[0] + bias[0]``, running
    statistics untouched, counter still moved); no warning from the empty means."""
    def scenario(torch):
        module = make(torch.nn)
        return step(torch, module, shape, 0)

    assert_same_outcome(scenario)


ERRORS = {
    "one value per channel": lambda torch: torch.nn.BatchNorm1d(3)(torch.ones(1, 3)),
    "one value per channel (N, C, 1)": lambda torch: torch.nn.BatchNorm1d(3)(
        torch.ones(1, 3, 1)),
    "one value per channel is fine in eval": lambda torch: torch.nn.BatchNorm1d(3).eval()(
        torch.ones(1, 3)),
    "wrong channel count": lambda torch: torch.nn.BatchNorm1d(3)(torch.ones(2, 4)),
    "wrong channel count, no stats": lambda torch: torch.nn.BatchNorm1d(
        3, track_running_stats=False)(torch.ones(2, 4)),
    "BatchNorm1d on 4D": lambda torch: torch.nn.BatchNorm1d(3)(torch.ones(2, 3, 2, 2)),
    "BatchNorm2d on 2D": lambda torch: torch.nn.BatchNorm2d(3)(torch.ones(2, 3)),
    "double input, float layer": lambda torch: torch.nn.BatchNorm1d(3)(
        torch.ones(2, 3).double()),
    "float input, double layer": lambda torch: torch.nn.BatchNorm1d(3).double()(
        torch.ones(2, 3)),
    "float input, double stats": lambda torch: torch.nn.functional.batch_norm(
        torch.ones(2, 3), torch.zeros(3).double(), torch.ones(3).double()),
    "integer input": lambda torch: torch.nn.BatchNorm1d(3)(torch.ones(2, 3, dtype=torch.int64)),
    "F.batch_norm on 1D": lambda torch: torch.nn.functional.batch_norm(
        torch.ones(2), None, None, training=True),
    "LayerNorm on a number": lambda torch: torch.nn.LayerNorm(1)(torch.tensor(1.0)),
    "LayerNorm longer than the input": lambda torch: torch.nn.LayerNorm((2, 3))(torch.ones(3)),
    "LayerNorm on integers": lambda torch: torch.nn.LayerNorm(3)(
        torch.ones(2, 3, dtype=torch.int64)),
    "layer_norm of integers": lambda torch: torch.nn.functional.layer_norm(
        torch.ones(2, 4, dtype=torch.int64), (4,)),
    "layer_norm of bools": lambda torch: torch.nn.functional.layer_norm(
        torch.ones(2, 4, dtype=torch.bool), (4,)),
    "group_norm of integers": lambda torch: torch.nn.functional.group_norm(
        torch.ones(2, 4, dtype=torch.int64), 2),
    "F.layer_norm with an int shape": lambda torch: torch.nn.functional.layer_norm(
        torch.ones(2, 3), 3),
    "eval without buffers": lambda torch: torch.nn.functional.batch_norm(
        torch.ones(2, 3), None, None),
    "eps 0 in training": lambda torch: torch.nn.functional.batch_norm(
        torch.ones(2, 3), None, None, training=True, eps=0.0),
    "negative eps": lambda torch: torch.nn.functional.batch_norm(
        torch.ones(2, 3), torch.zeros(3), torch.ones(3), eps=-1.0),
    "LayerNorm wrong shape": lambda torch: torch.nn.LayerNorm(4)(torch.ones(2, 3)),
    "LayerNorm two dims": lambda torch: torch.nn.LayerNorm([2, 3])(torch.ones(2, 3, 2)),
    "LayerNorm mixed dtypes": lambda torch: torch.nn.LayerNorm(4)(torch.ones(4).double()),
    "GroupNorm mixed dtypes": lambda torch: torch.nn.GroupNorm(2, 4).double()(
        torch.ones(2, 4)),
    "GroupNorm indivisible": lambda torch: torch.nn.GroupNorm(4, 6),
    "group_norm indivisible": lambda torch: torch.nn.functional.group_norm(
        torch.ones(2, 6, 4), 4),
    "group_norm on 1D": lambda torch: torch.nn.functional.group_norm(torch.ones(4), 2),
    "group_norm one value per group": lambda torch: torch.nn.functional.group_norm(
        torch.ones(1, 2), 2),
}


@pytest.mark.parametrize("scenario", ERRORS.values(), ids=ERRORS.keys())
def test_errors(scenario):
    assert_same_outcome(scenario)
